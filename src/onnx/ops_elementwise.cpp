// Element-wise ONNX ops: arithmetic (Mod from div), comparisons, logic, Where, Cast, CastLike,
// unary math (the hyperbolic functions from exp, log and sqrt), IsInf, Identity, Dropout.
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

MLOperand castTo(Context& c, const MLOperand& x, int32_t to) {
  if (to == kBool) {
    // ONNX: non-zero -> true; WebNN's cast would keep the value.
    return c.builder.notEqual(x, c.scalar(x.dataType(), 0.0), {c.label()});
  }
  const auto type = webnnType(to);
  if (!type) c.fail("Cast to " + onnxTypeName(to) + " is not supported");
  return x.dataType() == *type ? x : c.builder.cast(x, *type, {c.label()});
}

void cast(Context& c) {
  c.setOutput(0, castTo(c, c.input(0), static_cast<int32_t>(c.attrInt("to", 0))));
}

// CastLike: to the ONNX type of its second input.
void castLike(Context& c) {
  c.setOutput(0, castTo(c, c.input(0), c.onnxType(1)));
}

// Mod: fmod=1 is C's fmod (the sign of the dividend), a - trunc(a / b) * b; fmod=0 (integers
// only) is Python's %, the sign of the divisor: the remainder plus b when their signs differ.
// float16 is computed in float32 (a / b rounded to half would lose the remainder).
void mod(Context& c) {
  auto [a, b] = sameTypeInputs(c);
  const bool fmod = c.attrInt("fmod", 0) != 0;
  const MLOperandDataType type = a.dataType();
  const bool floating = isFloatingPoint(type);
  if (floating && !fmod) c.failData("fmod=0 is defined for integers only (ONNX)");
  const std::string l = c.label();
  if (type == MLOperandDataType::Float16) {
    a = c.builder.cast(a, MLOperandDataType::Float32, {l + "/a32"});
    b = c.builder.cast(b, MLOperandDataType::Float32, {l + "/b32"});
  }
  const MLOperandDataType computeType = a.dataType();
  MLOperand quotient = c.builder.div(a, b, {l + "/div"});
  const MLOperand zero = c.scalar(computeType, 0.0);
  if (floating) {  // integer division already truncates
    const MLOperand negative = c.builder.lesser(quotient, zero, {l + "/negative"});
    quotient = c.builder.where(negative, c.builder.ceil(quotient, {l + "/ceil"}),
                               c.builder.floor(quotient, {l + "/floor"}), {l + "/trunc"});
  }
  MLOperand remainder =
      c.builder.sub(a, c.builder.mul(quotient, b, {l + "/times"}), {floating ? l + "/r" : l});
  if (!fmod && isSigned(type)) {
    const MLOperand signsDiffer =
        c.builder.notEqual(c.builder.lesser(remainder, zero, {l + "/rneg"}),
                           c.builder.lesser(b, zero, {l + "/bneg"}), {l + "/signs"});
    const MLOperand adjust = c.builder.logicalAnd(
        c.builder.notEqual(remainder, zero, {l + "/nonzero"}), signsDiffer, {l + "/adjust"});
    remainder = c.builder.where(adjust, c.builder.add(remainder, b, {l + "/plus"}), remainder, {l});
  }
  if (type == MLOperandDataType::Float16) remainder = c.builder.cast(remainder, type, {l});
  c.setOutput(0, remainder);
}

// BitShift on unsigned integers: x * 2^y (LEFT, wrapping in the type's width as ONNX does) or
// x / 2^y (RIGHT: unsigned division truncates), 2^y taken from a table of the type's powers.
void bitShift(Context& c) {
  auto [x, y] = sameTypeInputs(c);
  const auto type = x.dataType();
  const std::string direction = c.attrString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") c.failData("direction must be LEFT or RIGHT");
  if (type != MLOperandDataType::Uint8 && type != MLOperandDataType::Uint32 &&
      type != MLOperandDataType::Uint64)
    c.fail("BitShift of " + std::string(toString(type)) + " is not supported");
  const int64_t bits = bitsPerElement(type);
  Known powers;
  powers.type = c.onnxType(0);
  powers.shape = {bits};
  for (int64_t i = 0; i < bits; ++i)
    powers.ints.push_back(static_cast<int64_t>(uint64_t{1} << i));  // 2^63 wraps to int64's sign
  MLGatherOptions lookup;
  lookup.label = c.label() + "/power";
  // gather takes int32, uint32 and int64 indices; shift amounts fit in uint32.
  const MLOperand amount = type == MLOperandDataType::Uint32
                               ? y
                               : c.builder.cast(y, MLOperandDataType::Uint32, {c.label() + "/y"});
  const MLOperand power = c.builder.gather(c.constant(powers), amount, lookup);
  c.setOutput(0, direction == "LEFT" ? c.builder.mul(x, power, {c.label()})
                                     : c.builder.div(x, power, {c.label()}));
}

