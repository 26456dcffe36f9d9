#include "conformance/op_table.h"

#include "conformance/op_options.h"

namespace webnn::conformance {

OpCall::OpCall(const OperatorCall& call, Resolver resolve)
    : call_(call), resolve_(std::move(resolve)) {
  for (const Argument& argument : call.arguments) {
    if (argument.key == "options") {
      options_ = argument.value;
    } else {
      positional_.push_back(&argument);
    }
  }
}

void OpCall::fail(const std::string& what) const {
  throw RunnerError(call_.name + ": " + what);
}

const Argument& OpCall::argument(size_t index) const {
  if (!has(index)) fail("argument #" + std::to_string(index) + " is missing");
  return *positional_[index];
}

MLOperand OpCall::operand(size_t index) const {
  const Argument& arg = argument(index);
  if (!arg.value.is_string()) fail("argument \"" + arg.key + "\" is not an operand name");
  auto resolved = resolve_(arg.value.get<std::string>());
  if (!resolved) fail("argument \"" + arg.key + "\" names no operand: " + arg.value.dump());
  return *resolved;
}

std::vector<MLOperand> OpCall::operandList(size_t index) const {
  const Argument& arg = argument(index);
  if (!arg.value.is_array()) fail("argument \"" + arg.key + "\" is not a list of operands");
  std::vector<MLOperand> operands;
  for (const Json& item : arg.value) {
    if (!item.is_string()) fail("argument \"" + arg.key + "\" holds " + item.dump());
    auto resolved = resolve_(item.get<std::string>());
    if (!resolved) fail("argument \"" + arg.key + "\" names no operand: " + item.dump());
    operands.push_back(*resolved);
  }
  return operands;
}

uint32_t OpCall::u32(size_t index) const {
  const Argument& arg = argument(index);
  return toU32(arg.value, call_.name + " argument \"" + arg.key + "\"");
}

std::vector<uint32_t> OpCall::u32List(size_t index) const {
  const Argument& arg = argument(index);
  return toU32List(arg.value, call_.name + " argument \"" + arg.key + "\"");
}

std::string OpCall::string(size_t index) const {
  const Argument& arg = argument(index);
  if (!arg.value.is_string()) fail("argument \"" + arg.key + "\" is not a string");
  return arg.value.get<std::string>();
}

uint32_t toU32(const Json& value, const std::string& what) {
  if (value.is_number_unsigned() && value.get<uint64_t>() <= UINT32_MAX) {
    return value.get<uint32_t>();
  }
  if (value.is_string()) {  // a BigInt literal written as a decimal string
    const std::string text = value.get<std::string>();
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos &&
        text.size() <= 10) {
      const uint64_t number = std::stoull(text);
      if (number <= UINT32_MAX) return static_cast<uint32_t>(number);
    }
  }
  throw RunnerError(what + " is not an unsigned 32-bit integer: " + value.dump());
}

std::vector<uint32_t> toU32List(const Json& value, const std::string& what) {
  if (!value.is_array()) throw RunnerError(what + " is not a list: " + value.dump());
  std::vector<uint32_t> list;
  for (const Json& item : value) list.push_back(toU32(item, what));
  return list;
}

