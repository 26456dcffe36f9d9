#include "backends/cpu/op_table.h"

namespace webnn::cpu {
namespace {

using graph::OpType;
using T = MLOperandDataType;

constexpr DataTypeSet kFloat32{T::Float32};
constexpr DataTypeSet kUint8{T::Uint8};
// Every type of whole bytes (the data movement kernels copy elements of 1, 2, 4 or 8 bytes).
constexpr DataTypeSet kWholeBytes{T::Float32, T::Float16, T::Int32, T::Uint32,
                                  T::Int64,   T::Uint64,  T::Int8,  T::Uint8};
constexpr DataTypeSet kCastable{T::Float32, T::Float16, T::Int32, T::Uint32, T::Int64,
                                T::Uint64,  T::Int8,    T::Uint8, T::Int4,   T::Uint4};
constexpr DataTypeSet kComparable{T::Float32, T::Int32, T::Uint32, T::Int64,
                                  T::Uint64,  T::Int8,  T::Uint8};

// createEltwiseOp on oneDNN's eltwise primitive (clamp: a loop of ours); fusible as post-ops.
constexpr CpuOpEntry kActivation{createEltwiseOp, kFloat32, true, FusionRole::PostOp};
// Unary math and hardSigmoid on kernels of ours (ops/elementwise_extra.cpp).
constexpr CpuOpEntry kUnaryKernel{createElementwiseKernelOp, kFloat32};
constexpr CpuOpEntry kComparison{createElementwiseKernelOp, kComparable};
constexpr CpuOpEntry kLogical{createElementwiseKernelOp, kUint8};
constexpr CpuOpEntry kBinary{createBinaryOp, kFloat32, true, FusionRole::PostOp};
constexpr CpuOpEntry kDataMovement{createDataMovementOp, kWholeBytes};
constexpr CpuOpEntry kReduction{createReductionOp, kFloat32};
constexpr CpuOpEntry kNormalization{createNormalizationOp, kFloat32};
constexpr CpuOpEntry kPooling{createPoolingOp, kFloat32, true};
constexpr CpuOpEntry kAnchor(OpCreator create, bool readsBlocked) {
  return {create, kFloat32, readsBlocked, FusionRole::Anchor};
}

constexpr CpuOpEntry entryOf(OpType type) {
  switch (type) {
    case OpType::Conv2d:
      return kAnchor(createConvolutionOp, true);
    case OpType::Matmul:
      return kAnchor(createMatmulOp, false);
    case OpType::Gemm:
      return kAnchor(createGemmOp, false);
    case OpType::ConvTranspose2d:
      return {createDeconvolutionOp, kFloat32};
    case OpType::Add:
    case OpType::Sub:
    case OpType::Mul:
    case OpType::Div:
      return kBinary;
    case OpType::AveragePool2d:
    case OpType::MaxPool2d:
      return kPooling;
    case OpType::L2Pool2d:  // a loop of ours on plain layouts
      return {createPoolingOp, kFloat32};
    case OpType::Softmax:
      return {createSoftmaxOp, kFloat32};
    case OpType::Relu:
    case OpType::LeakyRelu:
    case OpType::Elu:
    case OpType::Sigmoid:
    case OpType::Tanh:
    case OpType::HardSwish:
    case OpType::Gelu:
    case OpType::Exp:
    case OpType::Sqrt:
    case OpType::Abs:
    case OpType::Neg:
    case OpType::Linear:
      return kActivation;
    case OpType::Clamp:  // NaN-propagating loop of ours alone (plain); clip as a post-op
      return {createEltwiseOp, kFloat32, false, FusionRole::PostOp};
    case OpType::HardSigmoid:  // a kernel of ours alone; linear + clip as a post-op
      return {createElementwiseKernelOp, kFloat32, false, FusionRole::PostOp};
    case OpType::Erf:
    case OpType::Reciprocal:
    case OpType::Sign:
    case OpType::Floor:
    case OpType::Ceil:
    case OpType::RoundEven:
    case OpType::Sin:
    case OpType::Cos:
    case OpType::Tan:
    case OpType::Log:
    case OpType::Softplus:
    case OpType::Softsign:
    case OpType::IsNaN:
    case OpType::IsInfinite:
    case OpType::Pow:
    case OpType::Max:
    case OpType::Min:
    case OpType::Prelu:
      return kUnaryKernel;
    case OpType::LogicalNot:
    case OpType::LogicalAnd:
    case OpType::LogicalOr:
    case OpType::LogicalXor:
      return kLogical;
    case OpType::Equal:
    case OpType::NotEqual:
    case OpType::Greater:
    case OpType::GreaterOrEqual:
    case OpType::Lesser:
    case OpType::LesserOrEqual:
      return kComparison;
    case OpType::Cast:  // from every type (int4/uint4 too; to them as well: the output's type)
      return {createElementwiseKernelOp, kCastable};
    case OpType::Reshape:
    case OpType::Identity:
    case OpType::Transpose:
    case OpType::Slice:
    case OpType::Split:
    case OpType::Concat:
    case OpType::Expand:
    case OpType::Tile:
    case OpType::Reverse:
    case OpType::Pad:
    case OpType::Gather:
    case OpType::GatherElements:
    case OpType::GatherND:
    case OpType::ScatterElements:
    case OpType::ScatterND:
    case OpType::Triangular:
    case OpType::Where:
      return kDataMovement;
    case OpType::BatchNormalization:  // also a post-op of a convolution (folded)
      return {createNormalizationOp, kFloat32, false, FusionRole::PostOp};
    case OpType::InstanceNormalization:
    case OpType::LayerNormalization:
      return kNormalization;
    case OpType::ReduceL1:
    case OpType::ReduceL2:
    case OpType::ReduceLogSum:
    case OpType::ReduceLogSumExp:
    case OpType::ReduceMax:
    case OpType::ReduceMean:
    case OpType::ReduceMin:
    case OpType::ReduceProduct:
    case OpType::ReduceSum:
    case OpType::ReduceSumSquare:
    case OpType::ArgMin:
    case OpType::ArgMax:
    case OpType::CumulativeSum:
      return kReduction;
    case OpType::Resample2d:  // linear: float32; nearest: any whole-byte type
      return {createResampleOp, kWholeBytes};
    case OpType::QuantizeLinear:  // per tensor: any unpadded layout, kept (quantization.cpp)
      return {createQuantizationOp, kFloat32, true};
    case OpType::DequantizeLinear:
      return {createQuantizationOp, kFloat32};
    case OpType::Lstm:
    case OpType::LstmCell:
    case OpType::Gru:
    case OpType::GruCell:
      return {createRecurrentOp, kFloat32};
    default:
      return {};
  }
}

constexpr std::array<CpuOpEntry, graph::kOpTypeCount> makeTable() {
  std::array<CpuOpEntry, graph::kOpTypeCount> table{};
  for (size_t i = 0; i < table.size(); ++i) table[i] = entryOf(static_cast<OpType>(i));
  return table;
}

constexpr std::array<CpuOpEntry, graph::kOpTypeCount> kTable = makeTable();

}  // namespace

const CpuOpEntry& cpuOpEntry(graph::OpType type) {
  return kTable[static_cast<size_t>(type)];
}

MLOperandDataType operationDataType(const graph::GraphIR& ir, const graph::Operation& operation) {
  switch (operation.type) {
    case OpType::DequantizeLinear:
      return ir.descriptor(operation.outputs.at(0)).dataType;
    case OpType::Where:
      return ir.descriptor(operation.inputs.at(1)).dataType;
    default:
      return ir.descriptor(operation.inputs.at(0)).dataType;
  }
}

}  // namespace webnn::cpu
