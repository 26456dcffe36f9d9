#include "backends/cpu/executable.h"

#include <omp.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>

#include "backends/cpu/compiler.h"
#include "backends/cpu/cpu_constant_slot.h"
#include "backends/host_storage.h"

namespace webnn::cpu {

ThreadCountScope::ThreadCountScope(uint32_t numThreads) : previous_(omp_get_max_threads()) {
  if (numThreads > 0) omp_set_num_threads(static_cast<int>(numThreads));
}

ThreadCountScope::~ThreadCountScope() {
  omp_set_num_threads(previous_);
}

CpuExecutable::Threading CpuExecutable::threadingFromEnvironment() {
  const char* value = std::getenv("WEBNN_CPU_THREADING");
  const std::string_view name = value ? value : "";
  if (name == "team") return Threading::Team;
  if (name == "alone") return Threading::Alone;
  return Threading::Adaptive;
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
      numThreads_(numThreads),
      governor_(plan_.steps.size(),
                numThreads > 0 ? numThreads : static_cast<uint32_t>(omp_get_max_threads())),
      threading_(threadingFromEnvironment()) {
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
  std::lock_guard lock(aloneMutex_);
  for (auto& step : plan_.steps) {
    step.op->prepareConstants(constantTensors_);
    if (step.aloneOp) {
      ThreadCountScope one(1);
      step.aloneOp->prepareConstants(constantTensors_);
    }
  }
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
  const auto began = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration_cast<ThreadGovernor::Duration>(std::chrono::steady_clock::now() -
                                                                began);
  };
  ThreadGovernor::Dispatch& mode = arena.mode;
  if (omp_in_parallel() || threading_ != Threading::Adaptive) {
    // Called from a parallel region of the caller's, oneDNN would run the team's primitives on one
    // thread, which some of them (cut per thread when made) do not support: alone.
    mode.deadlines.clear();
    mode.probe = false;
    mode.external = true;
    mode.mode =
        threading_ == Threading::Team && !omp_in_parallel() ? TeamMode::Team : TeamMode::Alone;
  } else {
    governor_.begin(machineIsBusy, mode);
  }
  // In the team: each step on every thread, until the team falls behind its record.
  size_t next = 0;
  std::optional<size_t> leftTeamAt;
  std::vector<ThreadGovernor::Duration>& reach = arena.reach;
  reach.clear();
  if (mode.mode == TeamMode::Team) {
    while (next < plan_.steps.size()) {
      runStep(next, *plan_.steps[next].op, stream, tensors);
      ++next;
      reach.push_back(elapsed());
      if (next < plan_.steps.size() && mode.behind(next - 1, reach.back())) {
        leftTeamAt = next - 1;
        break;
      }
    }
  }
  const bool compiledAloneOps = runAlone(next, stream, tensors);
  stream.wait();
  if (!mode.external) {
    if (leftTeamAt || mode.mode != TeamMode::Team) reach.clear();
    governor_.end(mode, reach, leftTeamAt, elapsed(), compiledAloneOps);
  }
  giveBack(std::move(arena));
}

void CpuExecutable::runStep(size_t index, CpuOp& op, dnnl::stream& stream,
                            DispatchTensors& tensors) {
  const PlanStep& step = plan_.steps[index];
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
  op.executeInWorkspace(stream, tensors, workspace);
  for (const auto& [operand, plain] : step.plainViews) {
    std::swap(tensors[operand].data, tensors[plain].data);
  }
  if (profiler_.enabled()) profiler_.record(index, started);
}

bool CpuExecutable::compileAloneOps() {
  if (aloneOpsCompiled_.load(std::memory_order_acquire)) return false;
  std::lock_guard lock(aloneMutex_);
  if (aloneOpsCompiled_.load(std::memory_order_relaxed)) return false;
  for (size_t i = 0; i < plan_.steps.size(); ++i) {
    PlanStep& step = plan_.steps[i];
    step.aloneOp = compileAloneOp(*ir_, engine_, constants_, memory_, plan_, i);
    if (step.aloneOp) {
      ThreadCountScope one(1);
      step.aloneOp->prepareConstants(constantTensors_);
    }
  }
  aloneOpsCompiled_.store(true, std::memory_order_release);
  return true;
}

bool CpuExecutable::runAlone(size_t from, dnnl::stream& stream, DispatchTensors& tensors) {
  const size_t count = plan_.steps.size();
  if (from >= count) return false;
  const bool compiled = (governor_.teamSize() > 1 || omp_in_parallel()) ? compileAloneOps() : false;
  // One thread: oneDNN's primitives made for one thread, and our kernels' regions of one.
  ThreadCountScope one(1);
  for (size_t i = from; i < count; ++i) {
    PlanStep& step = plan_.steps[i];
    if (step.aloneOp) {
      runStep(i, *step.aloneOp, stream, tensors);
    } else if (!step.op->fixesThreadCount() || governor_.teamSize() <= 1) {
      runStep(i, *step.op, stream, tensors);
    } else {  // no op of one thread could be made for it: this step runs on the team
      ThreadCountScope team(governor_.teamSize());
      runStep(i, *step.op, stream, tensors);
    }
  }
  return compiled;
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
  PooledArena arena;
  // Every byte of an arena is written by some step: committed in one call, not page by page at
  // the steps' first writes (det 640's 29 MiB: 7,400 faults of 4 KiB in its first dispatch).
  arena.buffer = std::make_unique<HostBuffer>(plan_.arena.arenaBytes, HostBuffer::Commit::Now);
  arena.charge = backend::GaugeCharge(memory_->activations, plan_.arena.arenaBytes);
  arena.mode.deadlines.reserve(plan_.steps.size());
  arena.reach.reserve(plan_.steps.size());
  return arena;
}

void CpuExecutable::giveBack(PooledArena arena) {
  std::lock_guard lock(arenaMutex_);
  freeArenas_.push_back(std::move(arena));
}

}  // namespace webnn::cpu
