// Pooling ONNX ops: GlobalAveragePool, GlobalMaxPool, AveragePool, MaxPool (1-D, 2-D and 3-D;
// 8-bit integers pooled in float32).
#include <limits>
#include <optional>

#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

using Pool = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLPool2dOptions&);

// WebNN pools floating-point values only: 8-bit integers (MaxPool on uint8 images) are pooled
// in float32, which holds them exactly, and cast back.
MLOperand poolable(Context& c, const MLOperand& x) {
  const auto type = x.dataType();
  if (type != MLOperandDataType::Uint8 && type != MLOperandDataType::Int8) return x;
  return c.builder.cast(x, MLOperandDataType::Float32, {c.label() + "/float"});
}

MLOperand restoreType(Context& c, const MLOperand& y, MLOperandDataType type) {
  return y.dataType() == type ? y : c.builder.cast(y, type, {c.label() + "/cast"});
}

// 1-D pooling (3-D inputs) runs as 2-D over [N, C, 1, L].
MLOperand liftTo4d(Context& c, const MLOperand& x) {
  const auto& s = x.shape();
  if (s.size() == 4) return x;
  if (s.size() != 3) c.fail("only 1-D and 2-D pooling (3-D and 4-D inputs) is supported");
  return c.builder.reshape(x, {s[0], s[1], 1, s[2]}, {c.label() + "/4d"});
}

MLOperand dropTo(Context& c, const MLOperand& y, size_t rank) {
  if (rank == 4) return y;
  const auto& s = y.shape();
  return c.builder.reshape(y, {s[0], s[1], s[3]}, {c.label() + "/3d"});
}

template <Pool op>
void globalPool(Context& c) {
  const MLOperand input = c.input(0);
  const size_t rank = input.shape().size();
  MLOperand x = liftTo4d(c, poolable(c, input));
  MLPool2dOptions options;
  options.label = c.label();
  MLOperand y = dropTo(c, (c.builder.*op)(x, options), rank);
  c.setOutput(0, restoreType(c, y, input.dataType()));
}

// One 2-D pooling of a 4-D operand with ONNX's padding rules: count_include_pad pads with zeros
// first, ceil_mode follows ONNX Runtime's rule (the last window starts inside the input or the
// left padding).
MLOperand pool2dStep(Context& c, Pool op, bool average, MLOperand x, std::vector<uint32_t> kernel,
                     std::vector<uint32_t> strides, std::vector<uint32_t> dilations,
                     std::vector<uint32_t> in, std::vector<uint32_t> padding,
                     const std::string& label) {
  std::vector<uint32_t> dilated;
  for (size_t i = 0; i < 2; ++i) dilated.push_back((kernel[i] - 1) * dilations[i] + 1);
  MLPool2dOptions options;
  options.label = label;
  options.windowDimensions = kernel;
  options.strides = strides;
  options.dilations = dilations;
  const bool anyPadding = padding != std::vector<uint32_t>(4, 0);
  if (average && c.attrInt("count_include_pad", 0) != 0 && anyPadding) {
    // Padding counts: pad with zeros explicitly, then pool over the padded input.
    MLPadOptions padOptions;
    padOptions.label = label + "/pad";
    x = c.builder.pad(x, {0, 0, padding[0], padding[2]}, {0, 0, padding[1], padding[3]},
                      padOptions);
    for (size_t i = 0; i < 2; ++i) {
      in[i] += padding[2 * i] + padding[2 * i + 1];
      padding[2 * i] = padding[2 * i + 1] = 0;
    }
  }
  options.padding = padding;
  if (c.attrInt("ceil_mode", 0) != 0) {
    std::vector<uint32_t> sizes(2);
    for (size_t i = 0; i < 2; ++i) {
      const int64_t span = int64_t{in[i]} + padding[2 * i] + padding[2 * i + 1] - dilated[i];
      if (span < 0) c.failData("the window is larger than the padded input");
      int64_t out = (span + strides[i] - 1) / strides[i] + 1;
      if ((out - 1) * strides[i] >= int64_t{in[i]} + padding[2 * i]) --out;
      sizes[i] = static_cast<uint32_t>(out);
    }
    options.roundingType = MLRoundingType::Ceil;
    options.outputSizes = sizes;
  }
  return (c.builder.*op)(x, options);
}

