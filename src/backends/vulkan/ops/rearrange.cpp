// tile, reverse and triangular of elements of any size (tile.comp, reverse.comp,
// triangular.comp): one invocation per output element (per output word below 32 bits) reads its
// source.
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;

void compileTile(const OpContext& context, std::vector<Step>& steps) {
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  std::vector<uint32_t> params{static_cast<uint32_t>(out.size()), 0};
  appendPadded(params, out, 1);
  appendPadded(params, context.shape(context.input(0)), 1);
  steps.push_back(elementsStep("tile", count, context.outputBits(), std::move(params),
                               {context.input(0), context.output()}));
}

void compileReverse(const OpContext& context, std::vector<Step>& steps) {
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  uint32_t reversedAxes = 0;
  for (uint32_t axis : context.operation.attributesAs<graph::ReverseAttributes>().axes) {
    reversedAxes |= 1u << axis;
  }
  std::vector<uint32_t> params{static_cast<uint32_t>(out.size()), reversedAxes};
  appendPadded(params, out, 1);
  steps.push_back(elementsStep("reverse", count, context.outputBits(), std::move(params),
                               {context.input(0), context.output()}));
}

void compileTriangular(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::TriangularAttributes>();
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  steps.push_back(elementsStep("triangular", count, context.outputBits(),
                               {out.at(out.size() - 2), out.back(), attributes.upper ? 1u : 0u,
                                static_cast<uint32_t>(attributes.diagonal)},
                               {context.input(0), context.output()}));
}

}  // namespace

void registerRearrangeOps(OpTable& table) {
  table.set(OpType::Tile, {compileTile, kElementTypes, {}});
  table.set(OpType::Reverse, {compileReverse, kElementTypes, {}});
  table.set(OpType::Triangular, {compileTriangular, kElementTypes, {}});
}

}  // namespace webnn::vulkan
