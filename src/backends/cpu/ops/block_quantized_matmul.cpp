// matmul on block-quantized weights (FusionChain::blockQuantized): C = A x transpose(
// dequantizeLinear(W)) [+ bias row] on kernels/block_quantized_gemm.h, which reads W's 4-bit or
// 8-bit integers as the graph stores them (the constant's own bytes: nothing is packed or
// widened, so the weights take their file's size in memory) and widens them in registers (with
// MLContextOptions::blockQuantizedInt8Activations, 4-bit weights and fewer rows than the float
// panels take: blockQuantizedGemmInt8Activations, A quantized to int8 per block of 32). Scales
// whose bytes arrive as float16 (a float16 constant cast to float32: GGUF's q4_0 scales) are kept
// float16, as they arrive, and widened by the kernel. A is read plain, the rows of its batch
// dimensions folded into M; the output is plain.
#include <numeric>

#include "backends/cpu/cpu_constant_slot.h"
#include "backends/cpu/cpu_op.h"
#include "backends/cpu/kernels/block_quantized_gemm.h"

namespace webnn::cpu {
namespace {

class BlockQuantizedMatmulOp final : public CpuOp {
 public:
  BlockQuantizedMatmulOp(const OpCompileContext& context, uint64_t m,
                         std::optional<graph::OperandId> bias)
      : operand_(*context.fusion->blockQuantized),
        a_(context.operation.inputs[0]),
        output_(context.stepOutput()),
        bias_(bias),
        m_(m) {
    const MLOperandDataType type = context.descriptor(operand_.weights).dataType;
    layout_.n = operand_.n;
    layout_.k = operand_.k;
    layout_.blockSize = operand_.blockSize;
    layout_.bits = type == MLOperandDataType::Int4 || type == MLOperandDataType::Uint4 ? 4 : 8;
    layout_.isSigned = type == MLOperandDataType::Int4 || type == MLOperandDataType::Int8;
    layout_.uniformZeroPoint = operand_.uniformZeroPoint;
    int8Activations_ = context.blockQuantizedInt8Activations &&
                       blockQuantizedGemmInt8ActivationsTakes(layout_) &&
                       !blockQuantizedGemmUsesPanels(m_, layout_);
    // Scales that arrive as float16 stay float16: a layout of float16 elements in the same order,
    // which the graph scatters them into as they arrive (their float32 form is never stored).
    if (context.constants &&
        context.ir.operand(operand_.scale).kind == graph::OperandKind::HollowConstant &&
        context.constants->arrivesAsFloat16(operand_.scale)) {
      const dnnl::memory::dims flat{
          static_cast<dnnl::memory::dim>(context.descriptor(operand_.scale).elementCount())};
      halfScales_ = context.packedConstant(
          operand_.scale,
          dnnl::memory::desc(flat, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a),
          dnnl::memory::desc(flat, dnnl::memory::data_type::f16, dnnl::memory::format_tag::a));
    }
  }

  void prepareConstants(const DispatchTensors& tensors) override {
    if (halfScales_) halfScales_->pack(tensors[operand_.scale].data);
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    BlockQuantizedWeights weights = layout_;
    weights.values = static_cast<const uint8_t*>(dataOf(tensors, operand_.weights));
    if (halfScales_) {
      weights.halfScales = static_cast<const uint16_t*>(halfScales_->memory().get_data_handle());
    } else {
      weights.scales = static_cast<const float*>(dataOf(tensors, operand_.scale));
    }
    if (operand_.zeroPoint) {
      weights.zeroPoints = static_cast<const uint8_t*>(dataOf(tensors, *operand_.zeroPoint));
    }
    const auto* bias = bias_ ? static_cast<const float*>(dataOf(tensors, *bias_)) : nullptr;
    const auto* a = static_cast<const float*>(dataOf(tensors, a_));
    auto* c = static_cast<float*>(dataOf(tensors, output_));
    if (int8Activations_) {
      blockQuantizedGemmInt8Activations(m_, a, operand_.k, weights, bias, c, operand_.n);
    } else {
      blockQuantizedGemm(m_, a, operand_.k, weights, bias, c, operand_.n);
    }
  }

  std::string implementation() const override {
    const bool fast = int8Activations_ ? blockQuantizedGemmInt8ActivationsIsFast(layout_)
                                       : blockQuantizedGemmIsFast(layout_);
    const std::string kernel =
        std::string(fast ? (int8Activations_ ? "block_quantized_gemm:avx512_vnni"
                                             : "block_quantized_gemm:avx512")
                         : "block_quantized_gemm:portable");
    return kernel + " (int" + std::to_string(layout_.bits) + " weights, blocks of " +
           std::to_string(layout_.blockSize) + (halfScales_ ? ", float16 scales" : "") +
           (operand_.zeroPoint ? std::string()
                               : ", zero point " + std::to_string(operand_.uniformZeroPoint)) +
           (blockQuantizedGemmUsesPanels(m_, layout_)
                ? ", " + std::to_string(m_) + " rows on dequantized float32 panels"
                : std::string()) +
           (int8Activations_ ? ", int8 activations" : "") + ")";
  }

 private:
  BlockQuantizedWeightsOperand operand_;
  graph::OperandId a_, output_;
  std::optional<graph::OperandId> bias_;
  uint64_t m_;
  BlockQuantizedWeights layout_;
  bool int8Activations_ = false;                // blockQuantizedGemmInt8Activations
  std::shared_ptr<PackedConstant> halfScales_;  // the scales kept float16, when they arrive so
};

}  // namespace

std::unique_ptr<CpuOp> createBlockQuantizedMatmulOp(const OpCompileContext& context) {
  const FusionChain& chain = *context.fusion;
  const BlockQuantizedWeightsOperand& operand = *chain.blockQuantized;
  const auto& a = context.descriptor(context.operation.inputs[0]);
  if (a.dataType != MLOperandDataType::Float32 || a.shape.empty() || a.shape.back() != operand.k ||
      context.views || context.layoutOf(context.operation.inputs[0])) {
    return nullptr;
  }
  const MLOperandDataType type = context.descriptor(operand.weights).dataType;
  const bool fourBits = type == MLOperandDataType::Int4 || type == MLOperandDataType::Uint4;
  // 4-bit rows start on whole bytes.
  if (operand.blockSize == 0 || operand.k % operand.blockSize != 0 ||
      (fourBits && operand.k % 2 != 0)) {
    return nullptr;
  }
  std::optional<graph::OperandId> bias;
  if (!chain.postOps.empty()) {
    if (chain.postOps.size() != 1 || chain.postOps[0].kind != FusedPostOp::Kind::Binary ||
        chain.postOps[0].algorithm != dnnl::algorithm::binary_add) {
      return nullptr;
    }
    bias = chain.postOps[0].other;
    if (context.storedLayoutOf(*bias)) return nullptr;
  }
  const uint64_t m =
      std::accumulate(a.shape.begin(), a.shape.end() - 1, uint64_t{1}, std::multiplies<>());
  return std::make_unique<BlockQuantizedMatmulOp>(context, m, bias);
}

}  // namespace webnn::cpu
