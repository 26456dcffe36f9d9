// The attributes of each operation type in the graph IR: plain structs of resolved values (every
// spec default filled in by validation), with operands referred to by id, never by MLOperand
// handle. Operation::attributes holds one of them (std::monostate for ops without attributes).
// Optional operands appear both here (by role, e.g. Conv2dAttributes::bias) and in
// Operation::inputs (for the use-def index), so that a pass that rewires an input updates both.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <variant>
#include <vector>

#include "webnn/number.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

using OperandId = uint32_t;

// clamp
struct ClampAttributes {
  MLNumber minValue = -std::numeric_limits<double>::infinity();
  MLNumber maxValue = std::numeric_limits<double>::infinity();
};
// elu, leakyRelu (alpha); hardSigmoid, linear (alpha, beta)
struct EluAttributes {
  double alpha = 1.0;
};
struct LeakyReluAttributes {
  double alpha = 0.01;
};
struct HardSigmoidAttributes {
  double alpha = 0.2;
  double beta = 0.5;
};
struct LinearAttributes {
  double alpha = 1.0;
  double beta = 0.0;
};
// softmax
struct SoftmaxAttributes {
  uint32_t axis = 0;
};
// cast
struct CastAttributes {
  MLOperandDataType dataType = MLOperandDataType::Float32;
};

// conv2d: padding [beginHeight, endHeight, beginWidth, endWidth], strides and dilations [h, w].
struct Conv2dAttributes {
  std::array<uint32_t, 4> padding{};
  std::array<uint32_t, 2> strides{1, 1};
  std::array<uint32_t, 2> dilations{1, 1};
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::Nchw;
  MLConv2dFilterOperandLayout filterLayout = MLConv2dFilterOperandLayout::Oihw;
  std::optional<OperandId> bias;
};
// convTranspose2d: outputSizes resolved (from the option or computed from outputPadding).
struct ConvTranspose2dAttributes {
  std::array<uint32_t, 4> padding{};
  std::array<uint32_t, 2> strides{1, 1};
  std::array<uint32_t, 2> dilations{1, 1};
  std::array<uint32_t, 2> outputPadding{};
  std::array<uint32_t, 2> outputSizes{};
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::Nchw;
  MLConvTranspose2dFilterOperandLayout filterLayout = MLConvTranspose2dFilterOperandLayout::Iohw;
  std::optional<OperandId> bias;
};
// averagePool2d, l2Pool2d, maxPool2d: every window option resolved.
struct Pool2dAttributes {
  std::array<uint32_t, 2> windowDimensions{};
  std::array<uint32_t, 4> padding{};
  std::array<uint32_t, 2> strides{1, 1};
  std::array<uint32_t, 2> dilations{1, 1};
  MLInputOperandLayout layout = MLInputOperandLayout::Nchw;
  MLRoundingType roundingType = MLRoundingType::Floor;
  std::array<uint32_t, 2> outputSizes{};
};
// resample2d: scales and sizes resolved for both axes.
struct Resample2dAttributes {
  MLInterpolationMode mode = MLInterpolationMode::NearestNeighbor;
  std::array<float, 2> scales{1.0f, 1.0f};
  std::array<uint32_t, 2> sizes{};
  std::array<uint32_t, 2> axes{2, 3};
};
// gemm
struct GemmAttributes {
  std::optional<OperandId> c;
  double alpha = 1.0;
  double beta = 1.0;
  bool aTranspose = false;
  bool bTranspose = false;
};

// batchNormalization (inputs: input, mean, variance [, scale] [, bias])
struct BatchNormalizationAttributes {
  std::optional<OperandId> scale;
  std::optional<OperandId> bias;
  uint32_t axis = 1;
  double epsilon = 1e-5;
};
struct InstanceNormalizationAttributes {
  std::optional<OperandId> scale;
  std::optional<OperandId> bias;
  double epsilon = 1e-5;
  MLInputOperandLayout layout = MLInputOperandLayout::Nchw;
};
struct LayerNormalizationAttributes {
  std::optional<OperandId> scale;
  std::optional<OperandId> bias;
  std::vector<uint32_t> axes;
  double epsilon = 1e-5;
};

