// averagePool2d, l2Pool2d, maxPool2d: validation and shape inference.
#pragma once

#include <string_view>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Validates a 2-D pool (`call.type` is the op) and fills `attributes` with the resolved options:
// windowDimensions, padding, strides, dilations and outputSizes (the output's spatial size).
MLOperandDescriptor validatePool2d(const OpCall& call, const MLOperandDescriptor& input,
                                   const MLPool2dOptions& options, Pool2dAttributes& attributes);

}  // namespace webnn::graph
