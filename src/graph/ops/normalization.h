// batchNormalization, instanceNormalization, layerNormalization: validation and shape inference.
#pragma once

#include <optional>
#include <string_view>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Each validate function fills `attributes` with the resolved options; scale and bias are left for
// the caller, who knows their ids.

// mean, variance (and scale/bias when given) must be 1-D of size input.shape[axis].
MLOperandDescriptor validateBatchNormalization(const OpCall& call, const MLOperandDescriptor& input,
                                               const MLOperandDescriptor& mean,
                                               const MLOperandDescriptor& variance,
                                               const std::optional<MLOperandDescriptor>& scale,
                                               const std::optional<MLOperandDescriptor>& bias,
                                               const MLBatchNormalizationOptions& options,
                                               BatchNormalizationAttributes& attributes);

// input is 4-D; scale/bias (when given) are 1-D of the channel count of options.layout.
MLOperandDescriptor validateInstanceNormalization(const OpCall& call,
                                                  const MLOperandDescriptor& input,
                                                  const std::optional<MLOperandDescriptor>& scale,
                                                  const std::optional<MLOperandDescriptor>& bias,
                                                  const MLInstanceNormalizationOptions& options,
                                                  InstanceNormalizationAttributes& attributes);

// Resolves the axes into attributes.axes (default: every axis but the first); scale/bias (when
// given) have the input's dimensions at axes, in axes order.
MLOperandDescriptor validateLayerNormalization(const OpCall& call, const MLOperandDescriptor& input,
                                               const std::optional<MLOperandDescriptor>& scale,
                                               const std::optional<MLOperandDescriptor>& bias,
                                               const MLLayerNormalizationOptions& options,
                                               LayerNormalizationAttributes& attributes);

}  // namespace webnn::graph
