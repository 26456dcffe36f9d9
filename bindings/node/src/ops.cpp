#include "ops.h"

#include <functional>
#include <map>

#include "dictionary.h"
#include "wrappers.h"

namespace webnn::node {
namespace {

// The positional arguments of one call.
class Args {
 public:
  Args(Napi::Env env, const std::string& name, const Napi::Array& args)
      : env_(env), name_(name), args_(args) {}

  Napi::Value at(uint32_t i) const { return i < args_.Length() ? args_.Get(i) : env_.Undefined(); }
  std::string what(const char* parameter) const { return name_ + "(): " + parameter; }
  MLOperand operand(uint32_t i, const char* parameter) const {
    return toOperand(at(i), what(parameter));
  }
  std::vector<MLOperand> operands(uint32_t i, const char* parameter) const {
    const Napi::Value value = at(i);
    if (!value.IsArray()) throw Napi::TypeError::New(env_, what(parameter) + " must be a sequence");
    const Napi::Array array = value.As<Napi::Array>();
    std::vector<MLOperand> list;
    for (uint32_t k = 0; k < array.Length(); ++k) {
      list.push_back(toOperand(array.Get(k), what(parameter) + "[" + std::to_string(k) + "]"));
    }
    return list;
  }
  uint32_t u32(uint32_t i, const char* parameter) const { return toU32(at(i), what(parameter)); }
  std::vector<uint32_t> u32List(uint32_t i, const char* parameter) const {
    return toU32List(at(i), what(parameter));
  }
  Dictionary options(uint32_t i) const { return Dictionary(at(i), what("options")); }
  MLOperatorOptions operatorOptions(uint32_t i) const {
    MLOperatorOptions o;
    options(i).label(o);
    return o;
  }
  Napi::Env env() const { return env_; }

