// Issue 17: each cpu dispatch computes with the whole team of threads or with the calling thread
// alone (backends/cpu/thread_governor.h). The governor's policy on made-up times, and the alone
// mode's results (oneDNN primitives compiled again for one thread, sharing the packed constants)
// against the team's, also when the caller dispatches from a parallel region of its own.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>
#include <omp.h>
#include <stdlib.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/plan.h"
#include "backends/cpu/thread_governor.h"
#include "test_helpers.h"
#include "webnn/webnn.h"

namespace webnn {
namespace {

using cpu::TeamMode;
using cpu::ThreadGovernor;
using std::chrono::microseconds;
using std::chrono::milliseconds;
using Duration = ThreadGovernor::Duration;

const auto quiet = [] { return false; };
const auto busy = [] { return true; };

// A whole dispatch in the team: each of `steps` steps takes `step`.
void teamDispatch(ThreadGovernor& governor, const ThreadGovernor::Dispatch& dispatch, size_t steps,
                  Duration step) {
  std::vector<Duration> reach;
  for (size_t i = 0; i < steps; ++i) reach.push_back(step * static_cast<int64_t>(i + 1));
  governor.end(dispatch, reach, std::nullopt, step * static_cast<int64_t>(steps));
}

// `count` dispatches of a 2-step graph on a quiet machine, the team taking `team` (two steps of
// half of it) and alone `alone`. Returns the dispatches that were probes.
std::vector<uint64_t> probesOver(ThreadGovernor& governor, uint64_t count, Duration team,
                                 Duration alone) {
  std::vector<uint64_t> probesAt;
  for (uint64_t n = 0; n < count; ++n) {
    const auto dispatch = governor.begin(quiet);
    if (dispatch.probe) probesAt.push_back(n);
    if (dispatch.mode == TeamMode::Team) {
      teamDispatch(governor, dispatch, 2, team / 2);
    } else {
      governor.end(dispatch, {}, std::nullopt, alone);
    }
  }
  return probesAt;
}

TEST(ThreadGovernor, StartsInTheTeamOnAQuietMachineAndAloneOnABusyOne) {
  ThreadGovernor quietGovernor(4, 2), busyGovernor(4, 2), single(4, 1);
  EXPECT_EQ(quietGovernor.begin(quiet).mode, TeamMode::Team);
  const auto first = busyGovernor.begin(busy);
  EXPECT_EQ(first.mode, TeamMode::Alone);
  // The first dispatch (warming up) measured nothing: it stays alone.
  busyGovernor.end(first, {}, std::nullopt, milliseconds(50), true);
  auto next = busyGovernor.begin(busy);
  EXPECT_EQ(next.mode, TeamMode::Alone);
  busyGovernor.end(next, {}, std::nullopt, milliseconds(10));
  // The team, never measured, is probed within twice the time alone plus the grace.
  for (int n = 0; n < 8 && next.mode == TeamMode::Alone; ++n) {
    next = busyGovernor.begin(busy);
    if (next.mode == TeamMode::Alone) busyGovernor.end(next, {}, std::nullopt, milliseconds(10));
  }
  ASSERT_EQ(next.mode, TeamMode::Team);
  EXPECT_FALSE(next.behind(0, microseconds(21900)));
  EXPECT_TRUE(next.behind(0, microseconds(22100)));
  // One thread: always alone, nothing to measure.
  EXPECT_EQ(single.begin(quiet).mode, TeamMode::Alone);
}

TEST(ThreadGovernor, LeavesTheTeamWhenItFallsBehindItsRecord) {
  ThreadGovernor governor(4, 2);
  for (int i = 0; i < 3; ++i) teamDispatch(governor, governor.begin(quiet), 4, milliseconds(1));
  const auto dispatch = governor.begin(quiet);
  ASSERT_EQ(dispatch.mode, TeamMode::Team);
  ASSERT_EQ(dispatch.deadlines.size(), 4u);
  // Within twice its best reach plus the grace: on; far beyond: behind.
  EXPECT_FALSE(dispatch.behind(0, microseconds(3900)));
  EXPECT_TRUE(dispatch.behind(0, microseconds(4100)));
  EXPECT_FALSE(dispatch.behind(3, microseconds(9900)));
  EXPECT_TRUE(dispatch.behind(3, microseconds(10100)));
  // It left after step 0: the next dispatches run alone.
  governor.end(dispatch, {}, 0, milliseconds(10));
  EXPECT_EQ(governor.figures().leftTeam, 1u);
  EXPECT_EQ(governor.begin(quiet).mode, TeamMode::Alone);
}

TEST(ThreadGovernor, ChoosesTheFasterModeAndProbesTheOtherLessOftenWhileItStaysSlower) {
  ThreadGovernor governor(2, 2);
  // The team takes 10 ms, alone 17 ms: the team stays chosen, each probe of alone doubles the
  // interval to the next one.
  const std::vector<uint64_t> probesAt =
      probesOver(governor, 100, milliseconds(10), milliseconds(17));
  const auto figures = governor.figures();
  EXPECT_EQ(figures.chosen, TeamMode::Team);
  ASSERT_GE(probesAt.size(), 3u);
  for (size_t i = 2; i < probesAt.size(); ++i) {
    EXPECT_GT(probesAt[i] - probesAt[i - 1], probesAt[i - 1] - probesAt[i - 2]);
  }
  EXPECT_LE(figures.aloneDispatches, 6u);
}

TEST(ThreadGovernor, AProbeThatComesCloseIsRepeatedSoon) {
  // The team takes 10 ms, alone 11 ms: the choice holds, but by less than the clear margin, so
  // the probes stay every kMinProbeInterval dispatches.
  ThreadGovernor governor(2, 2);
  const std::vector<uint64_t> probesAt =
      probesOver(governor, 40, milliseconds(10), milliseconds(11));
  EXPECT_EQ(governor.figures().chosen, TeamMode::Team);
  ASSERT_GE(probesAt.size(), 8u);
  for (size_t i = 1; i < probesAt.size(); ++i) {
    EXPECT_EQ(probesAt[i] - probesAt[i - 1], ThreadGovernor::kMinProbeInterval);
  }
}

TEST(ThreadGovernor, SwitchesToAloneWhenAloneIsFaster) {
  // A small model: 1.4 ms in the team, 0.9 ms alone; the first dispatch (warming up) and the one
  // that compiled the alone ops give no figure.
  ThreadGovernor governor(2, 2);
  TeamMode last = TeamMode::Team;
  bool compiled = false;
  for (int n = 0; n < 40; ++n) {
    const auto dispatch = governor.begin(quiet);
    last = dispatch.mode;
    if (dispatch.mode == TeamMode::Team) {
      teamDispatch(governor, dispatch, 2, microseconds(700));
    } else {
      const bool compiling = !compiled;
      compiled = true;
      governor.end(dispatch, {}, std::nullopt, compiling ? milliseconds(40) : microseconds(900),
                   compiling);
    }
  }
  EXPECT_EQ(governor.figures().chosen, TeamMode::Alone);
  EXPECT_EQ(last, TeamMode::Alone);
  // The probe that compiled measured nothing: the next dispatch probed again, and from then on
  // the dispatches ran alone but for the probes of the team.
  EXPECT_GE(governor.figures().aloneDispatches, 30u);
}

TEST(ThreadGovernor, ReturnsToTheTeamWhenTheMachineIsQuietAgain) {
  ThreadGovernor governor(2, 2);
  for (int i = 0; i < 3; ++i) teamDispatch(governor, governor.begin(quiet), 2, milliseconds(5));
  auto dispatch = governor.begin(quiet);
  governor.end(dispatch, {}, 0, milliseconds(40));  // busy: left the team
  // Alone takes 17 ms; the next probe of the team completes at its usual 10 ms.
  int teamDispatches = 0;
  for (int n = 0; n < 20; ++n) {
    dispatch = governor.begin(quiet);
    if (dispatch.mode == TeamMode::Team) {
      ++teamDispatches;
      teamDispatch(governor, dispatch, 2, milliseconds(5));
    } else {
      governor.end(dispatch, {}, std::nullopt, milliseconds(17));
    }
  }
  EXPECT_EQ(governor.figures().chosen, TeamMode::Team);
  EXPECT_GE(teamDispatches, 10);
}

// Conv, batched matmul (oneDNN's matmul cuts its work per thread when made: run on one thread
// with the team's primitive it computed half the batch), pooling, softmax.
struct Model {
  MLContext context = createContext({.backend = "cpu", .numThreads = 2});
  MLGraph graph;
  explicit Model() {
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {MLOperandDataType::Float32, {1, 8, 16, 16}});
    std::mt19937 random(3);
    std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
    std::vector<float> filter(16 * 8 * 3 * 3), weights(4 * 16 * 16);
    for (float& value : filter) value = uniform(random);
    for (float& value : weights) value = uniform(random);
    auto features = builder.relu(builder.conv2d(
        x, builder.constant({MLOperandDataType::Float32, {16, 8, 3, 3}}, testing::bytesOf(filter)),
        {.padding = {1, 1, 1, 1}}));
    auto pooled = builder.averagePool2d(
        features, {.windowDimensions = std::vector<uint32_t>{4, 4}, .strides = {4, 4}});
    auto rows = builder.reshape(pooled, {4, 4, 16});  // [1,16,4,4] -> batch 4 of [4, 16]
    auto products = builder.matmul(rows, builder.constant({MLOperandDataType::Float32, {4, 16, 16}},
                                                          testing::bytesOf(weights)));
    graph = builder.build({{"y", builder.softmax(builder.reshape(products, {16, 16}), 1)}});
  }
  std::vector<float> run() {
    std::vector<float> input(8 * 16 * 16);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i % 17) / 17.0f;
    return testing::runFloat(context, graph, {{"x", input}}, "y");
  }
};

