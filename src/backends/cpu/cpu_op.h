// One compiled step of the cpu backend: an operation (with the operations fused into it as
// post-ops) on a oneDNN primitive or a kernel of ours (ops/*.cpp), or the reference kernel
// (ops/reference_fallback.cpp). An activation is either plain row-major (its descriptor's layout,
// what every op reads) or in a blocked layout a primitive chose (OpCompileContext::layoutOf);
// the compiler hands an op a blocked input only when the op said it reads that layout, and
// reorders it to plain for every other consumer.
#pragma once

#include <dnnl.hpp>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/cpu/deferred_primitive.h"
#include "backends/cpu/packed_constant.h"
#include "backends/memory_account.h"
#include "backends/reference/kernel.h"
#include "graph/ir.h"

namespace webnn::cpu {

// The host tensors of one dispatch, indexed by operand id (constants, inputs, outputs and the
// activation arena's intermediates).
using DispatchTensors = std::vector<reference::Tensor>;

class CpuConstants;  // cpu_constant_slot.h

class CpuOp {
 public:
  virtual ~CpuOp() = default;
  // Every constant the op reads holds its bytes: pack the ones it keeps in its own layout. Called
  // at compile for classic constants and after every (re-)fill of the hollow ones.
  virtual void prepareConstants(const DispatchTensors& tensors) { (void)tensors; }
  // Whether the op needs its outputs zeroed before execute() (the reference kernels do).
  virtual bool needsZeroedOutputs() const { return false; }
  virtual void execute(dnnl::stream& stream, const DispatchTensors& tensors) = 0;
  // Scratch memory the op needs per dispatch (an input reordered to the layout its primitive
  // wants, oneDNN's scratchpad): planned in the dispatch's arena, passed to executeInWorkspace.
  virtual uint64_t workspaceBytes() const { return 0; }
  virtual void executeInWorkspace(dnnl::stream& stream, const DispatchTensors& tensors,
                                  std::byte* workspace) {
    (void)workspace;
    execute(stream, tensors);
  }
  // The layout the op writes its output in, when not the descriptor's plain layout.
  virtual std::optional<dnnl::memory::desc> outputLayout() const { return std::nullopt; }
  // Which implementation runs the op: the oneDNN primitive's implementation name, or
  // "reference fallback".
  virtual std::string implementation() const = 0;
  // Whether the op's thread count is fixed when it is compiled (oneDNN primitives), so that a
  // dispatch that runs alone needs the op compiled again for one thread (compileAloneOp). Kernels
  // of ours read the count when they run.
  virtual bool fixesThreadCount() const { return false; }
};

// Operations fused into a step after its main operation (conv2d, matmul, gemm) as oneDNN
// post-ops: element-wise activations, binary ops with another operand (a bias, a residual), and
// batchNormalization (folded into a per-channel multiply-add when its constants are in).
// Sum: add(value, other) with `other` a whole tensor (a residual) that nothing reads after it: the
// step writes its result into `other`'s buffer and oneDNN's sum post-op adds what was there
// (compiler.cpp gives the two one buffer, PlanStep::outputInto).
struct FusedPostOp {
  enum class Kind { Eltwise, Binary, BatchNormalization, Sum } kind = Kind::Eltwise;
  dnnl::algorithm algorithm = dnnl::algorithm::undef;
  float alpha = 0, beta = 0;   // eltwise parameters; batchNormalization: alpha is epsilon
  graph::OperandId other = 0;  // binary: the other operand; batchNormalization: the mean
  // batchNormalization: the variance, and the scale and bias when given.
  graph::OperandId variance = 0;
  std::optional<graph::OperandId> scale{}, bias{};
  // An element-wise linear post-op made from a multiply or add by a scalar constant: the binary
  // post-op (binary_mul / binary_add with `other`, the constant) it can be instead.
  dnnl::algorithm binaryForm = dnnl::algorithm::undef;
};
// A conv2d or matmul whose two operands are dequantizeLinear results (a QDQ model): the step reads
// the quantized tensors themselves and runs on an int8 primitive (ops/quantized_convolution.cpp,
// ops/quantized_matmul.cpp).
struct QuantizedOperands {
  size_t inputDequantize = 0, weightsDequantize = 0;  // the two dequantizeLinear operations
  // uint8 or int8, its scale and zero point classic constants of one element.
  graph::OperandId input = 0, inputScale = 0, inputZeroPoint = 0;
  // An int8 constant (conv2d's filter, matmul's B); its scale and zero point constants of one
  // element or one per output channel (the constants themselves where the graph reshapes them; a
  // zero point other than 0 is seen only when the constants are in).
  graph::OperandId weights = 0, weightsScale = 0, weightsZeroPoint = 0;
  // conv2d's bias when it is dequantizeLinear(int32 constant, constant scale and zero point) read
  // by the conv2d alone (a QDQ model's bias): computed once when the constants are in.
  struct Bias {
    size_t dequantize = 0;  // the operation
    graph::OperandId values = 0, scale = 0, zeroPoint = 0;
    std::vector<size_t> reshapes{};  // of its scale and zero point (as `reshapes` below)
  };
  std::optional<Bias> bias{};
  // The reshapes of the weights' scale and zero point (an importer lays a per-axis scale out as
  // [O, 1, 1, 1]) that only their dequantizeLinear reads: they run no step, the quantized step
  // reads the constants behind them.
  std::vector<size_t> reshapes{};
};
// The quantizeLinear that ends a quantized chain (into uint8, one classic scale and zero point):
// the step writes the quantized values (the next layer's input) instead of float32 ones.
struct QuantizedOutput {
  size_t operation = 0;
  graph::OperandId scale = 0, zeroPoint = 0;
};
// A matmul's B that is block-quantized weights dequantized in the graph: transpose(dequantizeLinear
// (W)) with W an int4 / uint4 / int8 / uint8 constant [N, K] (or [N, K / blockSize, blockSize],
// reshaped to [N, K] between the two: ONNX Runtime's MatMulNBits as its WebNN provider lowers it)
// and one scale and zero point per block of blockSize consecutive elements of a row (constants,
// possibly reshaped). The step reads W as it is stored (ops/block_quantized_matmul.cpp). A zero
// point that is the same for every block (a classic constant of equal elements, or an expand of
// a one-element one: symmetric 4-bit weights, MatMulNBits without zero points, GGUF's q4_0) is
// kept as that one value: no tensor of a zero point per block is stored or read.
struct BlockQuantizedWeightsOperand {
  std::vector<size_t> operations;  // the dequantizeLinear, reshape and transpose, in graph order
  graph::OperandId weights = 0, scale = 0;
  std::optional<graph::OperandId> zeroPoint;  // one per block; or
  int32_t uniformZeroPoint = 0;               // every block's, when zeroPoint is nullopt
  uint64_t n = 0, k = 0, blockSize = 0;
};
struct FusionChain {
  // Indices of the fused operations: the dequantizeLinear operations before a quantized anchor
  // (`quantized`), then the post-ops in order, then the quantizeLinear (`quantizedOutput`).
  std::vector<size_t> operations;
  std::vector<FusedPostOp> postOps;
  graph::OperandId output = 0;  // what the step writes: the last fused operation's output
  std::optional<QuantizedOperands> quantized{};
  std::optional<QuantizedOutput> quantizedOutput{};
  // A matmul on block-quantized weights: the operations producing its B come first in
  // `operations`; at most one post-op follows (adding a bias row of N).
  std::optional<BlockQuantizedWeightsOperand> blockQuantized{};
};

// An operand a matmul reads (or writes) in another tensor, `base`, through strides: the result
// of reshapes and transposes of it that no step runs (strided_views.h).
struct StridedView {
  graph::OperandId base = 0;
  dnnl::memory::dims dims, strides;  // the operand's shape; its strides (elements) in `base`
};
struct MatmulViews {
  std::optional<StridedView> a{}, b{}, output{};
};

struct OpCompileContext {
  const graph::GraphIR& ir;
  const graph::Operation& operation;
  const dnnl::engine& engine;
  std::shared_ptr<backend::MemoryAccount> memory;  // charge constants an op packs to `constants`
  // The blocked layout of each operand that is not plain (indexed by operand id; empty: plain).
  const std::vector<std::optional<dnnl::memory::desc>>* layouts = nullptr;
  // Post-ops to fuse (null: none; an op that cannot take them returns null from its creator
  // when called with them, and the compiler compiles the operations one by one).
  const FusionChain* fusion = nullptr;
  // The output must be plain (a graph output, or every consumer reads plain).
  bool plainOutput = true;
  // Every input is handed over plain (the compiler reorders blocked ones): layoutOf says null.
  bool inputsPlain = false;
  CpuConstants* constants = nullptr;   // where the graph's constants live
  const MatmulViews* views = nullptr;  // a matmul's operands read or written through strides
  // Compiling a step again (compileAloneOp): packedConstant() returns the constant the step's op
  // already keeps in that layout, and fails (dnnl::error) when there is none.
  bool shareConstants = false;
  // With shareConstants: whether weightsLayout() asks for the team op's layout (else any), and
  // whether packedConstant() may copy a constant the step's op keeps in another layout (within
  // CpuConstants' budget for such copies).
  bool forceSharedLayouts = true;
  bool copyConstants = false;
  // MLContextOptions::blockQuantizedInt8Activations.
  bool blockQuantizedInt8Activations = false;

