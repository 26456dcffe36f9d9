// Indexing ONNX ops: Slice (negative steps through reverse), Gather, Compress (a known condition),
// GatherElements, GatherND,
// ScatterElements, ScatterND (negative indices wrapped), Pad (negative pads through slice).
#include "onnx/errors.h"
#include "onnx/ops.h"
#include "onnx/shape_logic.h"

namespace webnn::onnx_import {
namespace {

std::optional<Shape64> optionalKnownInput(Context& c, size_t i, const char* what) {
  if (!c.hasInput(i)) return std::nullopt;
  return c.requireKnown(i, what).integers();
}

void slice(Context& c) {
  MLOperand x = c.input(0);
  const Shape64 shape = toOnnxShape(x.shape());
  std::vector<SliceAxis> axes;
  if (c.opset < 10) {
    axes = sliceAxes(c, shape, c.attrInts("starts").value_or(Shape64{}),
                     c.attrInts("ends").value_or(Shape64{}), c.attrInts("axes"), std::nullopt);
  } else {
    axes = sliceAxes(c, shape, c.requireKnown(1, "starts").integers(),
                     c.requireKnown(2, "ends").integers(), optionalKnownInput(c, 3, "axes"),
                     optionalKnownInput(c, 4, "steps"));
  }
  const size_t rank = shape.size();
  std::vector<uint32_t> starts(rank, 0), sizes(x.shape()), strides(rank, 1);
  std::vector<uint32_t> reversed;
  for (const auto& a : axes) {
    if (a.count == 0) c.fail("empty slices are not supported");
    const int64_t step = a.step > 0 ? a.step : -a.step;
    const int64_t first = a.step > 0 ? a.start : a.start - (a.count - 1) * step;
    starts[a.axis] = static_cast<uint32_t>(first);
    sizes[a.axis] = static_cast<uint32_t>((a.count - 1) * step + 1);
    strides[a.axis] = static_cast<uint32_t>(step);
    if (a.step < 0) reversed.push_back(a.axis);
  }
  MLSliceOptions options;
  options.label = c.label();
  options.strides = strides;
  MLOperand y = starts == std::vector<uint32_t>(rank, 0) && sizes == x.shape() &&
                        strides == std::vector<uint32_t>(rank, 1)
                    ? x
                    : c.builder.slice(x, starts, sizes, options);
  if (!reversed.empty()) {
    MLReverseOptions reverse;
    reverse.label = c.label() + "/reverse";
    reverse.axes = reversed;
    y = c.builder.reverse(y, reverse);
  }
  c.setOutput(0, y);
}

void gather(Context& c) {
  MLOperand x = c.input(0);
  const uint32_t axis = c.axis(c.attrInt("axis", 0), x.shape().size());
  MLOperand indices;
  if (const Known* k = c.isSmallKnown(1) ? c.known(1) : nullptr) {
    Known normalized = k->castTo(kInt32);
    const int64_t dim = x.shape()[axis];
    for (auto& v : normalized.ints) {
      if (v < -dim || v >= dim) c.failData("index " + std::to_string(v) + " is out of range");
      if (v < 0) v += dim;
    }
    indices = c.constant(normalized);
  } else {
    indices = c.input(1);
  }
  MLGatherOptions options;
  options.label = c.label();
  options.axis = axis;
  c.setOutput(0, c.builder.gather(x, indices, options));
}

// Indices as WebNN takes them: ONNX allows negative indices (counting from the end of the axis
// they index, `limits` per index component along the last axis when `perComponent`). Known
// indices are checked and normalized at import; others get where(indices < 0, indices + limit).
MLOperand nonNegativeIndices(Context& c, size_t input, const std::vector<uint32_t>& limits,
                             bool perComponent) {
  if (const Known* k = c.isSmallKnown(input) ? c.known(input) : nullptr) {
    Known normalized = k->castTo(kInt32);
    const size_t components = perComponent && !k->shape.empty() ? k->shape.back() : 1;
    if (perComponent && components > limits.size())
      c.failData("indices index " + std::to_string(components) + " dimensions of a rank " +
                 std::to_string(limits.size()) + " input");
    for (size_t i = 0; i < normalized.ints.size(); ++i) {
      auto& v = normalized.ints[i];
      const int64_t dim = limits[perComponent ? i % components : 0];
      if (v < -dim || v >= dim) c.failData("index " + std::to_string(v) + " is out of range");
      if (v < 0) v += dim;
    }
    return c.constant(normalized);
  }
  MLOperand indices = c.input(input);
  const MLOperandDataType type = indices.dataType();
  if (type == MLOperandDataType::Uint32 || type == MLOperandDataType::Uint64) return indices;
  MLOperand limit;
  if (perComponent) {
    const size_t components = indices.shape().empty() ? 1 : indices.shape().back();
    if (components > limits.size()) c.failData("indices have too many components");
    Known values = Known::vectorInts(
        std::vector<int64_t>(limits.begin(), limits.begin() + static_cast<long>(components)));
    values.type = type == MLOperandDataType::Int64 ? kInt64 : kInt32;
    limit = c.constant(values);
  } else {
    limit = c.scalar(type, limits.at(0));
  }
  const MLOperand negative = c.builder.lesser(indices, c.scalar(type, 0), {c.label() + "/neg"});
  const MLOperand wrapped = c.builder.add(indices, limit, {c.label() + "/wrap"});
  return c.builder.where(negative, wrapped, indices, {c.label() + "/indices"});
}

// Compress with a known condition: a gather of the positions where it holds, along `axis` (or of
// the flattened input without one).
void compress(Context& c) {
  MLOperand x = c.input(0);
  const Known& condition = c.requireKnown(1, "condition");
  std::vector<int64_t> kept;
  for (size_t i = 0; i < condition.size(); ++i) {
    if (condition.integer(i) != 0) kept.push_back(static_cast<int64_t>(i));
  }
  const auto* axisAttribute = c.attribute("axis");
  uint32_t axis = 0;
  if (axisAttribute) {
    axis = c.axis(axisAttribute->i(), x.shape().size());
  } else {
    uint64_t count = 1;
    for (uint32_t d : x.shape()) count *= d;
    if (count > 0xffffffffu) c.failData("the input is too large");
    x = reshapeTo(c, x, {static_cast<uint32_t>(count)});
  }
  const int64_t extent = x.shape()[axis];
  while (!kept.empty() && kept.back() >= extent) kept.pop_back();  // beyond the axis: ignored
  if (kept.empty()) c.fail("the condition keeps nothing (an empty result)");
  Known indices = Known::vectorInts(kept);
  indices.type = kInt32;
  MLGatherOptions options;
  options.label = c.label();
  options.axis = axis;
  c.setOutput(0, c.builder.gather(x, c.constant(indices), options));
}

void gatherElements(Context& c) {
  MLOperand x = c.input(0);
  const uint32_t axis = c.axis(c.attrInt("axis", 0), x.shape().size());
  MLGatherOptions options;
  options.label = c.label();
  options.axis = axis;
  const MLOperand indices = nonNegativeIndices(c, 1, {x.shape()[axis]}, false);
  c.setOutput(0, c.builder.gatherElements(x, indices, options));
}

void gatherNd(Context& c) {
  const int64_t batchDims = c.attrInt("batch_dims", 0);
  MLOperand x = c.input(0);
  const auto dataShape = x.shape();
  if (batchDims == 0) {
    const MLOperand indices = nonNegativeIndices(c, 1, dataShape, true);
    c.setOutput(0, c.builder.gatherND(x, indices, {c.label()}));
    return;
  }
  // batch_dims b: the first b axes of data and indices are a batch. Seen as one batch axis of
  // B positions, each index gets its batch position prepended, and gatherND runs on the whole.
  const auto indexShape = c.shape(1);
  const auto b = static_cast<size_t>(batchDims);
  if (batchDims < 0 || b >= indexShape.size() || b >= dataShape.size())
    c.failData("batch_dims must be below the ranks of data and indices");
  uint64_t batch = 1;
  for (size_t i = 0; i < b; ++i) {
    if (dataShape[i] != indexShape[i]) c.failData("data and indices differ in a batch axis");
    batch *= dataShape[i];
  }
  if (batch > 0xffffffffu) c.failData("the batch is too large");
  const auto flat = static_cast<uint32_t>(batch);
  std::vector<uint32_t> limits(dataShape.begin() + static_cast<long>(b), dataShape.end());
  MLOperand indices = nonNegativeIndices(c, 1, limits, true);
  const std::string l = c.label();
  std::vector<uint32_t> data2(dataShape.begin() + static_cast<long>(b), dataShape.end());
  data2.insert(data2.begin(), flat);
  std::vector<uint32_t> index2(indexShape.begin() + static_cast<long>(b), indexShape.end());
  index2.insert(index2.begin(), flat);
  x = reshapeTo(c, x, data2);
  indices = c.builder.reshape(indices, index2, {l + "/indices"});
  // The batch position of every index: [B, ..., 1].
  Known positions;
  positions.type = indices.dataType() == MLOperandDataType::Int64 ? kInt64 : kInt32;
  positions.shape = toOnnxShape(index2);
  positions.shape.back() = 1;
  const uint64_t count = c.reserveKnown(positions.shape, "the batch positions");
  const uint64_t perBatch = count / flat;
  for (uint64_t i = 0; i < count; ++i) positions.ints.push_back(static_cast<int64_t>(i / perBatch));
  const MLOperand batched = c.builder.concat(
      {c.constant(positions), indices}, static_cast<uint32_t>(index2.size() - 1), {l + "/batched"});
  MLOperand y = c.builder.gatherND(x, batched, {l + "/gather"});
  // [B, index dims..., rest] back to [batch dims..., index dims..., rest].
  std::vector<uint32_t> shape(indexShape.begin(), indexShape.end() - 1);
  const size_t components = indexShape.back();
  shape.insert(shape.end(), dataShape.begin() + static_cast<long>(b + components), dataShape.end());
  c.setOutput(0, c.builder.reshape(y, shape, {l}));
}

std::string checkScatter(const ::onnx::NodeProto& node, int64_t) {
  const std::string reduction = stringAttribute(node, "reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" &&
      reduction != "min")
    return "reduction=" + reduction;
  return {};
}

// A scatter with a reduction (WebNN's scatter ops have none): one update at a time, in order, as
// ONNX defines it (duplicates accumulate): gatherND the current value at the update's full index,
// combine, scatterND it back. `fullIndices` is [count, rank of data] (a position each),
// `updates` [count, rest...].
MLOperand scatterReducing(Context& c, MLOperand data, const MLOperand& fullIndices,
                          const MLOperand& updates, uint32_t count, const std::string& reduction) {
  constexpr uint32_t kMaxUpdates = 1024;  // each is a few ops
  if (count > kMaxUpdates)
    c.fail("a scatter reduction over more than " + std::to_string(kMaxUpdates) + " updates");
  const std::string l = c.label();
  const uint32_t components = fullIndices.shape()[1];
  for (uint32_t u = 0; u < count; ++u) {
    const std::string lu = l + "/u" + std::to_string(u);
    std::vector<uint32_t> updateStart(updates.shape().size(), 0), updateSize = updates.shape();
    updateStart[0] = u;
    updateSize[0] = 1;
    const MLOperand index = c.builder.slice(fullIndices, {u, 0}, {1, components}, MLSliceOptions{});
    const MLOperand update = c.builder.slice(updates, updateStart, updateSize, MLSliceOptions{});
    const MLOperand current = c.builder.gatherND(data, index, {lu + "/current"});
    const MLOperand value = c.builder.reshape(update, current.shape(), {lu + "/update"});
    MLOperand combined;
    if (reduction == "add") combined = c.builder.add(current, value, {lu + "/add"});
    if (reduction == "mul") combined = c.builder.mul(current, value, {lu + "/mul"});
    if (reduction == "max") combined = c.builder.max(current, value, {lu + "/max"});
    if (reduction == "min") combined = c.builder.min(current, value, {lu + "/min"});
    data = c.builder.scatterND(data, index, combined, {lu});
  }
  return data;
}

void scatterElements(Context& c) {
  MLOperand x = c.input(0);
  const uint32_t axis = c.axis(c.attrInt("axis", 0), x.shape().size());
  const MLOperand indices = nonNegativeIndices(c, 1, {x.shape()[axis]}, false);
  const std::string reduction = c.attrString("reduction", "none");
  if (reduction == "none") {
    MLScatterOptions options;
    options.label = c.label();
    options.axis = axis;
    c.setOutput(0, c.builder.scatterElements(x, indices, c.input(2), options));
    return;
  }
  // Each element's full index: its own coordinates, the axis' one taken from `indices`.
  const auto shape = indices.shape();
  const uint32_t rank = static_cast<uint32_t>(shape.size());
  uint64_t count = 1;
  for (uint32_t d : shape) count *= d;
  if (count > 1024) c.fail("a scatter reduction over more than 1024 updates");
  const auto n = static_cast<uint32_t>(count);
  Known coordinates;
  coordinates.type = indices.dataType() == MLOperandDataType::Int64 ? kInt64 : kInt32;
  coordinates.shape = {static_cast<int64_t>(n), static_cast<int64_t>(rank)};
  c.reserveKnown(coordinates.shape, "the updates' coordinates");
  for (uint32_t e = 0; e < n; ++e) {
    uint32_t rest = e;
    std::vector<int64_t> coordinate(rank);
    for (uint32_t d = rank; d-- > 0;) {
      coordinate[d] = rest % shape[d];
      rest /= shape[d];
    }
    coordinates.ints.insert(coordinates.ints.end(), coordinate.begin(), coordinate.end());
  }
  const std::string l = c.label();
  const MLOperand flatIndices = c.builder.reshape(indices, {n, 1}, {l + "/flat_indices"});
  std::vector<MLOperand> columns;
  const MLOperand known = c.constant(coordinates);
  if (axis > 0) columns.push_back(c.builder.slice(known, {0, 0}, {n, axis}, MLSliceOptions{}));
  columns.push_back(flatIndices);
  if (axis + 1 < rank)
    columns.push_back(
        c.builder.slice(known, {0, axis + 1}, {n, rank - axis - 1}, MLSliceOptions{}));
  const MLOperand full =
      columns.size() == 1 ? columns[0] : c.builder.concat(columns, 1, {l + "/full_indices"});
  const MLOperand updates = c.builder.reshape(c.input(2), {n}, {l + "/flat_updates"});
  c.setOutput(0, scatterReducing(c, x, full, updates, n, reduction));
}

void scatterNd(Context& c) {
  MLOperand x = c.input(0);
  const MLOperand indices = nonNegativeIndices(c, 1, x.shape(), true);
  const std::string reduction = c.attrString("reduction", "none");
  if (reduction == "none") {
    c.setOutput(0, c.builder.scatterND(x, indices, c.input(2), {c.label()}));
    return;
  }
  // Updates [U..., rest...] and indices [U..., k] as [count, ...] lists.
  const auto indexShape = indices.shape();
  const uint32_t k = indexShape.back();
  uint64_t count = 1;
  for (size_t d = 0; d + 1 < indexShape.size(); ++d) count *= indexShape[d];
  if (count > 1024) c.fail("a scatter reduction over more than 1024 updates");
  const auto n = static_cast<uint32_t>(count);
  const std::string l = c.label();
  const MLOperand flatIndices = c.builder.reshape(indices, {n, k}, {l + "/flat_indices"});
  std::vector<uint32_t> updateShape = {n};
  for (size_t d = k; d < x.shape().size(); ++d) updateShape.push_back(x.shape()[d]);
  const MLOperand updates = c.builder.reshape(c.input(2), updateShape, {l + "/flat_updates"});
  c.setOutput(0, scatterReducing(c, x, flatIndices, updates, n, reduction));
}

void pad(Context& c) {
  MLOperand x = c.input(0);
  const size_t rank = x.shape().size();
  const std::string mode = c.attrString("mode", "constant");
  Shape64 pads;
  double value = 0.0;
  std::optional<Shape64> axes;
  if (c.opset < 11) {
    pads = c.attrInts("pads").value_or(Shape64{});
    value = c.attrFloat("value", 0.0f);
  } else {
    pads = c.requireKnown(1, "pads").integers();
    if (c.hasInput(2)) {
      const Known& constant = c.requireKnown(2, "constant_value");
      if (constant.size() != 1) c.failData("constant_value must hold one value");
      value = constant.number(0);
    }
    axes = optionalKnownInput(c, 3, "axes");
  }
  std::vector<uint32_t> axisList;
  if (axes) {
    for (int64_t a : *axes) axisList.push_back(c.axis(a, rank));
  } else {
    for (uint32_t i = 0; i < rank; ++i) axisList.push_back(i);
  }
  if (pads.size() != 2 * axisList.size()) c.failData("pads has the wrong length");
  std::vector<uint32_t> begin(rank, 0), end(rank, 0);
  std::vector<uint32_t> cropStart(rank, 0), cropSize(x.shape());
  bool crop = false;
  const size_t n = axisList.size();
  for (size_t i = 0; i < n; ++i) {
    const uint32_t a = axisList[i];
    const int64_t b = pads[i], e = pads[n + i];
    constexpr int64_t kLargest = 0xffffffffll;
    if (b < -kLargest || b > kLargest || e < -kLargest || e > kLargest)
      c.failData("pad " + std::to_string(b < -kLargest || b > kLargest ? b : e) +
                 " is outside WebNN's dimension range");
    begin[a] = static_cast<uint32_t>(std::max<int64_t>(b, 0));
    end[a] = static_cast<uint32_t>(std::max<int64_t>(e, 0));
    if (b < 0 || e < 0) {
      crop = true;
      const int64_t size =
          int64_t{x.shape()[a]} + std::min<int64_t>(b, 0) + std::min<int64_t>(e, 0);
      if (size <= 0) c.fail("negative pads remove the whole axis");
      cropStart[a] = static_cast<uint32_t>(-std::min<int64_t>(b, 0));
      cropSize[a] = static_cast<uint32_t>(size);
    }
  }
  if (crop) x = c.builder.slice(x, cropStart, cropSize, MLSliceOptions{});
  MLPadOptions options;
  options.label = c.label();
  options.value = value;
  if (mode == "constant") {
    options.mode = MLPaddingMode::Constant;
  } else if (mode == "reflect") {
    options.mode = MLPaddingMode::Reflection;
  } else if (mode == "edge") {
    options.mode = MLPaddingMode::Edge;
  } else {
    c.fail("mode=" + mode + " is not supported");
  }
  const bool any = begin != std::vector<uint32_t>(rank, 0) || end != std::vector<uint32_t>(rank, 0);
  c.setOutput(0, any ? c.builder.pad(x, begin, end, options) : x);
}

std::string checkPad(const ::onnx::NodeProto& node, int64_t) {
  const std::string mode = stringAttribute(node, "mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") return "mode=" + mode;
  return {};
}

}  // namespace

void addSliceOps(OpTable& t) {
  t["Slice"] = {slice};
  t["Gather"] = {gather};
  t["GatherElements"] = {gatherElements};
  t["Compress"] = {compress};
  t["GatherND"] = {gatherNd};
  t["ScatterElements"] = {scatterElements, checkScatter};
  t["Scatter"] = {scatterElements};  // deprecated since opset 11: ScatterElements without reduction
  t["ScatterND"] = {scatterNd, checkScatter};
  t["Pad"] = {pad, checkPad};
}

}  // namespace webnn::onnx_import
