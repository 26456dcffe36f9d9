// The pure validation / shape-inference functions of the ops, one section per op file in this
// folder. Each takes descriptors (and resolved options) and returns the output descriptor(s), or
// throws TypeError naming the op and what was wrong. Backends and tools may call them directly.
#pragma once

#include <string_view>
#include <vector>

#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// elementwise_binary.cpp
MLOperandDescriptor validateElementwiseBinary(const OpCall& call, const MLOperandDescriptor& a,
                                              const MLOperandDescriptor& b);
// elementwise_unary.cpp (unary math ops and simple activations: same shape and type out)
MLOperandDescriptor validateElementwiseUnary(const OpCall& call, const MLOperandDescriptor& input);
// matmul.cpp
MLOperandDescriptor validateMatmul(const OpCall& call, const MLOperandDescriptor& a,
                                   const MLOperandDescriptor& b);

}  // namespace webnn::graph
