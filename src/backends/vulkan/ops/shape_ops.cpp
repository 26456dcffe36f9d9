// Data movement of elements of any size: reshape, identity, transpose, slice, expand and split as
// strided copies (copy.comp), concat as a gather of up to five inputs per step (concat.comp), pad
// in every mode (pad.comp).
#include <algorithm>
#include <cstring>

#include "backends/vulkan/kernel.h"
#include "core/element.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;

// A strided copy into the whole of `out` (contiguous, of `shape`): out[c] = in[inOffset + c .
// inStrides].
Step copyStep(const OpContext& context, graph::OperandId in, graph::OperandId out,
              std::span<const uint32_t> shape, uint32_t inOffset,
              std::span<const uint32_t> inStrides) {
  const uint32_t count = elementCount(shape, "a copied operand");
  std::vector<uint32_t> params{static_cast<uint32_t>(shape.size()), inOffset};
  appendPadded(params, shape, 1);
  appendPadded(params, inStrides);
  return elementsStep("copy", count, context.bits(out), std::move(params), {in, out});
}

void compileFlatCopy(const OpContext& context, std::vector<Step>& steps) {
  const std::vector<uint32_t> shape{elementCount(context.shape(context.output()), "the output")};
  const std::vector<uint32_t> one{1};
  steps.push_back(copyStep(context, context.input(0), context.output(), shape, 0, one));
}

void compileTranspose(const OpContext& context, std::vector<Step>& steps) {
  const auto& permutation =
      context.operation.attributesAs<graph::TransposeAttributes>().permutation;
  const auto& out = context.shape(context.output());
  const auto inStrides = contiguousStrides(context.shape(context.input(0)));
  std::vector<uint32_t> strides(out.size());
  for (size_t d = 0; d < out.size(); ++d) strides[d] = inStrides.at(permutation.at(d));
  steps.push_back(copyStep(context, context.input(0), context.output(), out, 0, strides));
}

void compileSlice(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::SliceAttributes>();
  const auto& out = context.shape(context.output());
  elementCount(context.shape(context.input(0)), "the input");
  const auto inStrides = contiguousStrides(context.shape(context.input(0)));
  std::vector<uint32_t> strides(out.size());
  uint32_t offset = 0;
  for (size_t d = 0; d < out.size(); ++d) {
    const uint32_t step = attributes.strides.empty() ? 1 : attributes.strides[d];
    strides[d] = inStrides[d] * step;
    offset += attributes.starts.at(d) * inStrides[d];
  }
  steps.push_back(copyStep(context, context.input(0), context.output(), out, offset, strides));
}

void compileExpand(const OpContext& context, std::vector<Step>& steps) {
  const auto& out = context.shape(context.output());
  steps.push_back(copyStep(context, context.input(0), context.output(), out, 0,
                           broadcastStrides(context.shape(context.input(0)), out)));
}

// Inputs per concat step: the output takes binding 6.
constexpr size_t kConcatInputsPerStep = kMaxBindings - 1;

void compileConcat(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::ConcatAttributes>().axis;
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  uint32_t inner = 1;
  for (size_t d = axis + 1; d < out.size(); ++d) inner *= out[d];
  const auto& inputs = context.operation.inputs;
  const uint32_t bits = context.bits(context.output());
  // Elements of whole words: each step visits only its inputs' part of the output. Narrower
  // elements share words across the parts, so each step passes over the whole output.
  const bool ranged = bits >= 32;
  uint32_t position = 0;
  for (size_t first = 0; first < inputs.size(); first += kConcatInputsPerStep) {
    const size_t n = std::min(kConcatInputsPerStep, inputs.size() - first);
    const uint32_t rangeStart = position;
    std::vector<uint32_t> starts, sizes;
    std::vector<graph::OperandId> bindings;
    for (size_t j = 0; j < n; ++j) {
      const graph::OperandId input = inputs[first + j];
      starts.push_back(position);
      sizes.push_back(context.shape(input)[axis]);
      position += sizes.back();
      bindings.push_back(input);
    }
    const uint32_t rangeSize = position - rangeStart;
    std::vector<uint32_t> params{static_cast<uint32_t>(n), out[axis], inner, rangeStart, rangeSize,
                                 ranged ? 1u : 0u};
    // Unused input bindings repeat the first input (never read).
    bindings.resize(kConcatInputsPerStep, bindings.front());
    bindings.push_back(context.output());
    appendPadded(params, starts);
    appendPadded(params, sizes);
    // count / out[axis] x rangeSize: the elements of this step's range (no overflow: <= count).
    const uint32_t stepCount = ranged && out[axis] > 0
                                   ? static_cast<uint32_t>(uint64_t{count} / out[axis] * rangeSize)
                                   : count;
    steps.push_back(
        elementsStep("concat", stepCount, bits, std::move(params), std::move(bindings)));
  }
}

void compileSplit(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::SplitAttributes>().axis;
  elementCount(context.shape(context.input(0)), "the input");
  const auto inStrides = contiguousStrides(context.shape(context.input(0)));
  uint32_t position = 0;
  for (graph::OperandId output : context.operation.outputs) {
    const auto& shape = context.shape(output);
    steps.push_back(
        copyStep(context, context.input(0), output, shape, position * inStrides[axis], inStrides));
    position += shape[axis];
  }
}

void compilePad(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::PadAttributes>();
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  // The padding value's raw bits in the output's type (saturated, as the reference stores it).
  std::byte valueBytes[8] = {};
  storeNumber(context.descriptor(context.output()).dataType, valueBytes, 0, attributes.value);
  uint32_t value[2];
  std::memcpy(value, valueBytes, sizeof value);
  std::vector<uint32_t> params{static_cast<uint32_t>(out.size()),
                               static_cast<uint32_t>(attributes.mode),
                               value[0],
                               value[1],
                               0,
                               0};
  appendPadded(params, out, 1);
  appendPadded(params, context.shape(context.input(0)), 1);
  appendPadded(params, attributes.beginningPadding);
  steps.push_back(elementsStep("pad", count, context.bits(context.output()), std::move(params),
                               {context.input(0), context.output()}));
}

}  // namespace

void registerShapeOps(OpTable& table) {
  table.set(OpType::Reshape, {compileFlatCopy, kElementTypes, {}});
  table.set(OpType::Identity, {compileFlatCopy, kElementTypes, {}});
  table.set(OpType::Transpose, {compileTranspose, kElementTypes, {}});
  table.set(OpType::Slice, {compileSlice, kElementTypes, {}});
  table.set(OpType::Expand, {compileExpand, kElementTypes, {}});
  table.set(OpType::Concat, {compileConcat, kElementTypes, {}});
  table.set(OpType::Split, {compileSplit, kElementTypes, {}});
  table.set(OpType::Pad, {compilePad, kElementTypes, {}});
}

}  // namespace webnn::vulkan
