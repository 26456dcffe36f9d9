// Element-wise activations and unary math on oneDNN's eltwise primitive, float32: a plain tensor
// runs as one flat dimension whatever its shape, a blocked one in its layout (output alike). clamp
// is a loop of ours (oneDNN's clip returns a bound for NaN; the spec propagates it); log stays on
// the reference kernel (oneDNN's is ~1e-6 off: log(1) = -1.4e-6).
#include <optional>

#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {
namespace {

using dnnl::algorithm;
using dnnl::memory;

}  // namespace

std::vector<EltwiseFunction> eltwiseFunctionsOf(const graph::Operation& operation, bool fused) {
  using graph::OpType;
  switch (operation.type) {
    case OpType::Relu:
      return {{algorithm::eltwise_relu}};
    case OpType::LeakyRelu:
      return {{algorithm::eltwise_relu,
               static_cast<float>(operation.attributesAs<graph::LeakyReluAttributes>().alpha)}};
    case OpType::Elu:
      return {{algorithm::eltwise_elu,
               static_cast<float>(operation.attributesAs<graph::EluAttributes>().alpha)}};
    case OpType::Sigmoid:
      return {{algorithm::eltwise_logistic}};
    case OpType::Tanh:
      return {{algorithm::eltwise_tanh}};
    case OpType::HardSwish:
      return {{algorithm::eltwise_hardswish}};
    case OpType::Gelu:
      return {{algorithm::eltwise_gelu_erf}};
    case OpType::Exp:
      return {{algorithm::eltwise_exp}};
    case OpType::Sqrt:
      return {{algorithm::eltwise_sqrt}};
    case OpType::Abs:
      return {{algorithm::eltwise_abs}};
    case OpType::Neg:
      return {{algorithm::eltwise_linear, -1.0f, 0.0f}};
    case OpType::Linear: {
      const auto& linear = operation.attributesAs<graph::LinearAttributes>();
      return {{algorithm::eltwise_linear, static_cast<float>(linear.alpha),
               static_cast<float>(linear.beta)}};
    }
    // clip_v2 returns its lower bound for NaN where the spec propagates NaN: fine only fused
    // after a convolution or matmul (whose outputs are NaN only when their inputs are).
    case OpType::Clamp: {
      if (!fused) return {};
      const auto& clamp = operation.attributesAs<graph::ClampAttributes>();
      return {{algorithm::eltwise_clip_v2, static_cast<float>(clamp.minValue.toDouble()),
               static_cast<float>(clamp.maxValue.toDouble())}};
    }
    case OpType::HardSigmoid: {  // max(0, min(1, alpha x + beta))
      if (!fused) return {};
      const auto& hard = operation.attributesAs<graph::HardSigmoidAttributes>();
      return {{algorithm::eltwise_linear, static_cast<float>(hard.alpha),
               static_cast<float>(hard.beta)},
              {algorithm::eltwise_clip_v2, 0.0f, 1.0f}};
    }
    default:
      return {};
  }
}

namespace {

class EltwiseOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  EltwiseOp(const OpCompileContext& context, const EltwiseFunction& function)
      : engine_(context.engine),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]) {
    // Blocked input: the same layout out (its padding included). Plain: one flat dimension.
    if (const memory::desc* layout = context.layoutOf(input_)) {
      desc_ = *layout;
      blocked_ = true;
    } else {
      desc_ =
          plainFloat32Desc({static_cast<memory::dim>(context.descriptor(output_).elementCount())});
    }
    const dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, function.kind, desc_,
                                           function.alpha, function.beta);
    primitiveDesc_ = dnnl::eltwise_forward::primitive_desc(desc, opAttributes(), engine_);
    primitive_ = makePrimitive<dnnl::eltwise_forward>(primitiveDesc_);
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeWithScratchpad(primitive_, primitiveDesc_, stream,
                          {{DNNL_ARG_SRC, memory(desc_, engine_, dataOf(tensors, input_))},
                           {DNNL_ARG_DST, memory(desc_, engine_, dataOf(tensors, output_))}});
  }

  std::string implementation() const override { return implementationOf(primitiveDesc_); }
  std::optional<memory::desc> outputLayout() const override {
    return blocked_ ? std::optional(desc_) : std::nullopt;
  }

 private:
  dnnl::engine engine_;
  graph::OperandId input_, output_;
  memory::desc desc_;
  bool blocked_ = false;
  dnnl::eltwise_forward::primitive_desc primitiveDesc_;
  DeferredPrimitive primitive_;  // made beside the compile (deferred_primitive.h)
};

// clamp: NaN stays NaN (std::min/std::max would return a bound).
class ClampOp final : public CpuOp {
 public:
  explicit ClampOp(const OpCompileContext& context)
      : input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        count_(static_cast<int64_t>(context.descriptor(output_).elementCount())) {
    const auto& clamp = context.operation.attributesAs<graph::ClampAttributes>();
    minimum_ = static_cast<float>(clamp.minValue.toDouble());
    maximum_ = static_cast<float>(clamp.maxValue.toDouble());
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* input = tensors[input_].as<float>();
    float* output = tensors[output_].as<float>();
    const float minimum = minimum_, maximum = maximum_;
#pragma omp parallel for schedule(static) if (count_ > (int64_t{1} << 16))
    for (int64_t i = 0; i < count_; ++i) {
      const float x = input[i];
      output[i] = x < minimum ? minimum : (x > maximum ? maximum : x);
    }
  }

  std::string implementation() const override {
    return "cpu clamp loop";
  }

 private:
  graph::OperandId input_, output_;
  int64_t count_;
  float minimum_ = 0, maximum_ = 0;
};

}  // namespace

std::unique_ptr<CpuOp> createEltwiseOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  if (operation.inputs.size() != 1 || operation.outputs.size() != 1) return nullptr;
  const auto& input = context.descriptor(operation.inputs[0]);
  const auto& output = context.descriptor(operation.outputs[0]);
  if (input.dataType != MLOperandDataType::Float32 ||
      output.dataType != MLOperandDataType::Float32 || output.elementCount() == 0) {
    return nullptr;
  }
  if (operation.type == graph::OpType::Clamp && !context.layoutOf(operation.inputs[0])) {
    return std::make_unique<ClampOp>(context);
  }
  if (context.layoutOf(operation.inputs[0]) && context.plainOutput) return nullptr;
  const auto functions = eltwiseFunctionsOf(operation, false);
  if (functions.size() != 1) return nullptr;
  return std::make_unique<EltwiseOp>(context, functions[0]);
}

}  // namespace webnn::cpu
