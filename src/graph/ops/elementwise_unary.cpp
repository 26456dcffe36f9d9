// Element-wise unary ops: output has the input's shape and type (isNaN / isInfinite: uint8).
// Each op's data types follow the spec's table.
#include "graph/ops/elementwise_unary.h"

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

MLOperandDescriptor validateElementwisePredicate(std::string_view type, std::string_view label,
                                                 const MLOperandDescriptor& input) {
  checkOperandLimits(type, label, "a", input);
  return {MLOperandDataType::Uint8, input.shape};
}

namespace {
[[maybe_unused]] const bool registered = [] {
  auto limits = [](const std::vector<MLOperandDataType>& types) {
    return OperandLimits{{"input", anyRank(types)}, {"output", anyRank(types)}};
  };
  for (const char* type : {"abs", "neg", "sign"}) {
    registerOpLimits(type, limits(types::kSignedNumeric));
  }
  for (const char* type : {"ceil", "cos", "erf", "exp", "floor", "log", "reciprocal", "roundEven",
                           "sin", "sqrt", "tan"}) {
    registerOpLimits(type, limits(types::kFloat));
  }
  registerOpLimits("identity", limits(types::kAll));
  for (const char* type : {"isNaN", "isInfinite"}) {
    registerOpLimits(type, {{"a", anyRank(types::kFloat)}, {"output", anyRank(types::kUint8)}});
  }
  return true;
}();

MLOperand unary(MLGraphBuilder& builder, std::string_view type, const MLOperand& input,
                const MLOperatorOptions& options) {
  auto& state = beginOp(builder, type, options.label, {&input});
  auto output = validateElementwiseUnary(type, options.label, input.descriptor());
  return state.addOperation(std::string(type), options.label, {input}, {}, output);
}

MLOperand predicate(MLGraphBuilder& builder, std::string_view type, const MLOperand& input,
                    const MLOperatorOptions& options) {
  auto& state = beginOp(builder, type, options.label, {&input});
  auto output = validateElementwisePredicate(type, options.label, input.descriptor());
  return state.addOperation(std::string(type), options.label, {input}, {}, output);
}
}  // namespace
}  // namespace graph

#define WEBNN_UNARY_METHOD(name)                                                             \
  MLOperand MLGraphBuilder::name(const MLOperand& input, const MLOperatorOptions& options) { \
    return graph::unary(*this, #name, input, options);                                       \
  }
WEBNN_UNARY_METHOD(abs)
WEBNN_UNARY_METHOD(ceil)
WEBNN_UNARY_METHOD(cos)
WEBNN_UNARY_METHOD(erf)
WEBNN_UNARY_METHOD(exp)
WEBNN_UNARY_METHOD(floor)
WEBNN_UNARY_METHOD(identity)
WEBNN_UNARY_METHOD(log)
WEBNN_UNARY_METHOD(neg)
WEBNN_UNARY_METHOD(reciprocal)
WEBNN_UNARY_METHOD(roundEven)
WEBNN_UNARY_METHOD(sign)
WEBNN_UNARY_METHOD(sin)
WEBNN_UNARY_METHOD(sqrt)
WEBNN_UNARY_METHOD(tan)
#undef WEBNN_UNARY_METHOD

MLOperand MLGraphBuilder::isNaN(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::predicate(*this, "isNaN", input, options);
}
MLOperand MLGraphBuilder::isInfinite(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::predicate(*this, "isInfinite", input, options);
}

}  // namespace webnn
