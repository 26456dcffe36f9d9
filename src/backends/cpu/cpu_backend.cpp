// The cpu backend: a graph is compiled (compiler.h) into a plan (plan.h) that an executable
// (executable.h) runs; the implementation of each op comes from one table (op_table.h). The
// graph's constants (cpu_constant_slot.h): a hollow constant that only packing ops read (conv2d
// and convTranspose2d filters, matmul/gemm B) is packed on arrival, each chunk scattered straight
// into its blocked layout (no plain copy); the others live in plain slots in the descriptor's
// layout (loaders read straight into them), and ops that keep one packed reorder it when every
// constant is in. Classic constants are packed at compile. A graph with float16 values is compiled
// widened (widen_float16.h): computed in float32, rounded to float16 at its outputs.
#include "backends/cpu/cpu_backend.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include "backends/cpu/compiler.h"
#include "backends/cpu/cpu_constant_slot.h"
#include "backends/cpu/cpu_constant_tensor.h"
#include "backends/cpu/executable.h"
#include "backends/cpu/op_table.h"
#include "backends/cpu/widen_float16.h"
#include "backends/host_storage.h"
#include "backends/reference/reference_backend.h"

namespace webnn::cpu {
namespace {

class CpuCompiledGraph final : public backend::CompiledGraph {
 public:
  CpuCompiledGraph(std::shared_ptr<const graph::GraphIR> ir,
                   std::shared_ptr<backend::MemoryAccount> memory,
                   const backend::BackendOptions& options,
                   std::map<graph::OperandId, std::shared_ptr<CpuConstantTensor>> tensors = {})
      : builtIr_(ir),
        widened_(widenFloat16(std::move(ir))),
        engine_(dnnl::engine::kind::cpu, 0),
        constants_(*widened_.ir, engine_, memory, options.numThreads, widened_.arrivesAsFloat16,
                   std::move(tensors), options.constantMemoryBudget),
        executable_(compile(widened_.ir, std::move(memory), options)) {
    // Every op is compiled (the ones dropped along the way released their packing requests): the
    // constants' slots can be placed. Classic constants are packed when the slots are placed; the
    // ops' other preparations (post-op operands) run now when nothing is hollow, else when every
    // constant is in.
    constants_.createSlots();
    if (!constants_.anyHollow()) executable_.prepareConstants();
  }

  backend::ConstantSlot& constantSlot(graph::OperandId operandId) override {
    return constants_.slot(operandId);
  }

  backend::StagingHints stagingHints() const override { return constants_.stagingHints(); }

  bool readsConstantTensor(graph::OperandId operandId) const override {
    return constants_.readsTensor(operandId);
  }

  void constantsComplete() override {
    // Every packing slot finished its layout when its constant was complete; the staging pool
    // goes back, then the ops prepare (they read the complete packed constants).
    constants_.constantsComplete();
    executable_.prepareConstants();
  }

  void dispatch(const backend::BoundTensors& inputs,
                const backend::BoundTensors& outputs) override {
    executable_.dispatch(inputs, outputs);
  }

  std::vector<backend::OperationProfile> profile() const override { return executable_.profile(); }

  // Per step: the data type of its first operation as the graph was built (float16 for the steps
  // of a widened float16 graph), its implementation and fallback reason.
  std::vector<backend::StepImplementation> implementations() const override {
    const graph::GraphIR& compiledIr = *widened_.ir;
    std::vector<int64_t> builtOperation(compiledIr.operations.size(), -1);
    for (size_t i = 0; i < widened_.operationIndex.size(); ++i) {
      builtOperation[widened_.operationIndex[i]] = static_cast<int64_t>(i);
    }
    std::vector<backend::StepImplementation> steps;
    for (const PlanStep& step : plan().steps) {
      std::string dataType;
      if (!step.operations.empty()) {
        const uint32_t index = step.operations.front();
        const int64_t built = builtOperation[index];
        dataType = built >= 0
                       ? toString(operationDataType(
                             *builtIr_, builtIr_->operations[static_cast<size_t>(built)]))
                       : toString(operationDataType(compiledIr, compiledIr.operations[index]));
      }
      steps.push_back(
          {step.types, step.label, std::move(dataType), step.implementation, step.fallbackReason});
    }
    return steps;
  }

