// Constant folding: nodes whose inputs are all small known values (shape subgraphs: Shape ->
// Gather -> Unsqueeze -> Concat -> Reshape, arithmetic on shapes) are computed at import.
#include <algorithm>
#include <cmath>
#include <functional>

#include "core/checked_math.h"
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

// A binary op on doubles (when either input is floating point) and on int64 (wrapping: integer
// tensors overflow modulo 2^64 rather than with undefined behaviour).
struct BinaryOp {
  double (*onFloat)(double, double);
  int64_t (*onInt)(int64_t, int64_t);
  bool comparison = false;
};

void foldBinary(Context& c, const BinaryOp& op) {
  const Known& a = c.requireKnown(0, "a");
  const Known& b = c.requireKnown(1, "b");
  Known out;
  out.shape = broadcastShapes(c, a.shape, b.shape);
  out.type = op.comparison ? kBool : a.type;
  const uint64_t n = c.reserveKnown(out.shape);
  const bool useFloat = a.isFloat() || b.isFloat();
  (out.isFloat() ? out.floats.reserve(n) : out.ints.reserve(n));
  for (uint64_t i = 0; i < n; ++i) {
    const size_t ia = broadcastIndex(a.shape, out.shape, i);
    const size_t ib = broadcastIndex(b.shape, out.shape, i);
    if (useFloat) {
      const double r = op.onFloat(a.number(ia), b.number(ib));
      if (out.isFloat())
        out.floats.push_back(r);
      else
        out.ints.push_back(checked::toInt64Saturated(r));
    } else {
      out.ints.push_back(op.onInt(a.integer(ia), b.integer(ib)));
    }
  }
  c.setKnownOutput(0, out.type == a.type || op.comparison ? std::move(out) : out.castTo(a.type));
}

void add(Context& c) {
  foldBinary(c, {[](double x, double y) { return x + y; }, checked::wrappingAdd});
}
void sub(Context& c) {
  foldBinary(c, {[](double x, double y) { return x - y; }, checked::wrappingSub});
}
void mul(Context& c) {
  foldBinary(c, {[](double x, double y) { return x * y; }, checked::wrappingMul});
}
void div(Context& c) {
  foldBinary(c, {[](double x, double y) { return x / y; },
                 [](int64_t x, int64_t y) -> int64_t {
                   if (y == 0) return 0;
                   if (y == -1) return checked::wrappingNeg(x);  // INT64_MIN / -1 wraps
                   return x / y;
                 }});
}
void equal(Context& c) {
  foldBinary(c, {[](double x, double y) { return x == y ? 1.0 : 0.0; },
                 [](int64_t x, int64_t y) -> int64_t { return x == y; }, true});
}
void less(Context& c) {
  foldBinary(c, {[](double x, double y) { return x < y ? 1.0 : 0.0; },
                 [](int64_t x, int64_t y) -> int64_t { return x < y; }, true});
}
void greater(Context& c) {
  foldBinary(c, {[](double x, double y) { return x > y ? 1.0 : 0.0; },
                 [](int64_t x, int64_t y) -> int64_t { return x > y; }, true});
}
void maxOp(Context& c) {
  foldBinary(c, {[](double x, double y) { return x > y ? x : y; },
                 [](int64_t x, int64_t y) { return x > y ? x : y; }});
}
void minOp(Context& c) {
  foldBinary(c, {[](double x, double y) { return x < y ? x : y; },
                 [](int64_t x, int64_t y) { return x < y ? x : y; }});
}

