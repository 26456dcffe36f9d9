// gather, gatherElements, gatherND, scatterElements, scatterND: pure validation / shape inference.
// gather, gatherElements and scatterElements record their options struct (MLGatherOptions,
// MLScatterOptions); gatherND and scatterND record nothing.
#pragma once

#include <string_view>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

MLOperandDescriptor validateGather(std::string_view label, const MLOperandDescriptor& input,
                                   const MLOperandDescriptor& indices, uint32_t axis);
MLOperandDescriptor validateGatherElements(std::string_view label, const MLOperandDescriptor& input,
                                           const MLOperandDescriptor& indices, uint32_t axis);
MLOperandDescriptor validateGatherND(std::string_view label, const MLOperandDescriptor& input,
                                     const MLOperandDescriptor& indices);
MLOperandDescriptor validateScatterElements(std::string_view label,
                                            const MLOperandDescriptor& input,
                                            const MLOperandDescriptor& indices,
                                            const MLOperandDescriptor& updates, uint32_t axis);
MLOperandDescriptor validateScatterND(std::string_view label, const MLOperandDescriptor& input,
                                      const MLOperandDescriptor& indices,
                                      const MLOperandDescriptor& updates);

}  // namespace webnn::graph
