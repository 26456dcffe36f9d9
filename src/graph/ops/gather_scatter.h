// gather, gatherElements, gatherND, scatterElements, scatterND: pure validation / shape inference.
// gather and gatherElements record GatherAttributes, scatterElements ScatterAttributes (the axis);
// gatherND and scatterND record nothing.
#pragma once

#include <string_view>

#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

MLOperandDescriptor validateGather(const OpCall& call, const MLOperandDescriptor& input,
                                   const MLOperandDescriptor& indices, uint32_t axis);
MLOperandDescriptor validateGatherElements(const OpCall& call, const MLOperandDescriptor& input,
                                           const MLOperandDescriptor& indices, uint32_t axis);
MLOperandDescriptor validateGatherND(const OpCall& call, const MLOperandDescriptor& input,
                                     const MLOperandDescriptor& indices);
MLOperandDescriptor validateScatterElements(const OpCall& call, const MLOperandDescriptor& input,
                                            const MLOperandDescriptor& indices,
                                            const MLOperandDescriptor& updates, uint32_t axis);
MLOperandDescriptor validateScatterND(const OpCall& call, const MLOperandDescriptor& input,
                                      const MLOperandDescriptor& indices,
                                      const MLOperandDescriptor& updates);

}  // namespace webnn::graph