  // A constant (isConstant(id)) the op keeps in `packed`, the layout its primitive chose; `plain`
  // describes its bytes in the descriptor's layout. The graph decides where the packed bytes live
  // (packed_constant.h); the op calls pack() in prepareConstants and reads memory() at execute.
  std::shared_ptr<PackedConstant> packedConstant(graph::OperandId id,
                                                 const dnnl::memory::desc& plain,
                                                 const dnnl::memory::desc& packed) const;

  // The layout to ask the primitive for constant `id` instead of format_tag::any: when compiling
  // a step again (shareConstants), the layout the step's op keeps it in (as float32 elements,
  // whatever its packed elements are), so that the new op reads the same packed bytes; else
  // `any`.
  // `plain` (the constant's bytes as stored, in the primitive's dims): asked for instead when the
  // constant stays in the file's layout (CpuConstants::fileBacked).
  dnnl::memory::desc weightsLayout(graph::OperandId id, const dnnl::memory::desc& any,
                                   const dnnl::memory::desc* plain = nullptr) const;
  // Likewise for the blocked layout the step writes `output` in: the one the step's op chose.
  dnnl::memory::desc outputLayoutOr(graph::OperandId output, const dnnl::memory::desc& any) const {
    const dnnl::memory::desc* chosen = shareConstants ? storedLayoutOf(output) : nullptr;
    return chosen && chosen->dims() == any.dims() ? *chosen : any;
  }

