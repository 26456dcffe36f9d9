// Reductions (reduceL1 ... reduceSumSquare), argMin/argMax and cumulativeSum: pure validation /
// shape inference and the attributes they record (ReduceAttributes, ArgMinMaxAttributes and
// CumulativeSumAttributes, in attributes.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// `call.type` is the reduce op (ReduceSum, ...). Fills `attributes` (axes resolved, sorted).
MLOperandDescriptor validateReduce(const OpCall& call, const MLOperandDescriptor& input,
                                   const MLReduceOptions& options, ReduceAttributes& attributes);
// `call.type` is ArgMin or ArgMax.
MLOperandDescriptor validateArgMinMax(const OpCall& call, const MLOperandDescriptor& input,
                                      uint32_t axis, const MLArgMinMaxOptions& options);
MLOperandDescriptor validateCumulativeSum(const OpCall& call, const MLOperandDescriptor& input,
                                          uint32_t axis);

}  // namespace webnn::graph
