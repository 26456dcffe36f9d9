#include "conformance/op_options.h"

#include <map>
#include <set>

#include "conformance/tensor_data.h"

namespace webnn::conformance {
namespace {

// Hands out the members of an options object and checks at the end that each was used.
class OptionReader {
 public:
  explicit OptionReader(const OpCall& call) : call_(call), options_(call.options()) {
    if (!options_.is_object()) call.fail("options is not an object");
  }

  const Json* find(const char* key) {
    auto it = options_.find(key);
    if (it == options_.end()) return nullptr;
    used_.insert(key);
    return &*it;
  }
  std::string what(const char* key) const { return call_.name() + " option " + key; }

  template <class Options>
  void label(Options& options) {
    if (const Json* value = find("label")) options.label = stringValue(*value, "label");
  }
  void flag(const char* key, bool& out) {
    if (const Json* value = find(key)) {
      if (!value->is_boolean()) throw RunnerError(what(key) + " is not a boolean");
      out = value->get<bool>();
    }
  }
  void number(const char* key, double& out) {
    if (const Json* value = find(key)) out = parseNumberOption(*value, key);
  }
  // An MLNumber keeps JSON integers exact (int64/uint64 bounds beyond 2^53).
  void number(const char* key, MLNumber& out) {
    const Json* value = find(key);
    if (!value) return;
    if (value->is_number_unsigned()) {
      out = value->get<uint64_t>();
    } else if (value->is_number_integer()) {
      out = value->get<int64_t>();
    } else {
      out = parseNumberOption(*value, key);
    }
  }
  void u32(const char* key, uint32_t& out) {
    if (const Json* value = find(key)) out = toU32(*value, what(key));
  }
  void i32(const char* key, int32_t& out) {
    if (const Json* value = find(key)) {
      if (!value->is_number_integer()) throw RunnerError(what(key) + " is not an integer");
      out = value->get<int32_t>();
    }
  }
  void u32List(const char* key, std::vector<uint32_t>& out) {
    if (const Json* value = find(key)) out = toU32List(*value, what(key));
  }
  void u32List(const char* key, std::optional<std::vector<uint32_t>>& out) {
    if (const Json* value = find(key)) out = toU32List(*value, what(key));
  }
  void floatList(const char* key, std::optional<std::vector<float>>& out) {
    if (const Json* value = find(key)) {
      if (!value->is_array()) throw RunnerError(what(key) + " is not a list");
      out.emplace();
      for (const Json& item : *value)
        out->push_back(static_cast<float>(parseNumberOption(item, key)));
    }
  }
  void operand(const char* key, std::optional<MLOperand>& out) {
    if (const Json* value = find(key)) {
      if (!value->is_string()) throw RunnerError(what(key) + " is not an operand name");
      auto resolved = call_.resolve(value->get<std::string>());
      if (!resolved) throw RunnerError(what(key) + " names no operand: " + value->dump());
      out = *resolved;
    }
  }
  template <class T>
  void enumeration(const char* key, T& out, const std::map<std::string, T>& names) {
    if (const Json* value = find(key)) out = lookup(*value, key, names);
  }
  template <class T>
  void enumerationList(const char* key, std::optional<std::vector<T>>& out,
                       const std::map<std::string, T>& names) {
    if (const Json* value = find(key)) {
      if (!value->is_array()) throw RunnerError(what(key) + " is not a list");
      out.emplace();
      for (const Json& item : *value) out->push_back(lookup(item, key, names));
    }
  }
  void dataType(const char* key, MLOperandDataType& out) {
    if (const Json* value = find(key)) out = dataTypeNamed(*value, what(key));
  }
  // Throws for every member nobody asked for.
  void finish() const {
    for (const auto& [key, value] : options_.items()) {
      if (!used_.count(key)) {
        throw RunnerError(call_.name() + ": the runner does not know option \"" + key + "\"");
      }
    }
  }

 private:
  std::string stringValue(const Json& value, const char* key) const {
    if (!value.is_string()) throw RunnerError(what(key) + " is not a string");
    return value.get<std::string>();
  }
  double parseNumberOption(const Json& value, const char* key) const {
    try {
      return parseNumber(value);
    } catch (const LoadError&) {
      throw RunnerError(what(key) + " is not a number: " + value.dump());
    }
  }
  template <class T>
  T lookup(const Json& value, const char* key, const std::map<std::string, T>& names) const {
    const std::string text = stringValue(value, key);
    auto it = names.find(text);
    if (it == names.end()) throw RunnerError(what(key) + ": unknown value \"" + text + "\"");
    return it->second;
  }