void isInf(Context& c) {
  MLOperand x = c.input(0);
  const bool negative = c.attrInt("detect_negative", 1) != 0;
  const bool positive = c.attrInt("detect_positive", 1) != 0;
  const std::string l = c.label();
  if (negative && positive) {
    c.setOutput(0, c.builder.isInfinite(x, {l}));
    return;
  }
  const MLOperand infinite = c.builder.isInfinite(x, {l + "/inf"});
  const MLOperand zero = c.scalar(x.dataType(), 0.0);
  const MLOperand side = positive ? c.builder.greater(x, zero, {l + "/side"})
                                  : c.builder.lesser(x, zero, {l + "/side"});
  const MLOperand none = c.builder.notEqual(zero, zero, {l + "/none"});
  c.setOutput(0, negative || positive ? c.builder.logicalAnd(infinite, side, {l})
                                      : c.builder.logicalAnd(infinite, none, {l}));
}

// Hyperbolic functions from exp, log and sqrt.
template <int kWhich>
void hyperbolic(Context& c) {
  MLOperand x = c.input(0);
  const auto type = x.dataType();
  const std::string l = c.label();
  auto half = [&](const MLOperand& v, const std::string& name) {
    return c.builder.mul(v, c.scalar(type, 0.5), {name});
  };
  auto one = c.scalar(type, 1.0);
  if (kWhich == 0 || kWhich == 1) {  // Sinh, Cosh: (e^x -+ e^-x) / 2
    const MLOperand up = c.builder.exp(x, {l + "/exp"});
    const MLOperand down = c.builder.exp(c.builder.neg(x, {l + "/neg"}), {l + "/expneg"});
    c.setOutput(0, half(kWhich == 0 ? c.builder.sub(up, down, {l + "/sub"})
                                    : c.builder.add(up, down, {l + "/add"}),
                        l));
  } else if (kWhich == 2) {  // Asinh: sign(x) log(|x| + sqrt(x^2 + 1)), no cancellation below 0
    const MLOperand magnitude = c.builder.abs(x, {l + "/abs"});
    const MLOperand root = c.builder.sqrt(
        c.builder.add(c.builder.mul(x, x, {l + "/square"}), one, {l + "/plus1"}), {l + "/sqrt"});
    const MLOperand logarithm =
        c.builder.log(c.builder.add(magnitude, root, {l + "/sum"}), {l + "/log"});
    c.setOutput(0, c.builder.mul(c.builder.sign(x, {l + "/sign"}), logarithm, {l}));
  } else if (kWhich == 3) {  // Acosh: log(x + sqrt(x^2 - 1))
    const MLOperand root = c.builder.sqrt(
        c.builder.sub(c.builder.mul(x, x, {l + "/square"}), one, {l + "/minus1"}), {l + "/sqrt"});
    c.setOutput(0, c.builder.log(c.builder.add(x, root, {l + "/sum"}), {l}));
  } else {  // Atanh: log((1 + x) / (1 - x)) / 2
    const MLOperand ratio = c.builder.div(c.builder.add(one, x, {l + "/plus"}),
                                          c.builder.sub(one, x, {l + "/minus"}), {l + "/ratio"});
    c.setOutput(0, half(c.builder.log(ratio, {l + "/log"}), l));
  }
}

std::string checkCast(const ::onnx::NodeProto& node, int64_t) {
  const auto to = static_cast<int32_t>(intAttribute(node, "to", 0));
  if (to != kBool && !webnnType(to)) return "to=" + onnxTypeName(to);
  return {};
}

void identity(Context& c) {
  c.setOutput(0, c.input(0));
}

// Dropout at inference: the input itself, and a mask (when asked for) of every element kept.
// training_mode, when given, must be a constant false, or true with a ratio of 0.
void dropout(Context& c) {
  if (c.hasInput(2)) {
    const Known& training = c.requireKnown(2, "training_mode");
    if (training.size() != 1) c.failData("training_mode must hold one value");
    if (training.integer(0) != 0) {
      // Training drops at random, unless the ratio is 0 (ratio defaults to 0.5).
      const Known* ratio = c.hasInput(1) ? &c.requireKnown(1, "ratio") : nullptr;
      if (!ratio || ratio->size() != 1 || ratio->number(0) != 0.0)
        c.fail("training_mode=true with a ratio above 0 drops elements at random");
    }
  }
  MLOperand x = c.input(0);
  c.setOutput(0, x);
  if (c.wantsOutput(1)) {
    const MLOperand kept = c.scalar(MLOperandDataType::Uint8, 1.0);
    c.setOutput(1, c.builder.expand(kept, x.shape(), {c.label() + "/mask"}));
  }
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
  t["CastLike"] = {castLike};
  t["Mod"] = {mod};
  t["IsInf"] = {isInf};
  t["BitShift"] = {bitShift};
  t["Sinh"] = {hyperbolic<0>};
  t["Cosh"] = {hyperbolic<1>};
  t["Asinh"] = {hyperbolic<2>};
  t["Acosh"] = {hyperbolic<3>};
  t["Atanh"] = {hyperbolic<4>};
  t["Identity"] = {identity};
  t["Dropout"] = {dropout};
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
