// Element-wise ONNX ops: arithmetic, comparisons, logic, Where, Cast, unary math, Identity.
#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

using Binary = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperand&,
                                             const MLOperatorOptions&);
using Unary = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperatorOptions&);

// Both inputs as operands of the first input's type (ONNX Pow allows a different exponent type).
std::pair<MLOperand, MLOperand> sameTypeInputs(Context& c) {
  MLOperand a = c.input(0);
  MLOperand b = c.input(1);
  if (a.dataType() != b.dataType()) b = c.builder.cast(b, a.dataType(), {c.label() + "/cast"});
  return {a, b};
}

template <Binary op>
void binary(Context& c) {
  auto [a, b] = sameTypeInputs(c);
  c.setOutput(0, (c.builder.*op)(a, b, {c.label()}));
}

template <Unary op>
void unary(Context& c) {
  c.setOutput(0, (c.builder.*op)(c.input(0), {c.label()}));
}

// Max, Min, Sum, Mean: variadic, folded pairwise.
template <Binary op>
void variadic(Context& c) {
  MLOperand result = c.input(0);
  for (size_t i = 1; i < c.inputCount(); ++i) {
    result = (c.builder.*op)(result, c.input(i), {c.label() + "/" + std::to_string(i)});
  }
  c.setOutput(0, result);
}

void mean(Context& c) {
  MLOperand sum = c.input(0);
  for (size_t i = 1; i < c.inputCount(); ++i) {
    sum = c.builder.add(sum, c.input(i), {c.label() + "/" + std::to_string(i)});
  }
  const MLOperand count = c.scalar(sum.dataType(), static_cast<double>(c.inputCount()));
  c.setOutput(0, c.builder.div(sum, count, {c.label()}));
}

void where(Context& c) {
  MLOperand condition = c.input(0);
  MLOperand a = c.input(1);
  MLOperand b = c.input(2);
  if (a.dataType() != b.dataType()) b = c.builder.cast(b, a.dataType(), {c.label() + "/cast"});
  c.setOutput(0, c.builder.where(condition, a, b, {c.label()}));
}

void cast(Context& c) {
  const auto to = static_cast<int32_t>(c.attrInt("to", 0));
  MLOperand x = c.input(0);
  if (to == kBool) {
    // ONNX: non-zero -> true; WebNN's cast would keep the value.
    c.setOutput(0, c.builder.notEqual(x, c.scalar(x.dataType(), 0.0), {c.label()}));
    return;
  }
  const auto type = webnnType(to);
  if (!type) c.fail("Cast to " + onnxTypeName(to) + " is not supported");
  c.setOutput(0, x.dataType() == *type ? x : c.builder.cast(x, *type, {c.label()}));
}

std::string checkCast(const ::onnx::NodeProto& node, int64_t) {
  const auto to = static_cast<int32_t>(intAttribute(node, "to", 0));
  if (to != kBool && !webnnType(to)) return "to=" + onnxTypeName(to);
  return {};
}

void identity(Context& c) {
  c.setOutput(0, c.input(0));
}

std::string checkDropout(const ::onnx::NodeProto& node, int64_t) {
  if (node.output_size() > 1 && !node.output(1).empty()) return "mask output";
  return {};
}

void notOp(Context& c) {
  c.setOutput(0, c.builder.logicalNot(c.input(0), {c.label()}));
}

}  // namespace

void addElementwiseOps(OpTable& t) {
  t["Add"] = {binary<&MLGraphBuilder::add>};
  t["Sub"] = {binary<&MLGraphBuilder::sub>};
  t["Mul"] = {binary<&MLGraphBuilder::mul>};
  t["Div"] = {binary<&MLGraphBuilder::div>};
  t["Pow"] = {binary<&MLGraphBuilder::pow>};
  t["Max"] = {variadic<&MLGraphBuilder::max>};
  t["Min"] = {variadic<&MLGraphBuilder::min>};
  t["Sum"] = {variadic<&MLGraphBuilder::add>};
  t["Mean"] = {mean};
  t["Equal"] = {binary<&MLGraphBuilder::equal>};
  t["Greater"] = {binary<&MLGraphBuilder::greater>};
  t["GreaterOrEqual"] = {binary<&MLGraphBuilder::greaterOrEqual>};
  t["Less"] = {binary<&MLGraphBuilder::lesser>};
  t["LessOrEqual"] = {binary<&MLGraphBuilder::lesserOrEqual>};
  t["And"] = {binary<&MLGraphBuilder::logicalAnd>};
  t["Or"] = {binary<&MLGraphBuilder::logicalOr>};
  t["Xor"] = {binary<&MLGraphBuilder::logicalXor>};
  t["Not"] = {notOp};
  t["Where"] = {where};
  t["Cast"] = {cast, checkCast};
  t["Identity"] = {identity};
  t["Dropout"] = {identity, checkDropout};
  t["Abs"] = {unary<&MLGraphBuilder::abs>};
  t["Ceil"] = {unary<&MLGraphBuilder::ceil>};
  t["Cos"] = {unary<&MLGraphBuilder::cos>};
  t["Erf"] = {unary<&MLGraphBuilder::erf>};
  t["Exp"] = {unary<&MLGraphBuilder::exp>};
  t["Floor"] = {unary<&MLGraphBuilder::floor>};
  t["Log"] = {unary<&MLGraphBuilder::log>};
  t["Neg"] = {unary<&MLGraphBuilder::neg>};
  t["Reciprocal"] = {unary<&MLGraphBuilder::reciprocal>};
  t["Round"] = {unary<&MLGraphBuilder::roundEven>};
  t["Sign"] = {unary<&MLGraphBuilder::sign>};
  t["Sin"] = {unary<&MLGraphBuilder::sin>};
  t["Sqrt"] = {unary<&MLGraphBuilder::sqrt>};
  t["Tan"] = {unary<&MLGraphBuilder::tan>};
  t["IsNaN"] = {unary<&MLGraphBuilder::isNaN>};
}

}  // namespace webnn::onnx_import
