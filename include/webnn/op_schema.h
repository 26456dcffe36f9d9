// The op schema: every MLGraphBuilder operation as data, for the code that calls the builder from
// another form (the conformance runner from JSON, the Node.js binding from JavaScript values, the
// TypeScript declarations): each op's spec name, builder method and parameter names (whether it
// returns a sequence follows from the method), each options dictionary's members by their spec
// names, and the spec's strings of each enum. A binding supplies a reader with one `read<T>`
// per kind of value and calls `forEachOp`; an op or option added here reaches every binding.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "webnn/graph_builder.h"
#include "webnn/options.h"

namespace webnn::schema {

// ---------------------------------------------------------------------------------------------
// Enums: the spec's strings.

template <class E>
struct EnumStrings;  // defined for the spec's enums only

#define WEBNN_ENUM_STRINGS(Enum, ...)                                             \
  template <>                                                                     \
  struct EnumStrings<Enum> {                                                      \
    static constexpr std::string_view name = #Enum;                               \
    static constexpr std::pair<std::string_view, Enum> entries[] = {__VA_ARGS__}; \
  }

WEBNN_ENUM_STRINGS(MLInputOperandLayout, {"nchw", MLInputOperandLayout::Nchw},
                   {"nhwc", MLInputOperandLayout::Nhwc});
WEBNN_ENUM_STRINGS(MLConv2dFilterOperandLayout, {"oihw", MLConv2dFilterOperandLayout::Oihw},
                   {"hwio", MLConv2dFilterOperandLayout::Hwio},
                   {"ohwi", MLConv2dFilterOperandLayout::Ohwi},
                   {"ihwo", MLConv2dFilterOperandLayout::Ihwo});
WEBNN_ENUM_STRINGS(MLConvTranspose2dFilterOperandLayout,
                   {"iohw", MLConvTranspose2dFilterOperandLayout::Iohw},
                   {"hwoi", MLConvTranspose2dFilterOperandLayout::Hwoi},
                   {"ohwi", MLConvTranspose2dFilterOperandLayout::Ohwi});
WEBNN_ENUM_STRINGS(MLRoundingType, {"floor", MLRoundingType::Floor},
                   {"ceil", MLRoundingType::Ceil});
WEBNN_ENUM_STRINGS(MLInterpolationMode, {"nearest-neighbor", MLInterpolationMode::NearestNeighbor},
                   {"linear", MLInterpolationMode::Linear});
WEBNN_ENUM_STRINGS(MLPaddingMode, {"constant", MLPaddingMode::Constant},
                   {"edge", MLPaddingMode::Edge}, {"reflection", MLPaddingMode::Reflection},
                   {"symmetric", MLPaddingMode::Symmetric});
WEBNN_ENUM_STRINGS(MLRecurrentNetworkActivation, {"relu", MLRecurrentNetworkActivation::Relu},
                   {"sigmoid", MLRecurrentNetworkActivation::Sigmoid},
                   {"tanh", MLRecurrentNetworkActivation::Tanh});
WEBNN_ENUM_STRINGS(MLRecurrentNetworkDirection, {"forward", MLRecurrentNetworkDirection::Forward},
                   {"backward", MLRecurrentNetworkDirection::Backward},
                   {"both", MLRecurrentNetworkDirection::Both});
WEBNN_ENUM_STRINGS(MLGruWeightLayout, {"zrn", MLGruWeightLayout::Zrn},
                   {"rzn", MLGruWeightLayout::Rzn});
WEBNN_ENUM_STRINGS(MLLstmWeightLayout, {"iofg", MLLstmWeightLayout::Iofg},
                   {"ifgo", MLLstmWeightLayout::Ifgo});

#undef WEBNN_ENUM_STRINGS

template <class E>
concept SpecEnum = requires {
  EnumStrings<E>::entries;
};

// The spec's string of `value` ("nearest-neighbor").
template <SpecEnum E>
constexpr std::string_view toSpecString(E value) {
  for (const auto& [text, entry] : EnumStrings<E>::entries) {
    if (entry == value) return text;
  }
  return {};
}

// The enum value the spec's string names; nullopt for any other string.
template <SpecEnum E>
constexpr std::optional<E> fromSpecString(std::string_view text) {
  for (const auto& [name, entry] : EnumStrings<E>::entries) {
    if (name == text) return entry;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Options dictionaries: members by their spec names (the C++ members carry the same names).
// Every dictionary also has `label`, which forEachMember visits first.

template <class Dictionary, class Type>
struct Member {
  std::string_view name;
  Type Dictionary::*pointer;
};

template <class Dictionary, class Type>
constexpr Member<Dictionary, Type> member(std::string_view name, Type Dictionary::*pointer) {
  return {name, pointer};
}

template <class O>
struct Options;  // defined for the options dictionaries only

#define WEBNN_MEMBER(name) ::webnn::schema::member(#name, &Dictionary::name)
#define WEBNN_OPTIONS(Type, ...)                                  \
  template <>                                                     \
  struct Options<Type> {                                          \
    using Dictionary = Type;                                      \
    static constexpr std::string_view name = #Type;               \
    static constexpr auto members = std::make_tuple(__VA_ARGS__); \
  }

WEBNN_OPTIONS(MLOperatorOptions);
WEBNN_OPTIONS(MLArgMinMaxOptions, WEBNN_MEMBER(keepDimensions), WEBNN_MEMBER(outputDataType));
WEBNN_OPTIONS(MLBatchNormalizationOptions, WEBNN_MEMBER(scale), WEBNN_MEMBER(bias),
              WEBNN_MEMBER(axis), WEBNN_MEMBER(epsilon));
WEBNN_OPTIONS(MLClampOptions, WEBNN_MEMBER(minValue), WEBNN_MEMBER(maxValue));
WEBNN_OPTIONS(MLConv2dOptions, WEBNN_MEMBER(padding), WEBNN_MEMBER(strides),
              WEBNN_MEMBER(dilations), WEBNN_MEMBER(groups), WEBNN_MEMBER(inputLayout),
              WEBNN_MEMBER(filterLayout), WEBNN_MEMBER(bias));
WEBNN_OPTIONS(MLConvTranspose2dOptions, WEBNN_MEMBER(padding), WEBNN_MEMBER(strides),
              WEBNN_MEMBER(dilations), WEBNN_MEMBER(outputPadding), WEBNN_MEMBER(outputSizes),
              WEBNN_MEMBER(groups), WEBNN_MEMBER(inputLayout), WEBNN_MEMBER(filterLayout),
              WEBNN_MEMBER(bias));
WEBNN_OPTIONS(MLCumulativeSumOptions, WEBNN_MEMBER(exclusive), WEBNN_MEMBER(reversed));
WEBNN_OPTIONS(MLEluOptions, WEBNN_MEMBER(alpha));
WEBNN_OPTIONS(MLGatherOptions, WEBNN_MEMBER(axis));
WEBNN_OPTIONS(MLGemmOptions, WEBNN_MEMBER(c), WEBNN_MEMBER(alpha), WEBNN_MEMBER(beta),
              WEBNN_MEMBER(aTranspose), WEBNN_MEMBER(bTranspose));
WEBNN_OPTIONS(MLGruOptions, WEBNN_MEMBER(bias), WEBNN_MEMBER(recurrentBias),
              WEBNN_MEMBER(initialHiddenState), WEBNN_MEMBER(resetAfter),
              WEBNN_MEMBER(returnSequence), WEBNN_MEMBER(direction), WEBNN_MEMBER(layout),
              WEBNN_MEMBER(activations));
WEBNN_OPTIONS(MLGruCellOptions, WEBNN_MEMBER(bias), WEBNN_MEMBER(recurrentBias),
              WEBNN_MEMBER(resetAfter), WEBNN_MEMBER(layout), WEBNN_MEMBER(activations));
WEBNN_OPTIONS(MLHardSigmoidOptions, WEBNN_MEMBER(alpha), WEBNN_MEMBER(beta));
WEBNN_OPTIONS(MLInstanceNormalizationOptions, WEBNN_MEMBER(scale), WEBNN_MEMBER(bias),
              WEBNN_MEMBER(epsilon), WEBNN_MEMBER(layout));
WEBNN_OPTIONS(MLLayerNormalizationOptions, WEBNN_MEMBER(scale), WEBNN_MEMBER(bias),
              WEBNN_MEMBER(axes), WEBNN_MEMBER(epsilon));
WEBNN_OPTIONS(MLLeakyReluOptions, WEBNN_MEMBER(alpha));
WEBNN_OPTIONS(MLLinearOptions, WEBNN_MEMBER(alpha), WEBNN_MEMBER(beta));
WEBNN_OPTIONS(MLLstmOptions, WEBNN_MEMBER(bias), WEBNN_MEMBER(recurrentBias),
              WEBNN_MEMBER(peepholeWeight), WEBNN_MEMBER(initialHiddenState),
              WEBNN_MEMBER(initialCellState), WEBNN_MEMBER(returnSequence), WEBNN_MEMBER(direction),
              WEBNN_MEMBER(layout), WEBNN_MEMBER(activations));
WEBNN_OPTIONS(MLLstmCellOptions, WEBNN_MEMBER(bias), WEBNN_MEMBER(recurrentBias),
              WEBNN_MEMBER(peepholeWeight), WEBNN_MEMBER(layout), WEBNN_MEMBER(activations));
WEBNN_OPTIONS(MLPadOptions, WEBNN_MEMBER(mode), WEBNN_MEMBER(value));
WEBNN_OPTIONS(MLPool2dOptions, WEBNN_MEMBER(windowDimensions), WEBNN_MEMBER(padding),
              WEBNN_MEMBER(strides), WEBNN_MEMBER(dilations), WEBNN_MEMBER(layout),
              WEBNN_MEMBER(roundingType), WEBNN_MEMBER(outputSizes));
WEBNN_OPTIONS(MLReduceOptions, WEBNN_MEMBER(axes), WEBNN_MEMBER(keepDimensions));
WEBNN_OPTIONS(MLResample2dOptions, WEBNN_MEMBER(mode), WEBNN_MEMBER(scales), WEBNN_MEMBER(sizes),
              WEBNN_MEMBER(axes));
WEBNN_OPTIONS(MLReverseOptions, WEBNN_MEMBER(axes));
WEBNN_OPTIONS(MLScatterOptions, WEBNN_MEMBER(axis));
WEBNN_OPTIONS(MLSliceOptions, WEBNN_MEMBER(strides));
WEBNN_OPTIONS(MLSplitOptions, WEBNN_MEMBER(axis));
WEBNN_OPTIONS(MLTransposeOptions, WEBNN_MEMBER(permutation));
WEBNN_OPTIONS(MLTriangularOptions, WEBNN_MEMBER(upper), WEBNN_MEMBER(diagonal));

#undef WEBNN_OPTIONS
#undef WEBNN_MEMBER

template <class O>
concept OptionsDictionary = requires {
  Options<O>::members;
};

// Calls f(name, member) for `label`, then every member of `options` in the spec's order.
template <OptionsDictionary O, class F>
void forEachMember(O& options, F&& f) {
  f(std::string_view("label"), options.label);
  std::apply([&](const auto&... m) { (f(m.name, options.*(m.pointer)), ...); },
             Options<O>::members);
}

// The members' names and types without a value: f.template operator()<Type>(name), label first.
template <OptionsDictionary O, class F>
void forEachMemberType(F&& f) {
  O options;
  forEachMember(options, [&](std::string_view name, auto& value) {
    f.template operator()<std::remove_cvref_t<decltype(value)>>(name);
  });
}

// ---------------------------------------------------------------------------------------------
// Operations.

// split's second parameter: a count of equal parts, or the sizes of the parts.
using Splits = std::variant<uint32_t, std::vector<uint32_t>>;

inline std::vector<MLOperand> splitEither(MLGraphBuilder& builder, const MLOperand& input,
                                          const Splits& splits, const MLSplitOptions& options) {
  return std::visit([&](const auto& parts) { return builder.split(input, parts, options); },
                    splits);
}

template <class Method>
struct MethodTraits;

template <class R, class... Args>
struct MethodTraits<R (MLGraphBuilder::*)(Args...)> {
  using Result = R;
  using Parameters = std::tuple<std::remove_cvref_t<Args>...>;
};

template <class R, class... Args>
struct MethodTraits<R (*)(MLGraphBuilder&, Args...)> {
  using Result = R;
  using Parameters = std::tuple<std::remove_cvref_t<Args>...>;
};

constexpr size_t kMaxParameters = 7;

// One operation: the spec's name, the builder method (or a function taking the builder first)
// and the names of its parameters before the options dictionary, which every op takes last.
template <class Method>
struct Op {
  using Traits = MethodTraits<Method>;
  using Parameters = typename Traits::Parameters;
  using OptionsType = std::tuple_element_t<std::tuple_size_v<Parameters> - 1, Parameters>;
  static constexpr size_t kArity = std::tuple_size_v<Parameters> - 1;  // without the options
  static constexpr bool kReturnsSequence =
      std::is_same_v<typename Traits::Result, std::vector<MLOperand>>;

  std::string_view name;
  Method method;
  std::array<std::string_view, kMaxParameters> parameters;
};

template <class Method>
constexpr Op<Method> op(std::string_view name, Method method,
                        std::array<std::string_view, kMaxParameters> parameters) {
  return {name, method, parameters};
}

using B = MLGraphBuilder;

// Every operation, in the spec's alphabetical order of names.
inline constexpr auto kOps = std::make_tuple(
    op("abs", &B::abs, {"input"}), op("add", &B::add, {"a", "b"}),
    op("argMax", &B::argMax, {"input", "axis"}), op("argMin", &B::argMin, {"input", "axis"}),
    op("averagePool2d", &B::averagePool2d, {"input"}),
    op("batchNormalization", &B::batchNormalization, {"input", "mean", "variance"}),
    op("cast", &B::cast, {"input", "type"}), op("ceil", &B::ceil, {"input"}),
    op("clamp", &B::clamp, {"input"}), op("concat", &B::concat, {"inputs", "axis"}),
    op("conv2d", &B::conv2d, {"input", "filter"}),
    op("convTranspose2d", &B::convTranspose2d, {"input", "filter"}), op("cos", &B::cos, {"input"}),
    op("cumulativeSum", &B::cumulativeSum, {"input", "axis"}),
    op("dequantizeLinear", &B::dequantizeLinear, {"input", "scale", "zeroPoint"}),
    op("div", &B::div, {"a", "b"}), op("elu", &B::elu, {"input"}),
    op("equal", &B::equal, {"a", "b"}), op("erf", &B::erf, {"input"}),
    op("exp", &B::exp, {"input"}), op("expand", &B::expand, {"input", "newShape"}),
    op("floor", &B::floor, {"input"}), op("gather", &B::gather, {"input", "indices"}),
    op("gatherElements", &B::gatherElements, {"input", "indices"}),
    op("gatherND", &B::gatherND, {"input", "indices"}), op("gelu", &B::gelu, {"input"}),
    op("gemm", &B::gemm, {"a", "b"}), op("greater", &B::greater, {"a", "b"}),
    op("greaterOrEqual", &B::greaterOrEqual, {"a", "b"}),
    op("gru", &B::gru, {"input", "weight", "recurrentWeight", "steps", "hiddenSize"}),
    op("gruCell", &B::gruCell, {"input", "weight", "recurrentWeight", "hiddenState", "hiddenSize"}),
    op("hardSigmoid", &B::hardSigmoid, {"input"}), op("hardSwish", &B::hardSwish, {"input"}),
    op("identity", &B::identity, {"input"}),
    op("instanceNormalization", &B::instanceNormalization, {"input"}),
    op("isInfinite", &B::isInfinite, {"input"}), op("isNaN", &B::isNaN, {"input"}),
    op("l2Pool2d", &B::l2Pool2d, {"input"}),
    op("layerNormalization", &B::layerNormalization, {"input"}),
    op("leakyRelu", &B::leakyRelu, {"input"}), op("lesser", &B::lesser, {"a", "b"}),
    op("lesserOrEqual", &B::lesserOrEqual, {"a", "b"}), op("linear", &B::linear, {"input"}),
    op("log", &B::log, {"input"}), op("logicalAnd", &B::logicalAnd, {"a", "b"}),
    op("logicalNot", &B::logicalNot, {"a"}), op("logicalOr", &B::logicalOr, {"a", "b"}),
    op("logicalXor", &B::logicalXor, {"a", "b"}),
    op("lstm", &B::lstm, {"input", "weight", "recurrentWeight", "steps", "hiddenSize"}),
    op("lstmCell", &B::lstmCell,
       {"input", "weight", "recurrentWeight", "hiddenState", "cellState", "hiddenSize"}),
    op("matmul", &B::matmul, {"a", "b"}), op("max", &B::max, {"a", "b"}),
    op("maxPool2d", &B::maxPool2d, {"input"}), op("min", &B::min, {"a", "b"}),
    op("mul", &B::mul, {"a", "b"}), op("neg", &B::neg, {"input"}),
    op("notEqual", &B::notEqual, {"a", "b"}),
    op("pad", &B::pad, {"input", "beginningPadding", "endingPadding"}),
    op("pow", &B::pow, {"a", "b"}), op("prelu", &B::prelu, {"input", "slope"}),
    op("quantizeLinear", &B::quantizeLinear, {"input", "scale", "zeroPoint"}),
    op("reciprocal", &B::reciprocal, {"input"}), op("reduceL1", &B::reduceL1, {"input"}),
    op("reduceL2", &B::reduceL2, {"input"}), op("reduceLogSum", &B::reduceLogSum, {"input"}),
    op("reduceLogSumExp", &B::reduceLogSumExp, {"input"}),
    op("reduceMax", &B::reduceMax, {"input"}), op("reduceMean", &B::reduceMean, {"input"}),
    op("reduceMin", &B::reduceMin, {"input"}), op("reduceProduct", &B::reduceProduct, {"input"}),
    op("reduceSum", &B::reduceSum, {"input"}),
    op("reduceSumSquare", &B::reduceSumSquare, {"input"}), op("relu", &B::relu, {"input"}),
    op("resample2d", &B::resample2d, {"input"}), op("reshape", &B::reshape, {"input", "newShape"}),
    op("reverse", &B::reverse, {"input"}), op("roundEven", &B::roundEven, {"input"}),
    op("scatterElements", &B::scatterElements, {"input", "indices", "updates"}),
    op("scatterND", &B::scatterND, {"input", "indices", "updates"}),
    op("sigmoid", &B::sigmoid, {"input"}), op("sign", &B::sign, {"input"}),
    op("sin", &B::sin, {"input"}), op("slice", &B::slice, {"input", "starts", "sizes"}),
    op("softmax", &B::softmax, {"input", "axis"}), op("softplus", &B::softplus, {"input"}),
    op("softsign", &B::softsign, {"input"}), op("split", &splitEither, {"input", "splits"}),
    op("sqrt", &B::sqrt, {"input"}), op("sub", &B::sub, {"a", "b"}), op("tan", &B::tan, {"input"}),
    op("tanh", &B::tanh, {"input"}), op("tile", &B::tile, {"input", "repetitions"}),
    op("transpose", &B::transpose, {"input"}), op("triangular", &B::triangular, {"input"}),
    op("where", &B::where, {"condition", "trueValue", "falseValue"}));

// A spec name as the Python binding names it: snake_case, capitals starting words after a lower
// case letter or digit ("convTranspose2d" -> "conv_transpose2d", "gatherND" -> "gather_nd",
// "reduceL1" -> "reduce_l1"), "isNaN" -> "is_nan".
inline std::string pythonName(std::string_view specName) {
  if (specName == "isNaN") return "is_nan";
  std::string out;
  for (size_t i = 0; i < specName.size(); ++i) {
    const char c = specName[i];
    if (c >= 'A' && c <= 'Z') {
      const char before = i > 0 ? specName[i - 1] : '\0';
      if ((before >= 'a' && before <= 'z') || (before >= '0' && before <= '9')) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

// Calls f(op) for every operation.
template <class F>
void forEachOp(F&& f) {
  std::apply([&](const auto&... entry) { (f(entry), ...); }, kOps);
}

// Calls the builder with the arguments `reader` reads: reader.template read<T>(index, name) for
// each parameter of the op's method in order (T its type without const and reference: MLOperand,
// std::vector<MLOperand>, uint32_t, std::vector<uint32_t>, MLOperandDataType, Splits), then the
// options dictionary (index kArity, name "options"). Every result as a list.
template <class Method, class Reader>
std::vector<MLOperand> call(MLGraphBuilder& builder, const Op<Method>& entry, Reader& reader) {
  using Parameters = typename Op<Method>::Parameters;
  auto arguments = [&]<size_t... I>(std::index_sequence<I...>) {
    // Braced initialization reads the arguments left to right.
    return Parameters{reader.template read<std::tuple_element_t<I, Parameters>>(
        I, I < Op<Method>::kArity ? entry.parameters[I] : std::string_view("options"))...};
  }
  (std::make_index_sequence<std::tuple_size_v<Parameters>>{});
  auto result = std::apply(
      [&](auto&... values) { return std::invoke(entry.method, builder, values...); }, arguments);
  if constexpr (Op<Method>::kReturnsSequence) {
    return result;
  } else {
    return {result};
  }
}

}  // namespace webnn::schema
