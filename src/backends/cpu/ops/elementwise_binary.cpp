// add, sub, mul, div on oneDNN's binary primitive, float32, with broadcasting. oneDNN
// broadcasts only its second source, so the first must have the output's shape; for the
// commutative ops the operands are swapped when only the second one has it; otherwise (both
// broadcast, or sub/div's first) the broadcasting kernel of elementwise_extra.cpp runs them. max
// and min stay on the reference kernels: oneDNN's do not propagate NaN, the spec's do.
#include <optional>

#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {
namespace {

using dnnl::algorithm;
using dnnl::memory;

struct BinaryFunction {
  algorithm kind;
  bool commutative;
};

std::optional<BinaryFunction> binaryFunctionOf(graph::OpType type) {
  using graph::OpType;
  switch (type) {
    case OpType::Add:
      return BinaryFunction{algorithm::binary_add, true};
    case OpType::Sub:
      return BinaryFunction{algorithm::binary_sub, false};
    case OpType::Mul:
      return BinaryFunction{algorithm::binary_mul, true};
    case OpType::Div:
      return BinaryFunction{algorithm::binary_div, false};
    default:
      return std::nullopt;
  }
}

// The shape as oneDNN dims of rank `rank` (leading 1s), at least one dimension.
memory::dims broadcastDims(const std::vector<uint32_t>& shape, size_t rank) {
  memory::dims dims(rank - shape.size(), 1);
  for (uint32_t d : shape) dims.push_back(d);
  return dims;
}

class BinaryOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  BinaryOp(const OpCompileContext& context, algorithm kind, graph::OperandId first,
           graph::OperandId second)
      : engine_(context.engine),
        first_(first),
        second_(second),
        output_(context.operation.outputs[0]) {
    const auto& outputShape = context.descriptor(output_).shape;
    const size_t rank = std::max<size_t>(outputShape.size(), 1);
    const memory::desc* firstLayout = context.layoutOf(first);
    const memory::desc* secondLayout = context.layoutOf(second);
    outputDesc_ = firstLayout ? *firstLayout : plainFloat32Desc(broadcastDims(outputShape, rank));
    secondDesc_ = secondLayout
                      ? *secondLayout
                      : plainFloat32Desc(broadcastDims(context.descriptor(second).shape, rank));
    blocked_ = firstLayout != nullptr;
    const dnnl::binary::desc desc(kind, outputDesc_, secondDesc_, outputDesc_);
    primitiveDesc_ = dnnl::binary::primitive_desc(desc, opAttributes(), engine_);
    primitive_ = dnnl::binary(primitiveDesc_);
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeWithScratchpad(primitive_, primitiveDesc_, stream,
                          {{DNNL_ARG_SRC_0, memory(outputDesc_, engine_, dataOf(tensors, first_))},
                           {DNNL_ARG_SRC_1, memory(secondDesc_, engine_, dataOf(tensors, second_))},
                           {DNNL_ARG_DST, memory(outputDesc_, engine_, dataOf(tensors, output_))}});
  }

  std::string implementation() const override { return implementationOf(primitiveDesc_); }
  std::optional<memory::desc> outputLayout() const override {
    return blocked_ ? std::optional(outputDesc_) : std::nullopt;
  }

 private:
  dnnl::engine engine_;
  graph::OperandId first_, second_, output_;
  memory::desc outputDesc_, secondDesc_;
  bool blocked_ = false;
  dnnl::binary::primitive_desc primitiveDesc_;
  dnnl::binary primitive_;
};

}  // namespace

std::unique_ptr<CpuOp> createBinaryOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  const auto function = binaryFunctionOf(operation.type);
  if (!function) return nullptr;
  graph::OperandId a = operation.inputs[0], b = operation.inputs[1];
  const auto& output = context.descriptor(operation.outputs[0]);
  for (graph::OperandId id : {a, b, operation.outputs[0]}) {
    if (context.descriptor(id).dataType != MLOperandDataType::Float32) return nullptr;
  }
  if (output.elementCount() == 0) return nullptr;
  if (context.descriptor(a).shape != output.shape) {
    // Both operands broadcast, or the first one of sub/div: our broadcasting kernel
    // (elementwise_extra.cpp), on plain inputs.
    if (!function->commutative || context.descriptor(b).shape != output.shape) {
      return createElementwiseKernelOp(context);
    }
    std::swap(a, b);
  }
  // A blocked first operand gives a blocked output; the second may be blocked only alike (same
  // shape, same layout). oneDNN's reference binary for mixed layouts is slow: plain then.
  const memory::desc* firstLayout = context.layoutOf(a);
  const memory::desc* secondLayout = context.layoutOf(b);
  if (firstLayout && context.plainOutput) return nullptr;
  if (secondLayout && (!firstLayout || *secondLayout != *firstLayout)) return nullptr;
  auto op = std::make_unique<BinaryOp>(context, function->kind, a, b);
  if (firstLayout && op->implementation().rfind("ref", 0) == 0) return nullptr;
  return op;
}

}  // namespace webnn::cpu
