// convTranspose2d: the gradient of conv2d; nchw/nhwc inputs, iohw/hwoi/ohwi filters, groups,
// strides, dilations, padding, outputPadding or outputSizes, and an optional 1-D bias.
#include "graph/ops/conv_transpose2d.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/conv2d.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

ConvTranspose2dFilterShape convTranspose2dFilterShapeOf(
    const std::vector<uint32_t>& s, MLConvTranspose2dFilterOperandLayout layout) {
  switch (layout) {
    case MLConvTranspose2dFilterOperandLayout::Iohw:
      return {s[0], s[1], s[2], s[3]};
    case MLConvTranspose2dFilterOperandLayout::Hwoi:
      return {s[3], s[2], s[0], s[1]};
    case MLConvTranspose2dFilterOperandLayout::Ohwi:
      return {s[3], s[0], s[1], s[2]};
  }
  return {s[0], s[1], s[2], s[3]};
}

namespace {
// (input - 1) * stride + effectiveFilter - padding, before outputPadding; throws when negative.
uint64_t transposedSize(std::string_view type, std::string_view label, const char* dimension,
                        uint32_t input, uint64_t effectiveFilter, uint32_t beginPadding,
                        uint32_t endPadding, uint32_t stride) {
  const uint64_t full = (static_cast<uint64_t>(input) - 1) * stride + effectiveFilter;
  const uint64_t padding = static_cast<uint64_t>(beginPadding) + endPadding;
  if (full <= padding) {
    fail(type, label,
         std::string("the padding removes the whole output ") + dimension + " (" +
             std::to_string(full) + " before padding " + std::to_string(padding) + ")");
  }
  return full - padding;
}
}  // namespace

MLOperandDescriptor validateConvTranspose2d(const OpCall& call, const MLOperandDescriptor& input,
                                            const MLOperandDescriptor& filter,
                                            const std::optional<MLOperandDescriptor>& bias,
                                            const MLConvTranspose2dOptions& requested,
                                            ConvTranspose2dAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "filter", filter);
  checkSameDataType(type, label, "input", input, "filter", filter);
  MLConvTranspose2dOptions options = requested;
  options.padding = resolveWindowOption(type, label, "padding", options.padding, 4, 0, false);
  options.strides = resolveWindowOption(type, label, "strides", options.strides, 2, 1, true);
  options.dilations = resolveWindowOption(type, label, "dilations", options.dilations, 2, 1, true);
  options.outputPadding =
      resolveWindowOption(type, label, "outputPadding", options.outputPadding, 2, 0, false);
  if (options.groups == 0) fail(type, label, "groups must be >= 1");
  for (size_t i = 0; i < 2; ++i) {
    if (options.outputPadding[i] >= options.strides[i]) {
      fail(type, label,
           "outputPadding " + shapeToString(options.outputPadding) +
               " must be smaller than strides " + shapeToString(options.strides));
    }
  }

  const SpatialShape in = spatialShapeOf(input.shape, options.inputLayout);
  const ConvTranspose2dFilterShape f =
      convTranspose2dFilterShapeOf(filter.shape, options.filterLayout);
  if (in.channels != f.inputChannels) {
    fail(type, label,
         "the input channels (" + std::to_string(in.channels) +
             ") must equal the filter's input channels (" + std::to_string(f.inputChannels) +
             "), filter shape " + shapeToString(filter.shape));
  }
  if (in.channels % options.groups != 0) {
    fail(type, label,
         "the input channels (" + std::to_string(in.channels) + ") are not divisible by groups (" +
             std::to_string(options.groups) + ")");
  }
  const uint32_t outputChannels = checkedDimension(
      type, label, static_cast<uint64_t>(f.outputChannelsPerGroup) * options.groups);
  if (bias) {
    checkOperandLimits(call, "bias", *bias);
    checkSameDataType(type, label, "input", input, "bias", *bias);
    if (bias->shape != std::vector<uint32_t>{outputChannels}) {
      fail(type, label,
           "bias must have shape [" + std::to_string(outputChannels) + "] (output channels), got " +
               shapeToString(bias->shape));
    }
  }
  const uint64_t effectiveHeight = effectiveWindowSize(type, label, f.height, options.dilations[0]);
  const uint64_t effectiveWidth = effectiveWindowSize(type, label, f.width, options.dilations[1]);
  const uint64_t height =
      transposedSize(type, label, "height", in.height, effectiveHeight, options.padding[0],
                     options.padding[1], options.strides[0]);
  const uint64_t width = transposedSize(type, label, "width", in.width, effectiveWidth,
                                        options.padding[2], options.padding[3], options.strides[1]);
  const uint64_t calculated[2] = {height, width};
  if (options.outputSizes) {
    const auto& sizes = *options.outputSizes;
    if (sizes.size() != 2) {
      fail(type, label, "outputSizes must have 2 values, got " + shapeToString(sizes));
    }
    for (size_t i = 0; i < 2; ++i) {
      if (sizes[i] < calculated[i] || sizes[i] >= calculated[i] + options.strides[i]) {
        fail(type, label,
             "outputSizes " + shapeToString(sizes) + " must be within [calculated, calculated + " +
                 "stride) of the calculated size [" + std::to_string(height) + ", " +
                 std::to_string(width) + "]");
      }
      options.outputPadding[i] = static_cast<uint32_t>(sizes[i] - calculated[i]);
    }
  } else {
    options.outputSizes =
        std::vector<uint32_t>{checkedDimension(type, label, height + options.outputPadding[0]),
                              checkedDimension(type, label, width + options.outputPadding[1])};
  }
  MLOperandDescriptor output{input.dataType,
                             makeShape(options.inputLayout, in.batches, outputChannels,
                                       (*options.outputSizes)[0], (*options.outputSizes)[1])};
  checkOperandLimits(call, "output", output);
  attributes.padding = toArray<4>(options.padding);
  attributes.strides = toArray<2>(options.strides);
  attributes.dilations = toArray<2>(options.dilations);
  attributes.outputPadding = toArray<2>(options.outputPadding);
  attributes.outputSizes = toArray<2>(*options.outputSizes);
  attributes.groups = options.groups;
  attributes.inputLayout = options.inputLayout;
  attributes.filterLayout = options.filterLayout;
  return output;
}

void registerConvTranspose2dLimits(OpLimitsTable& table) {
  table.set(OpType::ConvTranspose2d, {{"input", rank(types::kFloat, 4, 4)},
                                      {"filter", rank(types::kFloat, 4, 4)},
                                      {"bias", rank(types::kFloat, 1, 1)},
                                      {"output", rank(types::kFloat, 4, 4)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::convTranspose2d(const MLOperand& input, const MLOperand& filter,
                                          const MLConvTranspose2dOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::ConvTranspose2d, options.label, {&input, &filter},
                      {&options.bias});
  std::optional<MLOperandDescriptor> bias;
  if (options.bias) bias = options.bias->descriptor();
  graph::ConvTranspose2dAttributes attributes;
  auto output = graph::validateConvTranspose2d(op.call(), input.descriptor(), filter.descriptor(),
                                               bias, options, attributes);
  attributes.bias = graph::operandId(options.bias);
  return op.record({input, filter, options.bias}, attributes, output);
}

}  // namespace webnn
