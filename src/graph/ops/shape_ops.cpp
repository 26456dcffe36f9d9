// reshape, transpose, expand, tile, reverse, triangular: validation, limits and builder methods.
#include "graph/ops/shape_ops.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

void checkOutputDescriptor(std::string_view type, std::string_view label,
                           const MLOperandDescriptor& output) {
  checkOperandLimits(type, label, "output", output);
  try {
    (void)output.byteLength();
  } catch (const Error&) {
    fail(type, label, "the output " + shapeToString(output.shape) + " is too large");
  }
}

MLOperandDescriptor validateReshape(std::string_view label, const MLOperandDescriptor& input,
                                    const std::vector<uint32_t>& newShape) {
  constexpr std::string_view type = "reshape";
  checkOperandLimits(type, label, "input", input);
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
  checkOutputDescriptor(type, label, output);
  return output;
}

MLOperandDescriptor validateTranspose(const MLOperandDescriptor& input,
                                      MLTransposeOptions& options) {
  constexpr std::string_view type = "transpose";
  const std::string_view label = options.label;
  checkOperandLimits(type, label, "input", input);
  const size_t rank = input.shape.size();
  if (!options.permutation) {
    std::vector<uint32_t> reversed(rank);
    for (size_t i = 0; i < rank; ++i) reversed[i] = static_cast<uint32_t>(rank - 1 - i);
    options.permutation = std::move(reversed);
  }
  const auto& permutation = *options.permutation;
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

MLOperandDescriptor validateExpand(std::string_view label, const MLOperandDescriptor& input,
                                   const std::vector<uint32_t>& newShape) {
  constexpr std::string_view type = "expand";
  checkOperandLimits(type, label, "input", input);
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
  checkOutputDescriptor(type, label, output);
  return output;
}

MLOperandDescriptor validateTile(std::string_view label, const MLOperandDescriptor& input,
                                 const std::vector<uint32_t>& repetitions) {
  constexpr std::string_view type = "tile";
  checkOperandLimits(type, label, "input", input);
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
  checkOutputDescriptor(type, label, output);
  return output;
}

MLOperandDescriptor validateReverse(const MLOperandDescriptor& input, MLReverseOptions& options) {
  constexpr std::string_view type = "reverse";
  checkOperandLimits(type, options.label, "input", input);
  const size_t rank = input.shape.size();
  if (!options.axes) {
    std::vector<uint32_t> all(rank);
    for (size_t i = 0; i < rank; ++i) all[i] = static_cast<uint32_t>(i);
    options.axes = std::move(all);
  }
  checkAxes(type, options.label, *options.axes, rank);
  return input;
}

MLOperandDescriptor validateTriangular(std::string_view label, const MLOperandDescriptor& input) {
  checkOperandLimits("triangular", label, "input", input);
  return input;
}

namespace {
[[maybe_unused]] const bool registered = [] {
  for (const char* type : {"reshape", "transpose", "expand", "tile", "reverse"}) {
    registerOpLimits(type, {{"input", anyRank(types::kAll)}, {"output", anyRank(types::kAll)}});
  }
  registerOpLimits("triangular", {{"input", rank(types::kAll, 2, kMaxRank)},
                                  {"output", rank(types::kAll, 2, kMaxRank)}});
  return true;
}();
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::reshape(const MLOperand& input, const std::vector<uint32_t>& newShape,
                                  const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "reshape", options.label, {&input});
  auto output = graph::validateReshape(options.label, input.descriptor(), newShape);
  return state.addOperation("reshape", options.label, {input}, newShape, output);
}

MLOperand MLGraphBuilder::transpose(const MLOperand& input, const MLTransposeOptions& options) {
  auto& state = graph::beginOp(*this, "transpose", options.label, {&input});
  MLTransposeOptions resolved = options;
  auto output = graph::validateTranspose(input.descriptor(), resolved);
  return state.addOperation("transpose", options.label, {input}, resolved, output);
}

MLOperand MLGraphBuilder::expand(const MLOperand& input, const std::vector<uint32_t>& newShape,
                                 const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "expand", options.label, {&input});
  auto output = graph::validateExpand(options.label, input.descriptor(), newShape);
  return state.addOperation("expand", options.label, {input}, {}, output);
}

MLOperand MLGraphBuilder::tile(const MLOperand& input, const std::vector<uint32_t>& repetitions,
                               const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "tile", options.label, {&input});
  auto output = graph::validateTile(options.label, input.descriptor(), repetitions);
  return state.addOperation("tile", options.label, {input}, graph::TileAttributes{repetitions},
                            output);
}

MLOperand MLGraphBuilder::reverse(const MLOperand& input, const MLReverseOptions& options) {
  auto& state = graph::beginOp(*this, "reverse", options.label, {&input});
  MLReverseOptions resolved = options;
  auto output = graph::validateReverse(input.descriptor(), resolved);
  return state.addOperation("reverse", options.label, {input}, resolved, output);
}

MLOperand MLGraphBuilder::triangular(const MLOperand& input, const MLTriangularOptions& options) {
  auto& state = graph::beginOp(*this, "triangular", options.label, {&input});
  auto output = graph::validateTriangular(options.label, input.descriptor());
  return state.addOperation("triangular", options.label, {input}, options, output);
}

}  // namespace webnn