class ScopedThreading {
 public:
  explicit ScopedThreading(const char* mode) { setenv("WEBNN_CPU_THREADING", mode, 1); }
  ~ScopedThreading() { unsetenv("WEBNN_CPU_THREADING"); }
};

TEST(CpuThreading, AloneGivesTheTeamsResults) {
  std::vector<float> team, alone;
  {
    ScopedThreading mode("team");
    team = Model().run();
  }
  {
    ScopedThreading mode("alone");
    Model model;
    alone = model.run();
    // The oneDNN steps got ops of their own for one thread.
    size_t aloneOps = 0;
    for (const auto& step : cpu::planOf(*model.graph.state()->compiled)->steps) {
      if (step.aloneOp) ++aloneOps;
    }
    EXPECT_GE(aloneOps, 3u);
  }
  ASSERT_EQ(team.size(), alone.size());
  for (size_t i = 0; i < team.size(); ++i) EXPECT_NEAR(alone[i], team[i], 1e-6f) << i;
}

// With the team op's layouts oneDNN may have only its reference implementation for one thread
// (det's first convolution: 3 input channels, stride 2, its result reordered to plain): such a
// step gets an op in the layout oneDNN picks for one thread, on a copy of its filter, rather than
// run thousands of times slower.
TEST(CpuThreading, NoAloneOpIsAReferenceWhereTheTeamsIsNot) {
  ScopedThreading mode("alone");
  MLContext context = createContext({.backend = "cpu", .numThreads = 2});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {MLOperandDataType::Float32, {1, 3, 64, 64}});
  std::vector<float> filter(16 * 3 * 3 * 3, 0.1f), bias(16, 0.5f);
  auto y = builder.relu(builder.conv2d(
      x, builder.constant({MLOperandDataType::Float32, {16, 3, 3, 3}}, testing::bytesOf(filter)),
      {.padding = {1, 1, 1, 1},
       .strides = {2, 2},
       .bias = builder.constant({MLOperandDataType::Float32, {16}}, testing::bytesOf(bias))}));
  MLGraph graph = builder.build({{"y", y}});
  const std::vector<float> result =
      testing::runFloat(context, graph, {{"x", std::vector<float>(3 * 64 * 64, 1.0f)}}, "y");
  ASSERT_EQ(result.size(), 16u * 32 * 32);
  EXPECT_NEAR(result[33 * 1 + 16 * 0], 0.1f * 27 + 0.5f, 1e-4f);  // an inner pixel
  for (const auto& step : cpu::planOf(*graph.state()->compiled)->steps) {
    // Every oneDNN step got an op of one thread: the convolution on a copy of its filter in the
    // layout its one-thread primitive picked.
    EXPECT_TRUE(step.aloneOp || !step.op->fixesThreadCount()) << step.types;
    if (!step.aloneOp) continue;
    const bool teamIsReference = step.implementation.rfind("ref", 0) == 0;
    EXPECT_FALSE(!teamIsReference && step.aloneOp->implementation().rfind("ref", 0) == 0)
        << step.types << ": " << step.aloneOp->implementation() << " for " << step.implementation;
  }
}