  const OpCall& call_;
  const Json& options_;
  std::set<std::string> used_;
};

const std::map<std::string, MLInputOperandLayout> kInputLayouts = {
    {"nchw", MLInputOperandLayout::Nchw}, {"nhwc", MLInputOperandLayout::Nhwc}};
const std::map<std::string, MLConv2dFilterOperandLayout> kConv2dFilterLayouts = {
    {"oihw", MLConv2dFilterOperandLayout::Oihw},
    {"hwio", MLConv2dFilterOperandLayout::Hwio},
    {"ohwi", MLConv2dFilterOperandLayout::Ohwi},
    {"ihwo", MLConv2dFilterOperandLayout::Ihwo}};
const std::map<std::string, MLConvTranspose2dFilterOperandLayout> kConvTransposeFilterLayouts = {
    {"iohw", MLConvTranspose2dFilterOperandLayout::Iohw},
    {"hwoi", MLConvTranspose2dFilterOperandLayout::Hwoi},
    {"ohwi", MLConvTranspose2dFilterOperandLayout::Ohwi}};
const std::map<std::string, MLRoundingType> kRoundingTypes = {{"floor", MLRoundingType::Floor},
                                                              {"ceil", MLRoundingType::Ceil}};
const std::map<std::string, MLInterpolationMode> kInterpolationModes = {
    {"nearest-neighbor", MLInterpolationMode::NearestNeighbor},
    {"linear", MLInterpolationMode::Linear}};
const std::map<std::string, MLPaddingMode> kPaddingModes = {
    {"constant", MLPaddingMode::Constant},
    {"edge", MLPaddingMode::Edge},
    {"reflection", MLPaddingMode::Reflection},
    {"symmetric", MLPaddingMode::Symmetric}};
const std::map<std::string, MLRecurrentNetworkActivation> kActivations = {
    {"relu", MLRecurrentNetworkActivation::Relu},
    {"sigmoid", MLRecurrentNetworkActivation::Sigmoid},
    {"tanh", MLRecurrentNetworkActivation::Tanh}};
const std::map<std::string, MLRecurrentNetworkDirection> kDirections = {
    {"forward", MLRecurrentNetworkDirection::Forward},
    {"backward", MLRecurrentNetworkDirection::Backward},
    {"both", MLRecurrentNetworkDirection::Both}};
const std::map<std::string, MLGruWeightLayout> kGruLayouts = {{"zrn", MLGruWeightLayout::Zrn},
                                                              {"rzn", MLGruWeightLayout::Rzn}};
const std::map<std::string, MLLstmWeightLayout> kLstmLayouts = {{"iofg", MLLstmWeightLayout::Iofg},
                                                                {"ifgo", MLLstmWeightLayout::Ifgo}};

template <class Options>
Options readAll(const OpCall& call, void (*fill)(OptionReader&, Options&)) {
  Options options;
  OptionReader reader(call);
  reader.label(options);
  if (fill) fill(reader, options);
  reader.finish();
  return options;
}

}  // namespace

MLOperandDataType dataTypeNamed(const Json& value, const std::string& what) {
  if (!value.is_string()) throw RunnerError(what + " is not a data type name");
  auto type = parseDataType(value.get<std::string>());
  if (!type) throw RunnerError(what + ": unknown data type " + value.dump());
  return *type;
}

MLOperatorOptions operatorOptions(const OpCall& call) {
  return readAll<MLOperatorOptions>(call, nullptr);
}

MLArgMinMaxOptions argMinMaxOptions(const OpCall& call) {
  return readAll<MLArgMinMaxOptions>(call, [](OptionReader& r, MLArgMinMaxOptions& o) {
    r.flag("keepDimensions", o.keepDimensions);
    r.dataType("outputDataType", o.outputDataType);
  });
}

MLBatchNormalizationOptions batchNormalizationOptions(const OpCall& call) {
  return readAll<MLBatchNormalizationOptions>(call,
                                              [](OptionReader& r, MLBatchNormalizationOptions& o) {
                                                r.operand("scale", o.scale);
                                                r.operand("bias", o.bias);
                                                r.u32("axis", o.axis);
                                                r.number("epsilon", o.epsilon);
                                              });
}

MLClampOptions clampOptions(const OpCall& call) {
  return readAll<MLClampOptions>(call, [](OptionReader& r, MLClampOptions& o) {
    r.number("minValue", o.minValue);
    r.number("maxValue", o.maxValue);
  });
}

MLConv2dOptions conv2dOptions(const OpCall& call) {
  return readAll<MLConv2dOptions>(call, [](OptionReader& r, MLConv2dOptions& o) {
    r.u32List("padding", o.padding);
    r.u32List("strides", o.strides);
    r.u32List("dilations", o.dilations);
    r.u32("groups", o.groups);
    r.enumeration("inputLayout", o.inputLayout, kInputLayouts);
    r.enumeration("filterLayout", o.filterLayout, kConv2dFilterLayouts);
    r.operand("bias", o.bias);
  });
}

MLConvTranspose2dOptions convTranspose2dOptions(const OpCall& call) {
  return readAll<MLConvTranspose2dOptions>(call, [](OptionReader& r, MLConvTranspose2dOptions& o) {
    r.u32List("padding", o.padding);
    r.u32List("strides", o.strides);
    r.u32List("dilations", o.dilations);
    r.u32List("outputPadding", o.outputPadding);
    r.u32List("outputSizes", o.outputSizes);
    r.u32("groups", o.groups);
    r.enumeration("inputLayout", o.inputLayout, kInputLayouts);
    r.enumeration("filterLayout", o.filterLayout, kConvTransposeFilterLayouts);
    r.operand("bias", o.bias);
  });
}

MLCumulativeSumOptions cumulativeSumOptions(const OpCall& call) {
  return readAll<MLCumulativeSumOptions>(call, [](OptionReader& r, MLCumulativeSumOptions& o) {
    r.flag("exclusive", o.exclusive);
    r.flag("reversed", o.reversed);
  });
}

MLEluOptions eluOptions(const OpCall& call) {
  return readAll<MLEluOptions>(
      call, [](OptionReader& r, MLEluOptions& o) { r.number("alpha", o.alpha); });
}

MLGatherOptions gatherOptions(const OpCall& call) {
  return readAll<MLGatherOptions>(
      call, [](OptionReader& r, MLGatherOptions& o) { r.u32("axis", o.axis); });
}

MLGemmOptions gemmOptions(const OpCall& call) {
  return readAll<MLGemmOptions>(call, [](OptionReader& r, MLGemmOptions& o) {
    r.operand("c", o.c);
    r.number("alpha", o.alpha);
    r.number("beta", o.beta);
    r.flag("aTranspose", o.aTranspose);
    r.flag("bTranspose", o.bTranspose);
  });
}

MLGruOptions gruOptions(const OpCall& call) {
  return readAll<MLGruOptions>(call, [](OptionReader& r, MLGruOptions& o) {
    r.operand("bias", o.bias);
    r.operand("recurrentBias", o.recurrentBias);
    r.operand("initialHiddenState", o.initialHiddenState);
    r.flag("resetAfter", o.resetAfter);
    r.flag("returnSequence", o.returnSequence);
    r.enumeration("direction", o.direction, kDirections);
    r.enumeration("layout", o.layout, kGruLayouts);
    r.enumerationList("activations", o.activations, kActivations);
  });
}

MLGruCellOptions gruCellOptions(const OpCall& call) {
  return readAll<MLGruCellOptions>(call, [](OptionReader& r, MLGruCellOptions& o) {
    r.operand("bias", o.bias);
    r.operand("recurrentBias", o.recurrentBias);
    r.flag("resetAfter", o.resetAfter);
    r.enumeration("layout", o.layout, kGruLayouts);
    r.enumerationList("activations", o.activations, kActivations);
  });
}

MLHardSigmoidOptions hardSigmoidOptions(const OpCall& call) {
  return readAll<MLHardSigmoidOptions>(call, [](OptionReader& r, MLHardSigmoidOptions& o) {
    r.number("alpha", o.alpha);
    r.number("beta", o.beta);
  });
}

MLInstanceNormalizationOptions instanceNormalizationOptions(const OpCall& call) {
  return readAll<MLInstanceNormalizationOptions>(
      call, [](OptionReader& r, MLInstanceNormalizationOptions& o) {
        r.operand("scale", o.scale);
        r.operand("bias", o.bias);
        r.number("epsilon", o.epsilon);
        r.enumeration("layout", o.layout, kInputLayouts);
      });
}

MLLayerNormalizationOptions layerNormalizationOptions(const OpCall& call) {
  return readAll<MLLayerNormalizationOptions>(call,
                                              [](OptionReader& r, MLLayerNormalizationOptions& o) {
                                                r.operand("scale", o.scale);
                                                r.operand("bias", o.bias);
                                                r.u32List("axes", o.axes);
                                                r.number("epsilon", o.epsilon);
                                              });
}

MLLeakyReluOptions leakyReluOptions(const OpCall& call) {
  return readAll<MLLeakyReluOptions>(
      call, [](OptionReader& r, MLLeakyReluOptions& o) { r.number("alpha", o.alpha); });
}

MLLinearOptions linearOptions(const OpCall& call) {
  return readAll<MLLinearOptions>(call, [](OptionReader& r, MLLinearOptions& o) {
    r.number("alpha", o.alpha);
    r.number("beta", o.beta);
  });
}

MLLstmOptions lstmOptions(const OpCall& call) {
  return readAll<MLLstmOptions>(call, [](OptionReader& r, MLLstmOptions& o) {
    r.operand("bias", o.bias);
    r.operand("recurrentBias", o.recurrentBias);
    r.operand("peepholeWeight", o.peepholeWeight);
    r.operand("initialHiddenState", o.initialHiddenState);
    r.operand("initialCellState", o.initialCellState);
    r.flag("returnSequence", o.returnSequence);
    r.enumeration("direction", o.direction, kDirections);
    r.enumeration("layout", o.layout, kLstmLayouts);
    r.enumerationList("activations", o.activations, kActivations);
  });
}

MLLstmCellOptions lstmCellOptions(const OpCall& call) {
  return readAll<MLLstmCellOptions>(call, [](OptionReader& r, MLLstmCellOptions& o) {
    r.operand("bias", o.bias);
    r.operand("recurrentBias", o.recurrentBias);
    r.operand("peepholeWeight", o.peepholeWeight);
    r.enumeration("layout", o.layout, kLstmLayouts);
    r.enumerationList("activations", o.activations, kActivations);
  });
}

MLPadOptions padOptions(const OpCall& call) {
  return readAll<MLPadOptions>(call, [](OptionReader& r, MLPadOptions& o) {
    r.enumeration("mode", o.mode, kPaddingModes);
    r.number("value", o.value);
  });
}

MLPool2dOptions pool2dOptions(const OpCall& call) {
  return readAll<MLPool2dOptions>(call, [](OptionReader& r, MLPool2dOptions& o) {
    r.u32List("windowDimensions", o.windowDimensions);
    r.u32List("padding", o.padding);
    r.u32List("strides", o.strides);
    r.u32List("dilations", o.dilations);
    r.enumeration("layout", o.layout, kInputLayouts);
    // outputShapeRounding is the spec's older name of roundingType.
    r.enumeration("roundingType", o.roundingType, kRoundingTypes);
    r.enumeration("outputShapeRounding", o.roundingType, kRoundingTypes);
    r.u32List("outputSizes", o.outputSizes);
  });
}

MLReduceOptions reduceOptions(const OpCall& call) {
  return readAll<MLReduceOptions>(call, [](OptionReader& r, MLReduceOptions& o) {
    r.u32List("axes", o.axes);
    r.flag("keepDimensions", o.keepDimensions);
  });
}

MLResample2dOptions resample2dOptions(const OpCall& call) {
  return readAll<MLResample2dOptions>(call, [](OptionReader& r, MLResample2dOptions& o) {
    r.enumeration("mode", o.mode, kInterpolationModes);
    r.floatList("scales", o.scales);
    r.u32List("sizes", o.sizes);
    r.u32List("axes", o.axes);
  });
}

MLReverseOptions reverseOptions(const OpCall& call) {
  return readAll<MLReverseOptions>(
      call, [](OptionReader& r, MLReverseOptions& o) { r.u32List("axes", o.axes); });
}

MLScatterOptions scatterOptions(const OpCall& call) {
  return readAll<MLScatterOptions>(
      call, [](OptionReader& r, MLScatterOptions& o) { r.u32("axis", o.axis); });
}

MLSliceOptions sliceOptions(const OpCall& call) {
  return readAll<MLSliceOptions>(
      call, [](OptionReader& r, MLSliceOptions& o) { r.u32List("strides", o.strides); });
}

MLSplitOptions splitOptions(const OpCall& call) {
  return readAll<MLSplitOptions>(call,
                                 [](OptionReader& r, MLSplitOptions& o) { r.u32("axis", o.axis); });
}

MLTransposeOptions transposeOptions(const OpCall& call) {
  return readAll<MLTransposeOptions>(call, [](OptionReader& r, MLTransposeOptions& o) {
    r.u32List("permutation", o.permutation);
  });
}

MLTriangularOptions triangularOptions(const OpCall& call) {
  return readAll<MLTriangularOptions>(call, [](OptionReader& r, MLTriangularOptions& o) {
    r.flag("upper", o.upper);
    r.i32("diagonal", o.diagonal);
  });
}

}  // namespace webnn::conformance
