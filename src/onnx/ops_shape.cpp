// Shape ONNX ops: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split, Expand, Tile,
// Trilu, DepthToSpace, SpaceToDepth, OneHot, EyeLike (known at import),
// and the ones whose result is known at import: Shape, Size, ConstantOfShape, Constant.
#include <algorithm>

#include "core/checked_math.h"
#include "onnx/errors.h"
#include "onnx/ops.h"
#include "onnx/shape_logic.h"

namespace webnn::onnx_import {
namespace {

Shape64 shape64(Context& c, size_t i) {
  return toOnnxShape(c.shape(i));
}

void reshape(Context& c) {
  Shape64 spec =
      c.opset < 5 ? c.attrInts("shape").value_or(Shape64{}) : c.requireKnown(1, "shape").integers();
  const auto target = reshapeTarget(c, shape64(c, 0), spec, c.attrInt("allowzero", 0) != 0);
  c.setOutput(0, reshapeTo(c, c.input(0), toWebnnShape(target, c)));
}

void flatten(Context& c) {
  const auto target = flattenShape(c, shape64(c, 0), c.attrInt("axis", 1));
  c.setOutput(0, reshapeTo(c, c.input(0), toWebnnShape(target, c)));
}

void squeeze(Context& c) {
  const auto target = squeezeShape(c, shape64(c, 0), axesInput(c, 1, "axes", 13));
  c.setOutput(0, reshapeTo(c, c.input(0), toWebnnShape(target, c)));
}

void unsqueeze(Context& c) {
  const auto axes = axesInput(c, 1, "axes", 13);
  if (!axes) c.failData("axes are missing");
  const auto target = unsqueezeShape(c, shape64(c, 0), *axes);
  c.setOutput(0, reshapeTo(c, c.input(0), toWebnnShape(target, c)));
}

void transpose(Context& c) {
  MLTransposeOptions options;
  options.label = c.label();
  if (auto perm = c.attrInts("perm")) options.permutation = toU32(c, *perm, "perm");
  c.setOutput(0, c.builder.transpose(c.input(0), options));
}

void concat(Context& c) {
  std::vector<MLOperand> inputs;
  for (size_t i = 0; i < c.inputCount(); ++i) {
    if (!c.hasInput(i)) continue;
    // Empty inputs contribute nothing (WebNN has no zero-sized dimensions).
    bool empty = false;
    for (auto d : c.shape(i)) empty = empty || d == 0;
    if (!empty) inputs.push_back(c.input(i));
  }
  if (inputs.empty()) c.fail("every input is empty");
  const uint32_t axis = c.axis(c.attrInt("axis", 0), inputs[0].shape().size());
  c.setOutput(0, inputs.size() == 1 ? inputs[0] : c.builder.concat(inputs, axis, {c.label()}));
}

void split(Context& c) {
  MLOperand x = c.input(0);
  const uint32_t axis = c.axis(c.attrInt("axis", 0), x.shape().size());
  std::optional<Shape64> sizes =
      c.opset < 13 ? c.attrInts("split")
                   : (c.hasInput(1) ? std::optional<Shape64>(c.requireKnown(1, "split").integers())
                                    : std::nullopt);
  MLSplitOptions options;
  options.label = c.label();
  options.axis = axis;
  std::vector<MLOperand> parts;
  if (sizes) {
    parts = c.builder.split(x, toU32(c, *sizes, "split"), options);
  } else {
    const int64_t outputs = c.attrInt("num_outputs", static_cast<int64_t>(c.outputCount()));
    const uint32_t dim = x.shape()[axis];
    if (outputs <= 0 || outputs > dim) {
      c.failData("num_outputs " + std::to_string(outputs) + " does not split an axis of " +
                 std::to_string(dim));
    }
    const auto count = static_cast<uint32_t>(outputs);
    if (dim % count == 0) {
      parts = c.builder.split(x, count, options);
    } else {
      // ONNX 18: the last chunk is smaller.
      const uint32_t chunk = (dim + count - 1) / count;
      std::vector<uint32_t> chunks(count - 1, chunk);
      chunks.push_back(dim - chunk * (count - 1));
      parts = c.builder.split(x, chunks, options);
    }
  }
  for (size_t i = 0; i < parts.size(); ++i) c.setOutput(i, parts[i]);
}

void expand(Context& c) {
  const auto target = broadcastShapes(c, shape64(c, 0), c.requireKnown(1, "shape").integers());
  MLOperand x = c.input(0);
  const auto shape = toWebnnShape(target, c);
  c.setOutput(0, x.shape() == shape ? x : c.builder.expand(x, shape, {c.label()}));
}

void tile(Context& c) {
  const auto repeats = toU32(c, c.requireKnown(1, "repeats").integers(), "repeats");
  c.setOutput(0, c.builder.tile(c.input(0), repeats, {c.label()}));
}

void shapeOp(Context& c) {
  const Shape64 shape = shape64(c, 0);
  const auto rank = static_cast<int64_t>(shape.size());
  int64_t start = c.attrInt("start", 0);
  int64_t end = c.attrInt("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  c.setKnownOutput(0, Known::vectorInts(Shape64(shape.begin() + start, shape.begin() + end)));
}

void size(Context& c) {
  const auto n = checked::elementCount(c.shape(0));
  if (!n || *n > static_cast<uint64_t>(INT64_MAX)) c.failData("the element count overflows int64");
  c.setKnownOutput(0, Known::scalarInt(kInt64, static_cast<int64_t>(*n)));
}

void constantOfShape(Context& c) {
  const auto shape = c.requireKnown(0, "shape").integers();
  Known value = Known::scalarInt(kFloat, 0);
  value.ints.clear();
  value.floats = {0.0};
  if (const auto* a = c.attribute("value")) {
    value = decodeTensor(a->t(), nullptr, c.where() + " value");
    if (value.size() != 1) c.failData("value must hold one element");
  }
  c.reserveKnown(shape);
  Known out = Known::ofShape(value.type, shape);
  if (out.isFloat()) {
    std::fill(out.floats.begin(), out.floats.end(), value.floats[0]);
  } else {
    std::fill(out.ints.begin(), out.ints.end(), value.ints[0]);
  }
  c.setKnownOutput(0, std::move(out));
}

// Constant nodes whose value is not a tensor (tensors are set up by the importer).
void constant(Context& c) {
  Known k;
  if (const auto* a = c.attribute("value_float")) {
    k.type = kFloat;
    k.floats = {a->f()};
  } else if (const auto* a = c.attribute("value_floats")) {
    k.type = kFloat;
    k.floats.assign(a->floats().begin(), a->floats().end());
    k.shape = {static_cast<int64_t>(k.floats.size())};
  } else if (const auto* a = c.attribute("value_int")) {
    k = Known::scalarInt(kInt64, a->i());
  } else if (const auto* a = c.attribute("value_ints")) {
    k = Known::vectorInts(Shape64(a->ints().begin(), a->ints().end()));
  } else if (const auto* a = c.attribute("value")) {
    k = decodeTensor(a->t(), nullptr, c.where());
  } else {
    c.fail("only value, value_float(s) and value_int(s) are supported");
  }
  c.setKnownOutput(0, std::move(k));
}

std::string checkConstant(const ::onnx::NodeProto& node, int64_t) {
  if (findAttribute(node, "sparse_value")) return "sparse_value";
  if (findAttribute(node, "value_string") || findAttribute(node, "value_strings")) return "strings";
  return {};
}

void trilu(Context& c) {
  MLOperand x = c.input(0);
  if (x.shape().size() < 2) c.failData("the input needs rank 2 or more");
  MLTriangularOptions options;
  options.label = c.label();
  options.upper = c.attrInt("upper", 1) != 0;
  if (c.hasInput(1)) {
    const Known& k = c.requireKnown(1, "k");
    if (k.size() != 1) c.failData("k must hold one value");
    const int64_t diagonal = k.integer(0);
    // Beyond the matrix every element is kept or dropped alike; WebNN takes an int32.
    const int64_t bound = int64_t{1} << 31;
    options.diagonal = static_cast<int32_t>(std::clamp<int64_t>(diagonal, -bound + 1, bound - 1));
  }
  c.setOutput(0, c.builder.triangular(x, options));
}

// EyeLike: ones on diagonal k of a 2-D tensor of the input's shape, known at import.
void eyeLike(Context& c) {
  const auto shape = c.shape(0);
  if (shape.size() != 2) c.failData("the input must be 2-D");
  const int64_t k = c.attrInt("k", 0);
  const auto dtype = static_cast<int32_t>(c.attrInt("dtype", c.onnxType(0)));
  Known eye;
  eye.type = dtype;
  eye.shape = toOnnxShape(shape);
  const uint64_t count = c.reserveKnown(eye.shape, "the identity matrix");
  if (eye.isFloat())
    eye.floats.assign(count, 0.0);
  else
    eye.ints.assign(count, 0);
  for (int64_t row = 0; row < eye.shape[0]; ++row) {
    const int64_t column = row + k;
    if (column < 0 || column >= eye.shape[1]) continue;
    const auto at = static_cast<size_t>(row * eye.shape[1] + column);
    if (eye.isFloat())
      eye.floats[at] = 1.0;
    else
      eye.ints[at] = 1;
  }
  c.setKnownOutput(0, std::move(eye));
}

// OneHot: along `axis`, `on` where the position equals the index (negative indices count from
// the end of depth), `off` elsewhere.
void oneHot(Context& c) {
  const Known& depthValue = c.requireKnown(1, "depth");
  if (depthValue.size() != 1) c.failData("depth must hold one value");
  const int64_t depth = depthValue.integer(0);
  if (depth <= 0 || depth > 0xffffffffll) c.failData("depth must be a positive dimension");
  const Known& values = c.requireKnown(2, "values");
  if (values.size() != 2) c.failData("values must hold off and on");
  MLOperand indices = c.input(0);
  const std::string l = c.label();
  if (isFloatingPoint(indices.dataType()))
    indices = c.builder.cast(indices, MLOperandDataType::Int64, {l + "/indices"});
  const auto indexType = indices.dataType();
  const size_t rank = indices.shape().size() + 1;
  const uint32_t axis = c.axis(c.attrInt("axis", -1), rank);
  if (isSigned(indexType)) {
    const MLOperand negative =
        c.builder.lesser(indices, c.scalar(indexType, 0.0), {l + "/negative"});
    indices = c.builder.where(
        negative,
        c.builder.add(indices, c.scalar(indexType, static_cast<double>(depth)), {l + "/wrap"}),
        indices, {l + "/wrapped"});
  }
  std::vector<uint32_t> expanded = indices.shape();
  expanded.insert(expanded.begin() + axis, 1);
  indices = c.builder.reshape(indices, expanded, {l + "/expanded"});
  Known positions;
  positions.type = indexType == MLOperandDataType::Int64 ? kInt64 : kInt32;
  if (indexType == MLOperandDataType::Uint32) positions.type = kUint32;
  if (indexType == MLOperandDataType::Uint64) positions.type = kUint64;
  if (indexType == MLOperandDataType::Int8) positions.type = kInt8;
  if (indexType == MLOperandDataType::Uint8) positions.type = kUint8;
  positions.shape.assign(rank, 1);
  positions.shape[axis] = depth;
  c.reserveKnown(positions.shape, "the positions along the axis");
  for (int64_t i = 0; i < depth; ++i) positions.ints.push_back(i);
  const MLOperand hot = c.builder.equal(c.constant(positions), indices, {l + "/hot"});
  Known off, on;
  off.type = on.type = values.type;
  if (values.isFloat()) {
    off.floats = {values.floats[0]};
    on.floats = {values.floats[1]};
  } else {
    off.ints = {values.ints[0]};
    on.ints = {values.ints[1]};
  }
  c.setOutput(0, c.builder.where(hot, c.constant(on), c.constant(off), {l}));
}

// DepthToSpace and SpaceToDepth: a reshape to 6-D, a transpose and a reshape back (NCHW).
void depthToSpace(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  if (shape.size() != 4) c.failData("the input must be 4-D (NCHW)");
  const int64_t block = c.attrInt("blocksize", 0);
  const std::string mode = c.attrString("mode", "DCR");
  if (block <= 0 || block > 0xffff) c.failData("blocksize must be positive");
  const auto b = static_cast<uint32_t>(block);
  const uint32_t n = shape[0], ch = shape[1], h = shape[2], w = shape[3];
  if (ch % (b * b) != 0) c.failData("the channels are not a multiple of blocksize squared");
  const uint32_t depth = ch / (b * b);
  std::vector<uint32_t> sixD, permutation;
  if (mode == "DCR") {
    sixD = {n, b, b, depth, h, w};
    permutation = {0, 3, 4, 1, 5, 2};
  } else if (mode == "CRD") {
    sixD = {n, depth, b, b, h, w};
    permutation = {0, 1, 4, 2, 5, 3};
  } else {
    c.fail("mode=" + mode + " is not supported");
  }
  x = c.builder.reshape(x, sixD, {c.label() + "/split"});
  x = c.builder.transpose(x, {c.label() + "/transpose", permutation});
  c.setOutput(0, c.builder.reshape(x, {n, depth, h * b, w * b}, {c.label()}));
}

void spaceToDepth(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  if (shape.size() != 4) c.failData("the input must be 4-D (NCHW)");
  const int64_t block = c.attrInt("blocksize", 0);
  if (block <= 0 || block > 0xffff) c.failData("blocksize must be positive");
  const auto b = static_cast<uint32_t>(block);
  const uint32_t n = shape[0], ch = shape[1], h = shape[2], w = shape[3];
  if (h % b != 0 || w % b != 0) c.failData("height and width must be multiples of blocksize");
  x = c.builder.reshape(x, {n, ch, h / b, b, w / b, b}, {c.label() + "/split"});
  x = c.builder.transpose(x, {c.label() + "/transpose", std::vector<uint32_t>{0, 3, 5, 1, 2, 4}});
  c.setOutput(0, c.builder.reshape(x, {n, ch * b * b, h / b, w / b}, {c.label()}));
}

}  // namespace

void addShapeOps(OpTable& t) {
  t["Reshape"] = {reshape};
  t["Flatten"] = {flatten};
  t["Squeeze"] = {squeeze};
  t["Unsqueeze"] = {unsqueeze};
  t["Transpose"] = {transpose};
  t["Concat"] = {concat};
  t["Split"] = {split};
  t["Expand"] = {expand};
  t["Tile"] = {tile};
  t["Trilu"] = {trilu};
  t["DepthToSpace"] = {depthToSpace};
  t["SpaceToDepth"] = {spaceToDepth};
  t["EyeLike"] = {eyeLike};
  t["OneHot"] = {oneHot};
  t["Shape"] = {shapeOp};
  t["Size"] = {size};
  t["ConstantOfShape"] = {constantOfShape};
  t["Constant"] = {constant, checkConstant};
}

}  // namespace webnn::onnx_import