  const CpuPlan& plan() const { return executable_.plan(); }
  const WidenedGraph& widened() const { return widened_; }
  std::vector<std::string> constantLayouts() const { return constants_.describe(); }
  ThreadGovernor::Figures threading() const { return executable_.threadingFigures(); }

 private:
  CpuExecutable compile(std::shared_ptr<const graph::GraphIR> ir,
                        std::shared_ptr<backend::MemoryAccount> memory,
                        const backend::BackendOptions& options) {
    ThreadCountScope threads(options.numThreads);
    CpuPlan plan =
        compilePlan(*ir, engine_, constants_, memory,
                    {.blockQuantizedInt8Activations = options.blockQuantizedInt8Activations});
    return CpuExecutable(std::move(ir), std::move(plan), engine_, constants_, std::move(memory),
                         options.numThreads, options.profiling);
  }

  std::shared_ptr<const graph::GraphIR> builtIr_;  // the graph as built
  WidenedGraph widened_;  // the IR compiled: float16 values computed in float32
  dnnl::engine engine_;
  CpuConstants constants_;  // before the executable: the ops' packed constants point into it
  CpuExecutable executable_;
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

  // Constant tensors are read in place: each layout a graph wants is kept once, shared by the
  // graphs that read it (cpu_constant_tensor.h).
  std::unique_ptr<backend::CompiledGraph> compileReading(
      std::shared_ptr<const graph::GraphIR> ir, std::shared_ptr<backend::MemoryAccount> memory,
      const backend::ConstantTensors& constantTensors) override {
    std::map<graph::OperandId, std::shared_ptr<CpuConstantTensor>> tensors;
    for (const auto& [id, tensor] : constantTensors) {
      auto cpuTensor = std::dynamic_pointer_cast<CpuConstantTensor>(tensor);
      if (!cpuTensor) throw std::logic_error("cpu backend: a constant tensor of another backend");
      tensors.emplace(id, std::move(cpuTensor));
    }
    return std::make_unique<CpuCompiledGraph>(std::move(ir), std::move(memory), options_,
                                              std::move(tensors));
  }

  std::shared_ptr<backend::BackendConstantTensor> createConstantTensor(
      const MLOperandDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    std::lock_guard lock(poolMutex_);
    // One staging pool for the context's constant tensors (2-4 chunks of 1 MiB in flight).
    if (!constantTensorStaging_) {
      constantTensorStaging_ = std::make_shared<StagingPool>(
          memory, std::clamp(std::thread::hardware_concurrency(), 2u, 4u));
    }
    return std::make_shared<CpuConstantTensor>(descriptor, std::move(memory), options_.numThreads,
                                               constantTensorStaging_);
  }

  std::unique_ptr<backend::BackendTensor> createTensor(
      const MLTensorDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<backend::HostTensor>(descriptor, std::move(memory));
  }

 private:
  backend::BackendOptions options_;
  std::mutex poolMutex_;
  std::shared_ptr<StagingPool> constantTensorStaging_;
};

}  // namespace

std::unique_ptr<backend::Backend> createCpuBackend() {
  return std::make_unique<CpuBackend>();
}

const CpuPlan* planOf(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const CpuCompiledGraph*>(&graph);
  return compiled ? &compiled->plan() : nullptr;
}

const graph::GraphIR* compiledIrOf(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const CpuCompiledGraph*>(&graph);
  return compiled ? compiled->widened().ir.get() : nullptr;
}

std::vector<std::string> operationImplementations(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const CpuCompiledGraph*>(&graph);
  std::vector<std::string> names;
  if (!compiled) return names;
  for (uint32_t index : compiled->widened().operationIndex) {
    names.push_back(compiled->plan().implementationOf(index));
  }
  return names;
}

std::vector<std::string> constantLayouts(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const CpuCompiledGraph*>(&graph);
  return compiled ? compiled->constantLayouts() : std::vector<std::string>{};
}

std::optional<ThreadGovernor::Figures> threadingOf(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const CpuCompiledGraph*>(&graph);
  if (!compiled) return std::nullopt;
  return compiled->threading();
}

}  // namespace webnn::cpu
