// One compiled operation of the cpu backend: a oneDNN primitive (ops/*.cpp) or the reference
// kernel (ops/reference_fallback.cpp). Activations are plain row-major everywhere, in the layout
// of their descriptors, so any op can read what any other op wrote.
#pragma once

#include <dnnl.hpp>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/memory_account.h"
#include "backends/reference/kernel.h"
#include "graph/ir.h"

namespace webnn::cpu {

// The host tensors of one dispatch, indexed by operand id (constants, inputs, outputs and the
// activation arena's intermediates).
using DispatchTensors = std::vector<reference::Tensor>;

class CpuOp {
 public:
  virtual ~CpuOp() = default;
  // Every constant the op reads holds its bytes: pack the ones it keeps in its own layout. Called
  // at compile for classic constants and after every (re-)fill of the hollow ones.
  virtual void prepareConstants(const DispatchTensors& tensors) { (void)tensors; }
  // Whether the op needs its outputs zeroed before execute() (the reference kernels do).
  virtual bool needsZeroedOutputs() const { return false; }
  virtual void execute(dnnl::stream& stream, const DispatchTensors& tensors) = 0;
  // Which implementation runs the op: the oneDNN primitive's implementation name, or
  // "reference fallback".
  virtual std::string implementation() const = 0;
};

struct OpCompileContext {
  const graph::GraphIR& ir;
  const graph::Operation& operation;
  const dnnl::engine& engine;
  std::shared_ptr<backend::MemoryAccount> memory;  // charge constants an op packs to `constants`

  // Whether `id` is a constant (classic or hollow): its bytes do not change between dispatches.
  bool isConstant(graph::OperandId id) const {
    const auto kind = ir.operand(id).kind;
    return kind == graph::OperandKind::Constant || kind == graph::OperandKind::HollowConstant;
  }
  const MLOperandDescriptor& descriptor(graph::OperandId id) const { return ir.descriptor(id); }
};

// Each returns null when oneDNN cannot run this operation (types, attributes); the compiler then
// falls back to the reference kernel.
std::unique_ptr<CpuOp> createConvolutionOp(const OpCompileContext& context);
std::unique_ptr<CpuOp> createMatmulOp(const OpCompileContext& context);
std::unique_ptr<CpuOp> createGemmOp(const OpCompileContext& context);
std::unique_ptr<CpuOp> createEltwiseOp(const OpCompileContext& context);
std::unique_ptr<CpuOp> createBinaryOp(const OpCompileContext& context);
std::unique_ptr<CpuOp> createPoolingOp(const OpCompileContext& context);
std::unique_ptr<CpuOp> createSoftmaxOp(const OpCompileContext& context);
// Kernels of our own (ops/data_movement.cpp): reshape, identity, transpose, slice, split, concat,
// expand, tile, reverse, pad, gather, gatherElements, gatherND, scatterElements, scatterND,
// triangular, where; any data type of whole bytes.
std::unique_ptr<CpuOp> createDataMovementOp(const OpCompileContext& context);
// ops/normalization.cpp: batchNormalization, instanceNormalization, layerNormalization (trailing
// axes), float32.
std::unique_ptr<CpuOp> createNormalizationOp(const OpCompileContext& context);
// ops/elementwise_extra.cpp: unary math, hardSigmoid, pow/max/min/prelu, comparisons, logical
// ops, cast.
std::unique_ptr<CpuOp> createElementwiseKernelOp(const OpCompileContext& context);
// ops/reduction.cpp: reduce* over one run of adjacent axes, argMin/argMax, cumulativeSum; float32.
std::unique_ptr<CpuOp> createReductionOp(const OpCompileContext& context);
// ops/deconvolution.cpp: convTranspose2d on oneDNN's deconvolution, float32.
std::unique_ptr<CpuOp> createDeconvolutionOp(const OpCompileContext& context);
// ops/resample.cpp: resample2d (linear float32, nearest any whole-byte type).
std::unique_ptr<CpuOp> createResampleOp(const OpCompileContext& context);
// The reference kernel of the operation (always available for the ops the backend supports).
std::unique_ptr<CpuOp> createReferenceFallbackOp(const OpCompileContext& context,
                                                 const reference::Kernel& kernel);

// Helpers shared by the op files.
dnnl::memory::dims dimsOf(const std::vector<uint32_t>& shape);
// A plain row-major memory descriptor of `shape` (rank >= 1) in float32.
dnnl::memory::desc plainFloat32Desc(const dnnl::memory::dims& dims);
inline void* dataOf(const DispatchTensors& tensors, graph::OperandId id) {
  return tensors[id].data;
}
// Primitive attributes every op uses: a scratchpad the op passes at execute (so that concurrent
// dispatches never share one).
dnnl::primitive_attr opAttributes();
// The implementation name of a primitive descriptor ("brg:avx512_core", "jit:avx512_core", ...).
std::string implementationOf(const dnnl::primitive_desc_base& descriptor);

// A constant an op keeps in the layout its primitive chose (format_tag::any), reordered from the
// descriptor's layout whenever the constant is (re-)filled.
class PackedConstant {
 public:
  PackedConstant(const dnnl::engine& engine, dnnl::memory::desc plain, dnnl::memory::desc packed,
                 std::shared_ptr<backend::MemoryAccount> memory);
  // Reorders the constant's plain bytes into the packed buffer.
  void pack(void* plainBytes);
  const dnnl::memory& memory() const { return packed_; }

 private:
  dnnl::engine engine_;
  dnnl::memory::desc plain_;
  dnnl::memory packed_;
  std::shared_ptr<backend::MemoryAccount> account_;
  backend::GaugeCharge charge_;
};

// Executes `primitive` with `arguments` plus a scratchpad of `descriptor`'s size.
void executeWithScratchpad(const dnnl::primitive& primitive,
                           const dnnl::primitive_desc_base& descriptor, dnnl::stream& stream,
                           std::unordered_map<int, dnnl::memory> arguments);

}  // namespace webnn::cpu
