// The cpu backend. compile() is a small graph compiler over the typed IR:
// - fusion (fusion.cpp): activations and binary ops after a conv2d / matmul / gemm become its
//   oneDNN post-ops, one step;
// - views (strided_views.cpp): reshapes and transposes a matmul reads or writes through strides
//   run no step;
// - each step gets a oneDNN primitive when oneDNN runs it with those types and attributes
//   (ops/*.cpp), else a kernel of ours, else the reference kernel;
// - layouts: convolutions pick their activation layouts (nChw16c on AVX-512), which flow on
//   through the ops that read blocked layouts (pooling, element-wise, binary, the next
//   convolution); a consumer that reads plain gets a plain copy made once by a reorder step;
//   graph outputs are always plain;
// - memory: intermediates (in the size of their layouts), plain copies and per-step workspaces
//   (input reorders, oneDNN scratchpads) share one arena planned with the shared liveness
//   planner; arenas are pooled, one per dispatch in flight, so concurrent dispatches are
//   supported and a dispatch allocates nothing in steady state.
// - constants (cpu_constant_slot.h): a hollow constant that only packing ops read (conv2d and
//   convTranspose2d filters, matmul/gemm B) is packed on arrival, each chunk scattered straight
//   into its blocked layout (no plain copy); the others live in plain slots in the descriptor's
//   layout (loaders read straight into them), and ops that keep one packed reorder it when every
//   constant is in. Classic constants are packed at compile.
#include "backends/cpu/cpu_backend.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <unordered_map>

#include "backends/cpu/cpu_constant_slot.h"
#include "backends/cpu/cpu_op.h"
#include "backends/cpu/fusion.h"
#include "backends/cpu/strided_views.h"
#include "backends/host_storage.h"
#include "backends/reference/reference_backend.h"
#include "core/host_buffer.h"
#include "graph/memory_plan.h"

namespace webnn::cpu {
namespace {

// Runs `f` with the OpenMP threads of this backend in the calling thread (oneDNN reads the count
// when it creates a primitive and when it executes one).
class ThreadCountScope {
 public:
  explicit ThreadCountScope(uint32_t numThreads) : previous_(omp_get_max_threads()) {
    if (numThreads > 0) omp_set_num_threads(static_cast<int>(numThreads));
  }
  ~ThreadCountScope() { omp_set_num_threads(previous_); }
  ThreadCountScope(const ThreadCountScope&) = delete;
  ThreadCountScope& operator=(const ThreadCountScope&) = delete;

