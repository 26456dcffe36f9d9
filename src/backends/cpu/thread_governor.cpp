#include "backends/cpu/thread_governor.h"

#include <sched.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <thread>

namespace webnn::cpu {

ThreadGovernor::ThreadGovernor(size_t steps, uint32_t teamSize)
    : steps_(steps), teamSize_(std::max<uint32_t>(teamSize, 1)) {
  if (teamSize_ <= 1) chosen_ = TeamMode::Alone;
}

ThreadGovernor::Dispatch ThreadGovernor::begin(const std::function<bool()>& machineBusy) {
  Dispatch dispatch;
  begin(machineBusy, dispatch);
  return dispatch;
}

void ThreadGovernor::begin(const std::function<bool()>& machineBusy, Dispatch& dispatch) {
  std::lock_guard lock(mutex_);
  dispatch.mode = chosen_;
  dispatch.probe = false;
  dispatch.external = false;
  dispatch.deadlines.clear();
  if (teamSize_ <= 1) return;
  if (!started_) {
    started_ = true;
    if (machineBusy && machineBusy()) chosen_ = TeamMode::Alone;
    dispatch.mode = chosen_;
  } else if (++sinceProbe_ >= probeInterval_) {
    sinceProbe_ = 0;
    dispatch.probe = true;
    dispatch.mode = chosen_ == TeamMode::Team ? TeamMode::Alone : TeamMode::Team;
  }
  if (dispatch.mode == TeamMode::Team && bestReach_.size() != steps_ && alone_ && steps_ > 0) {
    // No record of the team yet (it started alone: a busy machine): it may take no longer than
    // twice the time alone, plus the grace.
    const Duration limit = std::chrono::duration_cast<Duration>(*alone_ * kSlowdown) +
                           std::max(kGrace, *alone_ / kGraceShare);
    dispatch.deadlines.assign(steps_, limit);
  } else if (dispatch.mode == TeamMode::Team && bestReach_.size() == steps_ && steps_ > 0) {
    const Duration grace = std::max(kGrace, bestReach_.back() / kGraceShare);
    for (Duration reach : bestReach_) {
      dispatch.deadlines.push_back(std::chrono::duration_cast<Duration>(reach * kSlowdown) + grace);
    }
  }
}

void ThreadGovernor::blend(std::optional<Duration>& figure, Duration sample) {
  figure = figure ? (*figure * 3 + sample) / 4 : sample;
}

void ThreadGovernor::choose() {
  if (!team_ && !alone_ && !teamBehind_) {
    return;  // nothing measured yet: as it started
  } else if (teamBehind_ || (!team_ && alone_)) {
    chosen_ = TeamMode::Alone;
  } else if (!alone_ || !team_) {
    chosen_ = TeamMode::Team;
  } else {
    chosen_ = *alone_ < *team_ ? TeamMode::Alone : TeamMode::Team;
  }
}

void ThreadGovernor::end(const Dispatch& dispatch, const std::vector<Duration>& stepReach,
                         std::optional<size_t> leftTeamAt, Duration total, bool warmingUp) {
  std::lock_guard lock(mutex_);
  // The first touch of the arena, or one-time work: not a steady-state figure.
  const bool first = dispatches_ == 0 || warmingUp;
  auto record = [&](std::optional<Duration>& figure) {
    if (first) return;
    if (dispatch.probe) {
      figure = total;
    } else {
      blend(figure, total);
    }
  };
  ++dispatches_;
  if (teamSize_ <= 1) {
    ++aloneDispatches_;
    return;
  }
  if (dispatch.mode == TeamMode::Team && leftTeamAt) {
    ++leftTeam_;
    teamBehind_ = true;
    team_.reset();
  } else if (dispatch.mode == TeamMode::Team) {
    teamBehind_ = false;
    record(team_);
    if (stepReach.size() == steps_) {
      if (bestReach_.size() != steps_) {
        bestReach_ = stepReach;
      } else {
        for (size_t i = 0; i < steps_; ++i) bestReach_[i] = std::min(bestReach_[i], stepReach[i]);
      }
    }
  } else {
    ++aloneDispatches_;
    record(alone_);
  }
  const TeamMode before = chosen_;
  choose();
  if (dispatch.probe && warmingUp) {
    sinceProbe_ = probeInterval_;  // it measured nothing: probe again at the next dispatch
  } else if (dispatch.probe) {
    // A probe that confirms the choice by a clear margin: probe half as often; a close one (the
    // first runs after compiling are slower) or one that changes it: often again.
    const bool clear = team_ && alone_ &&
                       (chosen_ == TeamMode::Team ? *alone_ > *team_ * kClearMargin
                                                  : *team_ > *alone_ * kClearMargin);
    probeInterval_ = chosen_ == before && clear ? std::min(probeInterval_ * 2, kMaxProbeInterval)
                                                : kMinProbeInterval;
  } else if (chosen_ != before) {
    probeInterval_ = kMinProbeInterval;
    sinceProbe_ = 0;
  }
}

ThreadGovernor::Figures ThreadGovernor::figures() const {
  std::lock_guard lock(mutex_);
  Figures figures;
  figures.team = team_;
  figures.alone = alone_;
  figures.chosen = chosen_;
  figures.probeInterval = probeInterval_;
  figures.dispatches = dispatches_;
  figures.aloneDispatches = aloneDispatches_;
  figures.leftTeam = leftTeam_;
  return figures;
}

bool machineIsBusy() {
  std::ifstream stat("/proc/stat");
  std::string key;
  long running = -1;
  while (stat >> key) {
    if (key == "procs_running") {
      stat >> running;
      break;
    }
    stat.ignore(1 << 20, '\n');
  }
  if (running < 0) return false;
  cpu_set_t set;
  long cores = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0) cores = CPU_COUNT(&set);
  if (cores <= 0) cores = static_cast<long>(std::thread::hardware_concurrency());
  // Ourselves excluded, the others fill every core.
  return cores > 0 && running - 1 >= cores;
}

}  // namespace webnn::cpu
