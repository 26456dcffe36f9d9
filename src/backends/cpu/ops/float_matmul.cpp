// matmul and gemm with a float32 constant B of 1 MiB or more and at least kMinRows rows, on
// floatGemm (kernels/float_gemm.h): B packed on arrival into its column panels (a oneDNN blocked
// descriptor of them, so that the graph's BlockedScatter places each element). A transformer's
// projections: their weights come from memory at every dispatch, where the kernel's prefetch of
// the next panel runs them 7-9% faster than oneDNN 2.6's brgemm matmul (Zen 5).
//
// The kernel adds what a linear layer's chain adds before the store: a bias row, then a residual
// of the output's shape. An activation after them (gelu, relu, ...) runs as one oneDNN eltwise
// primitive in place over the output: for a 128 x 768 x 3072 product, that pass costs less than
// the 9% oneDNN's matmul loses to its gelu post-op. A chain with anything else (a broadcast
// operand, several activations) runs on oneDNN's matmul with its post-ops, as do products of few
// rows (bound by memory bandwidth, where both read B at the same speed) and B kept in the file's
// layout under a memory budget.
#include <numeric>

#include "backends/cpu/cpu_constant_slot.h"
#include "backends/cpu/cpu_op.h"
#include "backends/cpu/deferred_primitive.h"
#include "backends/cpu/kernels/float_gemm.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;

constexpr uint64_t kMinRows = 16;
constexpr uint64_t kMinWeightBytes = uint64_t{1} << 20;

struct PanelProduct {
  graph::OperandId a = 0, b = 0;
  uint64_t m = 0, k = 0, n = 0;
  bool bTransposed = false;  // gemm's bTranspose: B given as [N, K]
  std::optional<graph::OperandId> bias{}, residual{};
  std::optional<FusedPostOp> activation{};  // an eltwise post-op after the addends
};

// The chain's post-ops as the kernel's addends: [bias row] [residual] [activation], nothing else;
// after a gemm that adds its C, only the activation.
bool takeAddends(const OpCompileContext& context, const memory::dims& outputDims,
                 PanelProduct& product) {
  if (!context.fusion) return true;
  const FusionChain& chain = *context.fusion;
  if (chain.quantized || chain.blockQuantized || chain.quantizedOutput) return false;
  const bool gemmAdds = product.bias || product.residual;
  size_t next = 0;
  if (gemmAdds) {
    // The kernel's addends are taken by C.
  } else if (auto bias = fusedBiasRowOf(context, outputDims)) {
    product.bias = *bias;
    next = 1;
  }
  if (next < chain.postOps.size() && chain.postOps[next].kind == FusedPostOp::Kind::Binary &&
      !gemmAdds) {
    const FusedPostOp& postOp = chain.postOps[next];
    if (postOp.algorithm != dnnl::algorithm::binary_add || context.storedLayoutOf(postOp.other)) {
      return false;
    }
    const MLOperandDescriptor& other = context.descriptor(postOp.other);
    if (other.dataType != MLOperandDataType::Float32 || dimsOf(other.shape) != outputDims) {
      return false;
    }
    product.residual = postOp.other;
    ++next;
  }
  if (next < chain.postOps.size() && chain.postOps[next].kind == FusedPostOp::Kind::Eltwise) {
    product.activation = chain.postOps[next];
    ++next;
  }
  return next == chain.postOps.size();
}

// gemm's C as the kernel's addend (beta 1; a row of N: the bias, an [M, N] tensor: the residual);
// false when the kernel cannot compute this gemm (alpha, A transposed, another beta or C).
bool takeGemmOperands(const OpCompileContext& context, PanelProduct& product) {
  const auto& attributes = context.operation.attributesAs<graph::GemmAttributes>();
  if (attributes.aTranspose || attributes.alpha != 1.0) return false;
  product.bTransposed = attributes.bTranspose;
  if (!attributes.c || attributes.beta == 0.0) return true;
  const MLOperandDescriptor& c = context.descriptor(*attributes.c);
  if (attributes.beta != 1.0 || c.dataType != MLOperandDataType::Float32 ||
      context.layoutOf(*attributes.c)) {
    return false;
  }
  const auto& bShape = context.descriptor(product.b).shape;
  const uint64_t n = attributes.bTranspose ? bShape[0] : bShape[1];
  const uint64_t m = context.descriptor(product.a).shape[0];
  if ((c.shape.size() == 1 && c.shape[0] == n) ||
      (c.shape.size() == 2 && c.shape[0] == 1 && c.shape[1] == n)) {
    product.bias = *attributes.c;
  } else if (c.shape.size() == 2 && c.shape[0] == m && c.shape[1] == n) {
    product.residual = *attributes.c;
  } else {
    return false;  // C broadcast along its columns
  }
  return true;
}

