// slice and pad: validation, limits and builder methods.
#include "core/element.h"
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/activations.h"
#include "graph/ops/registration.h"
#include "graph/ops/shape_ops.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateSlice(const OpCall& call, const MLOperandDescriptor& input,
                                  SliceAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  const size_t rank = input.shape.size();
  const auto rankText = std::to_string(rank);
  if (attributes.starts.size() != rank) {
    fail(type, label,
         "starts " + shapeToString(attributes.starts) + " must have " + rankText +
             " values (the input's rank)");
  }
  if (attributes.sizes.size() != rank) {
    fail(type, label,
         "sizes " + shapeToString(attributes.sizes) + " must have " + rankText +
             " values (the input's rank)");
  }
  if (attributes.strides.empty()) attributes.strides.assign(rank, 1);
  if (attributes.strides.size() != rank) {
    fail(type, label,
         "strides " + shapeToString(attributes.strides) + " must have " + rankText +
             " values (the input's rank)");
  }
  MLOperandDescriptor output{input.dataType, std::vector<uint32_t>(rank)};
  for (size_t i = 0; i < rank; ++i) {
    const auto axis = std::to_string(i);
    if (attributes.sizes[i] == 0) fail(type, label, "sizes[" + axis + "] is 0");
    if (attributes.strides[i] == 0) fail(type, label, "strides[" + axis + "] is 0");
    if (attributes.starts[i] >= input.shape[i]) {
      fail(type, label,
           "starts[" + axis + "] = " + std::to_string(attributes.starts[i]) +
               " is out of range for input " + shapeToString(input.shape));
    }
    if (uint64_t{attributes.starts[i]} + attributes.sizes[i] > input.shape[i]) {
      fail(type, label,
           "starts[" + axis + "] + sizes[" + axis +
               "] = " + std::to_string(uint64_t{attributes.starts[i]} + attributes.sizes[i]) +
               " exceeds dimension " + std::to_string(input.shape[i]) + " of input " +
               shapeToString(input.shape));
    }
    output.shape[i] = attributes.sizes[i] / attributes.strides[i] +
                      (attributes.sizes[i] % attributes.strides[i] != 0 ? 1 : 0);
  }
  return output;
}

MLOperandDescriptor validatePad(const OpCall& call, const MLOperandDescriptor& input,
                                PadAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  const size_t rank = input.shape.size();
  if (attributes.beginningPadding.size() != rank || attributes.endingPadding.size() != rank) {
    fail(type, label,
         "beginningPadding " + shapeToString(attributes.beginningPadding) + " and endingPadding " +
             shapeToString(attributes.endingPadding) + " must have " + std::to_string(rank) +
             " values (the input's rank)");
  }
  MLOperandDescriptor output{input.dataType, input.shape};
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t begin = attributes.beginningPadding[i];
    const uint32_t end = attributes.endingPadding[i];
    const uint32_t size = input.shape[i];
    // reflection mirrors without the edge element, symmetric with it: at most size - 1 and size.
    const bool tooLarge =
        (attributes.mode == MLPaddingMode::Reflection && (begin >= size || end >= size)) ||
        (attributes.mode == MLPaddingMode::Symmetric && (begin > size || end > size));
    if (tooLarge) {
      fail(type, label,
           std::string(attributes.mode == MLPaddingMode::Reflection ? "reflection" : "symmetric") +
               " padding of dimension " + std::to_string(i) + " (" + std::to_string(begin) + ", " +
               std::to_string(end) + ") is too large for size " + std::to_string(size));
    }
    output.shape[i] = checkedDimension(type, label, uint64_t{size} + begin + end);
  }
  checkOutputDescriptor(call, output);
  // Cast value to the input's data type (the spec's "casting" of an MLNumber; exact for
  // int64/uint64).
  attributes.value = castNumber(attributes.value, input.dataType);
  return output;
}

void registerSlicePadLimits(OpLimitsTable& table) {
  table.set(OpType::Slice, {{"input", anyRank(types::kAll)}, {"output", anyRank(types::kAll)}});
  table.set(OpType::Pad, {{"input", rank(types::kAll, 1, kMaxRank)},
                          {"output", rank(types::kAll, 1, kMaxRank)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::slice(const MLOperand& input, const std::vector<uint32_t>& starts,
                                const std::vector<uint32_t>& sizes, const MLSliceOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Slice, options.label, {&input});
  graph::SliceAttributes attributes{starts, sizes, options.strides};
  auto output = graph::validateSlice(op.call(), input.descriptor(), attributes);
  return op.record({input}, std::move(attributes), output);
}

MLOperand MLGraphBuilder::pad(const MLOperand& input, const std::vector<uint32_t>& beginningPadding,
                              const std::vector<uint32_t>& endingPadding,
                              const MLPadOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Pad, options.label, {&input});
  graph::PadAttributes attributes{beginningPadding, endingPadding, options.mode, options.value};
  auto output = graph::validatePad(op.call(), input.descriptor(), attributes);
  return op.record({input}, std::move(attributes), output);
}

}  // namespace webnn