// 1-D pooling runs as 2-D over [N, C, 1, L]; 3-D as two 2-D poolings, over (H, W) of
// [N, C * D, H, W], then over D of [N, C, D, H' * W']: a maximum, and an average (whose count of
// valid elements is the product of the per-axis counts), separate along the axes.
MLOperand maxPoolIndices(Context& c, const MLOperand& input, const MLOperand& maximum);

template <Pool op, bool kAverage>
void pool(Context& c) {
  const MLOperand input = c.input(0);
  const auto& shape = input.shape();
  const size_t rank = shape.size();
  if (rank < 3 || rank > 5) c.fail("only 1-D, 2-D and 3-D pooling is supported");
  const size_t n = rank - 2;  // spatial dimensions
  const auto kernel64 = c.attrInts("kernel_shape");
  if (!kernel64 || kernel64->size() != n)
    c.failData("kernel_shape must have " + std::to_string(n) + " values");
  auto kernel = toU32(c, *kernel64, "kernel_shape");
  std::vector<uint32_t> strides(n, 1), dilations(n, 1);
  if (auto s = c.attrInts("strides")) strides = toU32(c, *s, "strides");
  if (auto d = c.attrInts("dilations")) dilations = toU32(c, *d, "dilations");
  if (strides.size() != n || dilations.size() != n)
    c.failData("strides/dilations need " + std::to_string(n) + " values");
  std::vector<uint32_t> in(shape.begin() + 2, shape.end());
  std::vector<uint32_t> dilated;
  for (size_t i = 0; i < n; ++i) dilated.push_back((kernel[i] - 1) * dilations[i] + 1);
  const auto padding = convPadding(c, in, dilated, strides);
  const std::string l = c.label();
  MLOperand x = poolable(c, input);
  MLOperand y;
  if (n == 3) {
    const uint64_t channels = uint64_t{shape[1]} * shape[2];
    if (channels > 0xffffffffu) c.failData("the input is too large");
    x = c.builder.reshape(x, {shape[0], static_cast<uint32_t>(channels), shape[3], shape[4]},
                          {l + "/hw"});
    MLOperand plane =
        pool2dStep(c, op, kAverage, x, {kernel[1], kernel[2]}, {strides[1], strides[2]},
                   {dilations[1], dilations[2]}, {in[1], in[2]},
                   {padding[2], padding[3], padding[4], padding[5]}, l + "/pool_hw");
    const uint32_t outH = plane.shape()[2], outW = plane.shape()[3];
    const uint64_t area = uint64_t{outH} * outW;
    if (area > 0xffffffffu) c.failData("the output is too large");
    plane = c.builder.reshape(plane, {shape[0], shape[1], shape[2], static_cast<uint32_t>(area)},
                              {l + "/d"});
    y = pool2dStep(c, op, kAverage, plane, {kernel[0], 1}, {strides[0], 1}, {dilations[0], 1},
                   {in[0], static_cast<uint32_t>(area)}, {padding[0], padding[1], 0, 0},
                   l + "/pool_d");
    y = c.builder.reshape(y, {shape[0], shape[1], y.shape()[2], outH, outW}, {l});
  } else if (n == 1) {  // as 2-D with a height of 1
    y = pool2dStep(c, op, kAverage, liftTo4d(c, x), {1, kernel[0]}, {1, strides[0]},
                   {1, dilations[0]}, {1, in[0]}, {0, 0, padding[0], padding[1]}, l);
    y = dropTo(c, y, rank);
  } else {
    y = pool2dStep(c, op, kAverage, x, kernel, strides, dilations, in, padding, l);
  }
  c.setOutput(0, restoreType(c, y, input.dataType()));
  if (!kAverage && c.wantsOutput(1)) c.setOutput(1, maxPoolIndices(c, x, y));
}

