// Shared validation and shape-inference helpers: pure functions of descriptors, used by every op
// file in src/graph/ops and therefore by every backend.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webnn/types.h"

namespace webnn::graph {

// Throws TypeError "<op 'label'>: <message>".
[[noreturn]] void fail(std::string_view type, std::string_view label, const std::string& message);

std::string shapeToString(const std::vector<uint32_t>& shape);

// Bidirectional (numpy) broadcasting; nullopt when the shapes are incompatible.
std::optional<std::vector<uint32_t>> broadcastShapes(const std::vector<uint32_t>& a,
                                                     const std::vector<uint32_t>& b);
// Whether `from` broadcasts to exactly `to` (unidirectional).
bool isUnidirectionallyBroadcastable(const std::vector<uint32_t>& from,
                                     const std::vector<uint32_t>& to);

void checkSameDataType(std::string_view type, std::string_view label, std::string_view nameA,
                       const MLOperandDescriptor& a, std::string_view nameB,
                       const MLOperandDescriptor& b);
void checkRank(std::string_view type, std::string_view label, std::string_view name,
               const MLOperandDescriptor& descriptor, uint32_t rank);
// Throws unless every axis is < rank and (when `unique`) no axis repeats.
void checkAxes(std::string_view type, std::string_view label, const std::vector<uint32_t>& axes,
               size_t rank, bool unique = true);
// Checks a descriptor as an input/constant needs it: dimensions > 0, byte length in range.
void checkDescriptor(std::string_view what, const MLOperandDescriptor& descriptor);

// Multiplies checked against overflow of uint32 dimensions; throws TypeError.
uint32_t checkedDimension(std::string_view type, std::string_view label, uint64_t value);

}  // namespace webnn::graph
