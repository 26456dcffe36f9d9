// where: selects trueValue or falseValue by a uint8 condition, three-way broadcasting.
#pragma once

#include <string_view>

#include "graph/op_limits.h"
#include "webnn/types.h"

namespace webnn::graph {

MLOperandDescriptor validateWhere(const OpCall& call, const MLOperandDescriptor& condition,
                                  const MLOperandDescriptor& trueValue,
                                  const MLOperandDescriptor& falseValue);

}  // namespace webnn::graph
