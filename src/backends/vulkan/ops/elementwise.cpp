// Element-wise binary ops with broadcasting on floats (binary.comp), 32-bit integers
// (binary_int.comp), 64-bit integers (binary_int64.comp) and int8/uint8 (binary_narrow.comp);
// unary ops, activations and clamp on floats (unary.comp), abs, neg, sign, relu and clamp on
// integers too (unary_int.comp).
#include <string_view>

#include "backends/vulkan/kernel.h"
#include "core/element.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;

uint32_t binaryCode(OpType type) {
  switch (type) {
    case OpType::Add:
      return 0;
    case OpType::Sub:
      return 1;
    case OpType::Mul:
      return 2;
    case OpType::Div:
      return 3;
    case OpType::Max:
      return 4;
    case OpType::Min:
      return 5;
    case OpType::Pow:
      return 6;
    default:
      return 7;  // prelu
  }
}

void compileBinary(const OpContext& context, std::vector<Step>& steps) {
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  const T type = context.descriptor(context.output()).dataType;
  const uint32_t bits = bitsPerElement(type);
  if (!isFloatingPoint(type) && bits < 32) {
    // int8, uint8: binary_narrow.comp, one invocation per output word.
    std::vector<uint32_t> params{static_cast<uint32_t>(out.size()),
                                 binaryCode(context.operation.type),
                                 shaderTypeCode(type),
                                 0,
                                 0,
                                 0};
    appendPadded(params, out, 1);
    appendPadded(params, broadcastStrides(context.shape(context.input(0)), out));
    appendPadded(params, broadcastStrides(context.shape(context.input(1)), out));
    steps.push_back(elementsStep("binary_narrow", count, bits, std::move(params),
                                 {context.input(0), context.input(1), context.output()}));
    return;
  }
  const bool isSigned = type == T::Int32 || type == T::Int64;
  const bool isFloat = type == T::Float32 || type == T::Float16;
  const std::string_view shader = isFloat                                   ? "binary"
                                  : (type == T::Int64 || type == T::Uint64) ? "binary_int64"
                                                                            : "binary_int";
  std::vector<uint32_t> params{count, static_cast<uint32_t>(out.size()),
                               binaryCode(context.operation.type), isSigned ? 1u : 0u};
  appendPadded(params, out, 1);
  appendPadded(params, broadcastStrides(context.shape(context.input(0)), out));
  appendPadded(params, broadcastStrides(context.shape(context.input(1)), out));
  Step step = elementwiseStep(shader, count, std::move(params),
                              {context.input(0), context.input(1), context.output()});
  step.float16 = type == T::Float16;
  steps.push_back(std::move(step));
}

struct UnaryCode {
  uint32_t code;
  double alpha = 0;
  double beta = 0;
};

UnaryCode unaryCode(const graph::Operation& operation) {
  switch (operation.type) {
    case OpType::Abs:
      return {0};
    case OpType::Ceil:
      return {1};
    case OpType::Cos:
      return {2};
    case OpType::Exp:
      return {3};
    case OpType::Floor:
      return {4};
    case OpType::Log:
      return {5};
    case OpType::Neg:
      return {6};
    case OpType::Reciprocal:
      return {7};
    case OpType::Sin:
      return {8};
    case OpType::Sqrt:
      return {9};
    case OpType::Tan:
      return {10};
    case OpType::Tanh:
      return {11};
    case OpType::Erf:
      return {12};
    case OpType::Relu:
      return {13};
    case OpType::Sigmoid:
      return {14};
    case OpType::Elu:
      return {15, operation.attributesAs<graph::EluAttributes>().alpha};
    case OpType::LeakyRelu:
      return {16, operation.attributesAs<graph::LeakyReluAttributes>().alpha};
    case OpType::HardSigmoid: {
      const auto& a = operation.attributesAs<graph::HardSigmoidAttributes>();
      return {17, a.alpha, a.beta};
    }
    case OpType::HardSwish:
      return {18};
    case OpType::Linear: {
      const auto& a = operation.attributesAs<graph::LinearAttributes>();
      return {19, a.alpha, a.beta};
    }
    case OpType::Softplus:
      return {20};
    case OpType::Softsign:
      return {21};
    case OpType::Gelu:
      return {22};
    case OpType::Clamp: {
      const auto& a = operation.attributesAs<graph::ClampAttributes>();
      return {23, a.minValue.toDouble(), a.maxValue.toDouble()};
    }
    case OpType::Identity:
      return {24};
    case OpType::Sign:
      return {25};
    default:
      return {26};  // roundEven
  }
}