namespace {

using B = MLGraphBuilder;
using Ops = std::vector<MLOperand>;

// Method-pointer adaptors for the ops that share a signature.
using Binary = MLOperand (B::*)(const MLOperand&, const MLOperand&, const MLOperatorOptions&);
using Unary = MLOperand (B::*)(const MLOperand&, const MLOperatorOptions&);
using Reduce = MLOperand (B::*)(const MLOperand&, const MLReduceOptions&);
using Pool = MLOperand (B::*)(const MLOperand&, const MLPool2dOptions&);
using ArgMinMax = MLOperand (B::*)(const MLOperand&, uint32_t, const MLArgMinMaxOptions&);
using Quantize = MLOperand (B::*)(const MLOperand&, const MLOperand&, const MLOperand&,
                                  const MLOperatorOptions&);
using Gather = MLOperand (B::*)(const MLOperand&, const MLOperand&, const MLGatherOptions&);

OpFunction binary(Binary method) {
  return [method](B& b, const OpCall& c) -> Ops {
    return {(b.*method)(c.operand(0), c.operand(1), operatorOptions(c))};
  };
}
OpFunction unary(Unary method) {
  return [method](B& b, const OpCall& c) -> Ops {
    return {(b.*method)(c.operand(0), operatorOptions(c))};
  };
}
OpFunction reduce(Reduce method) {
  return [method](B& b, const OpCall& c) -> Ops {
    return {(b.*method)(c.operand(0), reduceOptions(c))};
  };
}
OpFunction pool(Pool method) {
  return [method](B& b, const OpCall& c) -> Ops {
    return {(b.*method)(c.operand(0), pool2dOptions(c))};
  };
}
OpFunction argMinMax(ArgMinMax method) {
  return [method](B& b, const OpCall& c) -> Ops {
    return {(b.*method)(c.operand(0), c.u32(1), argMinMaxOptions(c))};
  };
}
OpFunction quantize(Quantize method) {
  return [method](B& b, const OpCall& c) -> Ops {
    return {(b.*method)(c.operand(0), c.operand(1), c.operand(2), operatorOptions(c))};
  };
}
OpFunction gather(Gather method) {
  return [method](B& b, const OpCall& c) -> Ops {
    return {(b.*method)(c.operand(0), c.operand(1), gatherOptions(c))};
  };
}

// softmax without an axis (older vectors): the last axis, which the data match (README §7).
uint32_t softmaxAxis(const OpCall& c, const MLOperand& input) {
  if (c.has(1)) return c.u32(1);
  const auto rank = static_cast<uint32_t>(input.shape().size());
  return rank == 0 ? 0 : rank - 1;
}

std::map<std::string, OpFunction> makeTable() {
  std::map<std::string, OpFunction> t;
  // Element-wise binary, comparison and logical ops.
  t["add"] = binary(&B::add);
  t["sub"] = binary(&B::sub);
  t["mul"] = binary(&B::mul);
  t["div"] = binary(&B::div);
  t["max"] = binary(&B::max);
  t["min"] = binary(&B::min);
  t["pow"] = binary(&B::pow);
  t["equal"] = binary(&B::equal);
  t["notEqual"] = binary(&B::notEqual);
  t["greater"] = binary(&B::greater);
  t["greaterOrEqual"] = binary(&B::greaterOrEqual);
  t["lesser"] = binary(&B::lesser);
  t["lesserOrEqual"] = binary(&B::lesserOrEqual);
  t["logicalNot"] = unary(&B::logicalNot);
  t["logicalAnd"] = binary(&B::logicalAnd);
  t["logicalOr"] = binary(&B::logicalOr);
  t["logicalXor"] = binary(&B::logicalXor);
  // Element-wise unary.
  t["abs"] = unary(&B::abs);
  t["ceil"] = unary(&B::ceil);
  t["cos"] = unary(&B::cos);
  t["erf"] = unary(&B::erf);
  t["exp"] = unary(&B::exp);
  t["floor"] = unary(&B::floor);
  t["identity"] = unary(&B::identity);
  t["isInfinite"] = unary(&B::isInfinite);
  t["isNaN"] = unary(&B::isNaN);
  t["log"] = unary(&B::log);
  t["neg"] = unary(&B::neg);
  t["reciprocal"] = unary(&B::reciprocal);
  t["roundEven"] = unary(&B::roundEven);
  t["sign"] = unary(&B::sign);
  t["sin"] = unary(&B::sin);
  t["sqrt"] = unary(&B::sqrt);
  t["tan"] = unary(&B::tan);
  // Activations.
  t["elu"] = [](B& b, const OpCall& c) -> Ops { return {b.elu(c.operand(0), eluOptions(c))}; };
  t["gelu"] = unary(&B::gelu);
  t["hardSigmoid"] = [](B& b, const OpCall& c) -> Ops {
    return {b.hardSigmoid(c.operand(0), hardSigmoidOptions(c))};
  };
  t["hardSwish"] = unary(&B::hardSwish);
  t["leakyRelu"] = [](B& b, const OpCall& c) -> Ops {
    return {b.leakyRelu(c.operand(0), leakyReluOptions(c))};
  };
  t["linear"] = [](B& b, const OpCall& c) -> Ops {
    return {b.linear(c.operand(0), linearOptions(c))};
  };
  t["prelu"] = binary(&B::prelu);
  t["relu"] = unary(&B::relu);
  t["sigmoid"] = unary(&B::sigmoid);
  t["softmax"] = [](B& b, const OpCall& c) -> Ops {
    const MLOperand input = c.operand(0);
    return {b.softmax(input, softmaxAxis(c, input), operatorOptions(c))};
  };
  t["softplus"] = unary(&B::softplus);
  t["softsign"] = unary(&B::softsign);
  t["tanh"] = unary(&B::tanh);
  t["clamp"] = [](B& b, const OpCall& c) -> Ops {
    return {b.clamp(c.operand(0), clampOptions(c))};
  };
  // Type conversion and quantization.
  t["cast"] = [](B& b, const OpCall& c) -> Ops {
    return {
        b.cast(c.operand(0), dataTypeNamed(c.argument(1).value, "cast type"), operatorOptions(c))};
  };
  t["quantizeLinear"] = quantize(&B::quantizeLinear);
  t["dequantizeLinear"] = quantize(&B::dequantizeLinear);
  // Matrix products and convolutions.
  t["matmul"] = binary(&B::matmul);
  t["gemm"] = [](B& b, const OpCall& c) -> Ops {
    return {b.gemm(c.operand(0), c.operand(1), gemmOptions(c))};
  };
  t["conv2d"] = [](B& b, const OpCall& c) -> Ops {
    return {b.conv2d(c.operand(0), c.operand(1), conv2dOptions(c))};
  };
  t["convTranspose2d"] = [](B& b, const OpCall& c) -> Ops {
    return {b.convTranspose2d(c.operand(0), c.operand(1), convTranspose2dOptions(c))};
  };
  // Pooling and resampling.
  t["averagePool2d"] = pool(&B::averagePool2d);
  t["l2Pool2d"] = pool(&B::l2Pool2d);
  t["maxPool2d"] = pool(&B::maxPool2d);
  t["resample2d"] = [](B& b, const OpCall& c) -> Ops {
    return {b.resample2d(c.operand(0), resample2dOptions(c))};
  };
  // Normalizations.
  t["batchNormalization"] = [](B& b, const OpCall& c) -> Ops {
    return {b.batchNormalization(c.operand(0), c.operand(1), c.operand(2),
                                 batchNormalizationOptions(c))};
  };
  t["instanceNormalization"] = [](B& b, const OpCall& c) -> Ops {
    return {b.instanceNormalization(c.operand(0), instanceNormalizationOptions(c))};
  };
  t["layerNormalization"] = [](B& b, const OpCall& c) -> Ops {
    return {b.layerNormalization(c.operand(0), layerNormalizationOptions(c))};
  };
  // Reductions.
  t["reduceL1"] = reduce(&B::reduceL1);
  t["reduceL2"] = reduce(&B::reduceL2);
  t["reduceLogSum"] = reduce(&B::reduceLogSum);
  t["reduceLogSumExp"] = reduce(&B::reduceLogSumExp);
  t["reduceMax"] = reduce(&B::reduceMax);
  t["reduceMean"] = reduce(&B::reduceMean);
  t["reduceMin"] = reduce(&B::reduceMin);
  t["reduceProduct"] = reduce(&B::reduceProduct);
  t["reduceSum"] = reduce(&B::reduceSum);
  t["reduceSumSquare"] = reduce(&B::reduceSumSquare);
  t["argMin"] = argMinMax(&B::argMin);
  t["argMax"] = argMinMax(&B::argMax);
  t["cumulativeSum"] = [](B& b, const OpCall& c) -> Ops {
    return {b.cumulativeSum(c.operand(0), c.u32(1), cumulativeSumOptions(c))};
  };
  // Shape and data movement.
  t["concat"] = [](B& b, const OpCall& c) -> Ops {
    return {b.concat(c.operandList(0), c.u32(1), operatorOptions(c))};
  };
  t["expand"] = [](B& b, const OpCall& c) -> Ops {
    return {b.expand(c.operand(0), c.u32List(1), operatorOptions(c))};
  };
  t["pad"] = [](B& b, const OpCall& c) -> Ops {
    return {b.pad(c.operand(0), c.u32List(1), c.u32List(2), padOptions(c))};
  };
  t["reshape"] = [](B& b, const OpCall& c) -> Ops {
    return {b.reshape(c.operand(0), c.u32List(1), operatorOptions(c))};
  };
  t["reverse"] = [](B& b, const OpCall& c) -> Ops {
    return {b.reverse(c.operand(0), reverseOptions(c))};
  };
  t["slice"] = [](B& b, const OpCall& c) -> Ops {
    return {b.slice(c.operand(0), c.u32List(1), c.u32List(2), sliceOptions(c))};
  };
  t["split"] = [](B& b, const OpCall& c) -> Ops {
    if (c.argument(1).value.is_array()) {
      return b.split(c.operand(0), c.u32List(1), splitOptions(c));
    }
    return b.split(c.operand(0), c.u32(1), splitOptions(c));
  };
  t["tile"] = [](B& b, const OpCall& c) -> Ops {
    return {b.tile(c.operand(0), c.u32List(1), operatorOptions(c))};
  };
  t["transpose"] = [](B& b, const OpCall& c) -> Ops {
    return {b.transpose(c.operand(0), transposeOptions(c))};
  };
  t["triangular"] = [](B& b, const OpCall& c) -> Ops {
    return {b.triangular(c.operand(0), triangularOptions(c))};
  };
  t["where"] = [](B& b, const OpCall& c) -> Ops {
    return {b.where(c.operand(0), c.operand(1), c.operand(2), operatorOptions(c))};
  };
  // Gather and scatter.
  t["gather"] = gather(&B::gather);
  t["gatherElements"] = gather(&B::gatherElements);
  t["gatherND"] = [](B& b, const OpCall& c) -> Ops {
    return {b.gatherND(c.operand(0), c.operand(1), operatorOptions(c))};
  };
  t["scatterElements"] = [](B& b, const OpCall& c) -> Ops {
    return {b.scatterElements(c.operand(0), c.operand(1), c.operand(2), scatterOptions(c))};
  };
  t["scatterND"] = [](B& b, const OpCall& c) -> Ops {
    return {b.scatterND(c.operand(0), c.operand(1), c.operand(2), operatorOptions(c))};
  };
  // Recurrent networks.
  t["gru"] = [](B& b, const OpCall& c) -> Ops {
    return b.gru(c.operand(0), c.operand(1), c.operand(2), c.u32(3), c.u32(4), gruOptions(c));
  };
  t["gruCell"] = [](B& b, const OpCall& c) -> Ops {
    return {b.gruCell(c.operand(0), c.operand(1), c.operand(2), c.operand(3), c.u32(4),
                      gruCellOptions(c))};
  };
  t["lstm"] = [](B& b, const OpCall& c) -> Ops {
    return b.lstm(c.operand(0), c.operand(1), c.operand(2), c.u32(3), c.u32(4), lstmOptions(c));
  };
  t["lstmCell"] = [](B& b, const OpCall& c) -> Ops {
    return b.lstmCell(c.operand(0), c.operand(1), c.operand(2), c.operand(3), c.operand(4),
                      c.u32(5), lstmCellOptions(c));
  };
  return t;
}

}  // namespace

const std::map<std::string, OpFunction>& opTable() {
  static const std::map<std::string, OpFunction> table = makeTable();
  return table;
}

}  // namespace webnn::conformance
