// Element-wise unary ops (abs, ceil, ..., tan, roundEven, identity) and the element-wise
// predicates isNaN / isInfinite. The same-type ops validate through validateElementwiseUnary
// (graph/ops/validators.h); the predicates change the data type to uint8.
#pragma once

#include <string_view>

#include "graph/op_limits.h"
#include "webnn/types.h"

namespace webnn::graph {

// isNaN, isInfinite: float32/float16 input (the spec's limits name it "a"), uint8 output of the
// input's shape.
MLOperandDescriptor validateElementwisePredicate(const OpCall& call,
                                                 const MLOperandDescriptor& input);

}  // namespace webnn::graph
