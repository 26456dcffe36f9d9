// gather, gatherElements, gatherND, scatterElements, scatterND: validation, limits and builder
// methods. Index values are checked at compute time only (kernels clamp; negatives wrap once).
#include "graph/ops/gather_scatter.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/shape_ops.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {
namespace {

void checkAxis(std::string_view type, std::string_view label, uint32_t axis, size_t rank) {
  if (axis >= rank) {
    fail(
        type, label,
        "axis " + std::to_string(axis) + " is out of range for input rank " + std::to_string(rank));
  }
}

// gatherElements / scatterElements: indices has the input's shape except along `axis`.
void checkElementsIndices(std::string_view type, std::string_view label,
                          const MLOperandDescriptor& input, const MLOperandDescriptor& indices,
                          uint32_t axis) {
  if (indices.shape.size() != input.shape.size()) {
    fail(type, label,
         "indices " + shapeToString(indices.shape) + " must have the rank of input " +
             shapeToString(input.shape));
  }
  checkAxis(type, label, axis, input.shape.size());
  for (size_t d = 0; d < input.shape.size(); ++d) {
    if (d != axis && indices.shape[d] != input.shape[d]) {
      fail(type, label,
           "indices " + shapeToString(indices.shape) + " differs from input " +
               shapeToString(input.shape) + " in dimension " + std::to_string(d) +
               ", which is not the axis");
    }
  }
}

// gatherND / scatterND: the shape indices address, indices.shape[:-1] + input.shape[k:].
std::vector<uint32_t> ndShape(std::string_view type, std::string_view label,
                              const MLOperandDescriptor& input,
                              const MLOperandDescriptor& indices) {
  const uint32_t coordinateSize = indices.shape.back();
  if (coordinateSize > input.shape.size()) {
    fail(type, label,
         "the last dimension of indices " + shapeToString(indices.shape) +
             " exceeds the rank of input " + shapeToString(input.shape));
  }
  std::vector<uint32_t> shape(indices.shape.begin(), indices.shape.end() - 1);
  shape.insert(shape.end(), input.shape.begin() + coordinateSize, input.shape.end());
  return shape;
}

}  // namespace

MLOperandDescriptor validateGather(std::string_view label, const MLOperandDescriptor& input,
                                   const MLOperandDescriptor& indices, uint32_t axis) {
  constexpr std::string_view type = "gather";
  checkOperandLimits(type, label, "input", input);
  checkOperandLimits(type, label, "indices", indices);
  checkAxis(type, label, axis, input.shape.size());
  MLOperandDescriptor output{input.dataType, {}};
  output.shape.assign(input.shape.begin(), input.shape.begin() + axis);
  output.shape.insert(output.shape.end(), indices.shape.begin(), indices.shape.end());
  output.shape.insert(output.shape.end(), input.shape.begin() + axis + 1, input.shape.end());
  checkOutputDescriptor(type, label, output);
  return output;
}

MLOperandDescriptor validateGatherElements(std::string_view label, const MLOperandDescriptor& input,
                                           const MLOperandDescriptor& indices, uint32_t axis) {
  constexpr std::string_view type = "gatherElements";
  checkOperandLimits(type, label, "input", input);
  checkOperandLimits(type, label, "indices", indices);
  checkElementsIndices(type, label, input, indices, axis);
  return {input.dataType, indices.shape};
}

MLOperandDescriptor validateGatherND(std::string_view label, const MLOperandDescriptor& input,
                                     const MLOperandDescriptor& indices) {
  constexpr std::string_view type = "gatherND";
  checkOperandLimits(type, label, "input", input);
  checkOperandLimits(type, label, "indices", indices);
  MLOperandDescriptor output{input.dataType, ndShape(type, label, input, indices)};
  checkOutputDescriptor(type, label, output);
  return output;
}

MLOperandDescriptor validateScatterElements(std::string_view label,
                                            const MLOperandDescriptor& input,
                                            const MLOperandDescriptor& indices,
                                            const MLOperandDescriptor& updates, uint32_t axis) {
  constexpr std::string_view type = "scatterElements";
  checkOperandLimits(type, label, "input", input);
  checkOperandLimits(type, label, "indices", indices);
  checkOperandLimits(type, label, "updates", updates);
  checkSameDataType(type, label, "input", input, "updates", updates);
  checkElementsIndices(type, label, input, indices, axis);
  if (updates.shape != indices.shape) {
    fail(type, label,
         "updates " + shapeToString(updates.shape) + " must have the shape of indices " +
             shapeToString(indices.shape));
  }
  return input;
}

