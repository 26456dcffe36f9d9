// Pooling ONNX ops: GlobalAveragePool, GlobalMaxPool, AveragePool, MaxPool (2-D).
#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

using Pool = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLPool2dOptions&);

template <Pool op>
void globalPool(Context& c) {
  MLOperand x = c.input(0);
  if (x.shape().size() != 4) c.fail("only 4-D inputs are supported");
  MLPool2dOptions options;
  options.label = c.label();
  c.setOutput(0, (c.builder.*op)(x, options));
}

template <Pool op, bool kAverage>
void pool(Context& c) {
  MLOperand x = c.input(0);
  if (x.shape().size() != 4) c.fail("only 2-D pooling (4-D inputs) is supported");
  const auto kernel64 = c.attrInts("kernel_shape");
  if (!kernel64 || kernel64->size() != 2) c.failData("kernel_shape must have 2 values");
  const auto kernel = toU32(c, *kernel64, "kernel_shape");
  std::vector<uint32_t> strides{1, 1}, dilations{1, 1};
  if (auto s = c.attrInts("strides")) strides = toU32(c, *s, "strides");
  if (auto d = c.attrInts("dilations")) dilations = toU32(c, *d, "dilations");
  if (strides.size() != 2 || dilations.size() != 2) c.failData("strides/dilations need 2 values");
  std::vector<uint32_t> in{x.shape()[2], x.shape()[3]};
  std::vector<uint32_t> dilated{(kernel[0] - 1) * dilations[0] + 1,
                                (kernel[1] - 1) * dilations[1] + 1};
  auto padding = convPadding(c, in, dilated, strides);

  MLPool2dOptions options;
  options.label = c.label();
  options.windowDimensions = kernel;
  options.strides = strides;
  options.dilations = dilations;
  const bool anyPadding = padding != std::vector<uint32_t>(4, 0);
  if (kAverage && c.attrInt("count_include_pad", 0) != 0 && anyPadding) {
    // Padding counts: pad with zeros explicitly, then pool over the padded input.
    MLPadOptions padOptions;
    padOptions.label = c.label() + "/pad";
    x = c.builder.pad(x, {0, 0, padding[0], padding[2]}, {0, 0, padding[1], padding[3]},
                      padOptions);
    for (size_t i = 0; i < 2; ++i) {
      in[i] += padding[2 * i] + padding[2 * i + 1];
      padding[2 * i] = padding[2 * i + 1] = 0;
    }
  }
  options.padding = padding;
  if (c.attrInt("ceil_mode", 0) != 0) {
    // ONNX Runtime's rule: ceil, but the last window must start inside the input or left padding.
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
  c.setOutput(0, (c.builder.*op)(x, options));
}

std::string checkMaxPool(const ::onnx::NodeProto& node, int64_t) {
  if (node.output_size() > 1 && !node.output(1).empty()) return "Indices output";
  if (intAttribute(node, "storage_order", 0) != 0) return "storage_order=1";
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
