// convTranspose2d: validation and shape inference.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Filter dimensions of convTranspose2d in any filter layout; outputChannels is per group.
struct ConvTranspose2dFilterShape {
  uint32_t inputChannels, outputChannelsPerGroup, height, width;
};
ConvTranspose2dFilterShape convTranspose2dFilterShapeOf(
    const std::vector<uint32_t>& shape, MLConvTranspose2dFilterOperandLayout layout);

// Validates convTranspose2d and resolves `options` in place: padding, strides, dilations filled;
// outputSizes filled with the output's spatial size; outputPadding set to the rows/columns the
// output has past the last input contribution (derived from outputSizes when given).
MLOperandDescriptor validateConvTranspose2d(std::string_view label,
                                            const MLOperandDescriptor& input,
                                            const MLOperandDescriptor& filter,
                                            const std::optional<MLOperandDescriptor>& bias,
                                            MLConvTranspose2dOptions& options);

}  // namespace webnn::graph
