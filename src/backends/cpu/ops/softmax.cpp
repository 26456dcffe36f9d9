// softmax, float32: over the last axis (contiguous rows) on a loop of ours where the CPU has
// AVX-512 (kernels/softmax_rows.h: twice oneDNN 2.6's speed on attention's rows), any other axis
// or CPU on oneDNN's softmax primitive.
#include "backends/cpu/cpu_op.h"
#include "backends/cpu/kernels/softmax_rows.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;

class SoftmaxOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  explicit SoftmaxOp(const OpCompileContext& context)
      : engine_(context.engine),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        desc_(plainFloat32Desc(dimsOf(context.descriptor(input_).shape))) {
    const int axis =
        static_cast<int>(context.operation.attributesAs<graph::SoftmaxAttributes>().axis);
    const dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, desc_, axis);
    primitiveDesc_ = dnnl::softmax_forward::primitive_desc(desc, opAttributes(), engine_);
    primitive_ = makePrimitive<dnnl::softmax_forward>(primitiveDesc_);
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeWithScratchpad(primitive_, primitiveDesc_, stream,
                          {{DNNL_ARG_SRC, memory(desc_, engine_, dataOf(tensors, input_))},
                           {DNNL_ARG_DST, memory(desc_, engine_, dataOf(tensors, output_))}});
  }

  std::string implementation() const override { return implementationOf(primitiveDesc_); }

 private:
  dnnl::engine engine_;
  graph::OperandId input_, output_;
  memory::desc desc_;
  dnnl::softmax_forward::primitive_desc primitiveDesc_;
  DeferredPrimitive primitive_;  // made beside the compile (deferred_primitive.h)
};

// softmax over the last axis: rows of the plain layout.
class RowSoftmaxOp final : public CpuOp {
 public:
  explicit RowSoftmaxOp(const OpCompileContext& context)
      : input_(context.operation.inputs[0]), output_(context.operation.outputs[0]) {
    const auto& shape = context.descriptor(input_).shape;
    rowLength_ = shape.back();
    rows_ = static_cast<int64_t>(context.descriptor(input_).elementCount()) / rowLength_;
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    softmaxRows(tensors[input_].as<float>(), tensors[output_].as<float>(), rows_, rowLength_);
  }

  std::string implementation() const override { return "cpu softmax kernel (avx512)"; }

 private:
  graph::OperandId input_, output_;
  int64_t rows_ = 0, rowLength_ = 1;
};

}  // namespace

std::unique_ptr<CpuOp> createSoftmaxOp(const OpCompileContext& context) {
  const auto& input = context.descriptor(context.operation.inputs[0]);
  if (input.dataType != MLOperandDataType::Float32 || input.elementCount() == 0 ||
      input.shape.empty()) {
    return nullptr;
  }
  const uint32_t axis = context.operation.attributesAs<graph::SoftmaxAttributes>().axis;
  if (axis + 1 == input.shape.size() && softmaxRowsIsFast()) {
    return std::make_unique<RowSoftmaxOp>(context);
  }
  return std::make_unique<SoftmaxOp>(context);
}

}  // namespace webnn::cpu
