// The cpu backend. compile() walks the typed IR and gives each operation a oneDNN primitive when
// oneDNN runs it with those types and attributes (ops/*.cpp), else the reference kernel. All
// activations are plain row-major (their descriptors' layout), so the two mix freely.
// Intermediates live in one arena per dispatch, planned once per graph with the shared liveness
// planner (so concurrent dispatches are supported). Hollow constants live in their slots, in the
// descriptor's layout (loaders read straight into them); ops that keep a constant in a packed
// layout (convolution weights) pack it when every constant is in.
#include "backends/cpu/cpu_backend.h"

#include <omp.h>

#include <cstring>
#include <mutex>
#include <set>

#include "backends/cpu/cpu_op.h"
#include "backends/host_storage.h"
#include "backends/reference/reference_backend.h"
#include "backends/reference/reference_constant_slot.h"
#include "core/host_buffer.h"
#include "graph/memory_plan.h"

namespace webnn::cpu {
namespace {

using CpuConstantSlot = reference::ReferenceConstantSlot;

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
      default:
        return createEltwiseOp(context);  // null for ops that are not element-wise activations
    }
  } catch (const dnnl::error&) {
    return nullptr;  // no oneDNN implementation for these types/attributes
  }
}

class CpuCompiledGraph final : public backend::CompiledGraph {
 public:
  CpuCompiledGraph(std::shared_ptr<const graph::GraphIR> ir,
                   std::shared_ptr<backend::MemoryAccount> memory, uint32_t numThreads)
      : ir_(std::move(ir)),
        memory_(std::move(memory)),
        numThreads_(numThreads),
        engine_(dnnl::engine::kind::cpu, 0) {
    ThreadCountScope threads(numThreads_);
    const auto& kernels = reference::referenceKernels();
    std::set<std::string_view> missing;
    for (const auto& operation : ir_->operations) {
      const OpCompileContext context{*ir_, operation, engine_, memory_};
      std::unique_ptr<CpuOp> op = createOneDnnOp(context);
      if (!op) {
        const reference::Kernel* kernel = kernels.find(operation.type);
        if (!kernel) {
          missing.insert(graph::specName(operation.type));
          continue;
        }
        op = createReferenceFallbackOp(context, *kernel);
      }
      ops_.push_back(std::move(op));
    }
    if (!missing.empty()) {
      std::string names;
      for (const auto& name : missing) names += (names.empty() ? "" : ", ") + std::string(name);
      throw Error(Error::Kind::NotSupportedError, "the cpu backend cannot run: " + names);
    }
    plan_ = graph::planArena(graph::intermediateLifetimes(*ir_), ir_->operands.size());

    slots_.resize(ir_->operands.size());
    constantTensors_.resize(ir_->operands.size());
    uint64_t constantBytes = 0;
    bool anyHollow = false;
    for (const auto& operand : ir_->operands) {
      reference::Tensor& tensor = constantTensors_[operand->id];
      tensor.descriptor = &operand->descriptor;
      if (!ir_->isUsed(operand->id)) continue;
      if (operand->kind == graph::OperandKind::HollowConstant) {
        slots_[operand->id] = std::make_unique<CpuConstantSlot>(operand->descriptor.byteLength());
        constantBytes += operand->descriptor.byteLength();
        anyHollow = true;
      } else if (operand->kind == graph::OperandKind::Constant && operand->data) {
        tensor.data = const_cast<std::byte*>(operand->data->data());
        constantBytes += operand->data->size();
      }
    }
    constantCharge_ = backend::GaugeCharge(memory_->constants, constantBytes);
    if (!anyHollow) prepareConstants();
  }

  backend::ConstantSlot& constantSlot(graph::OperandId operandId) override {
    return *slots_.at(operandId);
  }

  backend::StagingHints stagingHints() const override {
    backend::StagingHints hints;
    hints.direct = true;
    return hints;
  }

  void constantsComplete() override { prepareConstants(); }

  std::vector<std::string> implementations() const {
    std::vector<std::string> names;
    for (const auto& op : ops_) names.push_back(op->implementation());
    return names;
  }

  void dispatch(const backend::BoundTensors& inputs,
                const backend::BoundTensors& outputs) override {
    ThreadCountScope threads(numThreads_);
    HostBuffer arena(plan_.arenaBytes);
    backend::GaugeCharge arenaCharge(memory_->activations, plan_.arenaBytes);
    DispatchTensors tensors = constantTensors_;
    for (size_t id = 0; id < slots_.size(); ++id) {
      if (slots_[id]) tensors[id].data = slots_[id]->data();
    }
    for (const auto& operand : ir_->operands) {
      if (plan_.offsets[operand->id] != graph::kNotPlanned) {
        tensors[operand->id].data = arena.data() + plan_.offsets[operand->id];
      }
    }
    for (const auto& [name, tensor] : inputs) {
      tensors[ir_->inputs.at(name)].data = backend::hostBytes(tensor).data();
    }
    for (const auto& [name, tensor] : outputs) {
      tensors[ir_->outputs.at(name)].data = backend::hostBytes(tensor).data();
    }
    dnnl::stream stream(engine_);
    for (size_t i = 0; i < ops_.size(); ++i) {
      if (ops_[i]->needsZeroedOutputs()) {
        for (graph::OperandId output : ir_->operations[i].outputs) {
          const uint64_t bytes = ir_->descriptor(output).byteLength();
          if (bytes > 0) std::memset(tensors[output].data, 0, bytes);
        }
      }
      ops_[i]->execute(stream, tensors);
    }
    stream.wait();
  }

 private:
  void prepareConstants() {
    ThreadCountScope threads(numThreads_);
    // Where each hollow constant's bytes are now (its own storage, or a memory map it adopted).
    for (size_t id = 0; id < slots_.size(); ++id) {
      if (slots_[id]) constantTensors_[id].data = slots_[id]->data();
    }
    for (auto& op : ops_) op->prepareConstants(constantTensors_);
  }

  std::shared_ptr<const graph::GraphIR> ir_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  uint32_t numThreads_;
  dnnl::engine engine_;
  std::vector<std::unique_ptr<CpuOp>> ops_;  // one per operation, in operation order
  graph::ArenaPlan plan_;
  std::vector<std::unique_ptr<CpuConstantSlot>> slots_;
  DispatchTensors constantTensors_;  // descriptors of every operand, data of the constants
  backend::GaugeCharge constantCharge_;
};

class CpuBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "cpu"; }

  void configure(const backend::BackendOptions& options) override {
    numThreads_ = options.numThreads;
  }

  // Every op the reference backend runs (the fallback), with the reference's types and ranks.
  MLOpSupportLimits opSupportLimits() const override {
    return reference::referenceOpSupportLimits(name());
  }

  std::unique_ptr<backend::CompiledGraph> compile(
      std::shared_ptr<const graph::GraphIR> ir,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<CpuCompiledGraph>(std::move(ir), std::move(memory), numThreads_);
  }

  std::unique_ptr<backend::BackendTensor> createTensor(
      const MLTensorDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<backend::HostTensor>(descriptor, std::move(memory));
  }

 private:
  uint32_t numThreads_ = 0;
};

}  // namespace

std::unique_ptr<backend::Backend> createCpuBackend() {
  return std::make_unique<CpuBackend>();
}

std::vector<std::string> operationImplementations(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const CpuCompiledGraph*>(&graph);
  return compiled ? compiled->implementations() : std::vector<std::string>{};
}

}  // namespace webnn::cpu