TEST(CpuThreading, ADispatchFromTheCallersParallelRegionRunsAlone) {
  std::vector<float> expected;
  {
    ScopedThreading mode("team");
    expected = Model().run();
  }
  Model model;
  std::vector<float> result;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) result = model.run();
  }
  ASSERT_EQ(result.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(result[i], expected[i], 1e-6f) << i;
  // It ran on the ops of one thread (the team's would have been cut for two).
  size_t aloneOps = 0;
  for (const auto& step : cpu::planOf(*model.graph.state()->compiled)->steps) {
    if (step.aloneOp) ++aloneOps;
  }
  EXPECT_GE(aloneOps, 3u);
}

TEST(CpuThreading, AdaptiveDispatchesAreCountedAndCorrect) {
  std::vector<float> expected;
  {
    ScopedThreading mode("team");
    expected = Model().run();
  }
  Model model;
  for (int n = 0; n < 30; ++n) {
    const std::vector<float> result = model.run();
    ASSERT_EQ(result.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) ASSERT_NEAR(result[i], expected[i], 1e-6f) << n;
  }
  const auto figures = cpu::threadingOf(*model.graph.state()->compiled);
  ASSERT_TRUE(figures.has_value());
  EXPECT_EQ(figures->dispatches, 30u);
  // Both modes were measured (the probes).
  EXPECT_TRUE(figures->team.has_value() || figures->leftTeam > 0)
      << figures->dispatches << " " << figures->aloneDispatches << " " << figures->leftTeam;
  EXPECT_TRUE(figures->alone.has_value())
      << figures->dispatches << " " << figures->aloneDispatches << " " << figures->leftTeam;
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
