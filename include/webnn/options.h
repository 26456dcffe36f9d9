// The option dictionaries and enums of MLGraphBuilder's methods, with the spec's member names and
// defaults. Optional spec members are std::optional; sequences default to empty (= spec default).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "webnn/operand.h"

namespace webnn {

struct MLOperatorOptions {
  std::string label;
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

struct MLArgMinMaxOptions : MLOperatorOptions {
  bool keepDimensions = false;
  MLOperandDataType outputDataType = MLOperandDataType::Int32;
};

struct MLBatchNormalizationOptions : MLOperatorOptions {
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  uint32_t axis = 1;
  double epsilon = 1e-5;
};

struct MLClampOptions : MLOperatorOptions {
  double minValue = -std::numeric_limits<double>::infinity();
  double maxValue = std::numeric_limits<double>::infinity();
};

struct MLConv2dOptions : MLOperatorOptions {
  std::vector<uint32_t> padding;    // [beginHeight, endHeight, beginWidth, endWidth]; default 0s
  std::vector<uint32_t> strides;    // [h, w]; default 1s
  std::vector<uint32_t> dilations;  // [h, w]; default 1s
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::Nchw;
  MLConv2dFilterOperandLayout filterLayout = MLConv2dFilterOperandLayout::Oihw;
  std::optional<MLOperand> bias;
};

struct MLConvTranspose2dOptions : MLOperatorOptions {
  std::vector<uint32_t> padding;
  std::vector<uint32_t> strides;
  std::vector<uint32_t> dilations;
  std::vector<uint32_t> outputPadding;
  std::optional<std::vector<uint32_t>> outputSizes;
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::Nchw;
  MLConvTranspose2dFilterOperandLayout filterLayout = MLConvTranspose2dFilterOperandLayout::Iohw;
  std::optional<MLOperand> bias;
};

struct MLCumulativeSumOptions : MLOperatorOptions {
  bool exclusive = false;
  bool reversed = false;
};

struct MLEluOptions : MLOperatorOptions {
  double alpha = 1.0;
};

struct MLGatherOptions : MLOperatorOptions {
  uint32_t axis = 0;
};

struct MLGemmOptions : MLOperatorOptions {
  std::optional<MLOperand> c;
  double alpha = 1.0;
  double beta = 1.0;
  bool aTranspose = false;
  bool bTranspose = false;
};

struct MLGruOptions : MLOperatorOptions {
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrentBias;
  std::optional<MLOperand> initialHiddenState;
  bool resetAfter = true;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::Forward;
  MLGruWeightLayout layout = MLGruWeightLayout::Zrn;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations;  // default [sigmoid, tanh]
};

struct MLGruCellOptions : MLOperatorOptions {
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrentBias;
  bool resetAfter = true;
  MLGruWeightLayout layout = MLGruWeightLayout::Zrn;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations;
};

struct MLHardSigmoidOptions : MLOperatorOptions {
  double alpha = 0.2;
  double beta = 0.5;
};

struct MLInstanceNormalizationOptions : MLOperatorOptions {
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  double epsilon = 1e-5;
  MLInputOperandLayout layout = MLInputOperandLayout::Nchw;
};

struct MLLayerNormalizationOptions : MLOperatorOptions {
  std::optional<MLOperand> scale;
  std::optional<MLOperand> bias;
  std::optional<std::vector<uint32_t>> axes;  // default: all but the first
  double epsilon = 1e-5;
};

struct MLLeakyReluOptions : MLOperatorOptions {
  double alpha = 0.01;
};

struct MLLinearOptions : MLOperatorOptions {
  double alpha = 1.0;
  double beta = 0.0;
};

struct MLLstmOptions : MLOperatorOptions {
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrentBias;
  std::optional<MLOperand> peepholeWeight;
  std::optional<MLOperand> initialHiddenState;
  std::optional<MLOperand> initialCellState;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::Forward;
  MLLstmWeightLayout layout = MLLstmWeightLayout::Iofg;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations;  // default [sigmoid, tanh, tanh]
};

struct MLLstmCellOptions : MLOperatorOptions {
  std::optional<MLOperand> bias;
  std::optional<MLOperand> recurrentBias;
  std::optional<MLOperand> peepholeWeight;
  MLLstmWeightLayout layout = MLLstmWeightLayout::Iofg;
  std::optional<std::vector<MLRecurrentNetworkActivation>> activations;
};

struct MLPadOptions : MLOperatorOptions {
  MLPaddingMode mode = MLPaddingMode::Constant;
  double value = 0.0;
};

struct MLPool2dOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> windowDimensions;  // default: the input's spatial dims
  std::vector<uint32_t> padding;
  std::vector<uint32_t> strides;
  std::vector<uint32_t> dilations;
  MLInputOperandLayout layout = MLInputOperandLayout::Nchw;
  MLRoundingType outputShapeRounding = MLRoundingType::Floor;
  std::optional<std::vector<uint32_t>> outputSizes;
};

struct MLReduceOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> axes;  // default: every axis
  bool keepDimensions = false;
};

struct MLResample2dOptions : MLOperatorOptions {
  MLInterpolationMode mode = MLInterpolationMode::NearestNeighbor;
  std::optional<std::vector<float>> scales;    // default [1, 1]
  std::optional<std::vector<uint32_t>> sizes;  // overrides scales
  std::optional<std::vector<uint32_t>> axes;   // default [2, 3]
};

struct MLReverseOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> axes;  // default: every axis
};

struct MLScatterOptions : MLOperatorOptions {
  uint32_t axis = 0;
};

struct MLSliceOptions : MLOperatorOptions {
  std::vector<uint32_t> strides;  // default 1s
};

struct MLSplitOptions : MLOperatorOptions {
  uint32_t axis = 0;
};

struct MLTransposeOptions : MLOperatorOptions {
  std::optional<std::vector<uint32_t>> permutation;  // default: reversed axes
};

struct MLTriangularOptions : MLOperatorOptions {
  bool upper = true;
  int32_t diagonal = 0;
};

struct MLConstantOptions {
  std::string label;  // the name a weight source knows the constant by
};

}  // namespace webnn
