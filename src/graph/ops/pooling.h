// averagePool2d, l2Pool2d, maxPool2d: validation and shape inference.
#pragma once

#include <string_view>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Validates a 2-D pool (`type` is the op name) and resolves `options` in place: windowDimensions,
// padding, strides, dilations and outputSizes filled (outputSizes = the output's spatial size).
MLOperandDescriptor validatePool2d(std::string_view type, std::string_view label,
                                   const MLOperandDescriptor& input, MLPool2dOptions& options);

}  // namespace webnn::graph