 private:
  int previous_;
};

std::unique_ptr<CpuOp> createOneDnnOp(const OpCompileContext& context) {
  try {
    switch (context.operation.type) {
      case graph::OpType::Conv2d:
        return createConvolutionOp(context);
      case graph::OpType::Matmul:
        return createMatmulOp(context);
      case graph::OpType::Gemm:
        return createGemmOp(context);
      case graph::OpType::Add:
      case graph::OpType::Sub:
      case graph::OpType::Mul:
      case graph::OpType::Div:
        return createBinaryOp(context);
      case graph::OpType::AveragePool2d:
      case graph::OpType::MaxPool2d:
        return createPoolingOp(context);
      case graph::OpType::Softmax:
        return createSoftmaxOp(context);
      case graph::OpType::Reshape:
      case graph::OpType::Identity:
      case graph::OpType::Transpose:
      case graph::OpType::Slice:
      case graph::OpType::Split:
      case graph::OpType::Concat:
      case graph::OpType::Expand:
      case graph::OpType::Tile:
      case graph::OpType::Reverse:
      case graph::OpType::Pad:
      case graph::OpType::Gather:
      case graph::OpType::GatherElements:
      case graph::OpType::GatherND:
      case graph::OpType::ScatterElements:
      case graph::OpType::ScatterND:
      case graph::OpType::Triangular:
      case graph::OpType::Where:
        return createDataMovementOp(context);
      case graph::OpType::BatchNormalization:
      case graph::OpType::InstanceNormalization:
      case graph::OpType::LayerNormalization:
        return createNormalizationOp(context);
      case graph::OpType::Erf:
      case graph::OpType::Reciprocal:
      case graph::OpType::Sign:
      case graph::OpType::Floor:
      case graph::OpType::Ceil:
      case graph::OpType::RoundEven:
      case graph::OpType::Sin:
      case graph::OpType::Cos:
      case graph::OpType::Tan:
      case graph::OpType::Log:
      case graph::OpType::Softplus:
      case graph::OpType::Softsign:
      case graph::OpType::HardSigmoid:
      case graph::OpType::IsNaN:
      case graph::OpType::IsInfinite:
      case graph::OpType::LogicalNot:
      case graph::OpType::Pow:
      case graph::OpType::Max:
      case graph::OpType::Min:
      case graph::OpType::LogicalAnd:
      case graph::OpType::LogicalOr:
      case graph::OpType::LogicalXor:
      case graph::OpType::Equal:
      case graph::OpType::NotEqual:
      case graph::OpType::Greater:
      case graph::OpType::GreaterOrEqual:
      case graph::OpType::Lesser:
      case graph::OpType::LesserOrEqual:
      case graph::OpType::Prelu:
      case graph::OpType::Cast:
        return createElementwiseKernelOp(context);
      case graph::OpType::ReduceL1:
      case graph::OpType::ReduceL2:
      case graph::OpType::ReduceLogSum:
      case graph::OpType::ReduceLogSumExp:
      case graph::OpType::ReduceMax:
      case graph::OpType::ReduceMean:
      case graph::OpType::ReduceMin:
      case graph::OpType::ReduceProduct:
      case graph::OpType::ReduceSum:
      case graph::OpType::ReduceSumSquare:
      case graph::OpType::ArgMin:
      case graph::OpType::ArgMax:
      case graph::OpType::CumulativeSum:
        return createReductionOp(context);
      case graph::OpType::ConvTranspose2d:
        return createDeconvolutionOp(context);
      case graph::OpType::Resample2d:
        return createResampleOp(context);
      case graph::OpType::QuantizeLinear:
      case graph::OpType::DequantizeLinear:
        return createQuantizationOp(context);
      default:
        return createEltwiseOp(context);  // null for ops that are not element-wise activations
    }
  } catch (const dnnl::error&) {
    return nullptr;  // no oneDNN implementation for these types/attributes
  }
}

// Whether an op of this type may be handed blocked inputs: its creator reads layoutOf() (and
// returns null for layouts it cannot take). Every other op gets plain inputs.
bool readsBlockedLayouts(graph::OpType type) {
  using graph::OpType;
  switch (type) {
    case OpType::Conv2d:
    case OpType::Add:
    case OpType::Sub:
    case OpType::Mul:
    case OpType::Div:
    case OpType::AveragePool2d:
    case OpType::MaxPool2d:
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
      return true;
    default:
      return false;
  }
}

// A blocked activation reordered to its descriptor's plain layout, for consumers that read plain.
class ToPlainOp final : public CpuOp {
 public:
  ToPlainOp(const dnnl::engine& engine, const dnnl::memory::desc& blocked,
            const MLOperandDescriptor& descriptor, graph::OperandId from, graph::OperandId to)
      : engine_(engine),
        blocked_(blocked),
        plain_(plainFloat32Desc(dimsOf(descriptor.shape))),
        from_(from),
        to_(to),
        primitiveDesc_(engine, blocked_, engine, plain_),
        primitive_(primitiveDesc_) {}

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    dnnl::memory source(blocked_, engine_, dataOf(tensors, from_));
    dnnl::memory destination(plain_, engine_, dataOf(tensors, to_));
    primitive_.execute(stream, source, destination);
  }
  std::string implementation() const override { return implementationOf(primitiveDesc_); }

