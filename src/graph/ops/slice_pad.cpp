// slice and pad: validation, limits and builder methods.
#include "core/element.h"
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/shape_ops.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateSlice(std::string_view label, const MLOperandDescriptor& input,
                                  SliceAttributes& attributes) {
  constexpr std::string_view type = "slice";
  checkOperandLimits(type, label, "input", input);
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

MLOperandDescriptor validatePad(std::string_view label, const MLOperandDescriptor& input,
                                PadAttributes& attributes) {
  constexpr std::string_view type = "pad";
  checkOperandLimits(type, label, "input", input);
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
  checkOutputDescriptor(type, label, output);
  // Cast value to the input's data type (the spec's "casting" of an MLNumber).
  std::byte scratch[8] = {};
  storeElement(input.dataType, scratch, 0, attributes.value);
  attributes.value = loadElement(input.dataType, scratch, 0);
  return output;
}

namespace {
[[maybe_unused]] const bool registered = [] {
  registerOpLimits("slice", {{"input", anyRank(types::kAll)}, {"output", anyRank(types::kAll)}});
  registerOpLimits("pad", {{"input", rank(types::kAll, 1, kMaxRank)},
                           {"output", rank(types::kAll, 1, kMaxRank)}});
  return true;
}();
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::slice(const MLOperand& input, const std::vector<uint32_t>& starts,
                                const std::vector<uint32_t>& sizes, const MLSliceOptions& options) {
  auto& state = graph::beginOp(*this, "slice", options.label, {&input});
  graph::SliceAttributes attributes{starts, sizes, options.strides};
  auto output = graph::validateSlice(options.label, input.descriptor(), attributes);
  return state.addOperation("slice", options.label, {input}, attributes, output);
}

MLOperand MLGraphBuilder::pad(const MLOperand& input, const std::vector<uint32_t>& beginningPadding,
                              const std::vector<uint32_t>& endingPadding,
                              const MLPadOptions& options) {
  auto& state = graph::beginOp(*this, "pad", options.label, {&input});
  graph::PadAttributes attributes{beginningPadding, endingPadding, options.mode, options.value};
  auto output = graph::validatePad(options.label, input.descriptor(), attributes);
  return state.addOperation("pad", options.label, {input}, attributes, output);
}

}  // namespace webnn
