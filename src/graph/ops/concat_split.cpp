// concat and split: validation, limits and builder methods.
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/ops/shape_ops.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateConcat(const OpCall& call,
                                   const std::vector<MLOperandDescriptor>& inputs, uint32_t axis) {
  const std::string_view type = call.name(), label = call.label;
  if (inputs.empty()) fail(type, label, "inputs must not be empty");
  const MLOperandDescriptor& first = inputs.front();
  for (const auto& input : inputs) checkOperandLimits(call, "inputs", input);
  const size_t rank = first.shape.size();
  if (axis >= rank) {
    fail(type, label,
         "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  uint64_t axisSize = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& input = inputs[i];
    const std::string name = "inputs[" + std::to_string(i) + "]";
    checkSameDataType(type, label, "inputs[0]", first, name, input);
    if (input.shape.size() != rank) {
      fail(type, label,
           name + " " + shapeToString(input.shape) + " must have the rank of inputs[0] " +
               shapeToString(first.shape));
    }
    for (size_t d = 0; d < rank; ++d) {
      if (d != axis && input.shape[d] != first.shape[d]) {
        fail(type, label,
             name + " " + shapeToString(input.shape) + " differs from inputs[0] " +
                 shapeToString(first.shape) + " in dimension " + std::to_string(d) +
                 ", which is not the axis");
      }
    }
    axisSize += input.shape[axis];
  }
  MLOperandDescriptor output = first;
  output.shape[axis] = checkedDimension(type, label, axisSize);
  checkOutputDescriptor(call, output);
  return output;
}

std::vector<uint32_t> splitSizes(const OpCall& call, const MLOperandDescriptor& input,
                                 uint32_t splits, uint32_t axis) {
  const std::string_view type = call.name(), label = call.label;
  const size_t rank = input.shape.size();
  if (axis >= rank) {
    fail(type, label,
         "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  if (splits == 0) fail(type, label, "splits must be greater than 0");
  if (splits > kMaxSplitOutputs) {
    fail(type, label,
         "splits " + std::to_string(splits) + " is more than the " +
             std::to_string(kMaxSplitOutputs) + " outputs a split may have");
  }
  if (input.shape[axis] % splits != 0) {
    fail(type, label,
         "splits " + std::to_string(splits) + " does not evenly divide dimension " +
             std::to_string(input.shape[axis]) + " of axis " + std::to_string(axis));
  }
  return std::vector<uint32_t>(splits, input.shape[axis] / splits);
}

std::vector<MLOperandDescriptor> validateSplit(const OpCall& call, const MLOperandDescriptor& input,
                                               const std::vector<uint32_t>& sizes, uint32_t axis) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  const size_t rank = input.shape.size();
  if (axis >= rank) {
    fail(type, label,
         "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  if (sizes.empty()) fail(type, label, "splits must not be empty");
  if (sizes.size() > kMaxSplitOutputs) {
    fail(type, label,
         "splits has " + std::to_string(sizes.size()) + " sizes, more than the " +
             std::to_string(kMaxSplitOutputs) + " outputs a split may have");
  }
  uint64_t sum = 0;
  std::vector<MLOperandDescriptor> outputs;
  for (uint32_t size : sizes) {
    if (size == 0) fail(type, label, "splits " + shapeToString(sizes) + " has a value of 0");
    sum += size;
    MLOperandDescriptor output = input;
    output.shape[axis] = size;
    outputs.push_back(std::move(output));
  }
  if (sum != input.shape[axis]) {
    fail(type, label,
         "splits " + shapeToString(sizes) + " sum to " + std::to_string(sum) +
             ", not to dimension " + std::to_string(input.shape[axis]) + " of axis " +
             std::to_string(axis));
  }
  return outputs;
}

void registerConcatSplitLimits(OpLimitsTable& table) {
  table.set(OpType::Concat, {{"inputs", rank(types::kAll, 1, kMaxRank)},
                             {"output", rank(types::kAll, 1, kMaxRank)}});
  table.set(OpType::Split, {{"input", rank(types::kAll, 1, kMaxRank)},
                            {"outputs", rank(types::kAll, 1, kMaxRank)}});
}

namespace {
std::vector<MLOperand> split(MLGraphBuilder& builder, const MLOperand& input,
                             const std::vector<uint32_t>* sizes, uint32_t count,
                             const MLSplitOptions& options) {
  OpBuilder op(builder, OpType::Split, options.label, {&input});
  checkOperandLimits(op.call(), "input", input.descriptor());
  SplitAttributes attributes{
      options.axis,
      sizes ? *sizes : splitSizes(op.call(), input.descriptor(), count, options.axis)};
  auto outputs = validateSplit(op.call(), input.descriptor(), attributes.sizes, options.axis);
  return op.record({input}, std::move(attributes), outputs);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::concat(const std::vector<MLOperand>& inputs, uint32_t axis,
                                 const MLOperatorOptions& options) {
  // The inputs are a sequence: checked here, one by one, after the builder.
  graph::OpBuilder op(*this, graph::OpType::Concat, options.label,
                      std::initializer_list<const MLOperand*>{});
  const std::string name = graph::opName(op.call().name(), options.label);
  std::vector<MLOperandDescriptor> descriptors;
  std::vector<std::optional<MLOperand>> operands;
  for (const auto& input : inputs) {
    state().checkOperand(input, name);
    descriptors.push_back(input.descriptor());
    operands.emplace_back(input);
  }
  auto output = graph::validateConcat(op.call(), descriptors, axis);
  return op.record(operands, graph::ConcatAttributes{axis}, output);
}

std::vector<MLOperand> MLGraphBuilder::split(const MLOperand& input, uint32_t splits,
                                             const MLSplitOptions& options) {
  return graph::split(*this, input, nullptr, splits, options);
}

std::vector<MLOperand> MLGraphBuilder::split(const MLOperand& input,
                                             const std::vector<uint32_t>& splits,
                                             const MLSplitOptions& options) {
  return graph::split(*this, input, &splits, 0, options);
}

}  // namespace webnn