 private:
  dnnl::engine engine_;
  dnnl::memory::desc blocked_, plain_;
  graph::OperandId from_, to_;
  dnnl::reorder::primitive_desc primitiveDesc_;
  dnnl::reorder primitive_;
};

// One executable step: an operation (with the ones fused into it), or a reorder to plain.
struct Step {
  std::unique_ptr<CpuOp> op;
  std::vector<graph::OperandId> reads;   // every operand it reads (liveness)
  std::vector<graph::OperandId> writes;  // every operand it writes
  // Blocked operands the op reads through their plain copy: swapped in for the step.
  std::vector<std::pair<graph::OperandId, graph::OperandId>> plainViews;
  std::vector<graph::OperandId> zeroedOutputs;  // zeroed before the op runs (reference kernels)
  graph::OperandId workspace = 0;               // a pseudo-operand in the arena plan, when used
  uint64_t workspaceBytes = 0;
  std::string types;  // the spec names of its operations, '+'-joined
  std::string label;
};

class CpuCompiledGraph final : public backend::CompiledGraph {
 public:
  CpuCompiledGraph(std::shared_ptr<const graph::GraphIR> ir,
                   std::shared_ptr<backend::MemoryAccount> memory,
                   const backend::BackendOptions& options)
      : ir_(std::move(ir)),
        memory_(std::move(memory)),
        numThreads_(options.numThreads),
        engine_(dnnl::engine::kind::cpu, 0),
        constants_(*ir_, engine_, memory_, options.numThreads) {
    ThreadCountScope threads(numThreads_);
    compileSteps();
    // Every op is compiled (the ones dropped along the way released their packing requests): the
    // constants' slots can be placed.
    planActivations();
    if (options.profiling) {
      std::vector<backend::OperationProfile> profile;
      for (const Step& step : steps_) {
        profile.push_back({step.types, step.label, step.op->implementation()});
      }
      profiler_ = backend::OpProfiler(std::move(profile));
    }

    constants_.createSlots();
    constantTensors_.resize(tensorCount_);
    for (size_t id = 0; id < tensorCount_; ++id) {
      constantTensors_[id].descriptor = &ir_->descriptor(
          id < ir_->operands.size() ? static_cast<graph::OperandId>(id) : shadowOf_[id]);
    }
    for (const auto& operand : ir_->operands) {
      reference::Tensor& tensor = constantTensors_[operand->id];
      if (!ir_->isUsed(operand->id)) continue;
      if (operand->kind == graph::OperandKind::Constant && operand->data) {
        tensor.data = const_cast<std::byte*>(operand->data->data());
      }
    }
    // Classic constants were packed when the slots were placed; the ops' other preparations
    // (post-op operands) run now when nothing is hollow, else when every constant is in.
    if (!constants_.anyHollow()) prepareConstants();
  }

  backend::ConstantSlot& constantSlot(graph::OperandId operandId) override {
    return constants_.slot(operandId);
  }

  backend::StagingHints stagingHints() const override { return constants_.stagingHints(); }

  void constantsComplete() override {
    prepareConstants();
    constants_.constantsComplete();
  }

  std::vector<std::string> constantLayouts() const { return constants_.describe(); }

  // Per operation of the IR: its step's implementation ("fused into ..." for the fused ones).
  std::vector<std::string> implementations() const {
    std::vector<std::string> names(ir_->operations.size());
    for (size_t i = 0; i < names.size(); ++i) {
      if (views_.elided[i]) {
        names[i] = "view: through strides of a matmul";
        continue;
      }
      const Step& step = steps_[stepOfOperation_[i]];
      names[i] =
          fusedOperation_[i] ? "fused: " + step.op->implementation() : step.op->implementation();
    }
    return names;
  }

  void dispatch(const backend::BoundTensors& inputs,
                const backend::BoundTensors& outputs) override {
    ThreadCountScope threads(numThreads_);
    PooledArena arena = takeArena();
    DispatchTensors tensors = constantTensors_;
    for (const auto& operand : ir_->operands) {
      if (constants_.isHollow(operand->id)) {
        tensors[operand->id].data = constants_.plainData(operand->id);
      }
    }
    for (size_t id = 0; id < tensorCount_; ++id) {
      if (plan_.offsets[id] != graph::kNotPlanned) {
        tensors[id].data = arena.buffer->data() + plan_.offsets[id];
      }
    }
    for (const auto& [name, tensor] : inputs) {
      tensors[ir_->inputs.at(name)].data = backend::hostBytes(tensor).data();
    }
    for (const auto& [name, tensor] : outputs) {
      tensors[ir_->outputs.at(name)].data = backend::hostBytes(tensor).data();
    }
    dnnl::stream stream(engine_);
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& step = steps_[i];
      const auto started = backend::OpProfiler::Clock::now();
      for (graph::OperandId output : step.zeroedOutputs) {
        const uint64_t bytes = ir_->descriptor(output).byteLength();
        if (bytes > 0) std::memset(tensors[output].data, 0, bytes);
      }
      for (const auto& [operand, plain] : step.plainViews) {
        std::swap(tensors[operand].data, tensors[plain].data);
      }
      std::byte* workspace =
          step.workspaceBytes > 0 ? static_cast<std::byte*>(tensors[step.workspace].data) : nullptr;
      step.op->executeInWorkspace(stream, tensors, workspace);
      for (const auto& [operand, plain] : step.plainViews) {
        std::swap(tensors[operand].data, tensors[plain].data);
      }
      if (profiler_.enabled()) profiler_.record(i, started);
    }
    stream.wait();
    giveBack(std::move(arena));
  }

