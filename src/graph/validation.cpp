#include "graph/validation.h"

#include <algorithm>
#include <limits>

#include "graph/builder_state.h"

namespace webnn::graph {

void fail(std::string_view type, std::string_view label, const std::string& message) {
  throwTypeError(opName(type, label) + ": " + message);
}

std::string shapeToString(const std::vector<uint32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

std::optional<std::vector<uint32_t>> broadcastShapes(const std::vector<uint32_t>& a,
                                                     const std::vector<uint32_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<uint32_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const uint32_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    result[i] = da == 1 ? db : da;
  }
  return result;
}

bool isUnidirectionallyBroadcastable(const std::vector<uint32_t>& from,
                                     const std::vector<uint32_t>& to) {
  if (from.size() > to.size()) return false;
  const size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != to[offset + i] && from[i] != 1) return false;
  }
  return true;
}

void checkSameDataType(std::string_view type, std::string_view label, std::string_view nameA,
                       const MLOperandDescriptor& a, std::string_view nameB,
                       const MLOperandDescriptor& b) {
  if (a.dataType != b.dataType) {
    fail(type, label,
         std::string(nameA) + " (" + std::string(toString(a.dataType)) + ") and " +
             std::string(nameB) + " (" + std::string(toString(b.dataType)) +
             ") must have the same data type");
  }
}

void checkRank(std::string_view type, std::string_view label, std::string_view name,
               const MLOperandDescriptor& descriptor, uint32_t rank) {
  if (descriptor.shape.size() != rank) {
    fail(type, label,
         std::string(name) + " must have rank " + std::to_string(rank) + ", got shape " +
             shapeToString(descriptor.shape));
  }
}

void checkAxes(std::string_view type, std::string_view label, const std::vector<uint32_t>& axes,
               size_t rank, bool unique) {
  std::vector<bool> seen(rank, false);
  for (uint32_t axis : axes) {
    if (axis >= rank) {
      fail(type, label,
           "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    }
    if (unique && seen[axis]) fail(type, label, "axis " + std::to_string(axis) + " repeats");
    seen[axis] = true;
  }
}

void checkDescriptor(std::string_view what, const MLOperandDescriptor& descriptor) {
  for (uint32_t dimension : descriptor.shape) {
    if (dimension == 0) {
      throwTypeError(std::string(what) + ": every dimension must be > 0, got " +
                     shapeToString(descriptor.shape));
    }
  }
  if (descriptor.shape.size() > 8) {
    throwTypeError(std::string(what) + ": rank " + std::to_string(descriptor.shape.size()) +
                   " exceeds the maximum of 8");
  }
  const uint64_t bytes = descriptor.byteLength();  // throws on overflow
  if (bytes > std::numeric_limits<int64_t>::max()) {
    throwTypeError(std::string(what) + ": " + toString(descriptor) + " is too large");
  }
}

uint32_t checkedDimension(std::string_view type, std::string_view label, uint64_t value) {
  if (value == 0 || value > std::numeric_limits<uint32_t>::max()) {
    fail(type, label, "an output dimension would be " + std::to_string(value));
  }
  return static_cast<uint32_t>(value);
}

}  // namespace webnn::graph
