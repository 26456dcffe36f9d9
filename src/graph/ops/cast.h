// cast: converts every element to another data type; same shape.
#pragma once

#include <string_view>

#include "webnn/types.h"

namespace webnn::graph {

// The attributes "cast" records.
struct CastAttributes {
  MLOperandDataType dataType = MLOperandDataType::Float32;
};

MLOperandDescriptor validateCast(std::string_view label, const MLOperandDescriptor& input,
                                 MLOperandDataType dataType);

}  // namespace webnn::graph
