// Per-operation timings of a compiled graph's dispatches (MLContextOptions::profiling, `webnn run
// --profile`). A backend names its executable steps once at compile (the op types a step runs,
// joined by '+' where it fused several, the label, the implementation) and records each step's
// time as dispatches run; profile() returns the totals. Concurrent dispatches record into the same
// totals (a mutex per record: profiling is opt-in and its cost is a clock read per step).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace webnn::backend {

struct OperationProfile {
  std::string type;            // spec name ("conv2d"), or the fused ops ("conv2d+add+relu")
  std::string label;           // MLOperatorOptions::label of the first op, "" when none
  std::string implementation;  // "reference kernel", "jit:avx512_core", "reference fallback"...
  uint64_t runs = 0;           // times the step ran
  double totalMilliseconds = 0;
};

// How one step runs (CompiledGraph::implementations, MLGraph::implementations).
struct StepImplementation {
  std::string type;  // as OperationProfile::type
  std::string label;
  std::string dataType;  // the graph's type of the step's first operation ("float16")
  std::string implementation;
  std::string fallbackReason;  // why the reference kernel runs it ("" when it does not)
};

class OpProfiler {
 public:
  using Clock = std::chrono::steady_clock;

  OpProfiler() = default;
  explicit OpProfiler(std::vector<OperationProfile> steps) : steps_(std::move(steps)) {}
  OpProfiler(OpProfiler&& other) noexcept : steps_(std::move(other.steps_)) {}
  OpProfiler& operator=(OpProfiler&& other) noexcept {
    steps_ = std::move(other.steps_);
    return *this;
  }

  bool enabled() const { return !steps_.empty(); }

  void record(size_t step, Clock::time_point started) {
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    std::lock_guard lock(mutex_);
    steps_[step].runs += 1;
    steps_[step].totalMilliseconds += ms;
  }

  // A duration measured elsewhere (a device's timestamps): adds `milliseconds` to `step` and,
  // when `newRun`, counts one more run of it.
  void add(size_t step, double milliseconds, bool newRun) {
    std::lock_guard lock(mutex_);
    steps_[step].runs += newRun ? 1 : 0;
    steps_[step].totalMilliseconds += milliseconds;
  }

  std::vector<OperationProfile> snapshot() const {
    std::lock_guard lock(mutex_);
    return steps_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<OperationProfile> steps_;
};

}  // namespace webnn::backend
