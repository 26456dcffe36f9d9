// cast: converts every element to another data type; same shape.
#pragma once

#include <string_view>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/types.h"

namespace webnn::graph {

MLOperandDescriptor validateCast(const OpCall& call, const MLOperandDescriptor& input,
                                 MLOperandDataType dataType);

}  // namespace webnn::graph
