// convTranspose2d: validation and shape inference.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Filter dimensions of convTranspose2d in any filter layout; outputChannels is per group.
struct ConvTranspose2dFilterShape {
  uint32_t inputChannels, outputChannelsPerGroup, height, width;
};
ConvTranspose2dFilterShape convTranspose2dFilterShapeOf(
    const std::vector<uint32_t>& shape, MLConvTranspose2dFilterOperandLayout layout);

// Validates convTranspose2d and fills `attributes` with the resolved options: padding, strides,
// dilations; outputSizes, the output's spatial size; outputPadding, the rows/columns the output
// has past the last input contribution (derived from outputSizes when given). bias is left for
// the caller, who knows its id.
MLOperandDescriptor validateConvTranspose2d(const OpCall& call, const MLOperandDescriptor& input,
                                            const MLOperandDescriptor& filter,
                                            const std::optional<MLOperandDescriptor>& bias,
                                            const MLConvTranspose2dOptions& options,
                                            ConvTranspose2dAttributes& attributes);

}  // namespace webnn::graph