std::optional<PanelProduct> panelProductOf(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  if (operation.type != graph::OpType::Matmul && operation.type != graph::OpType::Gemm) {
    return std::nullopt;
  }
  PanelProduct product;
  product.a = operation.inputs.at(0);
  product.b = operation.inputs.at(1);
  const graph::OperandId output = operation.outputs.at(0);
  if (!context.isConstant(product.b) || context.layoutOf(product.a)) return std::nullopt;
  if (context.constants && context.constants->fileBacked(product.b)) return std::nullopt;
  const auto& aDescriptor = context.descriptor(product.a);
  const auto& bDescriptor = context.descriptor(product.b);
  const auto& outputDescriptor = context.descriptor(output);
  if (aDescriptor.dataType != MLOperandDataType::Float32 ||
      bDescriptor.dataType != MLOperandDataType::Float32 ||
      outputDescriptor.dataType != MLOperandDataType::Float32 || bDescriptor.shape.size() != 2 ||
      aDescriptor.shape.size() < 2) {
    return std::nullopt;
  }
  if (operation.type == graph::OpType::Gemm && !takeGemmOperands(context, product)) {
    return std::nullopt;
  }
  product.k = bDescriptor.shape[product.bTransposed ? 1 : 0];
  product.n = bDescriptor.shape[product.bTransposed ? 0 : 1];
  product.m = std::accumulate(aDescriptor.shape.begin(), aDescriptor.shape.end() - 1, uint64_t{1},
                              std::multiplies<>());
  // A's rows are the output's (B has no batch to broadcast A over).
  if (aDescriptor.shape.back() != product.k ||
      outputDescriptor.elementCount() != product.m * product.n) {
    return std::nullopt;
  }
  if (product.m < kMinRows || product.k * product.n * sizeof(float) < kMinWeightBytes) {
    return std::nullopt;
  }
  if (!takeAddends(context, dimsOf(outputDescriptor.shape), product)) return std::nullopt;
  return product;
}

class FloatMatmulOp final : public CpuOp {
 public:
  FloatMatmulOp(const OpCompileContext& context, const PanelProduct& product)
      : engine_(context.engine),
        product_(product),
        layout_{product.k, product.n},
        output_(context.stepOutput()) {
    if (product.activation) {
      outputDesc_ = plainFloat32Desc(dimsOf(context.descriptor(output_).shape));
      activationDescriptor_ = dnnl::eltwise_forward::primitive_desc(
          dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference,
                                      product.activation->algorithm, outputDesc_,
                                      product.activation->alpha, product.activation->beta),
          opAttributes(), engine_);
      activation_ = makePrimitive<dnnl::eltwise_forward>(*activationDescriptor_);
    }
    // Last: a constant requested from the graph stays requested, so nothing may fail after it.
    const auto k = static_cast<memory::dim>(product.k), n = static_cast<memory::dim>(product.n);
    // B's bytes as stored: [K, N] row-major, or [N, K] (gemm's bTranspose) read transposed.
    const memory::desc plain =
        product.bTransposed ? memory::desc({k, n}, memory::data_type::f32, memory::dims{1, k})
                            : plainFloat32Desc({k, n});
    weights_ = context.packedConstant(
        product.b, plain, columnPanelsDesc(k, n, kFloatPanelColumns, memory::data_type::f32));
  }

  // The activation primitive's work is cut per thread when it is made.
  bool fixesThreadCount() const override { return activation_.operator bool(); }

  void prepareConstants(const DispatchTensors& tensors) override {
    weights_->pack(tensors[product_.b].data);
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeInWorkspace(stream, tensors, nullptr);
  }

  void executeInWorkspace(dnnl::stream& stream, const DispatchTensors& tensors,
                          std::byte* workspace) override {
    const auto floats = [&tensors](graph::OperandId id) {
      return reinterpret_cast<float*>(tensors[id].data);
    };
    FloatGemmAddends addends;
    if (product_.bias) addends.bias = floats(*product_.bias);
    if (product_.residual) {
      addends.residual = floats(*product_.residual);
      addends.residualStride = product_.n;
    }
    const auto* b = static_cast<const float*>(weights_->memory().get_data_handle());
    float* output = floats(output_);
    floatGemm(product_.m, floats(product_.a), product_.k, b, layout_, addends, output, product_.n);
    if (!activation_) return;
    const memory values(outputDesc_, engine_, output);
    executeWithScratchpad(activation_, *activationDescriptor_, stream,
                          {{DNNL_ARG_SRC, values}, {DNNL_ARG_DST, values}}, workspace);
  }

  uint64_t workspaceBytes() const override {
    return activationDescriptor_ ? scratchpadBytes(*activationDescriptor_) : 0;
  }

  std::string implementation() const override {
    return std::string("float_gemm:avx512") + (product_.bias ? ", bias" : "") +
           (product_.residual ? ", residual" : "") +
           (activationDescriptor_ ? ", then " + implementationOf(*activationDescriptor_) : "");
  }

 private:
  dnnl::engine engine_;
  PanelProduct product_;
  FloatPanelLayout layout_;
  graph::OperandId output_;
  std::shared_ptr<PackedConstant> weights_;
  memory::desc outputDesc_;
  std::optional<dnnl::eltwise_forward::primitive_desc> activationDescriptor_;
  DeferredPrimitive activation_;  // made beside the compile (deferred_primitive.h)
};

}  // namespace

std::unique_ptr<CpuOp> createFloatMatmulOp(const OpCompileContext& context) {
  if (context.views || !floatGemmIsFast()) return nullptr;
  const auto product = panelProductOf(context);
  if (!product) return nullptr;
  try {
    return std::make_unique<FloatMatmulOp>(context, *product);
  } catch (const dnnl::error&) {
    return nullptr;  // an activation oneDNN's eltwise does not take: its matmul post-ops then
  }
}

}  // namespace webnn::cpu