MLOperandDescriptor validateScatterND(std::string_view label, const MLOperandDescriptor& input,
                                      const MLOperandDescriptor& indices,
                                      const MLOperandDescriptor& updates) {
  constexpr std::string_view type = "scatterND";
  checkOperandLimits(type, label, "input", input);
  checkOperandLimits(type, label, "indices", indices);
  checkOperandLimits(type, label, "updates", updates);
  checkSameDataType(type, label, "input", input, "updates", updates);
  const auto expected = ndShape(type, label, input, indices);
  if (updates.shape != expected) {
    fail(type, label,
         "updates " + shapeToString(updates.shape) + " must have shape " + shapeToString(expected) +
             " (indices.shape[:-1] + input.shape[indices.shape[-1]:])");
  }
  return input;
}

namespace {
[[maybe_unused]] const bool registered = [] {
  registerOpLimits("gather", {{"input", rank(types::kAll, 1, kMaxRank)},
                              {"indices", anyRank(types::kIndices)},
                              {"output", anyRank(types::kAll)}});
  for (const char* type : {"gatherElements", "gatherND"}) {
    registerOpLimits(type, {{"input", rank(types::kAll, 1, kMaxRank)},
                            {"indices", rank(types::kIndices, 1, kMaxRank)},
                            {"output", anyRank(types::kAll)}});
  }
  for (const char* type : {"scatterElements", "scatterND"}) {
    registerOpLimits(type, {{"input", rank(types::kAll, 1, kMaxRank)},
                            {"indices", rank(types::kIndices, 1, kMaxRank)},
                            {"updates", anyRank(types::kAll)},
                            {"output", rank(types::kAll, 1, kMaxRank)}});
  }
  return true;
}();
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::gather(const MLOperand& input, const MLOperand& indices,
                                 const MLGatherOptions& options) {
  auto& state = graph::beginOp(*this, "gather", options.label, {&input, &indices});
  auto output =
      graph::validateGather(options.label, input.descriptor(), indices.descriptor(), options.axis);
  return state.addOperation("gather", options.label, {input, indices}, options, output);
}

MLOperand MLGraphBuilder::gatherElements(const MLOperand& input, const MLOperand& indices,
                                         const MLGatherOptions& options) {
  auto& state = graph::beginOp(*this, "gatherElements", options.label, {&input, &indices});
  auto output = graph::validateGatherElements(options.label, input.descriptor(),
                                              indices.descriptor(), options.axis);
  return state.addOperation("gatherElements", options.label, {input, indices}, options, output);
}

MLOperand MLGraphBuilder::gatherND(const MLOperand& input, const MLOperand& indices,
                                   const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "gatherND", options.label, {&input, &indices});
  auto output = graph::validateGatherND(options.label, input.descriptor(), indices.descriptor());
  return state.addOperation("gatherND", options.label, {input, indices}, {}, output);
}

MLOperand MLGraphBuilder::scatterElements(const MLOperand& input, const MLOperand& indices,
                                          const MLOperand& updates,
                                          const MLScatterOptions& options) {
  auto& state =
      graph::beginOp(*this, "scatterElements", options.label, {&input, &indices, &updates});
  auto output = graph::validateScatterElements(
      options.label, input.descriptor(), indices.descriptor(), updates.descriptor(), options.axis);
  return state.addOperation("scatterElements", options.label, {input, indices, updates}, options,
                            output);
}

MLOperand MLGraphBuilder::scatterND(const MLOperand& input, const MLOperand& indices,
                                    const MLOperand& updates, const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "scatterND", options.label, {&input, &indices, &updates});
  auto output = graph::validateScatterND(options.label, input.descriptor(), indices.descriptor(),
                                         updates.descriptor());
  return state.addOperation("scatterND", options.label, {input, indices, updates}, {}, output);
}

}  // namespace webnn
