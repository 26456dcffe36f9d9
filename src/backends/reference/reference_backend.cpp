// The reference backend: plain kernels over host memory, the oracle for every other backend.
// Constants live in their slots (hollow; loaders read straight into them) or in the builder's copy
// (classic: no second copy); intermediates live in one arena per dispatch, planned once per graph
// with the shared liveness planner.
#include "backends/reference/reference_backend.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <set>

#include "backends/host_storage.h"
#include "backends/reference/kernel.h"
#include "backends/reference/reference_constant_slot.h"
#include "core/host_buffer.h"
#include "graph/memory_plan.h"
#include "graph/op_limits.h"

namespace webnn::reference {
namespace {

class ReferenceCompiledGraph final : public backend::CompiledGraph {
 public:
  ReferenceCompiledGraph(std::shared_ptr<const graph::GraphIR> ir,
                         std::shared_ptr<backend::MemoryAccount> memory, bool profiling)
      : ir_(std::move(ir)), memory_(std::move(memory)) {
    const KernelTable& table = referenceKernels();
    std::set<std::string_view> missing;
    for (const auto& operation : ir_->operations) {
      const Kernel* kernel = table.find(operation.type);
      if (!kernel) missing.insert(graph::specName(operation.type));
      kernels_.push_back(kernel);
    }
    if (!missing.empty()) {
      std::string names;
      for (const auto& name : missing) names += (names.empty() ? "" : ", ") + std::string(name);
      throw Error(Error::Kind::NotSupportedError,
                  "the reference backend has no kernel for: " + names);
    }
    if (profiling) {
      std::vector<backend::OperationProfile> steps;
      for (const auto& operation : ir_->operations) {
        steps.push_back(
            {std::string(graph::specName(operation.type)), operation.label, "reference kernel"});
      }
      profiler_ = backend::OpProfiler(std::move(steps));
    }
    const auto lifetimes = graph::intermediateLifetimes(*ir_);
    plan_ = graph::planArena(lifetimes, ir_->operands.size());
    slots_.resize(ir_->operands.size());
    uint64_t constantBytes = 0;
    for (const auto& operand : ir_->operands) {
      if (!ir_->isUsed(operand->id)) continue;
      if (operand->kind == detail::OperandKind::HollowConstant) {
        slots_[operand->id] =
            std::make_unique<ReferenceConstantSlot>(operand->descriptor.byteLength());
        constantBytes += operand->descriptor.byteLength();
      } else if (operand->kind == detail::OperandKind::Constant) {
        constantBytes += operand->data->size();
      }
    }
    constantCharge_ = backend::GaugeCharge(memory_->constants, constantBytes);
  }

  backend::ConstantSlot& constantSlot(graph::OperandId operandId) override {
    return *slots_.at(operandId);
  }

  backend::StagingHints stagingHints() const override {
    backend::StagingHints hints;
    hints.direct = true;
    return hints;
  }

  void dispatch(const backend::BoundTensors& inputs,
                const backend::BoundTensors& outputs) override {
    const auto& operands = ir_->operands;
    // One arena per dispatch (concurrent dispatches each have their own), zeroed per output.
    HostBuffer arena(plan_.arenaBytes);
    backend::GaugeCharge arenaCharge(memory_->activations, plan_.arenaBytes);
    std::vector<Tensor> tensors(operands.size());
    for (const auto& operand : operands) {
      Tensor& tensor = tensors[operand->id];
      tensor.descriptor = &operand->descriptor;
      if (operand->kind == detail::OperandKind::Constant && operand->data) {
        tensor.data = const_cast<std::byte*>(operand->data->data());
      } else if (slots_[operand->id]) {
        tensor.data = slots_[operand->id]->data();
      } else if (plan_.offsets[operand->id] != graph::kNotPlanned) {
        tensor.data = arena.data() + plan_.offsets[operand->id];
      }
    }
    for (const auto& [name, tensor] : inputs) {
      tensors[ir_->inputs.at(name)].data = backend::hostBytes(tensor).data();
    }
    for (const auto& [name, tensor] : outputs) {
      tensors[ir_->outputs.at(name)].data = backend::hostBytes(tensor).data();
    }
    for (size_t i = 0; i < ir_->operations.size(); ++i) {
      const auto& operation = ir_->operations[i];
      for (graph::OperandId output : operation.outputs) {
        const uint64_t bytes = operands[output]->descriptor.byteLength();
        if (bytes > 0) std::memset(tensors[output].data, 0, bytes);
      }
      const auto started = backend::OpProfiler::Clock::now();
      (*kernels_[i])(KernelContext(operation, tensors));
      if (profiler_.enabled()) profiler_.record(i, started);
    }
  }

  std::vector<backend::OperationProfile> profile() const override { return profiler_.snapshot(); }

 private:
  std::shared_ptr<const graph::GraphIR> ir_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  std::vector<const Kernel*> kernels_;
  graph::ArenaPlan plan_;
  std::vector<std::unique_ptr<ReferenceConstantSlot>> slots_;
  backend::GaugeCharge constantCharge_;
  backend::OpProfiler profiler_;
};

class ReferenceBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "reference"; }

  void configure(const backend::BackendOptions& options) override {
    profiling_ = options.profiling;
  }

  MLOpSupportLimits opSupportLimits() const override { return referenceOpSupportLimits(name()); }

  std::unique_ptr<backend::CompiledGraph> compile(
      std::shared_ptr<const graph::GraphIR> ir,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<ReferenceCompiledGraph>(std::move(ir), std::move(memory), profiling_);
  }

  std::unique_ptr<backend::BackendTensor> createTensor(
      const MLTensorDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<backend::HostTensor>(descriptor, std::move(memory));
  }

 private:
  bool profiling_ = false;
};

}  // namespace

MLOpSupportLimits referenceOpSupportLimits(std::string_view backendName) {
  const KernelTable& kernels = referenceKernels();
  graph::OpLimitsTable table = graph::specOpLimits();
  table.backendName = std::string(backendName);
  for (graph::OpType type : graph::allOpTypes()) {
    if (!kernels.find(type)) table.erase(type);
  }
  return graph::toSupportLimits(table);
}

std::unique_ptr<backend::Backend> createReferenceBackend() {
  return std::make_unique<ReferenceBackend>();
}

}  // namespace webnn::reference