// MaxPool's Indices output (WebNN's maxPool2d has none): every window position's candidate is a
// strided slice of the input padded with -inf, with its flat index in the input known at import
// (row-major, or column-major within the plane for storage_order=1); the first candidate in the
// window's row-major order that equals the maximum gives the index.
MLOperand maxPoolIndices(Context& c, const MLOperand& input, const MLOperand& maximum) {
  const auto& shape = input.shape();
  if (shape.size() != 4) c.fail("the Indices output of non-2-D pooling is not supported");
  if (c.attrInt("ceil_mode", 0) != 0)
    c.fail("the Indices output with ceil_mode=1 is not supported");
  if (!isFloatingPoint(input.dataType())) c.fail("the Indices output of integers is not supported");
  const auto kernel = toU32(c, *c.attrInts("kernel_shape"), "kernel_shape");
  std::vector<uint32_t> strides{1, 1}, dilations{1, 1};
  if (auto v = c.attrInts("strides")) strides = toU32(c, *v, "strides");
  if (auto v = c.attrInts("dilations")) dilations = toU32(c, *v, "dilations");
  const std::vector<uint32_t> in = {shape[2], shape[3]};
  const std::vector<uint32_t> dilated = {(kernel[0] - 1) * dilations[0] + 1,
                                         (kernel[1] - 1) * dilations[1] + 1};
  const auto padding = convPadding(c, in, dilated, strides);
  constexpr uint64_t kMaxCandidates = 1024;
  if (uint64_t{kernel[0]} * kernel[1] > kMaxCandidates)
    c.fail("the Indices output of a window above " + std::to_string(kMaxCandidates) + " elements");
  const bool columnMajor = c.attrInt("storage_order", 0) != 0;
  const std::string l = c.label() + "/indices";
  MLPadOptions pad;
  pad.label = l + "/pad";
  pad.value = -std::numeric_limits<double>::infinity();
  const MLOperand padded =
      c.builder.pad(input, {0, 0, padding[0], padding[2]}, {0, 0, padding[1], padding[3]}, pad);
  const uint32_t outH = maximum.shape()[2], outW = maximum.shape()[3];
  const int64_t height = shape[2], width = shape[3];
  std::optional<MLOperand> chosen;
  for (uint32_t i = kernel[0]; i-- > 0;) {  // last to first: the first match is kept
    for (uint32_t j = kernel[1]; j-- > 0;) {
      const std::string lij = l + "/" + std::to_string(i) + "_" + std::to_string(j);
      MLSliceOptions step;
      step.label = lij + "/candidate";
      step.strides = {1, 1, strides[0], strides[1]};
      const std::vector<uint32_t> start = {0, 0, i * dilations[0], j * dilations[1]};
      const std::vector<uint32_t> size = {shape[0], shape[1], (outH - 1) * strides[0] + 1,
                                          (outW - 1) * strides[1] + 1};
      const MLOperand candidate = c.builder.slice(padded, start, size, step);
      Known position;
      position.type = kInt64;
      position.shape = {1, 1, outH, outW};
      c.reserveKnown(position.shape, "the window positions");
      for (uint32_t oh = 0; oh < outH; ++oh) {
        for (uint32_t ow = 0; ow < outW; ++ow) {
          const int64_t h = int64_t{oh} * strides[0] + int64_t{i} * dilations[0] - padding[0];
          const int64_t w = int64_t{ow} * strides[1] + int64_t{j} * dilations[1] - padding[2];
          position.ints.push_back(columnMajor ? w * height + h : h * width + w);
        }
      }
      const MLOperand index = c.constant(position);
      const MLOperand hit = c.builder.equal(candidate, maximum, {lij + "/hit"});
      chosen = chosen ? c.builder.where(hit, index, *chosen, {lij + "/chosen"})
                      : c.builder.where(hit, index,
                                        c.builder.expand(index, maximum.shape(), {lij + "/expand"}),
                                        {lij + "/chosen"});
    }
  }
  // Plus the plane's offset: (n * C + c) * H * W.
  Known planes;
  planes.type = kInt64;
  planes.shape = {shape[0], shape[1], 1, 1};
  c.reserveKnown(planes.shape, "the planes' offsets");
  for (int64_t plane = 0; plane < int64_t{shape[0]} * shape[1]; ++plane)
    planes.ints.push_back(plane * height * width);
  return c.builder.add(*chosen, c.constant(planes), {l});
}

std::string checkMaxPool(const ::onnx::NodeProto&, int64_t) {
  return {};
}

}  // namespace

void addPoolingOps(OpTable& t) {
  t["GlobalAveragePool"] = {globalPool<&MLGraphBuilder::averagePool2d>};
  t["GlobalMaxPool"] = {globalPool<&MLGraphBuilder::maxPool2d>};
  t["AveragePool"] = {pool<&MLGraphBuilder::averagePool2d, true>};
  t["MaxPool"] = {pool<&MLGraphBuilder::maxPool2d, false>, checkMaxPool};
}

}  // namespace webnn::onnx_import
