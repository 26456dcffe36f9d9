// Element-wise unary ops and parameterless activations: output has the input's shape and type.
// Each op's data types follow the spec's table.
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/validators.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateElementwiseUnary(std::string_view type, std::string_view label,
                                             const MLOperandDescriptor& input) {
  checkOperandLimits(type, label, "input", input);
  return input;
}

namespace {
[[maybe_unused]] const bool registered = [] {
  auto limits = [](const std::vector<MLOperandDataType>& types) {
    return OperandLimits{{"input", anyRank(types)}, {"output", anyRank(types)}};
  };
  registerOpLimits("relu", limits(types::kSignedNumeric));
  return true;
}();

MLOperand unary(MLGraphBuilder& builder, std::string_view type, const MLOperand& input,
                const MLOperatorOptions& options) {
  auto& state = beginOp(builder, type, options.label, {&input});
  auto output = validateElementwiseUnary(type, options.label, input.descriptor());
  return state.addOperation(std::string(type), options.label, {input}, {}, output);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::relu(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::unary(*this, "relu", input, options);
}

}  // namespace webnn
