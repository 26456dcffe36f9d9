// Runs a CpuPlan (plan.h): binds a dispatch's inputs, outputs, constants and a pooled activation
// arena to the plan's tensors and runs the steps in order, on the backend's OpenMP threads or on
// the calling thread alone, as its ThreadGovernor decides (thread_governor.h). Arenas
// are pooled, one per dispatch in flight, so concurrent dispatches are supported and a dispatch
// allocates nothing in steady state. With profiling, each step's time is recorded.
#pragma once

#include <atomic>
#include <dnnl.hpp>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/backend.h"
#include "backends/cpu/plan.h"
#include "backends/cpu/thread_governor.h"
#include "backends/op_profiler.h"
#include "core/host_buffer.h"
#include "graph/ir.h"

namespace webnn::cpu {

class CpuConstants;

// Sets the OpenMP threads of the calling thread for its lifetime (oneDNN reads the count when it
// creates a primitive and when it executes one); 0 leaves them as they are.
class ThreadCountScope {
 public:
  explicit ThreadCountScope(uint32_t numThreads);
  ~ThreadCountScope();
  ThreadCountScope(const ThreadCountScope&) = delete;
  ThreadCountScope& operator=(const ThreadCountScope&) = delete;

 private:
  int previous_;
};

class CpuExecutable {
 public:
  CpuExecutable(std::shared_ptr<const graph::GraphIR> ir, CpuPlan plan, const dnnl::engine& engine,
                CpuConstants& constants, std::shared_ptr<backend::MemoryAccount> memory,
                uint32_t numThreads, bool profiling);

  const CpuPlan& plan() const { return plan_; }

  // Every constant the steps read holds its bytes: each op packs or folds what it keeps (at
  // construction when nothing is hollow, else after every fill).
  void prepareConstants();

  void dispatch(const backend::BoundTensors& inputs, const backend::BoundTensors& outputs);

  std::vector<backend::OperationProfile> profile() const { return profiler_.snapshot(); }

  // How dispatches choose their threads (thread_governor.h). Adaptive unless the environment
  // variable WEBNN_CPU_THREADING says "team" (always every thread, as before issue 17) or "alone"
  // (always the calling thread): for measuring the modes, not a setting users need.
  enum class Threading { Adaptive, Team, Alone };
  Threading threading() const { return threading_; }
  ThreadGovernor::Figures threadingFigures() const { return governor_.figures(); }

 private:
  // An activation arena, kept for the next dispatch.
  struct PooledArena {
    std::unique_ptr<HostBuffer> buffer;
    backend::GaugeCharge charge;
    // The dispatch's threading bookkeeping, kept with the arena so that it allocates once.
    ThreadGovernor::Dispatch mode;
    std::vector<ThreadGovernor::Duration> reach;
  };
  PooledArena takeArena();
  void giveBack(PooledArena arena);
  static Threading threadingFromEnvironment();
  void runStep(size_t index, CpuOp& op, dnnl::stream& stream, DispatchTensors& tensors);
  // Steps `from`.. on the calling thread alone. Returns whether it compiled the alone ops first.
  bool runAlone(size_t from, dnnl::stream& stream, DispatchTensors& tensors);
  // The steps' ops of one thread (PlanStep::aloneOp), the first time a dispatch runs alone.
  // Returns whether this call compiled them.
  bool compileAloneOps();

  std::shared_ptr<const graph::GraphIR> ir_;
  CpuPlan plan_;
  dnnl::engine engine_;
  CpuConstants& constants_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  uint32_t numThreads_;

  DispatchTensors constantTensors_;  // descriptors of every tensor, data of the constants
  std::mutex arenaMutex_;
  std::vector<PooledArena> freeArenas_;
  backend::OpProfiler profiler_;
  ThreadGovernor governor_;
  Threading threading_;
  std::mutex aloneMutex_;  // compiling the alone ops; preparing the constants
  std::atomic<bool> aloneOpsCompiled_{false};
};

}  // namespace webnn::cpu
