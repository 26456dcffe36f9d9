// Quantization ONNX ops: QuantizeLinear and DequantizeLinear onto WebNN's (per-tensor, per-axis
// and blockwise scales), DynamicQuantizeLinear (the uint8 range of the input computed in the
// graph), and ConvInteger / MatMulInteger as float32 products of the zero-point-shifted integers
// (exact while every sum stays below 2^24; their speed belongs to the quantized kernels).
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

}  // namespace

void addQuantizationOps(OpTable& t) {
  t["QuantizeLinear"] = {quantizeLinear};
  t["DequantizeLinear"] = {dequantizeLinear};
  t["DynamicQuantizeLinear"] = {dynamicQuantizeLinear};
  t["ConvInteger"] = {convInteger};
  t["MatMulInteger"] = {matMulInteger};
}

}  // namespace webnn::onnx_import
