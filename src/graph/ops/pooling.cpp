// averagePool2d, l2Pool2d, maxPool2d over nchw/nhwc inputs: window (default: the whole spatial
// extent), padding, strides, dilations, floor/ceil output rounding or explicit outputSizes.
#include "graph/ops/pooling.h"

#include <cmath>

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/conv2d.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validatePool2d(const OpCall& call, const MLOperandDescriptor& input,
                                   const MLPool2dOptions& requested, Pool2dAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  MLPool2dOptions options = requested;
  const SpatialShape in = spatialShapeOf(input.shape, options.layout);
  options.windowDimensions = resolveWindowOption(
      type, label, "windowDimensions",
      options.windowDimensions.value_or(std::vector<uint32_t>{in.height, in.width}), 2, 1, true);
  options.padding = resolveWindowOption(type, label, "padding", options.padding, 4, 0, false);
  options.strides = resolveWindowOption(type, label, "strides", options.strides, 2, 1, true);
  options.dilations = resolveWindowOption(type, label, "dilations", options.dilations, 2, 1, true);

  const uint32_t inputSizes[2] = {in.height, in.width};
  const char* dimensions[2] = {"height", "width"};
  uint32_t floorSizes[2], ceilSizes[2];
  for (size_t i = 0; i < 2; ++i) {
    const uint64_t window =
        effectiveWindowSize(type, label, (*options.windowDimensions)[i], options.dilations[i]);
    const uint64_t padded =
        static_cast<uint64_t>(inputSizes[i]) + options.padding[2 * i] + options.padding[2 * i + 1];
    if (padded < window) {
      fail(type, label,
           std::string("the dilated window ") + dimensions[i] + " (" + std::to_string(window) +
               ") exceeds the padded input " + dimensions[i] + " (" + std::to_string(padded) + ")");
    }
    const uint64_t stride = options.strides[i];
    floorSizes[i] = checkedDimension(type, label, (padded - window) / stride + 1);
    ceilSizes[i] = checkedDimension(type, label, (padded - window + stride - 1) / stride + 1);
  }
  if (options.outputSizes) {
    const auto& sizes = *options.outputSizes;
    if (sizes.size() != 2) {
      fail(type, label, "outputSizes must have 2 values, got " + shapeToString(sizes));
    }
    for (size_t i = 0; i < 2; ++i) {
      if (sizes[i] != floorSizes[i] && sizes[i] != ceilSizes[i]) {
        fail(type, label,
             "outputSizes " + shapeToString(sizes) + " must be the floor [" +
                 std::to_string(floorSizes[0]) + ", " + std::to_string(floorSizes[1]) +
                 "] or ceil [" + std::to_string(ceilSizes[0]) + ", " +
                 std::to_string(ceilSizes[1]) + "] output size");
      }
    }
  } else if (options.roundingType == MLRoundingType::Floor) {
    options.outputSizes = std::vector<uint32_t>{floorSizes[0], floorSizes[1]};
  } else {
    options.outputSizes = std::vector<uint32_t>{ceilSizes[0], ceilSizes[1]};
  }
  MLOperandDescriptor output{
      input.dataType, makeShape(options.layout, in.batches, in.channels, (*options.outputSizes)[0],
                                (*options.outputSizes)[1])};
  checkOperandLimits(call, "output", output);
  attributes.windowDimensions = toArray<2>(*options.windowDimensions);
  attributes.padding = toArray<4>(options.padding);
  attributes.strides = toArray<2>(options.strides);
  attributes.dilations = toArray<2>(options.dilations);
  attributes.layout = options.layout;
  attributes.roundingType = options.roundingType;
  attributes.outputSizes = toArray<2>(*options.outputSizes);
  return output;
}

void registerPoolingLimits(OpLimitsTable& table) {
  for (OpType type : {OpType::AveragePool2d, OpType::L2Pool2d, OpType::MaxPool2d}) {
    table.set(type, {{"input", rank(types::kFloat, 4, 4)}, {"output", rank(types::kFloat, 4, 4)}});
  }
}

namespace {
MLOperand pool(MLGraphBuilder& builder, OpType type, const MLOperand& input,
               const MLPool2dOptions& options) {
  OpBuilder op(builder, type, options.label, {&input});
  Pool2dAttributes attributes;
  auto output = validatePool2d(op.call(), input.descriptor(), options, attributes);
  return op.record({input}, attributes, output);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::averagePool2d(const MLOperand& input, const MLPool2dOptions& options) {
  return graph::pool(*this, graph::OpType::AveragePool2d, input, options);
}
MLOperand MLGraphBuilder::l2Pool2d(const MLOperand& input, const MLPool2dOptions& options) {
  return graph::pool(*this, graph::OpType::L2Pool2d, input, options);
}
MLOperand MLGraphBuilder::maxPool2d(const MLOperand& input, const MLPool2dOptions& options) {
  return graph::pool(*this, graph::OpType::MaxPool2d, input, options);
}

}  // namespace webnn
