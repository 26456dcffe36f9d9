// gemm: general matrix multiplication of two 2-D operands (optionally transposed), scaled by
// alpha, plus beta times an optional c unidirectionally broadcastable to [M, N].
#include "graph/ops/gemm.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateGemm(const OpCall& call, const MLOperandDescriptor& a,
                                 const MLOperandDescriptor& b,
                                 const std::optional<MLOperandDescriptor>& c,
                                 const MLGemmOptions& options, GemmAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "a", a);
  checkOperandLimits(call, "b", b);
  checkSameDataType(type, label, "a", a, "b", b);
  const uint32_t m = options.aTranspose ? a.shape[1] : a.shape[0];
  const uint32_t ka = options.aTranspose ? a.shape[0] : a.shape[1];
  const uint32_t kb = options.bTranspose ? b.shape[1] : b.shape[0];
  const uint32_t n = options.bTranspose ? b.shape[0] : b.shape[1];
  if (ka != kb) {
    fail(type, label,
         "the inner dimensions differ: a " + shapeToString(a.shape) +
             (options.aTranspose ? " (transposed)" : "") + ", b " + shapeToString(b.shape) +
             (options.bTranspose ? " (transposed)" : ""));
  }
  MLOperandDescriptor output{a.dataType, {m, n}};
  if (c) {
    checkOperandLimits(call, "c", *c);
    checkSameDataType(type, label, "a", a, "c", *c);
    if (!isUnidirectionallyBroadcastable(c->shape, output.shape)) {
      fail(type, label,
           "c " + shapeToString(c->shape) + " is not broadcastable to the output " +
               shapeToString(output.shape));
    }
  }
  checkOperandLimits(call, "output", output);
  attributes.alpha = options.alpha;
  attributes.beta = options.beta;
  attributes.aTranspose = options.aTranspose;
  attributes.bTranspose = options.bTranspose;
  return output;
}

void registerGemmLimits(OpLimitsTable& table) {
  table.set(OpType::Gemm, {{"a", rank(types::kFloat, 2, 2)},
                           {"b", rank(types::kFloat, 2, 2)},
                           {"c", rank(types::kFloat, 0, 2)},
                           {"output", rank(types::kFloat, 2, 2)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::gemm(const MLOperand& a, const MLOperand& b,
                               const MLGemmOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Gemm, options.label, {&a, &b}, {&options.c});
  std::optional<MLOperandDescriptor> c;
  if (options.c) c = options.c->descriptor();
  graph::GemmAttributes attributes;
  auto output =
      graph::validateGemm(op.call(), a.descriptor(), b.descriptor(), c, options, attributes);
  attributes.c = graph::operandId(options.c);
  return op.record({a, b, options.c}, attributes, output);
}

}  // namespace webnn
