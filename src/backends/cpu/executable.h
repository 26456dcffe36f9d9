// Runs a CpuPlan (plan.h): binds a dispatch's inputs, outputs, constants and a pooled activation
// arena to the plan's tensors and runs the steps in order on the backend's OpenMP threads. Arenas
// are pooled, one per dispatch in flight, so concurrent dispatches are supported and a dispatch
// allocates nothing in steady state. With profiling, each step's time is recorded.
#pragma once

#include <dnnl.hpp>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/backend.h"
#include "backends/cpu/plan.h"
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

 private:
  // An activation arena, kept for the next dispatch.
  struct PooledArena {
    std::unique_ptr<HostBuffer> buffer;
    backend::GaugeCharge charge;
  };
  PooledArena takeArena();
  void giveBack(PooledArena arena);

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
};

}  // namespace webnn::cpu
