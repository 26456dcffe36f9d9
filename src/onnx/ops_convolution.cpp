// Convolutions and matrix products: Conv, ConvTranspose (1-D through a 2-D view), Gemm, MatMul.
#include <algorithm>

#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

std::vector<uint32_t> spatialAttribute(Context& c, const char* name, size_t n, uint32_t fallback) {
  auto values = c.attrInts(name);
  if (!values) return std::vector<uint32_t>(n, fallback);
  if (values->size() != n)
    c.failData(std::string(name) + " must have " + std::to_string(n) + " values");
  return toU32(c, *values, name);
}

// A 1-D convolution's operands seen as 2-D ([N, C, L] -> [N, C, 1, L]).
MLOperand as2d(Context& c, const MLOperand& x, const char* what) {
  auto shape = x.shape();
  shape.insert(shape.begin() + 2, 1);
  return c.builder.reshape(x, shape, {c.label() + "/" + what + "2d"});
}

}  // namespace

MLOperand convolve(Context& c, MLOperand x, MLOperand w, std::optional<MLOperand> bias) {
  const size_t rank = x.shape().size();
  if (rank != 3 && rank != 4) c.fail("only 1-D and 2-D convolutions are supported");
  const size_t n = rank - 2;
  const auto wShape = w.shape();
  if (wShape.size() != rank) c.failData("the weight's rank differs from the input's");
  std::vector<uint32_t> inSpatial(x.shape().begin() + 2, x.shape().end());
  std::vector<uint32_t> kernel(wShape.begin() + 2, wShape.end());
  auto strides = spatialAttribute(c, "strides", n, 1);
  auto dilations = spatialAttribute(c, "dilations", n, 1);
  std::vector<uint32_t> dilated(n);
  for (size_t i = 0; i < n; ++i) dilated[i] = (kernel[i] - 1) * dilations[i] + 1;
  auto padding = convPadding(c, inSpatial, dilated, strides);

  MLConv2dOptions options;
  options.label = c.label();
  options.groups = static_cast<uint32_t>(c.attrInt("group", 1));
  options.bias = bias;
  if (n == 1) {
    x = as2d(c, x, "input");
    w = as2d(c, w, "filter");
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    padding.insert(padding.begin(), {0, 0});
  }
  options.strides = strides;
  options.dilations = dilations;
  options.padding = padding;
  MLOperand y = c.builder.conv2d(x, w, options);
  if (n == 1) {
    auto shape = y.shape();
    shape.erase(shape.begin() + 2);
    y = c.builder.reshape(y, shape, {c.label() + "/1d"});
  }
  return y;
}