// A clamp bound as the 64-bit integer of its value in `type` (saturated to the type's range).
uint64_t integerBound(const MLNumber& bound, T type) {
  std::byte bytes[8] = {};
  storeNumber(type, bytes, 0, bound);
  return static_cast<uint64_t>(loadInteger(type, bytes, 0));
}

// abs, neg, sign, relu and clamp on integers (unary_int.comp).
void compileUnaryInteger(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t count = elementCount(context.shape(context.output()), "the output");
  const T type = context.descriptor(context.output()).dataType;
  uint32_t code = 4;  // clamp
  uint64_t low = 0, high = 0;
  switch (context.operation.type) {
    case OpType::Abs:
      code = 0;
      break;
    case OpType::Neg:
      code = 1;
      break;
    case OpType::Sign:
      code = 2;
      break;
    case OpType::Relu:
      code = 3;
      break;
    default: {
      const auto& a = context.operation.attributesAs<graph::ClampAttributes>();
      low = integerBound(a.minValue, type);
      high = integerBound(a.maxValue, type);
    }
  }
  steps.push_back(elementsStep(
      "unary_int", count, bitsPerElement(type),
      {code, shaderTypeCode(type), static_cast<uint32_t>(low), static_cast<uint32_t>(low >> 32),
       static_cast<uint32_t>(high), static_cast<uint32_t>(high >> 32)},
      {context.input(0), context.output()}));
}

void compileUnary(const OpContext& context, std::vector<Step>& steps) {
  if (!isFloatingPoint(context.descriptor(context.output()).dataType)) {
    compileUnaryInteger(context, steps);
    return;
  }
  const uint32_t count = elementCount(context.shape(context.output()), "the output");
  const UnaryCode code = unaryCode(context.operation);
  Step step = elementwiseStep("unary", count,
                              {count, code.code, floatBits(code.alpha), floatBits(code.beta)},
                              {context.input(0), context.output()});
  step.float16 = context.float16();
  steps.push_back(std::move(step));
}

}  // namespace

void registerElementwiseOps(OpTable& table) {
  // Every type the spec's limits allow (none takes int4/uint4). Integer arithmetic wraps; integer
  // division truncates, and by zero gives 0 (integer_binary.glsl).
  for (OpType type : {OpType::Add, OpType::Sub, OpType::Mul, OpType::Div, OpType::Max, OpType::Min,
                      OpType::Pow, OpType::Prelu}) {
    table.set(type, {compileBinary, kElementTypes, {}});
  }
  for (OpType type : {OpType::Ceil,     OpType::Cos,        OpType::Exp,         OpType::Floor,
                      OpType::Log,      OpType::Reciprocal, OpType::Sin,         OpType::Sqrt,
                      OpType::Tan,      OpType::Tanh,       OpType::Erf,         OpType::Sigmoid,
                      OpType::Elu,      OpType::LeakyRelu,  OpType::HardSigmoid, OpType::HardSwish,
                      OpType::Linear,   OpType::Softplus,   OpType::Softsign,    OpType::Gelu,
                      OpType::RoundEven}) {
    table.set(type, {compileUnary, {T::Float32, T::Float16}, {}});
  }
  // Integers too (unary_int.comp; the spec's limits narrow abs, neg, sign and relu to the signed
  // types).
  for (OpType type : {OpType::Abs, OpType::Neg, OpType::Sign, OpType::Relu, OpType::Clamp}) {
    table.set(type, {compileUnary, kElementTypes, {}});
  }
}

}  // namespace webnn::vulkan