  std::vector<backend::OperationProfile> profile() const override { return profiler_.snapshot(); }

 private:
  // An activation arena, kept for the next dispatch (one per dispatch in flight at once), so a
  // dispatch allocates nothing in steady state.
  struct PooledArena {
    std::unique_ptr<HostBuffer> buffer;
    backend::GaugeCharge charge;
  };

  PooledArena takeArena() {
    {
      std::lock_guard lock(arenaMutex_);
      if (!freeArenas_.empty()) {
        PooledArena arena = std::move(freeArenas_.back());
        freeArenas_.pop_back();
        return arena;
      }
    }
    return {std::make_unique<HostBuffer>(plan_.arenaBytes),
            backend::GaugeCharge(memory_->activations, plan_.arenaBytes)};
  }
  void giveBack(PooledArena arena) {
    std::lock_guard lock(arenaMutex_);
    freeArenas_.push_back(std::move(arena));
  }

  // A new tensor id beyond the IR's operands (a plain copy of a blocked operand, a workspace).
  graph::OperandId newTensor(graph::OperandId describedBy) {
    shadowOf_.push_back(describedBy);
    layouts_.emplace_back();
    return static_cast<graph::OperandId>(tensorCount_++);
  }

  // The plain copy of blocked operand `id`, made by a reorder step the first time it is needed.
  graph::OperandId plainCopyOf(graph::OperandId id) {
    auto it = plainCopies_.find(id);
    if (it != plainCopies_.end()) return it->second;
    const graph::OperandId copy = newTensor(id);
    Step step;
    step.op = std::make_unique<ToPlainOp>(engine_, *layouts_[id], ir_->descriptor(id), id, copy);
    step.reads = {id};
    step.writes = {copy};
    step.types = "reorder";
    step.label = ir_->operand(id).name;
    steps_.push_back(std::move(step));
    plainCopies_.emplace(id, copy);
    return copy;
  }

  // Whether every consumer of `id` may read it blocked (and it is not a graph output).
  bool consumersReadBlocked(graph::OperandId id) const {
    if (ir_->isGraphOutput(id)) return false;
    for (uint32_t consumer : ir_->consumersOf(id)) {
      const int32_t anchor = fusion_.anchorOf[consumer];
      // A fused consumer reads it as a post-op operand (any layout) or is not reached here.
      if (anchor >= 0) continue;
      if (readsBlockedLayouts(ir_->operations[consumer].type)) return true;
    }
    return false;
  }

