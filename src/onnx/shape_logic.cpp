// Shape arithmetic with ONNX semantics.
#include "onnx/shape_logic.h"

#include <algorithm>

#include "core/checked_math.h"
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
    const auto product = checked::mul(known, d);
    if (!product) c.failData("the new shape's element count overflows");
    known = *product;
  }
  const auto count = checked::elementCount(input);
  if (!count || *count > static_cast<uint64_t>(INT64_MAX))
    c.failData("the input's element count overflows");
  const auto total = static_cast<int64_t>(*count);
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
  const auto split = input.begin() + axis;
  const auto outer = checked::elementCount(Shape64(input.begin(), split));
  const auto inner = checked::elementCount(Shape64(split, input.end()));
  if (!outer || !inner || *outer > INT64_MAX || *inner > INT64_MAX)
    c.failData("the flattened element count overflows");
  return {static_cast<int64_t>(*outer), static_cast<int64_t>(*inner)};
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
    if (dim == 0) {  // nothing to take (and no valid index to clamp to)
      s.count = 0;
      out.push_back(s);
      continue;
    }
    // Every bound is clamped into [-1, dim] before any arithmetic, and the count divides the
    // distance by the step's magnitude in unsigned arithmetic: INT64_MIN/MAX starts, ends and
    // steps cannot overflow.
    const auto clampBound = [dim](int64_t v) {
      if (v < 0) v = v < -dim ? -dim - 1 : v + dim;
      return std::clamp<int64_t>(v, -1, dim);
    };
    int64_t start = clampBound(starts[i]);
    int64_t end = clampBound(ends[i]);
    const uint64_t magnitude =
        s.step > 0 ? static_cast<uint64_t>(s.step) : static_cast<uint64_t>(-(s.step + 1)) + 1;
    if (s.step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      s.count = end > start
                    ? static_cast<int64_t>((static_cast<uint64_t>(end - start) - 1) / magnitude + 1)
                    : 0;
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      s.count = start > end
                    ? static_cast<int64_t>((static_cast<uint64_t>(start - end) - 1) / magnitude + 1)
                    : 0;
    }
    // With a single element the step is irrelevant; keep it small for the callers' strides.
    if (s.count <= 1) s.step = s.step > 0 ? 1 : -1;
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
