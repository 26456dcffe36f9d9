#include "backends/cpu/executable.h"

#include <omp.h>

#include <cstring>
#include <utility>

#include "backends/cpu/cpu_constant_slot.h"
#include "backends/host_storage.h"

namespace webnn::cpu {

ThreadCountScope::ThreadCountScope(uint32_t numThreads) : previous_(omp_get_max_threads()) {
  if (numThreads > 0) omp_set_num_threads(static_cast<int>(numThreads));
}

ThreadCountScope::~ThreadCountScope() {
  omp_set_num_threads(previous_);
}

CpuExecutable::CpuExecutable(std::shared_ptr<const graph::GraphIR> ir, CpuPlan plan,
                             const dnnl::engine& engine, CpuConstants& constants,
                             std::shared_ptr<backend::MemoryAccount> memory, uint32_t numThreads,
                             bool profiling)
    : ir_(std::move(ir)),
      plan_(std::move(plan)),
      engine_(engine),
      constants_(constants),
      memory_(std::move(memory)),
      numThreads_(numThreads) {
  if (profiling) {
    std::vector<backend::OperationProfile> steps;
    for (const PlanStep& step : plan_.steps) {
      steps.push_back({step.types, step.label, step.implementation});
    }
    profiler_ = backend::OpProfiler(std::move(steps));
  }
  constantTensors_.resize(plan_.tensorCount);
  for (size_t id = 0; id < plan_.tensorCount; ++id) {
    constantTensors_[id].descriptor = &ir_->descriptor(plan_.describedBy[id]);
  }
  for (const auto& operand : ir_->operands) {
    if (!ir_->isUsed(operand->id)) continue;
    if (operand->kind == graph::OperandKind::Constant && operand->data) {
      constantTensors_[operand->id].data = const_cast<std::byte*>(operand->data->data());
    }
  }
}

void CpuExecutable::prepareConstants() {
  ThreadCountScope threads(numThreads_);
  // Where each hollow constant's plain bytes are now (its own storage, a memory map it adopted,
  // or none when it is packed on arrival).
  for (const auto& operand : ir_->operands) {
    if (constants_.isHollow(operand->id)) {
      constantTensors_[operand->id].data = constants_.plainData(operand->id);
    }
  }
  for (auto& step : plan_.steps) step.op->prepareConstants(constantTensors_);
}

void CpuExecutable::dispatch(const backend::BoundTensors& inputs,
                             const backend::BoundTensors& outputs) {
  ThreadCountScope threads(numThreads_);
  PooledArena arena = takeArena();
  DispatchTensors tensors = constantTensors_;
  for (const auto& operand : ir_->operands) {
    if (constants_.isHollow(operand->id)) {
      tensors[operand->id].data = constants_.plainData(operand->id);
    }
  }
  for (size_t id = 0; id < plan_.tensorCount; ++id) {
    if (plan_.arena.offsets[id] != graph::kNotPlanned) {
      tensors[id].data = arena.buffer->data() + plan_.arena.offsets[id];
    }
  }
  for (const auto& [name, tensor] : inputs) {
    tensors[ir_->inputs.at(name)].data = backend::hostBytes(tensor).data();
  }
  for (const auto& [name, tensor] : outputs) {
    tensors[ir_->outputs.at(name)].data = backend::hostBytes(tensor).data();
  }
  dnnl::stream stream(engine_);
  for (size_t i = 0; i < plan_.steps.size(); ++i) {
    const PlanStep& step = plan_.steps[i];
    const auto started = backend::OpProfiler::Clock::now();
    for (graph::OperandId output : step.zeroedOutputs) {
      const uint64_t bytes = ir_->descriptor(plan_.describedBy[output]).byteLength();
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

CpuExecutable::PooledArena CpuExecutable::takeArena() {
  {
    std::lock_guard lock(arenaMutex_);
    if (!freeArenas_.empty()) {
      PooledArena arena = std::move(freeArenas_.back());
      freeArenas_.pop_back();
      return arena;
    }
  }
  return {std::make_unique<HostBuffer>(plan_.arena.arenaBytes),
          backend::GaugeCharge(memory_->activations, plan_.arena.arenaBytes)};
}

void CpuExecutable::giveBack(PooledArena arena) {
  std::lock_guard lock(arenaMutex_);
  freeArenas_.push_back(std::move(arena));
}

}  // namespace webnn::cpu
