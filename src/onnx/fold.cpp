// Constant folding: nodes whose inputs are all small known values (shape subgraphs: Shape ->
// Gather -> Unsqueeze -> Concat -> Reshape, arithmetic on shapes) are computed at import.
#include <cmath>
#include <functional>

#include "onnx/errors.h"
#include "onnx/ops.h"
#include "onnx/shape_logic.h"

namespace webnn::onnx_import {
namespace {

// Index into `shape` (broadcast into `out`) of the flat output position `i`.
size_t broadcastIndex(const Shape64& shape, const Shape64& out, size_t i) {
  size_t index = 0, stride = 1;
  const size_t offset = out.size() - shape.size();
  for (size_t d = out.size(); d-- > 0;) {
    const auto coordinate = static_cast<size_t>(i % static_cast<size_t>(out[d]));
    i /= static_cast<size_t>(out[d]);
    if (d >= offset) {
      const auto dim = static_cast<size_t>(shape[d - offset]);
      if (dim != 1) index += coordinate * stride;
      stride *= dim;
    }
  }
  return index;
}

template <class F>
void foldBinary(Context& c, F f, bool comparison) {
  const Known& a = c.requireKnown(0, "a");
  const Known& b = c.requireKnown(1, "b");
  Known out;
  out.shape = broadcastShapes(c, a.shape, b.shape);
  out.type = comparison ? kBool : a.type;
  const size_t n = shapeElements(out.shape).value_or(0);
  const bool useFloat = a.isFloat() || b.isFloat();
  for (size_t i = 0; i < n; ++i) {
    const size_t ia = broadcastIndex(a.shape, out.shape, i);
    const size_t ib = broadcastIndex(b.shape, out.shape, i);
    if (useFloat) {
      const double r = f(a.number(ia), b.number(ib));
      if (out.isFloat())
        out.floats.push_back(r);
      else
        out.ints.push_back(static_cast<int64_t>(r));
    } else {
      out.ints.push_back(static_cast<int64_t>(f(a.ints[ia], b.ints[ib])));
    }
  }
  c.setKnownOutput(0, out.type == a.type || comparison ? std::move(out) : out.castTo(a.type));
}

void add(Context& c) {
  foldBinary(
      c, [](auto x, auto y) { return x + y; }, false);
}
void sub(Context& c) {
  foldBinary(
      c, [](auto x, auto y) { return x - y; }, false);
}
void mul(Context& c) {
  foldBinary(
      c, [](auto x, auto y) { return x * y; }, false);
}
void div(Context& c) {
  foldBinary(
      c,
      [](auto x, auto y) -> decltype(x) {
        if constexpr (std::is_integral_v<decltype(x)>) {
          return y == 0 ? 0 : x / y;
        } else {
          return x / y;
        }
      },
      false);
}
void equal(Context& c) {
  foldBinary(
      c, [](auto x, auto y) { return x == y ? 1 : 0; }, true);
}
void less(Context& c) {
  foldBinary(
      c, [](auto x, auto y) { return x < y ? 1 : 0; }, true);
}
void greater(Context& c) {
  foldBinary(
      c, [](auto x, auto y) { return x > y ? 1 : 0; }, true);
}
void maxOp(Context& c) {
  foldBinary(
      c, [](auto x, auto y) { return x > y ? x : y; }, false);
}
void minOp(Context& c) {
  foldBinary(
      c, [](auto x, auto y) { return x < y ? x : y; }, false);
}

void where(Context& c) {
  const Known& cond = c.requireKnown(0, "condition");
  const Known& a = c.requireKnown(1, "X");
  const Known& b = c.requireKnown(2, "Y");
  Known out;
  out.type = a.type;
  out.shape = broadcastShapes(c, broadcastShapes(c, cond.shape, a.shape), b.shape);
  const size_t n = shapeElements(out.shape).value_or(0);
  for (size_t i = 0; i < n; ++i) {
    const bool pick = cond.number(broadcastIndex(cond.shape, out.shape, i)) != 0;
    const Known& from = pick ? a : b;
    const size_t j = broadcastIndex(from.shape, out.shape, i);
    if (out.isFloat())
      out.floats.push_back(from.number(j));
    else
      out.ints.push_back(from.integer(j));
  }
  c.setKnownOutput(0, std::move(out));
}

void cast(Context& c) {
  c.setKnownOutput(
      0, c.requireKnown(0, "input").castTo(static_cast<int32_t>(c.attrInt("to", kFloat))));
}

void identity(Context& c) {
  c.setKnownOutput(0, c.requireKnown(0, "input"));
}

void neg(Context& c) {
  Known k = c.requireKnown(0, "input");
  for (auto& v : k.floats) v = -v;
  for (auto& v : k.ints) v = -v;
  c.setKnownOutput(0, std::move(k));
}

void withShape(Context& c, Shape64 shape) {
  Known k = c.requireKnown(0, "input");
  k.shape = std::move(shape);
  c.setKnownOutput(0, std::move(k));
}

void reshape(Context& c) {
  const Known& x = c.requireKnown(0, "data");
  Shape64 spec =
      c.opset < 5 ? c.attrInts("shape").value_or(Shape64{}) : c.requireKnown(1, "shape").integers();
  withShape(c, reshapeTarget(c, x.shape, spec, c.attrInt("allowzero", 0) != 0));
}

void unsqueeze(Context& c) {
  const auto axes = axesInput(c, 1, "axes", 13);
  if (!axes) c.failData("axes are missing");
  withShape(c, unsqueezeShape(c, c.requireKnown(0, "data").shape, *axes));
}

void squeeze(Context& c) {
  withShape(c, squeezeShape(c, c.requireKnown(0, "data").shape, axesInput(c, 1, "axes", 13)));
}

void flatten(Context& c) {
  withShape(c, flattenShape(c, c.requireKnown(0, "input").shape, c.attrInt("axis", 1)));
}

// Copies `count` blocks of `inner` elements.
void append(Known& out, const Known& from, size_t begin, size_t count) {
  if (out.isFloat()) {
    for (size_t i = 0; i < count; ++i) out.floats.push_back(from.number(begin + i));
  } else {
    for (size_t i = 0; i < count; ++i) out.ints.push_back(from.integer(begin + i));
  }
}

void concat(Context& c) {
  const Known& first = c.requireKnown(0, "inputs");
  const uint32_t axis = c.axis(c.attrInt("axis", 0), first.shape.size());
  Known out;
  out.type = first.type;
  out.shape = first.shape;
  out.shape[axis] = 0;
  size_t outer = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(first.shape[d]);
  std::vector<const Known*> inputs;
  for (size_t i = 0; i < c.inputCount(); ++i) {
    const Known& k = c.requireKnown(i, "inputs");
    if (k.shape.size() != first.shape.size()) c.failData("inputs differ in rank");
    out.shape[axis] += k.shape[axis];
    inputs.push_back(&k);
  }
  for (size_t o = 0; o < outer; ++o) {
    for (const Known* k : inputs) {
      size_t inner = 1;
      for (size_t d = axis; d < k->shape.size(); ++d) inner *= static_cast<size_t>(k->shape[d]);
      append(out, *k, o * inner, inner);
    }
  }
  c.setKnownOutput(0, std::move(out));
}

void gather(Context& c) {
  const Known& data = c.requireKnown(0, "data");
  const Known& indices = c.requireKnown(1, "indices");
  const uint32_t axis = c.axis(c.attrInt("axis", 0), data.shape.size());
  Known out;
  out.type = data.type;
  out.shape.assign(data.shape.begin(), data.shape.begin() + axis);
  out.shape.insert(out.shape.end(), indices.shape.begin(), indices.shape.end());
  out.shape.insert(out.shape.end(), data.shape.begin() + axis + 1, data.shape.end());
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(data.shape[d]);
  for (size_t d = axis + 1; d < data.shape.size(); ++d) inner *= static_cast<size_t>(data.shape[d]);
  const int64_t dim = data.shape[axis];
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < indices.size(); ++i) {
      int64_t index = indices.integer(i);
      if (index < 0) index += dim;
      if (index < 0 || index >= dim)
        c.failData("index " + std::to_string(indices.integer(i)) + " is out of range");
      append(out, data, (o * static_cast<size_t>(dim) + static_cast<size_t>(index)) * inner, inner);
    }
  }
  c.setKnownOutput(0, std::move(out));
}