// gather, gatherElements, scatterElements
struct GatherAttributes {
  uint32_t axis = 0;
};
struct ScatterAttributes {
  uint32_t axis = 0;
};

// reduce*: axes resolved (every axis by default).
struct ReduceAttributes {
  std::vector<uint32_t> axes;
  bool keepDimensions = false;
};
struct ArgMinMaxAttributes {
  uint32_t axis = 0;
  bool keepDimensions = false;
  MLOperandDataType outputDataType = MLOperandDataType::Int32;
};
struct CumulativeSumAttributes {
  uint32_t axis = 0;
  bool exclusive = false;
  bool reversed = false;
};

// Shape ops.
struct ConcatAttributes {
  uint32_t axis = 0;
};
struct SplitAttributes {
  uint32_t axis = 0;
  std::vector<uint32_t> sizes;
};
struct SliceAttributes {
  std::vector<uint32_t> starts;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;
};
struct PadAttributes {
  std::vector<uint32_t> beginningPadding;
  std::vector<uint32_t> endingPadding;
  MLPaddingMode mode = MLPaddingMode::Constant;
  MLNumber value = 0.0;
};
struct TileAttributes {
  std::vector<uint32_t> repetitions;
};
struct TransposeAttributes {
  std::vector<uint32_t> permutation;
};
struct ReverseAttributes {
  std::vector<uint32_t> axes;
};
struct TriangularAttributes {
  bool upper = true;
  int32_t diagonal = 0;
};

// Recurrent networks. Activations resolved to the spec's defaults; steps and hiddenSize read from
// the operands' shapes.
struct GruAttributes {
  std::optional<OperandId> bias;
  std::optional<OperandId> recurrentBias;
  std::optional<OperandId> initialHiddenState;
  bool resetAfter = true;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::Forward;
  MLGruWeightLayout layout = MLGruWeightLayout::Zrn;
  std::vector<MLRecurrentNetworkActivation> activations;
  uint32_t steps = 0;
  uint32_t hiddenSize = 0;
};
struct GruCellAttributes {
  std::optional<OperandId> bias;
  std::optional<OperandId> recurrentBias;
  bool resetAfter = true;
  MLGruWeightLayout layout = MLGruWeightLayout::Zrn;
  std::vector<MLRecurrentNetworkActivation> activations;
  uint32_t hiddenSize = 0;
};
struct LstmAttributes {
  std::optional<OperandId> bias;
  std::optional<OperandId> recurrentBias;
  std::optional<OperandId> peepholeWeight;
  std::optional<OperandId> initialHiddenState;
  std::optional<OperandId> initialCellState;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::Forward;
  MLLstmWeightLayout layout = MLLstmWeightLayout::Iofg;
  std::vector<MLRecurrentNetworkActivation> activations;
  uint32_t steps = 0;
  uint32_t hiddenSize = 0;
};
struct LstmCellAttributes {
  std::optional<OperandId> bias;
  std::optional<OperandId> recurrentBias;
  std::optional<OperandId> peepholeWeight;
  MLLstmWeightLayout layout = MLLstmWeightLayout::Iofg;
  std::vector<MLRecurrentNetworkActivation> activations;
  uint32_t hiddenSize = 0;
};

using Attributes =
    std::variant<std::monostate, ClampAttributes, EluAttributes, LeakyReluAttributes,
                 HardSigmoidAttributes, LinearAttributes, SoftmaxAttributes, CastAttributes,
                 Conv2dAttributes, ConvTranspose2dAttributes, Pool2dAttributes,
                 Resample2dAttributes, GemmAttributes, BatchNormalizationAttributes,
                 InstanceNormalizationAttributes, LayerNormalizationAttributes, GatherAttributes,
                 ScatterAttributes, ReduceAttributes, ArgMinMaxAttributes, CumulativeSumAttributes,
                 ConcatAttributes, SplitAttributes, SliceAttributes, PadAttributes, TileAttributes,
                 TransposeAttributes, ReverseAttributes, TriangularAttributes, GruAttributes,
                 GruCellAttributes, LstmAttributes, LstmCellAttributes>;

}  // namespace webnn::graph
