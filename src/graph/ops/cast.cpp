// cast: any data type to any data type (int4/uint4 included), same shape.
#include "graph/ops/cast.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateCast(const OpCall& call, const MLOperandDescriptor& input,
                                 MLOperandDataType dataType) {
  checkOperandLimits(call, "input", input);
  MLOperandDescriptor output{dataType, input.shape};
  checkOperandLimits(call, "output", output);
  return output;
}

void registerCastLimits(OpLimitsTable& table) {
  table.set(OpType::Cast, {{"input", anyRank(types::kAll)}, {"output", anyRank(types::kAll)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::cast(const MLOperand& input, MLOperandDataType type,
                               const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Cast, options.label, {&input});
  auto output = graph::validateCast(op.call(), input.descriptor(), type);
  return op.record({input}, graph::CastAttributes{type}, output);
}

}  // namespace webnn
