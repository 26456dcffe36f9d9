// Quantization ONNX ops: QuantizeLinear and DequantizeLinear onto WebNN's (per-tensor, per-axis
// and blockwise scales), DynamicQuantizeLinear (the uint8 range of the input computed in the
// graph), and ConvInteger / MatMulInteger as float32 products of the zero-point-shifted integers
// (exact while every sum stays below 2^24; their speed belongs to the quantized kernels).
// ONNX Runtime's contrib op com.microsoft MatMulNBits (blockwise 4- and 8-bit weights) as its WebNN
// execution provider lowers it: dequantizeLinear of B, reshape, transpose, matmul (+ bias).
#include <limits>

#include "core/checked_math.h"
#include "onnx/errors.h"
#include "onnx/ops.h"
#include "onnx/shape_logic.h"

namespace webnn::onnx_import {
namespace {

// A scale or zero point laid out against an input of `rank`: a scalar or one value stays as it
// is (WebNN broadcasts it), a 1-D per-axis tensor gets size-1 dimensions around `axis` (ONNX's,
// possibly negative), a tensor of the input's rank (blockwise) is used as it is.
MLOperand alongAxis(Context& c, const MLOperand& v, size_t rank, int64_t axis,
                    const std::string& what) {
  const auto& shape = v.shape();
  if (shape.empty()) return v;
  if (shape.size() == 1 && shape[0] == 1) return c.builder.reshape(v, {}, {c.label() + "/" + what});
  if (shape.size() == rank) return v;
  if (shape.size() != 1) c.failData(what + " must be a scalar, 1-D or of the input's rank");
  std::vector<uint32_t> laidOut(rank, 1);
  laidOut[c.axis(axis, rank)] = shape[0];
  return c.builder.reshape(v, laidOut, {c.label() + "/" + what});
}

// Zeros of `type` in the shape of `like` (a zero point ONNX lets the model leave out).
MLOperand zerosLike(Context& c, const MLOperand& like, int32_t type) {
  const Shape64 shape = toOnnxShape(like.shape());
  c.reserveKnown(shape, "the zero point");
  return c.constant(Known::ofShape(type, shape));
}

int64_t quantizationAxis(Context& c) {
  return c.attrInt("axis", 1);
}

void quantizeLinear(Context& c) {
  MLOperand x = c.input(0);
  const size_t rank = x.shape().size();
  const int64_t axis = quantizationAxis(c);
  MLOperand scale = alongAxis(c, c.input(1), rank, axis, "scale");
  if (scale.dataType() != x.dataType())
    scale = c.builder.cast(scale, x.dataType(), {c.label() + "/scale_type"});
  MLOperand zeroPoint;
  if (c.hasInput(2)) {
    zeroPoint = alongAxis(c, c.input(2), rank, axis, "zero_point");
  } else {
    const auto type = static_cast<int32_t>(c.attrInt("output_dtype", kUint8));
    zeroPoint = zerosLike(c, scale, type == 0 ? kUint8 : type);
  }
  c.setOutput(0, c.builder.quantizeLinear(x, scale, zeroPoint, {c.label()}));
}

void dequantizeLinear(Context& c) {
  MLOperand x = c.input(0);
  const size_t rank = x.shape().size();
  const int64_t axis = quantizationAxis(c);
  const MLOperand scale = alongAxis(c, c.input(1), rank, axis, "scale");
  const MLOperand zeroPoint = c.hasInput(2) ? alongAxis(c, c.input(2), rank, axis, "zero_point")
                                            : zerosLike(c, scale, c.onnxType(0));
  c.setOutput(0, c.builder.dequantizeLinear(x, scale, zeroPoint, {c.label()}));
}

// y = saturate(round(x / scale) + zeroPoint) in uint8, over the range [min(x, 0), max(x, 0)].
void dynamicQuantizeLinear(Context& c) {
  MLOperand x = c.input(0);
  const auto type = x.dataType();
  const std::string l = c.label();
  MLReduceOptions all;
  all.label = l + "/min";
  const MLOperand zero = c.scalar(type, 0.0);
  const MLOperand low = c.builder.min(c.builder.reduceMin(x, all), zero, {l + "/low"});
  all.label = l + "/max";
  const MLOperand high = c.builder.max(c.builder.reduceMax(x, all), zero, {l + "/high"});
  MLOperand range = c.builder.sub(high, low, {l + "/range"});
  // An input of zeros only: ONNX takes a range of 1.
  range = c.builder.where(c.builder.equal(range, zero, {l + "/empty"}), c.scalar(type, 1.0), range,
                          {l + "/range1"});
  const MLOperand scale = c.builder.div(range, c.scalar(type, 255.0), {l + "/scale"});
  MLClampOptions bounds;
  bounds.label = l + "/zero_point_clamp";
  bounds.minValue = 0.0;
  bounds.maxValue = 255.0;
  const MLOperand unrounded =
      c.builder.clamp(c.builder.div(c.builder.neg(low, {l + "/neg"}), scale, {l + "/zp"}), bounds);
  const MLOperand zeroPoint = c.builder.cast(c.builder.roundEven(unrounded, {l + "/round"}),
                                             MLOperandDataType::Uint8, {l + "/zero_point"});
  c.setOutput(0, c.builder.quantizeLinear(x, scale, zeroPoint, {l}));
  if (c.wantsOutput(1)) c.setOutput(1, scale);
  if (c.wantsOutput(2)) c.setOutput(2, zeroPoint);
}

// The integers of input `i` as float32 with their zero point (input `zeroPointInput`, scalar or
// per `axis`) subtracted.
MLOperand shifted(Context& c, size_t i, size_t zeroPointInput, int64_t axis, const char* what) {
  MLOperand v =
      c.builder.cast(c.input(i), MLOperandDataType::Float32, {c.label() + "/" + what + "_float"});
  if (!c.hasInput(zeroPointInput)) return v;
  MLOperand zeroPoint = alongAxis(c, c.input(zeroPointInput), v.shape().size(), axis, what);
  zeroPoint = c.builder.cast(zeroPoint, MLOperandDataType::Float32,
                             {c.label() + "/" + what + "_zero_point"});
  return c.builder.sub(v, zeroPoint, {c.label() + "/" + what + "_shifted"});
}

void convInteger(Context& c) {
  const MLOperand x = shifted(c, 0, 2, 1, "x");
  const MLOperand w = shifted(c, 1, 3, 0, "w");  // per output channel
  const MLOperand y = convolve(c, x, w, std::nullopt);
  c.setOutput(0, c.builder.cast(y, MLOperandDataType::Int32, {c.label() + "/int32"}));
}

void matMulInteger(Context& c) {
  const size_t aRank = c.rank(0), bRank = c.rank(1);
  if (aRank < 2 || bRank < 2) c.fail("1-D operands are not supported");
  // a's zero point is per row (axis rank - 2), b's per column (the last axis).
  const MLOperand a = shifted(c, 0, 2, static_cast<int64_t>(aRank) - 2, "a");
  const MLOperand b = shifted(c, 1, 3, static_cast<int64_t>(bRank) - 1, "b");
  const MLOperand y = c.builder.matmul(a, b, {c.label() + "/matmul"});
  c.setOutput(0, c.builder.cast(y, MLOperandDataType::Int32, {c.label()}));
}

// com.microsoft MatMulNBits: Y = A x dequantize(B)^T (+ bias). B holds N rows of K values in
// blocks of block_size along K (the last block padded), `bits` bits a value packed low bits first;
// each block has a scale and a zero point (default 2^(bits - 1)).
struct NBits {
  uint64_t k = 0, n = 0, bits = 4, blockSize = 0, blocks = 0, blobSize = 0;
};

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// The sizes the attributes give; empty when they are consistent, else what is wrong.
std::string nBitsSizes(const ::onnx::NodeProto& node, NBits& s) {
  constexpr int64_t kMaxDimension = std::numeric_limits<uint32_t>::max();
  const auto* k = findAttribute(node, "K");
  const auto* n = findAttribute(node, "N");
  const auto* blockSize = findAttribute(node, "block_size");
  if (!k || !n || !blockSize) return "the attributes K, N and block_size are required";
  const int64_t bits = intAttribute(node, "bits", 4);
  if (bits != 4 && bits != 8)
    return "bits=" + std::to_string(bits) + " is not supported (4 and 8 are)";
  if (k->i() < 1 || k->i() > kMaxDimension)
    return "K=" + std::to_string(k->i()) + " is outside [1, 4294967295]";
  if (n->i() < 1 || n->i() > kMaxDimension)
    return "N=" + std::to_string(n->i()) + " is outside [1, 4294967295]";
  const int64_t b = blockSize->i();
  if (b < 16 || b > (int64_t{1} << 31) || (b & (b - 1)) != 0)
    return "block_size=" + std::to_string(b) + " is not a power of 2 of at least 16";
  s.k = static_cast<uint64_t>(k->i());
  s.n = static_cast<uint64_t>(n->i());
  s.bits = static_cast<uint64_t>(bits);
  s.blockSize = static_cast<uint64_t>(b);
  s.blocks = (s.k + s.blockSize - 1) / s.blockSize;  // below 2^33: no overflow
  s.blobSize = s.blockSize * s.bits / 8;
  const auto padded = checked::mul(s.blocks, s.blockSize);
  const auto elements = padded ? checked::mul(*padded, s.n) : std::nullopt;
  if (!padded || *padded > static_cast<uint64_t>(kMaxDimension) || !elements ||
      *elements > (uint64_t{1} << 62)) {
    return "K=" + std::to_string(s.k) + " and N=" + std::to_string(s.n) + " in blocks of " +
           std::to_string(s.blockSize) + " are too large";
  }
  return {};
}

std::string checkMatMulNBits(const ::onnx::NodeProto& node, int64_t) {
  const int64_t bits = intAttribute(node, "bits", 4);
  return bits == 4 || bits == 8 ? std::string() : "bits=" + std::to_string(bits);
}

// Input i's ONNX dimensions (a weight's as the file has them, whatever operand it became).
std::vector<int64_t> onnxDims(Context& c, size_t i) {
  const std::vector<uint32_t> shape = c.shape(i);  // (DataError when undefined)
  const Value& v = c.values.at(c.node->input(static_cast<int>(i)));
  if (v.weight || v.proto) return v.shape;
  if (v.known) return v.known->shape;
  return toOnnxShape(shape);
}

// Input i as [N * columns] or [N, columns] of ONNX type `type` (DataError otherwise).
void requireRows(Context& c, size_t i, const char* what, int32_t type, const NBits& s,
                 uint64_t columns, const char* columnsText) {
  if (c.onnxType(i) != type) {
    c.failData(std::string(what) + " (input " + std::to_string(i) + ") has type " +
               onnxTypeName(c.onnxType(i)) + "; it must be " + onnxTypeName(type));
  }
  const auto dims = onnxDims(c, i);
  const auto count = shapeElements(dims);
  const auto expected = checked::mul(s.n, columns);
  const bool fits =
      count && expected && *count == *expected &&
      (dims.size() == 1 || (dims.size() == 2 && static_cast<uint64_t>(dims[0]) == s.n &&
                            static_cast<uint64_t>(dims[1]) == columns));
  if (!fits) {
    c.failData(std::string(what) + " (input " + std::to_string(i) + ") has shape " +
               shapeText(dims) + "; it must be [N * " + columnsText + "] or [N, " + columnsText +
               "] = [" + std::to_string(s.n) + ", " + std::to_string(columns) + "]");
  }
}

// `value` in every element of `shape` (4 or 8 bits): an expand of a one-element constant, so that
// neither the graph nor a backend holds a zero point per block when the model gives none (a
// backend that reads the weights as stored sees the one value: cpu's block_quantized_matmul).
MLOperand filledConstant(Context& c, const NBits& s, const std::vector<uint32_t>& shape,
                         uint8_t value) {
  const MLOperandDescriptor one{s.bits == 4 ? MLOperandDataType::Uint4 : MLOperandDataType::Uint8,
                                std::vector<uint32_t>(shape.size(), 1)};
  const std::byte bytes[1] = {std::byte{value}};
  const MLOperand constant = c.builder.constant(one, bytes);
  return c.builder.expand(constant, shape, {c.label() + "/zero_point"});
}

// B as uint4 (bits 4) or uint8 (bits 8) [N, n_blocks, block_size]: the same bytes.
MLOperand packedWeight(Context& c, const NBits& s, const std::vector<uint32_t>& shape) {
  if (s.bits == 8) return reshapeTo(c, c.input(1), shape);
  const MLOperandDescriptor view{MLOperandDataType::Uint4, shape};
  const Value& v = c.values.at(c.node->input(1));
  // Described as uint4 before the walk (describePackedWeights): a hollow constant.
  if (v.weight && v.weight->descriptor() == view) return c.input(1);
  // Otherwise its bytes are read at import into a classic constant.
  const Known* known = c.known(1);
  if (!known) {
    c.fail(
        "B (input 1) must be a constant: with bits=4 its bytes are read as uint4 (this one is "
        "computed in the graph, or a weight other nodes use too and larger than 16 MiB)");
  }
  std::vector<std::byte> bytes(known->ints.size());
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::byte>(known->ints[i] & 0xff);
  return c.builder.constant(view, bytes);
}

// g_idx (input 4): only the order MatMulNBits has without it, g_idx[i] = i / block_size.
void requireTrivialGroups(Context& c, const NBits& s) {
  if (!c.hasInput(4)) return;
  const Known* groups = c.known(4);
  if (!groups) {
    c.fail(
        "g_idx (input 4) is not a constant; only the trivial order (g_idx[i] = i / block_size) "
        "is supported");
  }
  if (groups->shape != std::vector<int64_t>{static_cast<int64_t>(s.k)}) {
    c.failData("g_idx (input 4) has shape " + shapeText(groups->shape) + "; it must be [K] = [" +
               std::to_string(s.k) + "]");
  }
  for (size_t i = 0; i < s.k; ++i) {
    const auto block = static_cast<int64_t>(i / s.blockSize);
    if (groups->integer(i) != block) {
      c.fail("g_idx (input 4) reorders the rows of B (g_idx[" + std::to_string(i) +
             "] = " + std::to_string(groups->integer(i)) + ", not " + std::to_string(block) +
             "); only the trivial order (g_idx[i] = i / block_size) is supported");
    }
  }
}

void matMulNBits(Context& c) {
  NBits s;
  if (const std::string wrong = nBitsSizes(*c.node, s); !wrong.empty()) {
    if (wrong.rfind("bits=", 0) == 0) c.fail(wrong);
    c.failData(wrong);
  }
  const std::string l = c.label();
  const auto n = static_cast<uint32_t>(s.n), k = static_cast<uint32_t>(s.k);
  const auto blocks = static_cast<uint32_t>(s.blocks);
  const auto blockSize = static_cast<uint32_t>(s.blockSize);

  const int32_t type = c.onnxType(0);
  if (type != kFloat && type != kFloat16) {
    c.fail("A (input 0) has type " + onnxTypeName(type) + "; float and float16 are supported");
  }
  MLOperand a = c.input(0);
  const std::vector<uint32_t> aShape = a.shape();
  if (aShape.empty() || aShape.back() != k) {
    c.failData("A (input 0) has shape " + shapeText(toOnnxShape(aShape)) +
               "; its last dimension must be K=" + std::to_string(s.k));
  }
  if (c.onnxType(1) != kUint8) {
    c.failData("B (input 1) has type " + onnxTypeName(c.onnxType(1)) + "; it must be uint8");
  }
  const std::vector<int64_t> bDims = onnxDims(c, 1);
  const std::vector<int64_t> expected{static_cast<int64_t>(s.n), static_cast<int64_t>(s.blocks),
                                      static_cast<int64_t>(s.blobSize)};
  if (bDims != expected) {
    c.failData("B (input 1) has shape " + shapeText(bDims) + "; K=" + std::to_string(s.k) +
               ", N=" + std::to_string(s.n) + ", bits=" + std::to_string(s.bits) +
               " and block_size=" + std::to_string(s.blockSize) +
               " give [N, n_blocks, blob_size] = " + shapeText(expected));
  }
  requireRows(c, 2, "scales", type, s, s.blocks, "n_blocks");
  requireTrivialGroups(c, s);

  const std::vector<uint32_t> blockShape{n, blocks, 1};
  const MLOperand b = packedWeight(c, s, {n, blocks, blockSize});
  const MLOperand scale = reshapeTo(c, c.input(2), blockShape);
  // The zero points: uint8 (bits 4: two a byte, low nibble first, each row padded to whole
  // bytes), or of A's type (subtracted as zero point x scale after dequantizing with 0).
  std::optional<MLOperand> floatZeroPoint;
  MLOperand zeroPoint;
  if (!c.hasInput(3)) {
    zeroPoint = filledConstant(c, s, blockShape, static_cast<uint8_t>(1u << (s.bits - 1)));
  } else if (c.onnxType(3) == type) {
    requireRows(c, 3, "zero_points", type, s, s.blocks, "n_blocks");
    floatZeroPoint = reshapeTo(c, c.input(3), blockShape);
    zeroPoint = filledConstant(c, s, blockShape, 0);
  } else if (s.bits == 8) {
    requireRows(c, 3, "zero_points", kUint8, s, s.blocks, "n_blocks");
    zeroPoint = reshapeTo(c, c.input(3), blockShape);
  } else {
    const uint64_t columns = (s.blocks + 1) / 2;
    requireRows(c, 3, "zero_points", kUint8, s, columns, "ceil(n_blocks / 2)");
    const Known& packed = c.requireKnown(3, "zero_points");
    const MLOperandDescriptor descriptor{MLOperandDataType::Uint4, blockShape};
    std::vector<std::byte> bytes(descriptor.byteLength());
    for (uint64_t row = 0; row < s.n; ++row) {
      for (uint64_t block = 0; block < s.blocks; ++block) {
        const auto byte = static_cast<uint64_t>(packed.ints[row * columns + block / 2]);
        const auto value = static_cast<uint8_t>((byte >> (4 * (block % 2))) & 0xf);
        const uint64_t e = row * s.blocks + block;
        bytes[e / 2] |= std::byte{static_cast<uint8_t>(value << (4 * (e % 2)))};
      }
    }
    zeroPoint = c.builder.constant(descriptor, bytes);
  }

  MLOperand w = c.builder.dequantizeLinear(b, scale, zeroPoint, {l + "/dequantize"});
  if (floatZeroPoint) {
    const MLOperand shift = c.builder.mul(*floatZeroPoint, scale, {l + "/zero_point_shift"});
    w = c.builder.sub(w, shift, {l + "/zero_point"});
  }
  w = reshapeTo(c, w, {n, blocks * blockSize});
  // The last block's padding (K not a multiple of block_size).
  if (blocks * blockSize != k) w = c.builder.slice(w, {0, 0}, {n, k}, {l + "/unpad"});
  MLTransposeOptions transpose;
  transpose.label = l + "/transpose";
  w = c.builder.transpose(w, transpose);

  if (aShape.size() == 1) a = c.builder.reshape(a, {1, k}, {l + "/a_rows"});
  MLOperand y = c.builder.matmul(a, w, {l + "/matmul"});
  if (aShape.size() == 1) y = c.builder.reshape(y, {n}, {l + "/y_vector"});
  if (c.hasInput(5)) {
    if (c.onnxType(5) != type || onnxDims(c, 5) != std::vector<int64_t>{expected[0]}) {
      c.failData("bias (input 5) is " + onnxTypeName(c.onnxType(5)) + " " +
                 shapeText(onnxDims(c, 5)) + "; it must be " + onnxTypeName(type) + " [N] = [" +
                 std::to_string(s.n) + "]");
    }
    y = c.builder.add(y, c.input(5), {l + "/bias"});
  }
  c.setOutput(0, y);
}

}  // namespace

std::optional<MLOperandDescriptor> matMulNBitsPackedWeight(const ::onnx::NodeProto& node,
                                                           int32_t type,
                                                           const std::vector<int64_t>& dims) {
  NBits s;
  if (opKey(node) != "com.microsoft:MatMulNBits" || !nBitsSizes(node, s).empty() || s.bits != 4 ||
      type != kUint8) {
    return std::nullopt;
  }
  if (dims != std::vector<int64_t>{static_cast<int64_t>(s.n), static_cast<int64_t>(s.blocks),
                                   static_cast<int64_t>(s.blobSize)}) {
    return std::nullopt;
  }
  return MLOperandDescriptor{MLOperandDataType::Uint4,
                             {static_cast<uint32_t>(s.n), static_cast<uint32_t>(s.blocks),
                              static_cast<uint32_t>(s.blockSize)}};
}

void addQuantizationOps(OpTable& t) {
  t["QuantizeLinear"] = {quantizeLinear};
  t["DequantizeLinear"] = {dequantizeLinear};
  t["DynamicQuantizeLinear"] = {dynamicQuantizeLinear};
  t["ConvInteger"] = {convInteger};
  t["MatMulInteger"] = {matMulInteger};
  t["com.microsoft:MatMulNBits"] = {matMulNBits, checkMatMulNBits};
}

}  // namespace webnn::onnx_import
