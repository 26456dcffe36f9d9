// Element-wise comparison and logical ops: equal, notEqual, greater, greaterOrEqual, lesser,
// lesserOrEqual, logicalNot, logicalAnd, logicalOr, logicalXor. The output is uint8 (0 or 1).
#pragma once

#include <string_view>

#include "graph/op_limits.h"
#include "webnn/types.h"

namespace webnn::graph {

// The binary ones: a and b of the same data type (uint8 for the logical ops, per the op's limits),
// bidirectionally broadcast; output uint8 of the broadcast shape.
MLOperandDescriptor validateComparison(const OpCall& call, const MLOperandDescriptor& a,
                                       const MLOperandDescriptor& b);
// logicalNot: a is uint8; output uint8 of a's shape.
MLOperandDescriptor validateLogicalNot(const OpCall& call, const MLOperandDescriptor& a);

}  // namespace webnn::graph
