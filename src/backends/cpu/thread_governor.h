// How many threads each dispatch of a cpu graph computes with: the whole team, or the calling
// thread alone (issue 17).
//
// oneDNN (Debian's build: the OpenMP runtime) cuts every step into one static share per thread
// and waits for all of them at the step's end. When another process holds a core, the thread that
// waits spins while the one it waits for is not running, and every step costs a time slice of
// the scheduler: a 1.4 ms model took 770 ms next to two busy processes. Alone, the calling thread
// waits for nobody. On a quiet machine the team is faster for big steps, and alone is faster for
// small models whose steps are too short to share (PaddleOCR cls: 0.9 ms alone, 1.4 ms with two
// threads).
//
// So each graph measures both and uses the faster, and leaves the team in the middle of a
// dispatch as soon as the team falls behind its own record:
// - A dispatch starts in the mode whose recent latency is lower (the team until the alone mode
//   was measured); every `probeInterval` dispatches it runs the other mode once to refresh its
//   figure (a probe's time replaces it: the old one is stale; the chosen mode's times are
//   averaged). The interval doubles (up to kMaxProbeInterval) while probes confirm the choice by
//   more than kClearMargin and starts again from kMinProbeInterval when a probe changes it or
//   comes close.
// - In the team, after each step, the time since the dispatch began is compared with the
//   fastest time the team ever reached that step in: beyond kSlowdown times it plus a grace, the
//   rest of the dispatch runs alone (the team's latency is then taken as unknown until a probe
//   completes in the team again). A busy machine thus costs one step of waiting, not the whole
//   dispatch. Before the team has a record (the graph started alone), its limit is twice the
//   time alone plus the grace, at every step.
// - A graph's first dispatch starts alone when the machine is busy right then (more runnable
//   threads than cores, /proc/stat's procs_running), else in the team.
// The policy is pure bookkeeping over durations (unit-tested with made-up times); the executable
// measures and runs the modes (executable.cpp). Thread-safe: concurrent dispatches of one graph
// share the figures.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace webnn::cpu {

enum class TeamMode { Team, Alone };

class ThreadGovernor {
 public:
  using Duration = std::chrono::nanoseconds;
  static constexpr double kSlowdown = 2.0;
  // The grace covers waking the team's threads after they slept (a dispatch alone, an idle
  // spell: up to a millisecond on a VM); a time slice lost to another process is several.
  // Or an eighth of the team's best time, whichever is longer: waking a team that slept took
  // 4.8 ms in one step of a 77 ms encoder (2 vCPUs of a VM).
  static constexpr Duration kGrace = std::chrono::milliseconds(2);
  static constexpr int kGraceShare = 8;
  static constexpr uint32_t kMinProbeInterval = 4;
  static constexpr uint32_t kMaxProbeInterval = 256;
  static constexpr double kClearMargin = 1.25;

  // `steps`: the plan's step count. `teamSize`: the threads of the team (1: every dispatch runs
  // alone and nothing is measured).
  ThreadGovernor(size_t steps, uint32_t teamSize);

  // What one dispatch does: the mode it starts in, and in the team, the time by which it must
  // have finished each step (empty: no limit known yet).
  struct Dispatch {
    TeamMode mode = TeamMode::Team;
    bool probe = false;     // runs the mode not chosen, to measure it
    bool external = false;  // not the governor's choice (nothing to record)
    std::vector<Duration> deadlines;
    // Whether the team has fallen behind after step `step`, `elapsed` after the dispatch began.
    bool behind(size_t step, Duration elapsed) const {
      return mode == TeamMode::Team && step < deadlines.size() && elapsed > deadlines[step];
    }
  };
  // `machineBusy`: asked only for a graph's first dispatch (whether other threads hold every core).
  Dispatch begin(const std::function<bool()>& machineBusy);
  // The same into `dispatch`, reusing its storage (a steady-state dispatch allocates nothing).
  void begin(const std::function<bool()>& machineBusy, Dispatch& dispatch);
  // A dispatch is over. `stepReach`: when it ran whole in the team, the time since it began at the
  // end of each step (empty otherwise); `leftTeamAt`: the step after which it left the team, if it
  // did; `total`: its time.
  // `warmingUp`: it did one-time work (compiled the alone ops): its time is no figure of its mode.
  void end(const Dispatch& dispatch, const std::vector<Duration>& stepReach,
           std::optional<size_t> leftTeamAt, Duration total, bool warmingUp = false);

  uint32_t teamSize() const { return teamSize_; }

  // For tests and reports.
  struct Figures {
    std::optional<Duration> team, alone;  // recent latency of each mode (none: not measured)
    TeamMode chosen = TeamMode::Team;
    uint32_t probeInterval = kMinProbeInterval;
    uint64_t dispatches = 0, aloneDispatches = 0, leftTeam = 0;
  };
  Figures figures() const;

 private:
  void choose();
  static void blend(std::optional<Duration>& figure, Duration sample);

  mutable std::mutex mutex_;
  const size_t steps_;
  const uint32_t teamSize_;
  std::vector<Duration> bestReach_;  // per step: the fastest the team reached its end in
  std::optional<Duration> team_, alone_;
  bool teamBehind_ = false;  // the last dispatch in the team left it (until one completes in it)
  TeamMode chosen_ = TeamMode::Team;
  uint32_t probeInterval_ = kMinProbeInterval;
  uint32_t sinceProbe_ = 0;
  bool started_ = false;
  uint64_t dispatches_ = 0, aloneDispatches_ = 0, leftTeam_ = 0;
};

// Whether more threads are runnable on the machine than it has cores, besides the caller
// (/proc/stat's procs_running; false where it cannot be read).
bool machineIsBusy();

}  // namespace webnn::cpu