  // Compiles operation `index` (with `chain` fused into it when given) into a step. Returns false
  // when no fast implementation takes the chain (the caller then compiles the operations alone).
  bool compileOperation(size_t index, const FusionChain* chain) {
    const graph::Operation& operation = ir_->operations[index];
    OpCompileContext context{*ir_, operation, engine_, memory_};
    context.constants = &constants_;
    context.layouts = &layouts_;
    context.fusion = chain;
    const MatmulViews* views = views_.views[index] ? &*views_.views[index] : nullptr;
    context.views = views;
    graph::OperandId output = chain ? chain->output : operation.outputs.at(0);
    if (views && views->output) output = views->output->base;
    // What the step reads: the operation's inputs, or the tensors their views are in.
    std::vector<graph::OperandId> inputs = operation.inputs;
    if (views && views->a) inputs[0] = views->a->base;
    if (views && views->b) inputs[1] = views->b->base;
    context.plainOutput = operation.outputs.size() != 1 || !consumersReadBlocked(output);
    const bool readsBlocked = readsBlockedLayouts(operation.type);
    context.inputsPlain = !readsBlocked;
    std::unique_ptr<CpuOp> op = createOneDnnOp(context);
    if (!op && readsBlocked) {  // the layouts it was given: retry on plain inputs
      context.inputsPlain = true;
      op = createOneDnnOp(context);
    }
    if (!op && chain) return false;
    if (!op) {
      const reference::Kernel* kernel = reference::referenceKernels().find(operation.type);
      if (!kernel) {
        missing_.insert(graph::specName(operation.type));
        return true;
      }
      context.inputsPlain = true;
      op = createReferenceFallbackOp(context, *kernel);
    }

    Step step;
    step.types = std::string(graph::specName(operation.type));
    step.label = operation.label;
    step.reads = inputs;
    if (chain) {
      for (size_t fused : chain->operations) {
        step.types += "+" + std::string(graph::specName(ir_->operations[fused].type));
      }
      for (const FusedPostOp& postOp : chain->postOps) {
        if (postOp.kind == FusedPostOp::Kind::Binary) step.reads.push_back(postOp.other);
      }
      step.writes = {output};
    } else {
      step.writes = views && views->output ? std::vector{output} : operation.outputs;
    }
    // Blocked inputs of an op that got them plain: through their plain copies.
    if (context.inputsPlain) {
      for (graph::OperandId input : inputs) {
        if (!layouts_[input]) continue;
        bool seen = false;
        for (const auto& view : step.plainViews) seen = seen || view.first == input;
        if (seen) continue;
        const graph::OperandId copy = plainCopyOf(input);
        step.plainViews.emplace_back(input, copy);
        step.reads.push_back(copy);
      }
    }
    if (op->needsZeroedOutputs()) step.zeroedOutputs = step.writes;
    if (auto layout = op->outputLayout()) layouts_[output] = *layout;
    step.workspaceBytes = op->workspaceBytes();
    if (step.workspaceBytes > 0) {
      step.workspace = newTensor(output);
      step.writes.push_back(step.workspace);
    }
    const size_t stepIndex = steps_.size();
    stepOfOperation_[index] = stepIndex;
    if (chain) {
      for (size_t fused : chain->operations) {
        stepOfOperation_[fused] = stepIndex;
        fusedOperation_[fused] = true;
      }
    }
    step.op = std::move(op);
    steps_.push_back(std::move(step));
    return true;
  }

  void compileSteps() {
    const size_t count = ir_->operations.size();
    tensorCount_ = ir_->operands.size();
    layouts_.assign(tensorCount_, std::nullopt);
    shadowOf_.assign(tensorCount_, 0);
    stepOfOperation_.assign(count, 0);
    fusedOperation_.assign(count, false);
    fusion_ = planFusions(*ir_);
    views_ =
        planViews(*ir_, fusion_, [this](const graph::Operation& matmul, const MatmulViews& views) {
          return matmulRunsOnViews(engine_, *ir_, matmul, views);
        });
    // A chain runs where its last operation stood: every operand it reads exists by then.
    std::vector<int32_t> chainEndingAt(count, -1);
    for (size_t i = 0; i < count; ++i) {
      if (!fusion_.chains[i]) continue;
      const auto& operations = fusion_.chains[i]->operations;
      chainEndingAt[*std::max_element(operations.begin(), operations.end())] =
          static_cast<int32_t>(i);
    }
    for (size_t i = 0; i < count; ++i) {
      if (views_.elided[i]) continue;   // read or written through strides: no step
      if (fusion_.chains[i]) continue;  // compiled with its chain, at the chain's end
      if (chainEndingAt[i] >= 0) {
        const size_t anchor = static_cast<size_t>(chainEndingAt[i]);
        if (compileOperation(anchor, &*fusion_.chains[anchor])) continue;
        // No primitive takes the chain: its operations one by one, and the views after it run
        // as steps (the last one of the chain writes their input).
        const std::vector<size_t> operations = fusion_.chains[anchor]->operations;
        fusion_.chains[anchor].reset();
        if (views_.views[anchor] && views_.views[anchor]->output) {
          views_.views[anchor]->output.reset();
          for (uint32_t view : views_.writtenThrough[anchor]) views_.elided[view] = false;
        }
        for (size_t fused : operations) fusion_.anchorOf[fused] = -1;
        compileOperation(anchor, nullptr);
        for (size_t fused : operations) compileOperation(fused, nullptr);
        continue;
      }
      if (fusion_.anchorOf[i] >= 0) continue;  // compiled at its chain's end
      compileOperation(i, nullptr);
    }
    if (!missing_.empty()) {
      std::string names;
      for (const auto& name : missing_) names += (names.empty() ? "" : ", ") + std::string(name);
      throw Error(Error::Kind::NotSupportedError, "the cpu backend cannot run: " + names);
    }
  }

