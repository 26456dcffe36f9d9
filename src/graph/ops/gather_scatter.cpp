// gather, gatherElements, gatherND, scatterElements, scatterND: validation, limits and builder
// methods. Index values are checked at compute time only (kernels clamp; negatives wrap once).
#include "graph/ops/gather_scatter.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
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

MLOperandDescriptor validateGather(const OpCall& call, const MLOperandDescriptor& input,
                                   const MLOperandDescriptor& indices, uint32_t axis) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "indices", indices);
  checkAxis(type, label, axis, input.shape.size());
  MLOperandDescriptor output{input.dataType, {}};
  output.shape.assign(input.shape.begin(), input.shape.begin() + axis);
  output.shape.insert(output.shape.end(), indices.shape.begin(), indices.shape.end());
  output.shape.insert(output.shape.end(), input.shape.begin() + axis + 1, input.shape.end());
  checkOutputDescriptor(call, output);
  return output;
}

MLOperandDescriptor validateGatherElements(const OpCall& call, const MLOperandDescriptor& input,
                                           const MLOperandDescriptor& indices, uint32_t axis) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "indices", indices);
  checkElementsIndices(type, label, input, indices, axis);
  return {input.dataType, indices.shape};
}

MLOperandDescriptor validateGatherND(const OpCall& call, const MLOperandDescriptor& input,
                                     const MLOperandDescriptor& indices) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "indices", indices);
  MLOperandDescriptor output{input.dataType, ndShape(type, label, input, indices)};
  checkOutputDescriptor(call, output);
  return output;
}

MLOperandDescriptor validateScatterElements(const OpCall& call, const MLOperandDescriptor& input,
                                            const MLOperandDescriptor& indices,
                                            const MLOperandDescriptor& updates, uint32_t axis) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "indices", indices);
  checkOperandLimits(call, "updates", updates);
  checkSameDataType(type, label, "input", input, "updates", updates);
  checkElementsIndices(type, label, input, indices, axis);
  if (updates.shape != indices.shape) {
    fail(type, label,
         "updates " + shapeToString(updates.shape) + " must have the shape of indices " +
             shapeToString(indices.shape));
  }
  return input;
}

MLOperandDescriptor validateScatterND(const OpCall& call, const MLOperandDescriptor& input,
                                      const MLOperandDescriptor& indices,
                                      const MLOperandDescriptor& updates) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "indices", indices);
  checkOperandLimits(call, "updates", updates);
  checkSameDataType(type, label, "input", input, "updates", updates);
  const auto expected = ndShape(type, label, input, indices);
  if (updates.shape != expected) {
    fail(type, label,
         "updates " + shapeToString(updates.shape) + " must have shape " + shapeToString(expected) +
             " (indices.shape[:-1] + input.shape[indices.shape[-1]:])");
  }
  return input;
}

void registerGatherScatterLimits(OpLimitsTable& table) {
  table.set(OpType::Gather, {{"input", rank(types::kAll, 1, kMaxRank)},
                             {"indices", anyRank(types::kIndices)},
                             {"output", anyRank(types::kAll)}});
  for (OpType type : {OpType::GatherElements, OpType::GatherND}) {
    table.set(type, {{"input", rank(types::kAll, 1, kMaxRank)},
                     {"indices", rank(types::kIndices, 1, kMaxRank)},
                     {"output", anyRank(types::kAll)}});
  }
  for (OpType type : {OpType::ScatterElements, OpType::ScatterND}) {
    table.set(type, {{"input", rank(types::kAll, 1, kMaxRank)},
                     {"indices", rank(types::kIndices, 1, kMaxRank)},
                     {"updates", anyRank(types::kAll)},
                     {"output", rank(types::kAll, 1, kMaxRank)}});
  }
}

}  // namespace graph

MLOperand MLGraphBuilder::gather(const MLOperand& input, const MLOperand& indices,
                                 const MLGatherOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Gather, options.label, {&input, &indices});
  auto output =
      graph::validateGather(op.call(), input.descriptor(), indices.descriptor(), options.axis);
  return op.record({input, indices}, graph::GatherAttributes{options.axis}, output);
}

MLOperand MLGraphBuilder::gatherElements(const MLOperand& input, const MLOperand& indices,
                                         const MLGatherOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::GatherElements, options.label, {&input, &indices});
  auto output = graph::validateGatherElements(op.call(), input.descriptor(), indices.descriptor(),
                                              options.axis);
  return op.record({input, indices}, graph::GatherAttributes{options.axis}, output);
}

MLOperand MLGraphBuilder::gatherND(const MLOperand& input, const MLOperand& indices,
                                   const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::GatherND, options.label, {&input, &indices});
  auto output = graph::validateGatherND(op.call(), input.descriptor(), indices.descriptor());
  return op.record({input, indices}, {}, output);
}

MLOperand MLGraphBuilder::scatterElements(const MLOperand& input, const MLOperand& indices,
                                          const MLOperand& updates,
                                          const MLScatterOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::ScatterElements, options.label,
                      {&input, &indices, &updates});
  auto output = graph::validateScatterElements(op.call(), input.descriptor(), indices.descriptor(),
                                               updates.descriptor(), options.axis);
  return op.record({input, indices, updates}, graph::ScatterAttributes{options.axis}, output);
}

MLOperand MLGraphBuilder::scatterND(const MLOperand& input, const MLOperand& indices,
                                    const MLOperand& updates, const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::ScatterND, options.label, {&input, &indices, &updates});
  auto output = graph::validateScatterND(op.call(), input.descriptor(), indices.descriptor(),
                                         updates.descriptor());
  return op.record({input, indices, updates}, {}, output);
}

}  // namespace webnn