void slice(Context& c) {
  const Known& data = c.requireKnown(0, "data");
  std::vector<SliceAxis> axes;
  if (c.opset < 10) {
    axes = sliceAxes(c, data.shape, c.attrInts("starts").value_or(Shape64{}),
                     c.attrInts("ends").value_or(Shape64{}), c.attrInts("axes"), std::nullopt);
  } else {
    std::optional<Shape64> a, s;
    if (c.hasInput(3)) a = c.requireKnown(3, "axes").integers();
    if (c.hasInput(4)) s = c.requireKnown(4, "steps").integers();
    axes = sliceAxes(c, data.shape, c.requireKnown(1, "starts").integers(),
                     c.requireKnown(2, "ends").integers(), a, s);
  }
  const size_t rank = data.shape.size();
  std::vector<SliceAxis> full(rank);
  for (uint32_t d = 0; d < rank; ++d) full[d] = {d, 0, 1, data.shape[d]};
  for (const auto& a : axes) full[a.axis] = a;
  Known out;
  out.type = data.type;
  for (const auto& a : full) out.shape.push_back(a.count);
  const size_t n = shapeElements(out.shape).value_or(0);
  for (size_t i = 0; i < n; ++i) {
    size_t rest = i, index = 0, stride = 1;
    for (size_t d = rank; d-- > 0;) {
      const auto coordinate = static_cast<int64_t>(rest % static_cast<size_t>(out.shape[d]));
      rest /= static_cast<size_t>(out.shape[d]);
      index += static_cast<size_t>(full[d].start + coordinate * full[d].step) * stride;
      stride *= static_cast<size_t>(data.shape[d]);
    }
    append(out, data, index, 1);
  }
  c.setKnownOutput(0, std::move(out));
}

