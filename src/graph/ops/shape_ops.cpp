// reshape, transpose, expand, tile, reverse, triangular: validation, limits and builder methods.
#include "graph/ops/shape_ops.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

void checkOutputDescriptor(const OpCall& call, const MLOperandDescriptor& output) {
  checkOperandLimits(call, "output", output);
  try {
    (void)output.byteLength();
  } catch (const Error&) {
    fail(call.name(), call.label, "the output " + shapeToString(output.shape) + " is too large");
  }
}

MLOperandDescriptor validateReshape(const OpCall& call, const MLOperandDescriptor& input,
                                    const std::vector<uint32_t>& newShape) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  const uint64_t total = input.elementCount();
  uint64_t count = 1;
  bool tooMany = false;
  for (uint32_t dimension : newShape) {
    if (dimension == 0) {
      fail(type, label, "newShape " + shapeToString(newShape) + " has a dimension of 0");
    }
    if (count > total / dimension) tooMany = true;  // count * dimension > total, no overflow
    if (!tooMany) count *= dimension;
  }
  if (tooMany || count != total) {
    fail(type, label,
         "newShape " + shapeToString(newShape) + " does not hold the " +
             std::to_string(input.elementCount()) + " elements of input " +
             shapeToString(input.shape));
  }
  MLOperandDescriptor output{input.dataType, newShape};
  checkOutputDescriptor(call, output);
  return output;
}

MLOperandDescriptor validateTranspose(const OpCall& call, const MLOperandDescriptor& input,
                                      const MLTransposeOptions& options,
                                      TransposeAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  const size_t rank = input.shape.size();
  if (options.permutation) {
    attributes.permutation = *options.permutation;
  } else {
    attributes.permutation.resize(rank);
    for (size_t i = 0; i < rank; ++i) {
      attributes.permutation[i] = static_cast<uint32_t>(rank - 1 - i);
    }
  }
  const auto& permutation = attributes.permutation;
  if (permutation.size() != rank) {
    fail(type, label,
         "permutation " + shapeToString(permutation) + " must have " + std::to_string(rank) +
             " values (the input's rank)");
  }
  checkAxes(type, label, permutation, rank);
  MLOperandDescriptor output{input.dataType, std::vector<uint32_t>(rank)};
  for (size_t i = 0; i < rank; ++i) output.shape[i] = input.shape[permutation[i]];
  return output;
}

MLOperandDescriptor validateExpand(const OpCall& call, const MLOperandDescriptor& input,
                                   const std::vector<uint32_t>& newShape) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  for (uint32_t dimension : newShape) {
    if (dimension == 0) {
      fail(type, label, "newShape " + shapeToString(newShape) + " has a dimension of 0");
    }
  }
  if (!isUnidirectionallyBroadcastable(input.shape, newShape)) {
    fail(type, label,
         "input " + shapeToString(input.shape) + " is not unidirectionally broadcastable to " +
             "newShape " + shapeToString(newShape));
  }
  MLOperandDescriptor output{input.dataType, newShape};
  checkOutputDescriptor(call, output);
  return output;
}

MLOperandDescriptor validateTile(const OpCall& call, const MLOperandDescriptor& input,
                                 const std::vector<uint32_t>& repetitions) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  if (repetitions.size() != input.shape.size()) {
    fail(type, label,
         "repetitions " + shapeToString(repetitions) + " must have " +
             std::to_string(input.shape.size()) + " values (the input's rank)");
  }
  MLOperandDescriptor output{input.dataType, input.shape};
  for (size_t i = 0; i < repetitions.size(); ++i) {
    if (repetitions[i] == 0) {
      fail(type, label, "repetitions " + shapeToString(repetitions) + " has a value of 0");
    }
    output.shape[i] =
        checkedDimension(type, label, uint64_t{input.shape[i]} * uint64_t{repetitions[i]});
  }
  checkOutputDescriptor(call, output);
  return output;
}

MLOperandDescriptor validateReverse(const OpCall& call, const MLOperandDescriptor& input,
                                    const MLReverseOptions& options,
                                    ReverseAttributes& attributes) {
  checkOperandLimits(call, "input", input);
  const size_t rank = input.shape.size();
  if (options.axes) {
    attributes.axes = *options.axes;
  } else {
    attributes.axes.resize(rank);
    for (size_t i = 0; i < rank; ++i) attributes.axes[i] = static_cast<uint32_t>(i);
  }
  checkAxes(call.name(), call.label, attributes.axes, rank);
  return input;
}

MLOperandDescriptor validateTriangular(const OpCall& call, const MLOperandDescriptor& input) {
  checkOperandLimits(call, "input", input);
  return input;
}

void registerShapeOpLimits(OpLimitsTable& table) {
  for (OpType type :
       {OpType::Reshape, OpType::Transpose, OpType::Expand, OpType::Tile, OpType::Reverse}) {
    table.set(type, {{"input", anyRank(types::kAll)}, {"output", anyRank(types::kAll)}});
  }
  table.set(OpType::Triangular, {{"input", rank(types::kAll, 2, kMaxRank)},
                                 {"output", rank(types::kAll, 2, kMaxRank)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::reshape(const MLOperand& input, const std::vector<uint32_t>& newShape,
                                  const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Reshape, options.label, {&input});
  auto output = graph::validateReshape(op.call(), input.descriptor(), newShape);
  return op.record({input}, {}, output);
}

MLOperand MLGraphBuilder::transpose(const MLOperand& input, const MLTransposeOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Transpose, options.label, {&input});
  graph::TransposeAttributes attributes;
  auto output = graph::validateTranspose(op.call(), input.descriptor(), options, attributes);
  return op.record({input}, std::move(attributes), output);
}

MLOperand MLGraphBuilder::expand(const MLOperand& input, const std::vector<uint32_t>& newShape,
                                 const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Expand, options.label, {&input});
  auto output = graph::validateExpand(op.call(), input.descriptor(), newShape);
  return op.record({input}, {}, output);
}

MLOperand MLGraphBuilder::tile(const MLOperand& input, const std::vector<uint32_t>& repetitions,
                               const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Tile, options.label, {&input});
  auto output = graph::validateTile(op.call(), input.descriptor(), repetitions);
  return op.record({input}, graph::TileAttributes{repetitions}, output);
}

MLOperand MLGraphBuilder::reverse(const MLOperand& input, const MLReverseOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Reverse, options.label, {&input});
  graph::ReverseAttributes attributes;
  auto output = graph::validateReverse(op.call(), input.descriptor(), options, attributes);
  return op.record({input}, std::move(attributes), output);
}

MLOperand MLGraphBuilder::triangular(const MLOperand& input, const MLTriangularOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Triangular, options.label, {&input});
  auto output = graph::validateTriangular(op.call(), input.descriptor());
  return op.record({input}, graph::TriangularAttributes{options.upper, options.diagonal}, output);
}

}  // namespace webnn
