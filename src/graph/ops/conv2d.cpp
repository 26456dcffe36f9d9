// conv2d: 2-D convolution over nchw/nhwc inputs with oihw/hwio/ohwi/ihwo filters, groups
// (depthwise included), strides, dilations, explicit padding and an optional 1-D bias.
#include "graph/ops/conv2d.h"

#include <limits>

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

std::vector<uint32_t> resolveWindowOption(std::string_view type, std::string_view label,
                                          std::string_view name,
                                          const std::vector<uint32_t>& values, size_t size,
                                          uint32_t fallback, bool positive) {
  if (values.empty()) return std::vector<uint32_t>(size, fallback);
  if (values.size() != size) {
    fail(type, label,
         std::string(name) + " must have " + std::to_string(size) + " values, got " +
             shapeToString(values));
  }
  if (positive) {
    for (uint32_t value : values) {
      if (value == 0)
        fail(type, label, std::string(name) + " must be >= 1, got " + shapeToString(values));
    }
  }
  return values;
}

uint64_t effectiveWindowSize(std::string_view type, std::string_view label, uint32_t size,
                             uint32_t dilation) {
  const uint64_t effective = (static_cast<uint64_t>(size) - 1) * dilation + 1;
  if (effective > std::numeric_limits<uint32_t>::max()) {
    fail(type, label,
         "the dilated window size (" + std::to_string(size) + " with dilation " +
             std::to_string(dilation) + ") overflows");
  }
  return effective;
}

SpatialShape spatialShapeOf(const std::vector<uint32_t>& shape, MLInputOperandLayout layout) {
  if (layout == MLInputOperandLayout::Nchw) return {shape[0], shape[1], shape[2], shape[3]};
  return {shape[0], shape[3], shape[1], shape[2]};
}

std::vector<uint32_t> makeShape(MLInputOperandLayout layout, uint32_t batches, uint32_t channels,
                                uint32_t height, uint32_t width) {
  if (layout == MLInputOperandLayout::Nchw) return {batches, channels, height, width};
  return {batches, height, width, channels};
}

Conv2dFilterShape conv2dFilterShapeOf(const std::vector<uint32_t>& s,
                                      MLConv2dFilterOperandLayout layout) {
  switch (layout) {
    case MLConv2dFilterOperandLayout::Oihw:
      return {s[0], s[1], s[2], s[3]};
    case MLConv2dFilterOperandLayout::Hwio:
      return {s[3], s[2], s[0], s[1]};
    case MLConv2dFilterOperandLayout::Ohwi:
      return {s[0], s[3], s[1], s[2]};
    case MLConv2dFilterOperandLayout::Ihwo:
      return {s[3], s[0], s[1], s[2]};
  }
  return {s[0], s[1], s[2], s[3]};
}

namespace {
// floor((input - effectiveFilter + padding) / stride) + 1; throws when the window does not fit.
uint32_t convOutputSize(std::string_view type, std::string_view label, const char* dimension,
                        uint32_t input, uint64_t effectiveFilter, uint32_t beginPadding,
                        uint32_t endPadding, uint32_t stride) {
  const uint64_t padded = static_cast<uint64_t>(input) + beginPadding + endPadding;
  if (padded < effectiveFilter) {
    fail(type, label,
         std::string("the dilated filter ") + dimension + " (" + std::to_string(effectiveFilter) +
             ") exceeds the padded input " + dimension + " (" + std::to_string(padded) + ")");
  }
  return checkedDimension(type, label, (padded - effectiveFilter) / stride + 1);
}
}  // namespace

MLOperandDescriptor validateConv2d(const OpCall& call, const MLOperandDescriptor& input,
                                   const MLOperandDescriptor& filter,
                                   const std::optional<MLOperandDescriptor>& bias,
                                   const MLConv2dOptions& requested, Conv2dAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "filter", filter);
  checkSameDataType(type, label, "input", input, "filter", filter);
  MLConv2dOptions options = requested;
  options.padding = resolveWindowOption(type, label, "padding", options.padding, 4, 0, false);
  options.strides = resolveWindowOption(type, label, "strides", options.strides, 2, 1, true);
  options.dilations = resolveWindowOption(type, label, "dilations", options.dilations, 2, 1, true);
  if (options.groups == 0) fail(type, label, "groups must be >= 1");

  const SpatialShape in = spatialShapeOf(input.shape, options.inputLayout);
  const Conv2dFilterShape f = conv2dFilterShapeOf(filter.shape, options.filterLayout);
  if (in.channels % options.groups != 0) {
    fail(type, label,
         "the input channels (" + std::to_string(in.channels) + ") are not divisible by groups (" +
             std::to_string(options.groups) + ")");
  }
  if (in.channels / options.groups != f.inputChannels) {
    fail(type, label,
         "input channels / groups (" + std::to_string(in.channels / options.groups) +
             ") must equal the filter's input channels (" + std::to_string(f.inputChannels) +
             "), filter shape " + shapeToString(filter.shape));
  }
  if (f.outputChannels % options.groups != 0) {
    fail(type, label,
         "the filter's output channels (" + std::to_string(f.outputChannels) +
             ") are not divisible by groups (" + std::to_string(options.groups) + ")");
  }
  if (bias) {
    checkOperandLimits(call, "bias", *bias);
    checkSameDataType(type, label, "input", input, "bias", *bias);
    if (bias->shape != std::vector<uint32_t>{f.outputChannels}) {
      fail(type, label,
           "bias must have shape [" + std::to_string(f.outputChannels) +
               "] (output channels), got " + shapeToString(bias->shape));
    }
  }
  const uint64_t effectiveHeight = effectiveWindowSize(type, label, f.height, options.dilations[0]);
  const uint64_t effectiveWidth = effectiveWindowSize(type, label, f.width, options.dilations[1]);
  const uint32_t outputHeight =
      convOutputSize(type, label, "height", in.height, effectiveHeight, options.padding[0],
                     options.padding[1], options.strides[0]);
  const uint32_t outputWidth =
      convOutputSize(type, label, "width", in.width, effectiveWidth, options.padding[2],
                     options.padding[3], options.strides[1]);
  MLOperandDescriptor output{
      input.dataType,
      makeShape(options.inputLayout, in.batches, f.outputChannels, outputHeight, outputWidth)};
  checkOperandLimits(call, "output", output);
  attributes.padding = toArray<4>(options.padding);
  attributes.strides = toArray<2>(options.strides);
  attributes.dilations = toArray<2>(options.dilations);
  attributes.groups = options.groups;
  attributes.inputLayout = options.inputLayout;
  attributes.filterLayout = options.filterLayout;
  return output;
}

void registerConv2dLimits(OpLimitsTable& table) {
  table.set(OpType::Conv2d, {{"input", rank(types::kFloat, 4, 4)},
                             {"filter", rank(types::kFloat, 4, 4)},
                             {"bias", rank(types::kFloat, 1, 1)},
                             {"output", rank(types::kFloat, 4, 4)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::conv2d(const MLOperand& input, const MLOperand& filter,
                                 const MLConv2dOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Conv2d, options.label, {&input, &filter},
                      {&options.bias});
  std::optional<MLOperandDescriptor> bias;
  if (options.bias) bias = options.bias->descriptor();
  graph::Conv2dAttributes attributes;
  auto output = graph::validateConv2d(op.call(), input.descriptor(), filter.descriptor(), bias,
                                      options, attributes);
  attributes.bias = graph::operandId(options.bias);
  return op.record({input, filter, options.bias}, attributes, output);
}

}  // namespace webnn