  // Liveness over the steps (a fused chain reads its operands at its own step), sizes in the
  // layouts the steps write, workspaces alive for their step only; one arena for all.
  void planActivations() {
    std::vector<graph::Lifetime> lifetimes;
    std::vector<int64_t> lifetimeOf(tensorCount_, -1);
    for (size_t s = 0; s < steps_.size(); ++s) {
      const uint32_t index = static_cast<uint32_t>(s);
      for (graph::OperandId id : steps_[s].writes) {
        const bool ownOperand = id < ir_->operands.size();
        if (ownOperand &&
            (ir_->operand(id).kind != graph::OperandKind::Intermediate || ir_->isGraphOutput(id))) {
          continue;
        }
        uint64_t bytes;
        if (id == steps_[s].workspace && steps_[s].workspaceBytes > 0) {
          bytes = steps_[s].workspaceBytes;
        } else if (layouts_[id]) {
          bytes = layouts_[id]->get_size();
        } else {
          bytes = ir_->descriptor(ownOperand ? id : shadowOf_[id]).byteLength();
        }
        lifetimeOf[id] = static_cast<int64_t>(lifetimes.size());
        lifetimes.push_back({id, index, index, bytes});
      }
      for (graph::OperandId id : steps_[s].reads) {
        if (lifetimeOf[id] >= 0) lifetimes[static_cast<size_t>(lifetimeOf[id])].lastUse = index;
      }
    }
    plan_ = graph::planArena(lifetimes, tensorCount_);
  }

  void prepareConstants() {
    ThreadCountScope threads(numThreads_);
    // Where each hollow constant's plain bytes are now (its own storage, a memory map it adopted,
    // or none when it is packed on arrival).
    for (const auto& operand : ir_->operands) {
      if (constants_.isHollow(operand->id)) {
        constantTensors_[operand->id].data = constants_.plainData(operand->id);
      }
    }
    for (auto& step : steps_) step.op->prepareConstants(constantTensors_);
  }

  std::shared_ptr<const graph::GraphIR> ir_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  uint32_t numThreads_;
  dnnl::engine engine_;
  CpuConstants constants_;  // before steps_: the ops' packed constants point into its slots

  // Compilation.
  FusionPlan fusion_;
  ViewPlan views_;
  std::vector<Step> steps_;
  size_t tensorCount_ = 0;  // IR operands, then plain copies and workspaces
  std::vector<std::optional<dnnl::memory::desc>> layouts_;  // per tensor: blocked layout
  std::vector<graph::OperandId> shadowOf_;  // per added tensor: the operand it describes
  std::unordered_map<graph::OperandId, graph::OperandId> plainCopies_;
  std::vector<size_t> stepOfOperation_;
  std::vector<bool> fusedOperation_;
  std::set<std::string_view> missing_;

  graph::ArenaPlan plan_;
  std::mutex arenaMutex_;
  std::vector<PooledArena> freeArenas_;
  backend::OpProfiler profiler_;

  DispatchTensors constantTensors_;  // descriptors of every tensor, data of the constants
};

class CpuBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "cpu"; }

  void configure(const backend::BackendOptions& options) override { options_ = options; }

  // Every op the reference backend runs (the fallback), with the reference's types and ranks.
  MLOpSupportLimits opSupportLimits() const override {
    return reference::referenceOpSupportLimits(name());
  }

  std::unique_ptr<backend::CompiledGraph> compile(
      std::shared_ptr<const graph::GraphIR> ir,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<CpuCompiledGraph>(std::move(ir), std::move(memory), options_);
  }

  std::unique_ptr<backend::BackendTensor> createTensor(
      const MLTensorDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<backend::HostTensor>(descriptor, std::move(memory));
  }

 private:
  backend::BackendOptions options_;
};

}  // namespace

std::unique_ptr<backend::Backend> createCpuBackend() {
  return std::make_unique<CpuBackend>();
}

std::vector<std::string> operationImplementations(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const CpuCompiledGraph*>(&graph);
  return compiled ? compiled->implementations() : std::vector<std::string>{};
}

std::vector<std::string> constantLayouts(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const CpuCompiledGraph*>(&graph);
  return compiled ? compiled->constantLayouts() : std::vector<std::string>{};
}

}  // namespace webnn::cpu