 private:
  Napi::Env env_;
  const std::string& name_;
  const Napi::Array& args_;
};

using B = MLGraphBuilder;
using Result = std::vector<MLOperand>;
using Op = std::function<Result(B&, const Args&)>;

// Enum tables, with the spec's strings.
const std::vector<std::pair<const char*, MLInputOperandLayout>> kInputLayouts = {
    {"nchw", MLInputOperandLayout::Nchw}, {"nhwc", MLInputOperandLayout::Nhwc}};
const std::vector<std::pair<const char*, MLConv2dFilterOperandLayout>> kConv2dFilterLayouts = {
    {"oihw", MLConv2dFilterOperandLayout::Oihw},
    {"hwio", MLConv2dFilterOperandLayout::Hwio},
    {"ohwi", MLConv2dFilterOperandLayout::Ohwi},
    {"ihwo", MLConv2dFilterOperandLayout::Ihwo}};
const std::vector<std::pair<const char*, MLConvTranspose2dFilterOperandLayout>>
    kConvTranspose2dFilterLayouts = {{"iohw", MLConvTranspose2dFilterOperandLayout::Iohw},
                                     {"hwoi", MLConvTranspose2dFilterOperandLayout::Hwoi},
                                     {"ohwi", MLConvTranspose2dFilterOperandLayout::Ohwi}};
const std::vector<std::pair<const char*, MLRoundingType>> kRoundingTypes = {
    {"floor", MLRoundingType::Floor}, {"ceil", MLRoundingType::Ceil}};
const std::vector<std::pair<const char*, MLInterpolationMode>> kInterpolationModes = {
    {"nearest-neighbor", MLInterpolationMode::NearestNeighbor},
    {"linear", MLInterpolationMode::Linear}};
const std::vector<std::pair<const char*, MLPaddingMode>> kPaddingModes = {
    {"constant", MLPaddingMode::Constant},
    {"edge", MLPaddingMode::Edge},
    {"reflection", MLPaddingMode::Reflection},
    {"symmetric", MLPaddingMode::Symmetric}};
const std::vector<std::pair<const char*, MLRecurrentNetworkActivation>> kActivations = {
    {"relu", MLRecurrentNetworkActivation::Relu},
    {"sigmoid", MLRecurrentNetworkActivation::Sigmoid},
    {"tanh", MLRecurrentNetworkActivation::Tanh}};
const std::vector<std::pair<const char*, MLRecurrentNetworkDirection>> kDirections = {
    {"forward", MLRecurrentNetworkDirection::Forward},
    {"backward", MLRecurrentNetworkDirection::Backward},
    {"both", MLRecurrentNetworkDirection::Both}};
const std::vector<std::pair<const char*, MLGruWeightLayout>> kGruLayouts = {
    {"zrn", MLGruWeightLayout::Zrn}, {"rzn", MLGruWeightLayout::Rzn}};
const std::vector<std::pair<const char*, MLLstmWeightLayout>> kLstmLayouts = {
    {"iofg", MLLstmWeightLayout::Iofg}, {"ifgo", MLLstmWeightLayout::Ifgo}};

// Options dictionaries.
MLReduceOptions reduceOptions(const Args& a, uint32_t i) {
  MLReduceOptions o;
  a.options(i).label(o).u32List("axes", o.axes).boolean("keepDimensions", o.keepDimensions);
  return o;
}
MLPool2dOptions pool2dOptions(const Args& a, uint32_t i) {
  MLPool2dOptions o;
  a.options(i)
      .label(o)
      .u32List("windowDimensions", o.windowDimensions)
      .u32List("padding", o.padding)
      .u32List("strides", o.strides)
      .u32List("dilations", o.dilations)
      .enumeration("layout", o.layout, kInputLayouts)
      .enumeration("roundingType", o.roundingType, kRoundingTypes)
      .u32List("outputSizes", o.outputSizes);
  return o;
}
MLArgMinMaxOptions argMinMaxOptions(const Args& a, uint32_t i) {
  MLArgMinMaxOptions o;
  a.options(i)
      .label(o)
      .boolean("keepDimensions", o.keepDimensions)
      .dataType("outputDataType", o.outputDataType);
  return o;
}
MLGatherOptions gatherOptions(const Args& a, uint32_t i) {
  MLGatherOptions o;
  a.options(i).label(o).u32("axis", o.axis);
  return o;
}
MLScatterOptions scatterOptions(const Args& a, uint32_t i) {
  MLScatterOptions o;
  a.options(i).label(o).u32("axis", o.axis);
  return o;
}
MLSplitOptions splitOptions(const Args& a, uint32_t i) {
  MLSplitOptions o;
  a.options(i).label(o).u32("axis", o.axis);
  return o;
}

// Adaptors for the methods that share a signature.
using Binary = MLOperand (B::*)(const MLOperand&, const MLOperand&, const MLOperatorOptions&);
using Unary = MLOperand (B::*)(const MLOperand&, const MLOperatorOptions&);
using Reduce = MLOperand (B::*)(const MLOperand&, const MLReduceOptions&);
using Pool = MLOperand (B::*)(const MLOperand&, const MLPool2dOptions&);
using ArgMinMax = MLOperand (B::*)(const MLOperand&, uint32_t, const MLArgMinMaxOptions&);
using Quantize = MLOperand (B::*)(const MLOperand&, const MLOperand&, const MLOperand&,
                                  const MLOperatorOptions&);
using Gather = MLOperand (B::*)(const MLOperand&, const MLOperand&, const MLGatherOptions&);

Op binary(Binary m) {
  return [m](B& b, const Args& a) -> Result {
    return {(b.*m)(a.operand(0, "a"), a.operand(1, "b"), a.operatorOptions(2))};
  };
}
Op unary(Unary m) {
  return [m](B& b, const Args& a) -> Result {
    return {(b.*m)(a.operand(0, "input"), a.operatorOptions(1))};
  };
}
Op reduce(Reduce m) {
  return [m](B& b, const Args& a) -> Result {
    return {(b.*m)(a.operand(0, "input"), reduceOptions(a, 1))};
  };
}
Op pool(Pool m) {
  return [m](B& b, const Args& a) -> Result {
    return {(b.*m)(a.operand(0, "input"), pool2dOptions(a, 1))};
  };
}
Op argMinMax(ArgMinMax m) {
  return [m](B& b, const Args& a) -> Result {
    return {(b.*m)(a.operand(0, "input"), a.u32(1, "axis"), argMinMaxOptions(a, 2))};
  };
}
Op quantize(Quantize m) {
  return [m](B& b, const Args& a) -> Result {
    return {(b.*m)(a.operand(0, "input"), a.operand(1, "scale"), a.operand(2, "zeroPoint"),
                   a.operatorOptions(3))};
  };
}
Op gather(Gather m) {
  return [m](B& b, const Args& a) -> Result {
    return {(b.*m)(a.operand(0, "input"), a.operand(1, "indices"), gatherOptions(a, 2))};
  };
}

// Ops in the spec's order (of the IDL's partial interfaces).
std::vector<std::pair<std::string, Op>> makeOps() {
  std::vector<std::pair<std::string, Op>> t;
  auto add = [&t](const char* name, Op op) { t.emplace_back(name, std::move(op)); };

  add("argMin", argMinMax(&B::argMin));
  add("argMax", argMinMax(&B::argMax));
  add("batchNormalization", [](B& b, const Args& a) -> Result {
    MLBatchNormalizationOptions o;
    a.options(3)
        .label(o)
        .operand("scale", o.scale)
        .operand("bias", o.bias)
        .u32("axis", o.axis)
        .number("epsilon", o.epsilon);
    return {b.batchNormalization(a.operand(0, "input"), a.operand(1, "mean"),
                                 a.operand(2, "variance"), o)};
  });
  add("cast", [](B& b, const Args& a) -> Result {
    return {
        b.cast(a.operand(0, "input"), toDataType(a.at(1), a.what("type")), a.operatorOptions(2))};
  });
  add("clamp", [](B& b, const Args& a) -> Result {
    MLClampOptions o;
    a.options(1).label(o).mlNumber("minValue", o.minValue).mlNumber("maxValue", o.maxValue);
    return {b.clamp(a.operand(0, "input"), o)};
  });
  add("concat", [](B& b, const Args& a) -> Result {
    return {b.concat(a.operands(0, "inputs"), a.u32(1, "axis"), a.operatorOptions(2))};
  });
  add("conv2d", [](B& b, const Args& a) -> Result {
    MLConv2dOptions o;
    a.options(2)
        .label(o)
        .u32List("padding", o.padding)
        .u32List("strides", o.strides)
        .u32List("dilations", o.dilations)
        .u32("groups", o.groups)
        .enumeration("inputLayout", o.inputLayout, kInputLayouts)
        .enumeration("filterLayout", o.filterLayout, kConv2dFilterLayouts)
        .operand("bias", o.bias);
    return {b.conv2d(a.operand(0, "input"), a.operand(1, "filter"), o)};
  });
  add("convTranspose2d", [](B& b, const Args& a) -> Result {
    MLConvTranspose2dOptions o;
    a.options(2)
        .label(o)
        .u32List("padding", o.padding)
        .u32List("strides", o.strides)
        .u32List("dilations", o.dilations)
        .u32List("outputPadding", o.outputPadding)
        .u32List("outputSizes", o.outputSizes)
        .u32("groups", o.groups)
        .enumeration("inputLayout", o.inputLayout, kInputLayouts)
        .enumeration("filterLayout", o.filterLayout, kConvTranspose2dFilterLayouts)
        .operand("bias", o.bias);
    return {b.convTranspose2d(a.operand(0, "input"), a.operand(1, "filter"), o)};
  });
  add("cumulativeSum", [](B& b, const Args& a) -> Result {
    MLCumulativeSumOptions o;
    a.options(2).label(o).boolean("exclusive", o.exclusive).boolean("reversed", o.reversed);
    return {b.cumulativeSum(a.operand(0, "input"), a.u32(1, "axis"), o)};
  });
  add("add", binary(&B::add));
  add("sub", binary(&B::sub));
  add("mul", binary(&B::mul));
  add("div", binary(&B::div));
  add("max", binary(&B::max));
  add("min", binary(&B::min));
  add("pow", binary(&B::pow));
  add("equal", binary(&B::equal));
  add("notEqual", binary(&B::notEqual));
  add("greater", binary(&B::greater));
  add("greaterOrEqual", binary(&B::greaterOrEqual));
  add("lesser", binary(&B::lesser));
  add("lesserOrEqual", binary(&B::lesserOrEqual));
  add("logicalNot", unary(&B::logicalNot));
  add("logicalAnd", binary(&B::logicalAnd));
  add("logicalOr", binary(&B::logicalOr));
  add("logicalXor", binary(&B::logicalXor));
  add("abs", unary(&B::abs));
  add("ceil", unary(&B::ceil));
  add("cos", unary(&B::cos));
  add("erf", unary(&B::erf));
  add("exp", unary(&B::exp));
  add("floor", unary(&B::floor));
  add("identity", unary(&B::identity));
  add("isInfinite", unary(&B::isInfinite));
  add("isNaN", unary(&B::isNaN));
  add("log", unary(&B::log));
  add("neg", unary(&B::neg));
  add("reciprocal", unary(&B::reciprocal));
  add("roundEven", unary(&B::roundEven));
  add("sign", unary(&B::sign));
  add("sin", unary(&B::sin));
  add("sqrt", unary(&B::sqrt));
  add("tan", unary(&B::tan));
  add("dequantizeLinear", quantize(&B::dequantizeLinear));
  add("quantizeLinear", quantize(&B::quantizeLinear));
  add("elu", [](B& b, const Args& a) -> Result {
    MLEluOptions o;
    a.options(1).label(o).number("alpha", o.alpha);
    return {b.elu(a.operand(0, "input"), o)};
  });
  add("expand", [](B& b, const Args& a) -> Result {
    return {b.expand(a.operand(0, "input"), a.u32List(1, "newShape"), a.operatorOptions(2))};
  });
  add("gather", gather(&B::gather));
  add("gatherElements", gather(&B::gatherElements));
  add("gatherND", [](B& b, const Args& a) -> Result {
    return {b.gatherND(a.operand(0, "input"), a.operand(1, "indices"), a.operatorOptions(2))};
  });
  add("gelu", unary(&B::gelu));
  add("gemm", [](B& b, const Args& a) -> Result {
    MLGemmOptions o;
    a.options(2)
        .label(o)
        .operand("c", o.c)
        .number("alpha", o.alpha)
        .number("beta", o.beta)
        .boolean("aTranspose", o.aTranspose)
        .boolean("bTranspose", o.bTranspose);
    return {b.gemm(a.operand(0, "a"), a.operand(1, "b"), o)};
  });
  add("gru", [](B& b, const Args& a) -> Result {
    MLGruOptions o;
    a.options(5)
        .label(o)
        .operand("bias", o.bias)
        .operand("recurrentBias", o.recurrentBias)
        .operand("initialHiddenState", o.initialHiddenState)
        .boolean("resetAfter", o.resetAfter)
        .boolean("returnSequence", o.returnSequence)
        .enumeration("direction", o.direction, kDirections)
        .enumeration("layout", o.layout, kGruLayouts)
        .enumList("activations", o.activations, kActivations);
    return b.gru(a.operand(0, "input"), a.operand(1, "weight"), a.operand(2, "recurrentWeight"),
                 a.u32(3, "steps"), a.u32(4, "hiddenSize"), o);
  });
  add("gruCell", [](B& b, const Args& a) -> Result {
    MLGruCellOptions o;
    a.options(5)
        .label(o)
        .operand("bias", o.bias)
        .operand("recurrentBias", o.recurrentBias)
        .boolean("resetAfter", o.resetAfter)
        .enumeration("layout", o.layout, kGruLayouts)
        .enumList("activations", o.activations, kActivations);
    return {b.gruCell(a.operand(0, "input"), a.operand(1, "weight"),
                      a.operand(2, "recurrentWeight"), a.operand(3, "hiddenState"),
                      a.u32(4, "hiddenSize"), o)};
  });
  add("hardSigmoid", [](B& b, const Args& a) -> Result {
    MLHardSigmoidOptions o;
    a.options(1).label(o).number("alpha", o.alpha).number("beta", o.beta);
    return {b.hardSigmoid(a.operand(0, "input"), o)};
  });
  add("hardSwish", unary(&B::hardSwish));
  add("instanceNormalization", [](B& b, const Args& a) -> Result {
    MLInstanceNormalizationOptions o;
    a.options(1)
        .label(o)
        .operand("scale", o.scale)
        .operand("bias", o.bias)
        .number("epsilon", o.epsilon)
        .enumeration("layout", o.layout, kInputLayouts);
    return {b.instanceNormalization(a.operand(0, "input"), o)};
  });
  add("layerNormalization", [](B& b, const Args& a) -> Result {
    MLLayerNormalizationOptions o;
    a.options(1)
        .label(o)
        .operand("scale", o.scale)
        .operand("bias", o.bias)
        .u32List("axes", o.axes)
        .number("epsilon", o.epsilon);
    return {b.layerNormalization(a.operand(0, "input"), o)};
  });
  add("leakyRelu", [](B& b, const Args& a) -> Result {
    MLLeakyReluOptions o;
    a.options(1).label(o).number("alpha", o.alpha);
    return {b.leakyRelu(a.operand(0, "input"), o)};
  });
  add("linear", [](B& b, const Args& a) -> Result {
    MLLinearOptions o;
    a.options(1).label(o).number("alpha", o.alpha).number("beta", o.beta);
    return {b.linear(a.operand(0, "input"), o)};
  });
  add("lstm", [](B& b, const Args& a) -> Result {
    MLLstmOptions o;
    a.options(5)
        .label(o)
        .operand("bias", o.bias)
        .operand("recurrentBias", o.recurrentBias)
        .operand("peepholeWeight", o.peepholeWeight)
        .operand("initialHiddenState", o.initialHiddenState)
        .operand("initialCellState", o.initialCellState)
        .boolean("returnSequence", o.returnSequence)
        .enumeration("direction", o.direction, kDirections)
        .enumeration("layout", o.layout, kLstmLayouts)
        .enumList("activations", o.activations, kActivations);
    return b.lstm(a.operand(0, "input"), a.operand(1, "weight"), a.operand(2, "recurrentWeight"),
                  a.u32(3, "steps"), a.u32(4, "hiddenSize"), o);
  });
  add("lstmCell", [](B& b, const Args& a) -> Result {
    MLLstmCellOptions o;
    a.options(6)
        .label(o)
        .operand("bias", o.bias)
        .operand("recurrentBias", o.recurrentBias)
        .operand("peepholeWeight", o.peepholeWeight)
        .enumeration("layout", o.layout, kLstmLayouts)
        .enumList("activations", o.activations, kActivations);
    return b.lstmCell(a.operand(0, "input"), a.operand(1, "weight"),
                      a.operand(2, "recurrentWeight"), a.operand(3, "hiddenState"),
                      a.operand(4, "cellState"), a.u32(5, "hiddenSize"), o);
  });
  add("matmul", binary(&B::matmul));
  add("pad", [](B& b, const Args& a) -> Result {
    MLPadOptions o;
    a.options(3).label(o).enumeration("mode", o.mode, kPaddingModes).mlNumber("value", o.value);
    return {b.pad(a.operand(0, "input"), a.u32List(1, "beginningPadding"),
                  a.u32List(2, "endingPadding"), o)};
  });
  add("averagePool2d", pool(&B::averagePool2d));
  add("l2Pool2d", pool(&B::l2Pool2d));
  add("maxPool2d", pool(&B::maxPool2d));
  add("prelu", [](B& b, const Args& a) -> Result {
    return {b.prelu(a.operand(0, "input"), a.operand(1, "slope"), a.operatorOptions(2))};
  });
  add("reduceL1", reduce(&B::reduceL1));
  add("reduceL2", reduce(&B::reduceL2));
  add("reduceLogSum", reduce(&B::reduceLogSum));
  add("reduceLogSumExp", reduce(&B::reduceLogSumExp));
  add("reduceMax", reduce(&B::reduceMax));
  add("reduceMean", reduce(&B::reduceMean));
  add("reduceMin", reduce(&B::reduceMin));
  add("reduceProduct", reduce(&B::reduceProduct));
  add("reduceSum", reduce(&B::reduceSum));
  add("reduceSumSquare", reduce(&B::reduceSumSquare));
  add("relu", unary(&B::relu));
  add("resample2d", [](B& b, const Args& a) -> Result {
    MLResample2dOptions o;
    a.options(1)
        .label(o)
        .enumeration("mode", o.mode, kInterpolationModes)
        .floatList("scales", o.scales)
        .u32List("sizes", o.sizes)
        .u32List("axes", o.axes);
    return {b.resample2d(a.operand(0, "input"), o)};
  });
  add("reshape", [](B& b, const Args& a) -> Result {
    return {b.reshape(a.operand(0, "input"), a.u32List(1, "newShape"), a.operatorOptions(2))};
  });
  add("reverse", [](B& b, const Args& a) -> Result {
    MLReverseOptions o;
    a.options(1).label(o).u32List("axes", o.axes);
    return {b.reverse(a.operand(0, "input"), o)};
  });
  add("scatterElements", [](B& b, const Args& a) -> Result {
    return {b.scatterElements(a.operand(0, "input"), a.operand(1, "indices"),
                              a.operand(2, "updates"), scatterOptions(a, 3))};
  });
  add("scatterND", [](B& b, const Args& a) -> Result {
    return {b.scatterND(a.operand(0, "input"), a.operand(1, "indices"), a.operand(2, "updates"),
                        a.operatorOptions(3))};
  });
  add("sigmoid", unary(&B::sigmoid));
  add("slice", [](B& b, const Args& a) -> Result {
    MLSliceOptions o;
    a.options(3).label(o).u32List("strides", o.strides);
    return {b.slice(a.operand(0, "input"), a.u32List(1, "starts"), a.u32List(2, "sizes"), o)};
  });
  add("softmax", [](B& b, const Args& a) -> Result {
    return {b.softmax(a.operand(0, "input"), a.u32(1, "axis"), a.operatorOptions(2))};
  });
  add("softplus", unary(&B::softplus));
  add("softsign", unary(&B::softsign));
  add("split", [](B& b, const Args& a) -> Result {
    const MLOperand input = a.operand(0, "input");
    const Napi::Value splits = a.at(1);
    if (splits.IsNumber()) return b.split(input, a.u32(1, "splits"), splitOptions(a, 2));
    return b.split(input, a.u32List(1, "splits"), splitOptions(a, 2));
  });
  add("tanh", unary(&B::tanh));
  add("tile", [](B& b, const Args& a) -> Result {
    return {b.tile(a.operand(0, "input"), a.u32List(1, "repetitions"), a.operatorOptions(2))};
  });
  add("transpose", [](B& b, const Args& a) -> Result {
    MLTransposeOptions o;
    a.options(1).label(o).u32List("permutation", o.permutation);
    return {b.transpose(a.operand(0, "input"), o)};
  });
  add("triangular", [](B& b, const Args& a) -> Result {
    MLTriangularOptions o;
    a.options(1).label(o).boolean("upper", o.upper).i32("diagonal", o.diagonal);
    return {b.triangular(a.operand(0, "input"), o)};
  });
  add("where", [](B& b, const Args& a) -> Result {
    return {b.where(a.operand(0, "condition"), a.operand(1, "trueValue"),
                    a.operand(2, "falseValue"), a.operatorOptions(3))};
  });
  return t;
}

// Methods whose IDL return type is sequence<MLOperand>.
bool returnsSequence(const std::string& name) {
  return name == "split" || name == "gru" || name == "lstm" || name == "lstmCell";
}

const std::vector<std::pair<std::string, Op>>& opList() {
  static const std::vector<std::pair<std::string, Op>> list = makeOps();
  return list;
}

const std::map<std::string, const Op*>& opIndex() {
  static const std::map<std::string, const Op*> index = [] {
    std::map<std::string, const Op*> map;
    for (const auto& [name, op] : opList()) map.emplace(name, &op);
    return map;
  }();
  return index;
}

}  // namespace

Napi::Value callOp(Napi::Env env, MLGraphBuilder& builder, const std::string& name,
                   const Napi::Array& args) {
  auto it = opIndex().find(name);
  if (it == opIndex().end()) throw Napi::TypeError::New(env, "no builder method named " + name);
  const Result result = (*it->second)(builder, Args(env, name, args));
  if (!returnsSequence(name)) return NativeOperand::wrap(env, result.at(0));
  Napi::Array array = Napi::Array::New(env, result.size());
  for (size_t i = 0; i < result.size(); ++i) array.Set(i, NativeOperand::wrap(env, result[i]));
  return array;
}

std::vector<std::string> opNames() {
  std::vector<std::string> names;
  for (const auto& [name, op] : opList()) names.push_back(name);
  return names;
}

}  // namespace webnn::node