namespace {

void conv(Context& c) {
  std::optional<MLOperand> bias;
  if (c.hasInput(2)) bias = c.input(2);
  c.setOutput(0, convolve(c, c.input(0), c.input(1), bias));
}

void convTranspose(Context& c) {
  MLOperand x = c.input(0);
  MLOperand w = c.input(1);
  const size_t rank = x.shape().size();
  if (rank != 3 && rank != 4) c.fail("only 1-D and 2-D transposed convolutions are supported");
  const size_t n = rank - 2;
  const auto wShape = w.shape();
  if (wShape.size() != rank) c.failData("the weight's rank differs from the input's");
  std::vector<uint32_t> inSpatial(x.shape().begin() + 2, x.shape().end());
  std::vector<uint32_t> kernel(wShape.begin() + 2, wShape.end());
  auto strides = spatialAttribute(c, "strides", n, 1);
  auto dilations = spatialAttribute(c, "dilations", n, 1);
  auto outputPadding = spatialAttribute(c, "output_padding", n, 0);
  const std::string autoPad = c.attrString("auto_pad", "NOTSET");
  std::vector<uint32_t> padding(2 * n, 0);
  auto outputShape = c.attrInts("output_shape");
  if (outputShape && outputShape->size() > n) {
    outputShape->erase(outputShape->begin(), outputShape->end() - static_cast<ptrdiff_t>(n));
  }
  if (!outputShape && (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")) {
    outputShape.emplace();
    for (size_t i = 0; i < n; ++i) outputShape->push_back(int64_t{inSpatial[i]} * strides[i]);
  }
  if (outputShape) {
    if (outputShape->size() != n) c.failData("output_shape has the wrong length");
    for (size_t i = 0; i < n; ++i) {
      const int64_t total = int64_t{strides[i]} * (inSpatial[i] - 1) + outputPadding[i] +
                            int64_t{(kernel[i] - 1) * dilations[i] + 1} - (*outputShape)[i];
      // ONNX splits the total with floor division; a negative total (an output longer than the
      // full transposed convolution) extends the end through outputPadding, which gives the
      // extra positions the bias alone, as ONNX does.
      const bool upper = autoPad == "SAME_UPPER";
      const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      const int64_t begin = upper ? half : total - half;
      const int64_t end = upper ? total - half : half;
      if (begin < 0) c.fail("output_shape extends the output before its first position");
      padding[2 * i] = static_cast<uint32_t>(begin);
      padding[2 * i + 1] = static_cast<uint32_t>(std::max<int64_t>(end, 0));
      if (end < 0) outputPadding[i] += static_cast<uint32_t>(-end);
    }
  } else if (autoPad == "NOTSET") {
    if (auto pads = c.attrInts("pads")) {
      if (pads->size() != 2 * n) c.failData("pads must have " + std::to_string(2 * n) + " values");
      const auto p = toU32(c, *pads, "pads");
      for (size_t i = 0; i < n; ++i) {
        padding[2 * i] = p[i];
        padding[2 * i + 1] = p[n + i];
      }
    }
  } else if (autoPad != "VALID") {
    c.fail("auto_pad=" + autoPad + " is not supported");
  }

  MLConvTranspose2dOptions options;
  options.label = c.label();
  options.groups = static_cast<uint32_t>(c.attrInt("group", 1));
  if (c.hasInput(2)) options.bias = c.input(2);
  if (n == 1) {
    x = as2d(c, x, "input");
    w = as2d(c, w, "filter");
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    outputPadding.insert(outputPadding.begin(), 0);
    padding.insert(padding.begin(), {0, 0});
  }
  options.strides = strides;
  options.dilations = dilations;
  options.padding = padding;
  options.outputPadding = outputPadding;
  MLOperand y = c.builder.convTranspose2d(x, w, options);
  if (n == 1) {
    auto shape = y.shape();
    shape.erase(shape.begin() + 2);
    y = c.builder.reshape(y, shape, {c.label() + "/1d"});
  }
  c.setOutput(0, y);
}

void gemm(Context& c) {
  MLGemmOptions options;
  options.label = c.label();
  options.alpha = c.attrFloat("alpha", 1.0f);
  options.beta = c.attrFloat("beta", 1.0f);
  options.aTranspose = c.attrInt("transA", 0) != 0;
  options.bTranspose = c.attrInt("transB", 0) != 0;
  if (c.hasInput(2)) options.c = c.input(2);
  c.setOutput(0, c.builder.gemm(c.input(0), c.input(1), options));
}

// numpy matmul: 1-D operands are promoted to matrices and the added dimension removed after.
void matmul(Context& c) {
  MLOperand a = c.input(0);
  MLOperand b = c.input(1);
  const bool vectorA = a.shape().size() == 1;
  const bool vectorB = b.shape().size() == 1;
  if (vectorA) a = c.builder.reshape(a, {1, a.shape()[0]}, {c.label() + "/a2d"});
  if (vectorB) b = c.builder.reshape(b, {b.shape()[0], 1}, {c.label() + "/b2d"});
  MLOperand y = c.builder.matmul(a, b, {c.label()});
  if (vectorA || vectorB) {
    auto shape = y.shape();
    if (vectorB) shape.erase(shape.end() - 1);
    if (vectorA) shape.erase(shape.end() - 1 - (vectorB ? 0 : 1));
    y = c.builder.reshape(y, shape, {c.label() + "/squeeze"});
  }
  c.setOutput(0, y);
}

}  // namespace

void addConvolutionOps(OpTable& t) {
  t["Conv"] = {conv};
  t["ConvTranspose"] = {convTranspose};
  t["Gemm"] = {gemm};
  t["MatMul"] = {matmul};
}

}  // namespace webnn::onnx_import
