// Data movement of 32-bit elements (float32, int32, uint32): reshape, identity, transpose,
// slice, expand, concat and split as strided copies (copy.comp), pad in every mode (pad.comp).
#include <algorithm>

#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;
const std::vector<T> k32Bit = {T::Float32, T::Int32, T::Uint32};

// A strided copy over `shape`: in[inOffset + c . inStrides] -> out[outOffset + c . outStrides].
Step copyStep(graph::OperandId in, graph::OperandId out, std::span<const uint32_t> shape,
              uint32_t inOffset, std::span<const uint32_t> inStrides, uint32_t outOffset,
              std::span<const uint32_t> outStrides) {
  const uint32_t count = elementCount(shape, "a copied operand");
  std::vector<uint32_t> params{count, static_cast<uint32_t>(shape.size()), inOffset, outOffset};
  appendPadded(params, shape, 1);
  appendPadded(params, inStrides);
  appendPadded(params, outStrides);
  return elementwiseStep("copy", count, std::move(params), {in, out});
}

void compileFlatCopy(const OpContext& context, std::vector<Step>& steps) {
  const std::vector<uint32_t> shape{elementCount(context.shape(context.output()), "the output")};
  const std::vector<uint32_t> one{1};
  steps.push_back(copyStep(context.input(0), context.output(), shape, 0, one, 0, one));
}

void compileTranspose(const OpContext& context, std::vector<Step>& steps) {
  const auto& permutation =
      context.operation.attributesAs<graph::TransposeAttributes>().permutation;
  const auto& out = context.shape(context.output());
  const auto inStrides = contiguousStrides(context.shape(context.input(0)));
  std::vector<uint32_t> strides(out.size());
  for (size_t d = 0; d < out.size(); ++d) strides[d] = inStrides.at(permutation.at(d));
  steps.push_back(
      copyStep(context.input(0), context.output(), out, 0, strides, 0, contiguousStrides(out)));
}

void compileSlice(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::SliceAttributes>();
  const auto& out = context.shape(context.output());
  const auto inStrides = contiguousStrides(context.shape(context.input(0)));
  std::vector<uint32_t> strides(out.size());
  uint32_t offset = 0;
  for (size_t d = 0; d < out.size(); ++d) {
    const uint32_t step = attributes.strides.empty() ? 1 : attributes.strides[d];
    strides[d] = inStrides[d] * step;
    offset += attributes.starts.at(d) * inStrides[d];
  }
  steps.push_back(copyStep(context.input(0), context.output(), out, offset, strides, 0,
                           contiguousStrides(out)));
}

void compileExpand(const OpContext& context, std::vector<Step>& steps) {
  const auto& out = context.shape(context.output());
  steps.push_back(copyStep(context.input(0), context.output(), out, 0,
                           broadcastStrides(context.shape(context.input(0)), out), 0,
                           contiguousStrides(out)));
}

void compileConcat(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::ConcatAttributes>().axis;
  const auto& out = context.shape(context.output());
  const auto outStrides = contiguousStrides(out);
  uint32_t position = 0;
  for (graph::OperandId input : context.operation.inputs) {
    const auto& shape = context.shape(input);
    steps.push_back(copyStep(input, context.output(), shape, 0, contiguousStrides(shape),
                             position * outStrides[axis], outStrides));
    position += shape[axis];
  }
}

void compileSplit(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::SplitAttributes>().axis;
  const auto inStrides = contiguousStrides(context.shape(context.input(0)));
  uint32_t position = 0;
  for (graph::OperandId output : context.operation.outputs) {
    const auto& shape = context.shape(output);
    steps.push_back(copyStep(context.input(0), output, shape, position * inStrides[axis], inStrides,
                             0, contiguousStrides(shape)));
    position += shape[axis];
  }
}

void compilePad(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::PadAttributes>();
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  uint32_t value = 0;
  switch (context.descriptor(context.output()).dataType) {
    case T::Float32:
      value = floatBits(attributes.value.toDouble());
      break;
    case T::Int32:
      value = static_cast<uint32_t>(static_cast<int32_t>(
          std::clamp<int64_t>(attributes.value.toInt64(), INT32_MIN, INT32_MAX)));
      break;
    default:
      value = static_cast<uint32_t>(std::min<uint64_t>(attributes.value.toUint64(), UINT32_MAX));
      break;
  }
  std::vector<uint32_t> params{count, static_cast<uint32_t>(out.size()),
                               static_cast<uint32_t>(attributes.mode), value};
  appendPadded(params, out, 1);
  appendPadded(params, context.shape(context.input(0)), 1);
  appendPadded(params, attributes.beginningPadding);
  steps.push_back(
      elementwiseStep("pad", count, std::move(params), {context.input(0), context.output()}));
}

}  // namespace

void registerShapeOps(OpTable& table) {
  table.set(OpType::Reshape, {compileFlatCopy, k32Bit, {}});
  table.set(OpType::Identity, {compileFlatCopy, k32Bit, {}});
  table.set(OpType::Transpose, {compileTranspose, k32Bit, {}});
  table.set(OpType::Slice, {compileSlice, k32Bit, {}});
  table.set(OpType::Expand, {compileExpand, k32Bit, {}});
  table.set(OpType::Concat, {compileConcat, k32Bit, {}});
  table.set(OpType::Split, {compileSplit, k32Bit, {}});
  table.set(OpType::Pad, {compilePad, k32Bit, {}});
}

}  // namespace webnn::vulkan
