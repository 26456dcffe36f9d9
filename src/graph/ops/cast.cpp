// cast: any data type to any data type (int4/uint4 included), same shape.
#include "graph/ops/cast.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateCast(std::string_view label, const MLOperandDescriptor& input,
                                 MLOperandDataType dataType) {
  checkOperandLimits("cast", label, "input", input);
  MLOperandDescriptor output{dataType, input.shape};
  checkOperandLimits("cast", label, "output", output);
  return output;
}

namespace {
[[maybe_unused]] const bool registered =
    registerOpLimits("cast", {{"input", anyRank(types::kAll)}, {"output", anyRank(types::kAll)}});
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::cast(const MLOperand& input, MLOperandDataType type,
                               const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "cast", options.label, {&input});
  auto output = graph::validateCast(options.label, input.descriptor(), type);
  return state.addOperation("cast", options.label, {input}, graph::CastAttributes{type}, output);
}

}  // namespace webnn