void range(Context& c) {
  const Known& start = c.requireKnown(0, "start");
  const Known& limit = c.requireKnown(1, "limit");
  const Known& delta = c.requireKnown(2, "delta");
  Known out;
  out.type = start.type;
  const double s = start.number(0), l = limit.number(0), d = delta.number(0);
  if (d == 0) c.failData("delta is 0");
  const auto n = static_cast<int64_t>(std::max(0.0, std::ceil((l - s) / d)));
  if (n > (int64_t{1} << 24)) c.fail("Range is too long to fold");
  out.shape = {n};
  for (int64_t i = 0; i < n; ++i) {
    if (out.isFloat())
      out.floats.push_back(s + static_cast<double>(i) * d);
    else
      out.ints.push_back(start.integer(0) + i * delta.integer(0));
  }
  c.setKnownOutput(0, std::move(out));
}

void expand(Context& c) {
  const Known& x = c.requireKnown(0, "input");
  Known out;
  out.type = x.type;
  out.shape = broadcastShapes(c, x.shape, c.requireKnown(1, "shape").integers());
  const size_t n = shapeElements(out.shape).value_or(0);
  for (size_t i = 0; i < n; ++i) append(out, x, broadcastIndex(x.shape, out.shape, i), 1);
  c.setKnownOutput(0, std::move(out));
}

}  // namespace

const FoldTable& foldTable() {
  static const FoldTable table = {
      {"Add", add},         {"Sub", sub},         {"Mul", mul},
      {"Div", div},         {"Equal", equal},     {"Less", less},
      {"Greater", greater}, {"Max", maxOp},       {"Min", minOp},
      {"Where", where},     {"Cast", cast},       {"Identity", identity},
      {"Neg", neg},         {"Reshape", reshape}, {"Unsqueeze", unsqueeze},
      {"Squeeze", squeeze}, {"Flatten", flatten}, {"Concat", concat},
      {"Gather", gather},   {"Slice", slice},     {"Range", range},
      {"Expand", expand},
  };
  return table;
}

}  // namespace webnn::onnx_import