void where(Context& c) {
  const Known& cond = c.requireKnown(0, "condition");
  const Known& a = c.requireKnown(1, "X");
  const Known& b = c.requireKnown(2, "Y");
  Known out;
  out.type = a.type;
  out.shape = broadcastShapes(c, broadcastShapes(c, cond.shape, a.shape), b.shape);
  const uint64_t n = c.reserveKnown(out.shape);
  for (uint64_t i = 0; i < n; ++i) {
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
  const Known& input = c.requireKnown(0, "input");
  c.reserveKnown(input.shape);
  c.setKnownOutput(0, input.castTo(static_cast<int32_t>(c.attrInt("to", kFloat))));
}

void identity(Context& c) {
  const Known& input = c.requireKnown(0, "input");
  c.reserveKnown(input.shape);
  c.setKnownOutput(0, input);
}

void neg(Context& c) {
  const Known& input = c.requireKnown(0, "input");
  c.reserveKnown(input.shape);
  Known k = input;
  for (auto& v : k.floats) v = -v;
  for (auto& v : k.ints) v = checked::wrappingNeg(v);
  c.setKnownOutput(0, std::move(k));
}

void withShape(Context& c, Shape64 shape) {
  const Known& input = c.requireKnown(0, "input");
  c.reserveKnown(shape);
  Known k = input;
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
  std::vector<const Known*> inputs;
  for (size_t i = 0; i < c.inputCount(); ++i) {
    const Known& k = c.requireKnown(i, "inputs");
    if (k.shape.size() != first.shape.size()) c.failData("inputs differ in rank");
    for (size_t d = 0; d < k.shape.size(); ++d) {
      if (d != axis && k.shape[d] != first.shape[d]) {
        c.failData("input " + std::to_string(i) + " has dimension " + std::to_string(d) + " of " +
                   std::to_string(k.shape[d]) + ", input 0 of " + std::to_string(first.shape[d]));
      }
    }
    const auto sum = checked::add(out.shape[axis], k.shape[axis]);
    if (!sum) c.failData("the concatenated axis overflows");
    out.shape[axis] = *sum;
    inputs.push_back(&k);
  }
  c.reserveKnown(out.shape);
  // Every input has the same dimensions before the axis, so the same number of outer blocks.
  const uint64_t outer =
      checked::elementCount(Shape64(first.shape.begin(), first.shape.begin() + axis)).value_or(0);
  for (uint64_t o = 0; o < outer; ++o) {
    for (const Known* k : inputs) {
      const uint64_t inner =
          checked::elementCount(Shape64(k->shape.begin() + axis, k->shape.end())).value_or(0);
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
  c.reserveKnown(out.shape);
  // data holds outer * dim * inner values (its shape is consistent), so these fit.
  const uint64_t outer =
      checked::elementCount(Shape64(data.shape.begin(), data.shape.begin() + axis)).value_or(0);
  const uint64_t inner =
      checked::elementCount(Shape64(data.shape.begin() + axis + 1, data.shape.end())).value_or(0);
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
  const uint64_t n = c.reserveKnown(out.shape);
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

const Known& requireScalar(Context& c, size_t i, const char* what) {
  const Known& k = c.requireKnown(i, what);
  if (k.size() != 1) {
    c.failData(std::string(what) + " must hold one value, not " + std::to_string(k.size()));
  }
  return k;
}

void range(Context& c) {
  const Known& start = requireScalar(c, 0, "start");
  const Known& limit = requireScalar(c, 1, "limit");
  const Known& delta = requireScalar(c, 2, "delta");
  Known out;
  out.type = start.type;
  const double s = start.number(0), l = limit.number(0), d = delta.number(0);
  if (d == 0) c.failData("delta is 0");
  // Count computed in double, then refused unless finite and within the fold limits.
  const double steps = std::ceil((l - s) / d);
  if (std::isnan(steps)) c.failData("start, limit and delta give no finite length");
  const double count = std::max(0.0, steps);
  const auto n = checked::toInt64(count);
  if (!n) c.failData("the range's length is not finite or too large");
  out.shape = {*n};
  c.reserveKnown(out.shape);
  for (int64_t i = 0; i < *n; ++i) {
    if (out.isFloat())
      out.floats.push_back(s + static_cast<double>(i) * d);
    else
      out.ints.push_back(
          checked::wrappingAdd(start.integer(0), checked::wrappingMul(i, delta.integer(0))));
  }
  c.setKnownOutput(0, std::move(out));
}

// Split of a known value (pads or sizes cut from one initializer, then concatenated): the part
// sizes from the `split` attribute (before opset 13) or input, else equal parts (the last one
// smaller since opset 18).
void split(Context& c) {
  const Known& x = c.requireKnown(0, "input");
  const uint32_t axis = c.axis(c.attrInt("axis", 0), x.shape.size());
  const int64_t dim = x.shape[axis];
  Shape64 sizes;
  if (c.opset < 13) {
    sizes = c.attrInts("split").value_or(Shape64{});
  } else if (c.hasInput(1)) {
    sizes = c.requireKnown(1, "split").integers();
  }
  if (sizes.empty()) {
    const int64_t count = c.attrInt("num_outputs", static_cast<int64_t>(c.outputCount()));
    if (count <= 0 || count > std::max<int64_t>(dim, 1))
      c.failData("num_outputs " + std::to_string(count) + " does not split an axis of " +
                 std::to_string(dim));
    const int64_t chunk = (dim + count - 1) / count;
    for (int64_t i = 0; i < count; ++i) sizes.push_back(std::min(chunk, dim - i * chunk));
  }
  int64_t total = 0;
  bool overshoots = false;  // parts beyond the axis (checked before adding: no overflow)
  for (int64_t size : sizes) {
    if (size < 0) c.failData("a part size is negative");
    overshoots = overshoots || size > dim - total;
    if (overshoots) break;
    total += size;
  }
  if (overshoots || total != dim || sizes.size() != c.outputCount()) {
    c.failData("the part sizes do not add up to the axis (" + std::to_string(dim) + ") or " +
               "their count differs from the outputs'");
  }
  const uint64_t outer =
      checked::elementCount(Shape64(x.shape.begin(), x.shape.begin() + axis)).value_or(0);
  const uint64_t inner =
      checked::elementCount(Shape64(x.shape.begin() + axis + 1, x.shape.end())).value_or(0);
  int64_t start = 0;
  for (size_t part = 0; part < sizes.size(); ++part) {
    Known out;
    out.type = x.type;
    out.shape = x.shape;
    out.shape[axis] = sizes[part];
    c.reserveKnown(out.shape);
    for (uint64_t o = 0; o < outer; ++o) {
      append(out, x, (o * static_cast<uint64_t>(dim) + static_cast<uint64_t>(start)) * inner,
             static_cast<size_t>(static_cast<uint64_t>(sizes[part]) * inner));
    }
    start += sizes[part];
    if (c.wantsOutput(part)) c.setKnownOutput(part, std::move(out));
  }
}

// HannWindow, HammingWindow, BlackmanWindow: a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N) for
// n < size, N = size (periodic, the default) or size - 1 (symmetric).
template <int kWindow>
void window(Context& c) {
  const Known& sizeValue = c.requireKnown(0, "size");
  if (sizeValue.size() != 1) c.failData("size must hold one value");
  const int64_t size = sizeValue.integer(0);
  if (size < 0) c.failData("size is negative");
  const bool periodic = c.attrInt("periodic", 1) != 0;
  const auto type = static_cast<int32_t>(c.attrInt("output_datatype", kFloat));
  double a0 = 0.5, a1 = 0.5, a2 = 0.0;  // Hann
  if (kWindow == 1) {                   // Hamming
    a0 = 25.0 / 46.0;
    a1 = 1.0 - a0;
  } else if (kWindow == 2) {  // Blackman
    a0 = 0.42;
    a1 = 0.5;
    a2 = 0.08;
  }
  Known out;
  out.type = type;
  out.shape = {size};
  c.reserveKnown(out.shape);
  const double n = static_cast<double>(periodic ? size : size - 1);
  constexpr double kPi = 3.14159265358979323846;
  for (int64_t i = 0; i < size; ++i) {
    const double angle = n > 0 ? 2 * kPi * static_cast<double>(i) / n : 0.0;
    const double value = a0 - a1 * std::cos(angle) + a2 * std::cos(2 * angle);
    if (out.isFloat())
      out.floats.push_back(value);
    else
      out.ints.push_back(checked::toInt64Saturated(std::trunc(value)));
  }
  c.setKnownOutput(0, std::move(out));
}

void expand(Context& c) {
  const Known& x = c.requireKnown(0, "input");
  Known out;
  out.type = x.type;
  out.shape = broadcastShapes(c, x.shape, c.requireKnown(1, "shape").integers());
  const uint64_t n = c.reserveKnown(out.shape);
  for (uint64_t i = 0; i < n; ++i) append(out, x, broadcastIndex(x.shape, out.shape, i), 1);
  c.setKnownOutput(0, std::move(out));
}

}  // namespace

const FoldTable& foldTable() {
  static const FoldTable table = {
      {"Add", add},
      {"Sub", sub},
      {"Mul", mul},
      {"Div", div},
      {"Equal", equal},
      {"Less", less},
      {"Greater", greater},
      {"Max", maxOp},
      {"Min", minOp},
      {"Where", where},
      {"Cast", cast},
      {"Identity", identity},
      {"Neg", neg},
      {"Reshape", reshape},
      {"Unsqueeze", unsqueeze},
      {"Squeeze", squeeze},
      {"Flatten", flatten},
      {"Concat", concat},
      {"Gather", gather},
      {"Slice", slice},
      {"Range", range},
      {"Expand", expand},
      {"Split", split},
      {"HannWindow", window<0>},
      {"HammingWindow", window<1>},
      {"BlackmanWindow", window<2>},
  };
  return table;
}

}  // namespace webnn::onnx_import
