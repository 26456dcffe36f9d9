// resample2d: nearest-neighbor or linear resampling of two axes of a 4-D tensor, by scales or by
// explicit sizes (sizes win when both are given).
#include "graph/ops/resample2d.h"

#include <cmath>

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateResample2d(const OpCall& call, const MLOperandDescriptor& input,
                                       const MLResample2dOptions& requested,
                                       Resample2dAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  MLResample2dOptions options = requested;
  const std::vector<uint32_t> axes = options.axes.value_or(std::vector<uint32_t>{2, 3});
  if (axes.size() != 2) fail(type, label, "axes must have 2 values, got " + shapeToString(axes));
  checkAxes(type, label, axes, input.shape.size());
  options.axes = axes;

  std::vector<uint32_t> shape = input.shape;
  std::vector<float> scales(2);
  if (options.sizes) {
    const auto& sizes = *options.sizes;
    if (sizes.size() != 2)
      fail(type, label, "sizes must have 2 values, got " + shapeToString(sizes));
    for (size_t i = 0; i < 2; ++i) {
      if (sizes[i] == 0) fail(type, label, "sizes must be > 0, got " + shapeToString(sizes));
      shape[axes[i]] = sizes[i];
      scales[i] = static_cast<float>(static_cast<double>(sizes[i]) / input.shape[axes[i]]);
    }
  } else {
    scales = options.scales.value_or(std::vector<float>{1.0f, 1.0f});
    if (scales.size() != 2) {
      fail(type, label, "scales must have 2 values, got " + std::to_string(scales.size()));
    }
    for (size_t i = 0; i < 2; ++i) {
      if (!(scales[i] > 0.0f) || !std::isfinite(scales[i])) {
        fail(type, label, "scales must be finite and > 0, got " + std::to_string(scales[i]));
      }
      const double size = std::floor(static_cast<double>(input.shape[axes[i]]) * scales[i]);
      if (size < 1.0 || size > 4294967295.0) {
        fail(type, label,
             "scale " + std::to_string(scales[i]) + " makes output dimension " +
                 std::to_string(axes[i]) + " " + std::to_string(size));
      }
      shape[axes[i]] = static_cast<uint32_t>(size);
    }
    options.sizes = std::vector<uint32_t>{shape[axes[0]], shape[axes[1]]};
  }
  options.scales = scales;
  MLOperandDescriptor output{input.dataType, shape};
  checkOperandLimits(call, "output", output);
  attributes.mode = options.mode;
  attributes.scales = {scales[0], scales[1]};
  attributes.sizes = {shape[axes[0]], shape[axes[1]]};
  attributes.axes = {axes[0], axes[1]};
  return output;
}

void registerResample2dLimits(OpLimitsTable& table) {
  table.set(OpType::Resample2d,
            {{"input", rank(types::kFloat, 4, 4)}, {"output", rank(types::kFloat, 4, 4)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::resample2d(const MLOperand& input, const MLResample2dOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Resample2d, options.label, {&input});
  graph::Resample2dAttributes attributes;
  auto output = graph::validateResample2d(op.call(), input.descriptor(), options, attributes);
  return op.record({input}, attributes, output);
}

}  // namespace webnn
