// conv2d (groups, depthwise, dilations, padding, every input and filter layout): an implicit
// GEMM tiled in shared memory (conv2d_gemm.comp) when a group has enough output channels and
// reduction length to fill 16 x 16 tiles; else direct (conv2d.comp), one invocation per output
// element (depthwise convolutions).
#include "backends/vulkan/kernel.h"
#include "backends/vulkan/ops/layouts.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;

constexpr uint32_t kTile = 16;
// The implicit GEMM pays off from half a tile of output channels per group and of reduction.
constexpr uint32_t kGemmMinOutputChannels = 8;
constexpr uint32_t kGemmMinReduction = 8;
constexpr uint32_t kMaxWorkgroups = 65535;  // per dimension y and z (x is split by the runtime)

uint32_t tilesOf(uint64_t extent) {
  return static_cast<uint32_t>((extent + kTile - 1) / kTile);
}

void compileConv2d(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::Conv2dAttributes>();
  const auto in = graph::spatialShapeOf(context.shape(context.input(0)), attributes.inputLayout);
  const auto out = graph::spatialShapeOf(context.shape(context.output()), attributes.inputLayout);
  const auto filter =
      graph::conv2dFilterShapeOf(context.shape(context.input(1)), attributes.filterLayout);
  elementCount(context.shape(context.input(0)), "the conv2d input");
  elementCount(context.shape(context.input(1)), "the conv2d filter");
  const uint32_t count = elementCount(context.shape(context.output()), "the conv2d output");
  std::vector<uint32_t> params{in.batches,
                               in.channels,
                               in.height,
                               in.width,
                               out.channels,
                               out.height,
                               out.width,
                               filter.height,
                               filter.width,
                               attributes.groups,
                               attributes.strides[0],
                               attributes.strides[1],
                               attributes.dilations[0],
                               attributes.dilations[1],
                               attributes.padding[0],
                               attributes.padding[2]};
  for (uint32_t s : activationStrides(in, attributes.inputLayout)) params.push_back(s);
  for (uint32_t s : conv2dFilterStrides(filter, attributes.filterLayout)) params.push_back(s);
  for (uint32_t s : activationStrides(out, attributes.inputLayout)) params.push_back(s);
  params.push_back(attributes.bias ? 1 : 0);
  const graph::OperandId bias = attributes.bias ? *attributes.bias : context.input(1);
  const std::vector<graph::OperandId> bindings{context.input(0), context.input(1), bias,
                                               context.output()};
  const uint32_t outputsPerGroup = out.channels / attributes.groups;
  const uint64_t reduction =
      uint64_t{in.channels / attributes.groups} * filter.height * filter.width;
  const uint64_t pixels = uint64_t{out.batches} * out.height * out.width;
  if (outputsPerGroup >= kGemmMinOutputChannels && reduction >= kGemmMinReduction &&
      tilesOf(outputsPerGroup) <= kMaxWorkgroups && tilesOf(pixels) <= kMaxWorkgroups &&
      attributes.groups <= kMaxWorkgroups) {
    Step step{"conv2d_gemm", std::move(params), bindings};
    step.groups = {tilesOf(outputsPerGroup), tilesOf(pixels), attributes.groups};
    if (count == 0) step.groups = {0, 0, 0};
    step.float16 = context.float16();
    steps.push_back(std::move(step));
    return;
  }
  steps.push_back(elementwiseStep("conv2d", count, std::move(params), bindings));
  steps.back().float16 = context.float16();
}

}  // namespace

void registerConvolutionOps(OpTable& table) {
  table.set(OpType::Conv2d, {compileConv2d, {T::Float32, T::Float16}, {}});
}

}  // namespace webnn::vulkan
