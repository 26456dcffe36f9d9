// Shape arithmetic with ONNX semantics.
#include "onnx/shape_logic.h"

#include <algorithm>

#include "onnx/errors.h"

namespace webnn::onnx_import {

Shape64 reshapeTarget(Context& c, const Shape64& input, const Shape64& spec, bool allowZero) {
  Shape64 out(spec.size());
  int inferred = -1;
  int64_t known = 1;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == 0 && !allowZero) {
      if (i >= input.size()) c.failData("shape value 0 at an axis the input does not have");
      d = input[i];
    }
    if (d == -1) {
      if (inferred >= 0) c.failData("the shape has more than one -1");
      inferred = static_cast<int>(i);
      continue;
    }
    if (d < 0) c.failData("shape value " + std::to_string(d) + " is invalid");
    out[i] = d;
    known *= d;
  }
  int64_t total = 1;
  for (int64_t d : input) total *= d;
  if (inferred >= 0) {
    if (known == 0 || total % known != 0) c.failData("cannot infer the -1 of the new shape");
    out[static_cast<size_t>(inferred)] = total / known;
  } else if (known != total) {
    c.failData("the new shape has " + std::to_string(known) + " elements, the input " +
               std::to_string(total));
  }
  return out;
}

Shape64 squeezeShape(Context& c, const Shape64& input, const std::optional<Shape64>& axes) {
  std::vector<bool> drop(input.size(), false);
  if (axes) {
    for (int64_t a : *axes) {
      const uint32_t axis = c.axis(a, input.size());
      if (input[axis] != 1)
        c.failData("cannot squeeze axis " + std::to_string(a) + " of size " +
                   std::to_string(input[axis]));
      drop[axis] = true;
    }
  } else {
    for (size_t i = 0; i < input.size(); ++i) drop[i] = input[i] == 1;
  }
  Shape64 out;
  for (size_t i = 0; i < input.size(); ++i) {
    if (!drop[i]) out.push_back(input[i]);
  }
  return out;
}

Shape64 unsqueezeShape(Context& c, const Shape64& input, const Shape64& axes) {
  const size_t rank = input.size() + axes.size();
  std::vector<bool> added(rank, false);
  for (int64_t a : axes) {
    const uint32_t axis = c.axis(a, rank);
    if (added[axis]) c.failData("axis " + std::to_string(a) + " is repeated");
    added[axis] = true;
  }
  Shape64 out;
  size_t next = 0;
  for (size_t i = 0; i < rank; ++i) out.push_back(added[i] ? 1 : input[next++]);
  return out;
}

Shape64 broadcastShapes(Context& c, const Shape64& a, const Shape64& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape64 out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      c.failData("shapes do not broadcast (" + std::to_string(da) + " vs " + std::to_string(db) +
                 ")");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Shape64 flattenShape(Context& c, const Shape64& input, int64_t axis) {
  const auto r = static_cast<int64_t>(input.size());
  if (axis < -r || axis > r) c.failData("axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += r;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < r; ++i) (i < axis ? outer : inner) *= input[static_cast<size_t>(i)];
  return {outer, inner};
}

std::vector<SliceAxis> sliceAxes(Context& c, const Shape64& input, const Shape64& starts,
                                 const Shape64& ends, const std::optional<Shape64>& axes,
                                 const std::optional<Shape64>& steps) {
  if (starts.size() != ends.size()) c.failData("starts and ends differ in length");
  if (axes && axes->size() != starts.size()) c.failData("axes and starts differ in length");
  if (steps && steps->size() != starts.size()) c.failData("steps and starts differ in length");
  std::vector<SliceAxis> out;
  for (size_t i = 0; i < starts.size(); ++i) {
    SliceAxis s;
    s.axis = c.axis(axes ? (*axes)[i] : static_cast<int64_t>(i), input.size());
    const int64_t dim = input[s.axis];
    s.step = steps ? (*steps)[i] : 1;
    if (s.step == 0) c.failData("a step is 0");
    int64_t start = starts[i], end = ends[i];
    if (start < 0) start += dim;
    if (end < 0 && end > -(int64_t{1} << 62)) end += dim;
    if (s.step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      s.count = end > start ? (end - start + s.step - 1) / s.step : 0;
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      s.count = start > end ? (start - end + (-s.step) - 1) / (-s.step) : 0;
    }
    s.start = start;
    out.push_back(s);
  }
  return out;
}

std::optional<Shape64> axesInput(Context& c, size_t input, const char* attribute,
                                 int64_t sinceOpset) {
  if (c.opset < sinceOpset) return c.attrInts(attribute);
  if (!c.hasInput(input)) return std::nullopt;
  return c.requireKnown(input, attribute).integers();
}

}  // namespace webnn::onnx_import
