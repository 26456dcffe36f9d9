// where with broadcasting: a uint8 condition picks values of any type (where.comp).
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using T = MLOperandDataType;

void compileWhere(const OpContext& context, std::vector<Step>& steps) {
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the where output");
  std::vector<uint32_t> params{static_cast<uint32_t>(out.size()), 0};
  appendPadded(params, out, 1);
  for (size_t i = 0; i < 3; ++i) {
    appendPadded(params, broadcastStrides(context.shape(context.input(i)), out));
  }
  steps.push_back(
      elementsStep("where", count, context.outputBits(), std::move(params),
                   {context.input(0), context.input(1), context.input(2), context.output()}));
}

}  // namespace

void registerWhereOps(OpTable& table) {
  table.set(graph::OpType::Where, {compileWhere, kElementTypes, {{"condition", {T::Uint8}}}});
}

}  // namespace webnn::vulkan
