// The option dictionaries and enums of MLGraphBuilder's methods, with the spec's member names and
// defaults. Optional spec members are std::optional; sequences default to empty (= spec default).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "webnn/number.h"
#include "webnn/operand.h"

namespace webnn {

// Every options dictionary of the spec inherits MLOperatorOptions {label}. Here each struct holds
// `label` as its own first member instead of a base class, so that designated initializers such
// as `{.alpha = 2}` or `{.label = "fc1", .groups = 2}` compile cleanly under -Wextra.
struct MLOperatorOptions {
  std::string label{};
};

enum class MLInputOperandLayout { Nchw, Nhwc };
enum class MLConv2dFilterOperandLayout { Oihw, Hwio, Ohwi, Ihwo };
enum class MLConvTranspose2dFilterOperandLayout { Iohw, Hwoi, Ohwi };
enum class MLRoundingType { Floor, Ceil };
enum class MLInterpolationMode { NearestNeighbor, Linear };
enum class MLPaddingMode { Constant, Edge, Reflection, Symmetric };
enum class MLRecurrentNetworkActivation { Relu, Sigmoid, Tanh };
enum class MLRecurrentNetworkDirection { Forward, Backward, Both };
enum class MLGruWeightLayout { Zrn, Rzn };
enum class MLLstmWeightLayout { Iofg, Ifgo };

struct MLArgMinMaxOptions {
  std::string label{};
  bool keepDimensions = false;
  MLOperandDataType outputDataType = MLOperandDataType::Int32;
};

struct MLBatchNormalizationOptions {
  std::string label{};
  std::optional<MLOperand> scale{};
  std::optional<MLOperand> bias{};
  uint32_t axis = 1;
  double epsilon = 1e-5;
};

struct MLClampOptions {
  std::string label{};
  MLNumber minValue = -std::numeric_limits<double>::infinity();
  MLNumber maxValue = std::numeric_limits<double>::infinity();
};

struct MLConv2dOptions {
  std::string label{};
  std::vector<uint32_t> padding{};    // [beginHeight, endHeight, beginWidth, endWidth]; default 0s
  std::vector<uint32_t> strides{};    // [h, w]; default 1s
  std::vector<uint32_t> dilations{};  // [h, w]; default 1s
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::Nchw;
  MLConv2dFilterOperandLayout filterLayout = MLConv2dFilterOperandLayout::Oihw;
  std::optional<MLOperand> bias{};
};

struct MLConvTranspose2dOptions {
  std::string label{};
  std::vector<uint32_t> padding{};
  std::vector<uint32_t> strides{};
  std::vector<uint32_t> dilations{};
  std::vector<uint32_t> outputPadding{};
  std::optional<std::vector<uint32_t>> outputSizes{};
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::Nchw;
  MLConvTranspose2dFilterOperandLayout filterLayout = MLConvTranspose2dFilterOperandLayout::Iohw;
  std::optional<MLOperand> bias{};
};

struct MLCumulativeSumOptions {
  std::string label{};
  bool exclusive = false;
  bool reversed = false;
};

struct MLEluOptions {
  std::string label{};
  double alpha = 1.0;
};

struct MLGatherOptions {
  std::string label{};
  uint32_t axis = 0;
};

struct MLGemmOptions {
  std::string label{};
  std::optional<MLOperand> c{};
  double alpha = 1.0;
  double beta = 1.0;
  bool aTranspose = false;
  bool bTranspose = false;
};

struct MLGruOptions {
  std::string label{};
  std::optional<MLOperand> bias{};
  std::optional<MLOperand> recurrentBias{};
  std::optional<MLOperand> initialHiddenState{};
  bool resetAfter = true;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::Forward;
  MLGruWeightLayout layout = MLGruWeightLayout::Zrn;
  std::optional<std::vector<MLRecurrentNetworkActivation>>
      activations{};  // default [sigmoid, tanh]
};

struct MLGruCellOptions {
  std::string label{};
  std::optional<MLOperand> bias{};
  std::optional<MLOperand> recurrentBias{};
  bool resetAfter = true;
  MLGruWeightLayout layout = MLGruWeightLayout::Zrn;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations{};
};

struct MLHardSigmoidOptions {
  std::string label{};
  double alpha = 0.2;
  double beta = 0.5;
};

struct MLInstanceNormalizationOptions {
  std::string label{};
  std::optional<MLOperand> scale{};
  std::optional<MLOperand> bias{};
  double epsilon = 1e-5;
  MLInputOperandLayout layout = MLInputOperandLayout::Nchw;
};

struct MLLayerNormalizationOptions {
  std::string label{};
  std::optional<MLOperand> scale{};
  std::optional<MLOperand> bias{};
  std::optional<std::vector<uint32_t>> axes{};  // default: all but the first
  double epsilon = 1e-5;
};

struct MLLeakyReluOptions {
  std::string label{};
  double alpha = 0.01;
};

struct MLLinearOptions {
  std::string label{};
  double alpha = 1.0;
  double beta = 0.0;
};

struct MLLstmOptions {
  std::string label{};
  std::optional<MLOperand> bias{};
  std::optional<MLOperand> recurrentBias{};
  std::optional<MLOperand> peepholeWeight{};
  std::optional<MLOperand> initialHiddenState{};
  std::optional<MLOperand> initialCellState{};
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::Forward;
  MLLstmWeightLayout layout = MLLstmWeightLayout::Iofg;
  std::optional<std::vector<MLRecurrentNetworkActivation>>
      activations{};  // default [sigmoid, tanh, tanh]
};

struct MLLstmCellOptions {
  std::string label{};
  std::optional<MLOperand> bias{};
  std::optional<MLOperand> recurrentBias{};
  std::optional<MLOperand> peepholeWeight{};
  MLLstmWeightLayout layout = MLLstmWeightLayout::Iofg;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations{};
};

struct MLPadOptions {
  std::string label{};
  MLPaddingMode mode = MLPaddingMode::Constant;
  MLNumber value = 0.0;
};

struct MLPool2dOptions {
  std::string label{};
  std::optional<std::vector<uint32_t>> windowDimensions{};  // default: the input's spatial dims
  std::vector<uint32_t> padding{};
  std::vector<uint32_t> strides{};
  std::vector<uint32_t> dilations{};
  MLInputOperandLayout layout = MLInputOperandLayout::Nchw;
  MLRoundingType roundingType = MLRoundingType::Floor;
  std::optional<std::vector<uint32_t>> outputSizes{};
};

struct MLReduceOptions {
  std::string label{};
  std::optional<std::vector<uint32_t>> axes{};  // default: every axis
  bool keepDimensions = false;
};

struct MLResample2dOptions {
  std::string label{};
  MLInterpolationMode mode = MLInterpolationMode::NearestNeighbor;
  std::optional<std::vector<float>> scales{};    // default [1, 1]
  std::optional<std::vector<uint32_t>> sizes{};  // overrides scales
  std::optional<std::vector<uint32_t>> axes{};   // default [2, 3]
};

struct MLReverseOptions {
  std::string label{};
  std::optional<std::vector<uint32_t>> axes{};  // default: every axis
};

struct MLScatterOptions {
  std::string label{};
  uint32_t axis = 0;
};

struct MLSliceOptions {
  std::string label{};
  std::vector<uint32_t> strides{};  // default 1s
};

struct MLSplitOptions {
  std::string label{};
  uint32_t axis = 0;
};

struct MLTransposeOptions {
  std::string label{};
  std::optional<std::vector<uint32_t>> permutation{};  // default: reversed axes
};

struct MLTriangularOptions {
  std::string label{};
  bool upper = true;
  int32_t diagonal = 0;
};

struct MLConstantOptions {
  std::string label{};  // the name a weight source knows the constant by
};

}  // namespace webnn
