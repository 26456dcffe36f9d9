// Element-wise unary ops: output has the input's shape and type (isNaN / isInfinite: uint8).
// Each op's data types follow the spec's table.
#include "graph/ops/elementwise_unary.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/ops/validators.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateElementwiseUnary(const OpCall& call, const MLOperandDescriptor& input) {
  checkOperandLimits(call, "input", input);
  return input;
}

MLOperandDescriptor validateElementwisePredicate(const OpCall& call,
                                                 const MLOperandDescriptor& input) {
  checkOperandLimits(call, "a", input);
  return {MLOperandDataType::Uint8, input.shape};
}

void registerElementwiseUnaryLimits(OpLimitsTable& table) {
  auto limits = [](const std::vector<MLOperandDataType>& types) {
    return OperandLimits{{"input", anyRank(types)}, {"output", anyRank(types)}};
  };
  for (OpType type : {OpType::Abs, OpType::Neg, OpType::Sign}) {
    table.set(type, limits(types::kSignedNumeric));
  }
  for (OpType type :
       {OpType::Ceil, OpType::Cos, OpType::Erf, OpType::Exp, OpType::Floor, OpType::Log,
        OpType::Reciprocal, OpType::RoundEven, OpType::Sin, OpType::Sqrt, OpType::Tan}) {
    table.set(type, limits(types::kFloat));
  }
  table.set(OpType::Identity, limits(types::kAll));
  for (OpType type : {OpType::IsNaN, OpType::IsInfinite}) {
    table.set(type, {{"a", anyRank(types::kFloat)}, {"output", anyRank(types::kUint8)}});
  }
}

namespace {
MLOperand unary(MLGraphBuilder& builder, OpType type, const MLOperand& input,
                const MLOperatorOptions& options) {
  OpBuilder op(builder, type, options.label, {&input});
  auto output = validateElementwiseUnary(op.call(), input.descriptor());
  return op.record({input}, {}, output);
}

MLOperand predicate(MLGraphBuilder& builder, OpType type, const MLOperand& input,
                    const MLOperatorOptions& options) {
  OpBuilder op(builder, type, options.label, {&input});
  auto output = validateElementwisePredicate(op.call(), input.descriptor());
  return op.record({input}, {}, output);
}
}  // namespace
}  // namespace graph

#define WEBNN_UNARY_METHOD(name, type)                                                       \
  MLOperand MLGraphBuilder::name(const MLOperand& input, const MLOperatorOptions& options) { \
    return graph::unary(*this, graph::OpType::type, input, options);                         \
  }
WEBNN_UNARY_METHOD(abs, Abs)
WEBNN_UNARY_METHOD(ceil, Ceil)
WEBNN_UNARY_METHOD(cos, Cos)
WEBNN_UNARY_METHOD(erf, Erf)
WEBNN_UNARY_METHOD(exp, Exp)
WEBNN_UNARY_METHOD(floor, Floor)
WEBNN_UNARY_METHOD(identity, Identity)
WEBNN_UNARY_METHOD(log, Log)
WEBNN_UNARY_METHOD(neg, Neg)
WEBNN_UNARY_METHOD(reciprocal, Reciprocal)
WEBNN_UNARY_METHOD(roundEven, RoundEven)
WEBNN_UNARY_METHOD(sign, Sign)
WEBNN_UNARY_METHOD(sin, Sin)
WEBNN_UNARY_METHOD(sqrt, Sqrt)
WEBNN_UNARY_METHOD(tan, Tan)
#undef WEBNN_UNARY_METHOD

MLOperand MLGraphBuilder::isNaN(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::predicate(*this, graph::OpType::IsNaN, input, options);
}
MLOperand MLGraphBuilder::isInfinite(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::predicate(*this, graph::OpType::IsInfinite, input, options);
}

}  // namespace webnn
