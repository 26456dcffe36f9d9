// matmul and gemm with float16 weights kept 16-bit: a product whose B is a hollow constant of a
// float16 model (its bytes arrive as float16, widen_float16.h) keeps B as float16 in the column
// panels of kernels/half_gemm.h, packed on arrival (a oneDNN blocked descriptor of those panels,
// so the graph's BlockedScatter places each element), and multiplies float32 activations by it,
// widening B in registers. A is read plain, rows of its batch dims folded into M (B has no batch);
// the output is plain; gemm's C is taken as a bias when it is a row of N with beta 1.
#include <numeric>

#include "backends/cpu/cpu_constant_slot.h"
#include "backends/cpu/cpu_op.h"
#include "backends/cpu/kernels/half_gemm.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;

struct HalfProduct {
  graph::OperandId a = 0, b = 0, output = 0;
  std::optional<graph::OperandId> bias{};
  uint64_t m = 0, k = 0, n = 0;
  bool bTransposed = false;
};

std::optional<HalfProduct> halfProductOf(const graph::GraphIR& ir,
                                         const graph::Operation& operation,
                                         const CpuConstants& constants) {
  if (operation.type != graph::OpType::Matmul && operation.type != graph::OpType::Gemm) {
    return std::nullopt;
  }
  HalfProduct product;
  product.a = operation.inputs.at(0);
  product.b = operation.inputs.at(1);
  product.output = operation.outputs.at(0);
  if (ir.operand(product.b).kind != graph::OperandKind::HollowConstant ||
      !constants.arrivesAsFloat16(product.b)) {
    return std::nullopt;
  }
  const auto& aDescriptor = ir.descriptor(product.a);
  const auto& bShape = ir.descriptor(product.b).shape;
  if (aDescriptor.dataType != MLOperandDataType::Float32 || bShape.size() != 2 ||
      aDescriptor.shape.size() < 2) {
    return std::nullopt;
  }
  if (operation.type == graph::OpType::Gemm) {
    const auto& attributes = operation.attributesAs<graph::GemmAttributes>();
    if (attributes.aTranspose || attributes.alpha != 1.0) return std::nullopt;
    product.bTransposed = attributes.bTranspose;
    if (attributes.c && attributes.beta != 0.0) {
      const auto& c = ir.descriptor(*attributes.c);
      const uint64_t n = attributes.bTranspose ? bShape[0] : bShape[1];
      const bool row = (c.shape.size() == 1 && c.shape[0] == n) ||
                       (c.shape.size() == 2 && c.shape[0] == 1 && c.shape[1] == n);
      if (attributes.beta != 1.0 || !row || c.dataType != MLOperandDataType::Float32) {
        return std::nullopt;
      }
      product.bias = *attributes.c;
    }
  }
  product.k = product.bTransposed ? bShape[1] : bShape[0];
  product.n = product.bTransposed ? bShape[0] : bShape[1];
  if (aDescriptor.shape.back() != product.k) return std::nullopt;
  product.m = std::accumulate(aDescriptor.shape.begin(), aDescriptor.shape.end() - 1, uint64_t{1},
                              std::multiplies<>());
  if (product.m == 0 || product.k == 0 || product.n == 0) return std::nullopt;
  return product;
}

class HalfWeightMatmulOp final : public CpuOp {
 public:
  HalfWeightMatmulOp(const OpCompileContext& context, const HalfProduct& product)
      : product_(product), layout_{product.k, product.n} {
    const auto k = static_cast<memory::dim>(product.k), n = static_cast<memory::dim>(product.n);
    // B's values as the graph holds them (float32; a float16 hollow constant's bytes are widened
    // where they are stored plainly): the arriving float16 bytes are scattered into the panels.
    const memory::desc plain =
        product.bTransposed ? memory::desc({k, n}, memory::data_type::f32, memory::dims{1, k})
                            : memory::desc({k, n}, memory::data_type::f32, memory::dims{n, 1});
    weights_ = context.packedConstant(
        product.b, plain, columnPanelsDesc(k, n, kHalfPanelWidth, memory::data_type::f16));
  }

  void prepareConstants(const DispatchTensors& tensors) override {
    weights_->pack(tensors[product_.b].data);
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const auto* a = reinterpret_cast<const float*>(tensors[product_.a].data);
    auto* c = reinterpret_cast<float*>(tensors[product_.output].data);
    const float* bias =
        product_.bias ? reinterpret_cast<const float*>(tensors[*product_.bias].data) : nullptr;
    const auto* b = static_cast<const uint16_t*>(weights_->memory().get_data_handle());
    halfGemm(product_.m, a, product_.k, b, layout_, bias, c, product_.n);
  }

  std::string implementation() const override {
    return halfGemmIsFast() ? "half_gemm:avx512 (float16 weights)"
                            : "half_gemm:portable (float16 weights)";
  }

 private:
  HalfProduct product_;
  HalfPanelLayout layout_;
  std::shared_ptr<PackedConstant> weights_;
};

}  // namespace

bool runsOnHalfWeights(const graph::GraphIR& ir, const graph::Operation& operation,
                       const CpuConstants* constants) {
  return constants && halfProductOf(ir, operation, *constants).has_value();
}

std::unique_ptr<CpuOp> createHalfWeightMatmulOp(const OpCompileContext& context) {
  if (!context.constants || context.fusion || context.views) return nullptr;
  const auto product = halfProductOf(context.ir, context.operation, *context.constants);
  if (!product) return nullptr;
  return std::make_unique<HalfWeightMatmulOp>(context, *product);
}

}  // namespace webnn::cpu