  // Whether `id` is a constant (classic or hollow): its bytes do not change between dispatches.
  bool isConstant(graph::OperandId id) const {
    const auto kind = ir.operand(id).kind;
    return kind == graph::OperandKind::Constant || kind == graph::OperandKind::HollowConstant;
  }
  const MLOperandDescriptor& descriptor(graph::OperandId id) const { return ir.descriptor(id); }
  // The layout of `id` when blocked, else null (plain).
  const dnnl::memory::desc* layoutOf(graph::OperandId id) const {
    return inputsPlain ? nullptr : storedLayoutOf(id);
  }
  // The layout `id` is stored in when blocked, whatever inputsPlain says (post-op operands are
  // read where they are).
  const dnnl::memory::desc* storedLayoutOf(graph::OperandId id) const {
    if (!layouts || id >= layouts->size() || !(*layouts)[id]) return nullptr;
    return &*(*layouts)[id];
  }
  // The operand the step writes: the operation's output, or the fused chain's last output.
  graph::OperandId stepOutput() const { return fusion ? fusion->output : operation.outputs.at(0); }
};

// The oneDNN post-ops of a fusion chain, and the arguments its binary post-ops read at execute.
struct PostOpArguments {
  dnnl::post_ops postOps;
  // The binary post-ops' second sources: an operand of the graph, or (foldedIndex >= 0) the
  // folded factors of a batchNormalization, in `folded`.
  struct BinaryInput {
    graph::OperandId operand = 0;
    int foldedIndex = -1;  // index in `folded` (multiplier 2i, shift 2i + 1) when >= 0
    dnnl::memory::desc desc;
    int position = 0;  // the post-op index
  };
  std::vector<BinaryInput> binaryInputs;
  // batchNormalization as x * multiplier + shift, per channel: multiplier = scale / sqrt(variance
  // + epsilon), shift = bias - mean * multiplier; computed by prepare() when the constants are in.
  struct FoldedBatchNormalization {
    FusedPostOp postOp;
    std::vector<float> multiplier, shift;
  };
  std::vector<FoldedBatchNormalization> folded;
  // Folds every batchNormalization from the constants' bytes (the op's prepareConstants).
  void prepare(const DispatchTensors& tensors);
};
// `outputDims`: the logical dims of the main op's destination (binary operands broadcast to
// them). Returns nullopt when an operand cannot be a post-op input (rank, broadcasting).
// `base`: post-ops of the op's own that come first (gemm's C). `rowsFolded`: the primitive's
// destination is outputDims with all but the last dimension merged into one (a matmul whose
// batch runs as rows); an operand must then broadcast over all of them or none.
// `firstPostOp`: the chain's post-ops before it are the op's own (a matmul's bias).
std::optional<PostOpArguments> postOpArgumentsOf(const OpCompileContext& context,
                                                 const dnnl::memory::dims& outputDims,
                                                 dnnl::post_ops base = {}, bool rowsFolded = false,
                                                 size_t firstPostOp = 0);
// The fusion chain's first post-op when it adds a float32 row of one value per output column
// (a linear layer's bias, broadcast over every other dimension; plain): a product adds it as its
// bias, in the kernel's store, where a binary post-op costs 2-4% of a 128 x 768 x 768 product.
// `logicalOutputDims`: the product's output dims.
std::optional<graph::OperandId> fusedBiasRowOf(const OpCompileContext& context,
                                               const dnnl::memory::dims& logicalOutputDims);
void addPostOpArguments(const PostOpArguments& postOps, const dnnl::engine& engine,
                        const DispatchTensors& tensors,
                        std::unordered_map<int, dnnl::memory>& arguments);

// The oneDNN eltwise algorithm of a unary operation (float32), if it has one. `fused`: also the
// ones only fine as post-ops (clamp as clip_v2, which does not propagate NaN).
struct EltwiseFunction {
  dnnl::algorithm kind;
  float alpha = 0.0f;
  float beta = 0.0f;
};
std::vector<EltwiseFunction> eltwiseFunctionsOf(const graph::Operation& operation, bool fused);

// The op table's creators (op_table.cpp picks one per op type). Each returns null when its
// implementation cannot run this operation (types, attributes); the compiler then falls back to
// the reference kernel and says why in the plan.
std::unique_ptr<CpuOp> createConvolutionOp(const OpCompileContext& context);
// A conv2d whose chain is quantized (QuantizedOperands): ops/quantized_convolution.cpp.
std::unique_ptr<CpuOp> createQuantizedConvolutionOp(const OpCompileContext& context);
// A matmul whose chain is quantized: ops/quantized_matmul.cpp.
std::unique_ptr<CpuOp> createQuantizedMatmulOp(const OpCompileContext& context);
// A matmul whose chain has block-quantized weights: ops/block_quantized_matmul.cpp.
std::unique_ptr<CpuOp> createBlockQuantizedMatmulOp(const OpCompileContext& context);
std::unique_ptr<CpuOp> createMatmulOp(const OpCompileContext& context);
// A matmul or gemm whose B is a float16 model's weight (a hollow constant arriving as float16):
// runs on float16 weights kept 16-bit (ops/half_matmul.cpp), without post-ops or views.
bool runsOnHalfWeights(const graph::GraphIR& ir, const graph::Operation& operation,
                       const CpuConstants* constants);
std::unique_ptr<CpuOp> createHalfWeightMatmulOp(const OpCompileContext& context);
// A float32 matmul or gemm of 16 rows or more whose B is a constant of 1 MiB or more, its chain
// (or gemm's C) adding at most a bias row and a residual, then at most one activation: on
// floatGemm (ops/float_matmul.cpp) where the CPU has AVX-512; null otherwise.
std::unique_ptr<CpuOp> createFloatMatmulOp(const OpCompileContext& context);
std::unique_ptr<CpuOp> createGemmOp(const OpCompileContext& context);
// The implementation oneDNN's matmul picks for the matmul `operation` with these views (none:
// plain operands), as createMatmulOp describes it (without post-ops); nullopt when it would run
// on oneDNN's reference implementation or none.
std::optional<std::string> matmulImplementationOnViews(const dnnl::engine& engine,
                                                       const graph::GraphIR& ir,
                                                       const graph::Operation& operation,
                                                       const MatmulViews& views);
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
// ops/elementwise_extra.cpp: unary math, hardSigmoid, pow/max/min/prelu, add/sub/mul/div where
// oneDNN declines the broadcast (called by createBinaryOp), comparisons, logical
// ops, cast.
std::unique_ptr<CpuOp> createElementwiseKernelOp(const OpCompileContext& context);
// ops/reduction.cpp: reduce* over one run of adjacent axes, argMin/argMax, cumulativeSum; float32.
std::unique_ptr<CpuOp> createReductionOp(const OpCompileContext& context);
// ops/deconvolution.cpp: convTranspose2d on oneDNN's deconvolution, float32.
std::unique_ptr<CpuOp> createDeconvolutionOp(const OpCompileContext& context);
// ops/quantization.cpp: quantizeLinear, dequantizeLinear (float32 with int8, uint8, int32,
// uint32; blockwise scale and zeroPoint).
std::unique_ptr<CpuOp> createQuantizationOp(const OpCompileContext& context);
// ops/resample.cpp: resample2d (linear float32, nearest any whole-byte type).
std::unique_ptr<CpuOp> createResampleOp(const OpCompileContext& context);
// ops/recurrent.cpp: lstm, lstmCell, gru, gruCell (float32; every layout, direction, activation
// and optional operand) on a kernel of ours over oneDNN's sgemm.
std::unique_ptr<CpuOp> createRecurrentOp(const OpCompileContext& context);
// The reference kernel of the operation (always available for the ops the backend supports).
std::unique_ptr<CpuOp> createReferenceFallbackOp(const OpCompileContext& context,
                                                 const reference::Kernel& kernel);

// Helpers shared by the op files.
dnnl::memory::dims dimsOf(const std::vector<uint32_t>& shape);
// A logical (K, N) matrix kept in column panels of `width` for a kernel of ours (half_gemm.h,
// float_gemm.h), as a oneDNN blocked descriptor so that the graph's scatter places each element:
// N in blocks of `width`, the block index outermost, (k, n) at (n / W) * K * W + k * W + n % W,
// N padded to whole panels.
dnnl::memory::desc columnPanelsDesc(dnnl::memory::dim k, dnnl::memory::dim n,
                                    dnnl::memory::dim width, dnnl::memory::data_type type);
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

// Executes `primitive` with `arguments` plus a scratchpad of `descriptor`'s size (in `scratchpad`
// when given: a workspace of at least that size; allocated otherwise).
void executeWithScratchpad(const dnnl::primitive& primitive,
                           const dnnl::primitive_desc_base& descriptor, dnnl::stream& stream,
                           std::unordered_map<int, dnnl::memory> arguments,
                           std::byte* scratchpad = nullptr);
// Bytes of `descriptor`'s scratchpad, rounded up to keep what follows it in a workspace aligned.
uint64_t scratchpadBytes(const dnnl::primitive_desc_base& descriptor);

}  // namespace webnn::cpu
