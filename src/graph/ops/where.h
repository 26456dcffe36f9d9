// where: selects trueValue or falseValue by a uint8 condition, three-way broadcasting.
#pragma once

#include <string_view>

#include "webnn/types.h"

namespace webnn::graph {

MLOperandDescriptor validateWhere(std::string_view label, const MLOperandDescriptor& condition,
                                  const MLOperandDescriptor& trueValue,
                                  const MLOperandDescriptor& falseValue);

}  // namespace webnn::graph
