// batchNormalization, instanceNormalization, layerNormalization: validation and shape inference.
#pragma once

#include <optional>
#include <string_view>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// mean, variance (and scale/bias when given) must be 1-D of size input.shape[axis].
MLOperandDescriptor validateBatchNormalization(std::string_view label,
                                               const MLOperandDescriptor& input,
                                               const MLOperandDescriptor& mean,
                                               const MLOperandDescriptor& variance,
                                               const std::optional<MLOperandDescriptor>& scale,
                                               const std::optional<MLOperandDescriptor>& bias,
                                               const MLBatchNormalizationOptions& options);

// input is 4-D; scale/bias (when given) are 1-D of the channel count of options.layout.
MLOperandDescriptor validateInstanceNormalization(std::string_view label,
                                                  const MLOperandDescriptor& input,
                                                  const std::optional<MLOperandDescriptor>& scale,
                                                  const std::optional<MLOperandDescriptor>& bias,
                                                  const MLInstanceNormalizationOptions& options);

// Resolves options.axes in place (default: every axis but the first); scale/bias (when given)
// have the input's dimensions at axes, in axes order.
MLOperandDescriptor validateLayerNormalization(std::string_view label,
                                               const MLOperandDescriptor& input,
                                               const std::optional<MLOperandDescriptor>& scale,
                                               const std::optional<MLOperandDescriptor>& bias,
                                               MLLayerNormalizationOptions& options);

}  // namespace webnn::graph
