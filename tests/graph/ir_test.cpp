// The typed IR: op types and their spec names, the use-def index build() leaves, liveness and the
// arena planner, and the limits table's fail-closed lookups.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "api/graph_state.h"
#include "graph/ir.h"
#include "graph/memory_plan.h"
#include "graph/op_limits.h"
#include "test_helpers.h"

namespace webnn {
namespace {

using graph::OpType;

TEST(OpType, EverySpecNameRoundTrips) {
  std::set<std::string_view> names;
  for (OpType type : graph::allOpTypes()) {
    const std::string_view name = graph::specName(type);
    EXPECT_TRUE(names.insert(name).second) << name;
    ASSERT_EQ(graph::opTypeFromSpecName(name), type) << name;
  }
  EXPECT_EQ(names.size(), graph::kOpTypeCount);
  EXPECT_EQ(graph::specName(OpType::Conv2d), "conv2d");
  EXPECT_EQ(graph::specName(OpType::GatherND), "gatherND");
  EXPECT_FALSE(graph::opTypeFromSpecName("convolution"));
  EXPECT_FALSE(graph::opTypeFromSpecName(""));
}

TEST(OpType, EveryOpHasSpecLimitsAndAReferenceKernelLimit) {
  // The spec table covers every op type; the reference backend supports all of them.
  const auto& spec = graph::specOpLimits();
  MLContext context = createContext({.backend = "reference"});
  const MLOpSupportLimits limits = context.opSupportLimits();
  for (OpType type : graph::allOpTypes()) {
    const auto* operands = spec.find(type);
    ASSERT_NE(operands, nullptr) << graph::specName(type);
    EXPECT_TRUE(operands->contains("output") || type == OpType::Split || type == OpType::Gru ||
                type == OpType::GruCell || type == OpType::Lstm || type == OpType::LstmCell)
        << graph::specName(type) << " has no output limits";
    EXPECT_TRUE(limits.ops.contains(std::string(graph::specName(type)))) << graph::specName(type);
  }
}

TEST(OpLimits, UnknownOperandNameFailsClosed) {
  graph::OpLimitsTable table = graph::specOpLimits();
  table.backendName = "test";
  const graph::OpCall call{OpType::Relu, "r", &table};
  const MLOperandDescriptor descriptor{MLOperandDataType::Float32, {2}};
  EXPECT_NO_THROW(graph::checkOperandLimits(call, "input", descriptor));
  testing::expectError([&] { graph::checkOperandLimits(call, "inptu", descriptor); },
                       Error::Kind::TypeError, {"relu 'r'", "no limits for operand 'inptu'"});
  table.erase(OpType::Relu);
  testing::expectError([&] { graph::checkOperandLimits(call, "input", descriptor); },
                       Error::Kind::NotSupportedError,
                       {"relu 'r'", "not supported by the test backend"});
}

TEST(OpLimits, UnknownOpNameInSupportLimitsIsRefused) {
  MLOpSupportLimits limits;
  limits.ops["conv3d"]["input"] = graph::anyRank(graph::types::kFloat);
  testing::expectError([&] { graph::fromSupportLimits(limits, "odd"); }, Error::Kind::UnknownError,
                       {"conv3d", "odd"});
}

TEST(OpLimits, MaxTensorByteLengthIsEnforcedPerOperand) {
  graph::OpLimitsTable table = graph::specOpLimits();
  table.maxTensorByteLength = 64;
  const graph::OpCall call{OpType::Relu, "", &table};
  EXPECT_NO_THROW(graph::checkOperandLimits(call, "input", {MLOperandDataType::Float32, {16}}));
  testing::expectError(
      [&] {
        graph::checkOperandLimits(call, "input", {MLOperandDataType::Float32, {17}});
      },
      Error::Kind::TypeError, {"68 bytes", "maxTensorByteLength 64"});
}

// A graph: x -> relu -> a; a + x -> b; b * a -> out (a lives until the last op).
struct SmallGraph {
  MLContext context = createContext({.backend = "reference"});
  MLGraphBuilder builder{context};
  MLGraph graph;
  SmallGraph() {
    MLOperand x = builder.input("x", {MLOperandDataType::Float32, {4}});
    MLOperand unused =
        builder.constant({MLOperandDataType::Float32, {1024}}, std::vector<std::byte>(4096));
    (void)builder.neg(unused);
    MLOperand a = builder.relu(x);
    MLOperand b = builder.add(a, x);
    graph = builder.build({{"out", builder.mul(b, a)}});
  }
  const graph::GraphIR& ir() const { return *graph.state()->ir; }
};

TEST(UseDefIndex, BuildIndexesProducersAndConsumers) {
  SmallGraph g;
  const auto& ir = g.ir();
  ASSERT_EQ(ir.operations.size(), 3u);  // the neg of the unused constant is dropped
  ASSERT_FALSE(ir.uses.empty());
  const auto x = ir.inputs.at("x");
  const auto a = ir.operations[0].outputs[0];
  const auto b = ir.operations[1].outputs[0];
  EXPECT_EQ(ir.producerOf(x), nullptr);
  EXPECT_EQ(ir.producerOf(a), &ir.operations[0]);
  EXPECT_EQ(ir.operations[0].type, OpType::Relu);
  EXPECT_EQ(std::vector<uint32_t>(ir.consumersOf(x).begin(), ir.consumersOf(x).end()),
            (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(std::vector<uint32_t>(ir.consumersOf(a).begin(), ir.consumersOf(a).end()),
            (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(std::vector<uint32_t>(ir.consumersOf(b).begin(), ir.consumersOf(b).end()),
            (std::vector<uint32_t>{2}));
  EXPECT_TRUE(ir.isGraphOutput(ir.outputs.at("out")));
}

TEST(UseDefIndex, UnusedClassicConstantsAreReleasedAtBuild) {
  SmallGraph g;
  for (const auto& operand : g.ir().operands) {
    if (operand->kind == graph::OperandKind::Constant) {
      EXPECT_FALSE(operand->data) << "the unused constant's bytes are still held";
      EXPECT_FALSE(g.ir().isUsed(operand->id));
    }
  }
  EXPECT_EQ(g.context.memoryStats().constantBytes, 0u);
}

TEST(MemoryPlan, LifetimesOfASmallGraph) {
  SmallGraph g;
  const auto lifetimes = graph::intermediateLifetimes(g.ir());
  ASSERT_EQ(lifetimes.size(), 2u);  // a and b; out is a graph output
  EXPECT_EQ(lifetimes[0].firstDefinition, 0u);
  EXPECT_EQ(lifetimes[0].lastUse, 2u);
  EXPECT_EQ(lifetimes[1].firstDefinition, 1u);
  EXPECT_EQ(lifetimes[1].lastUse, 2u);
  const auto plan = graph::planArena(lifetimes, g.ir().operands.size());
  EXPECT_TRUE(graph::isValidPlan(lifetimes, plan));
  EXPECT_EQ(plan.arenaBytes, 128u);  // two 16-byte tensors, each in its own 64-byte slot
}

TEST(MemoryPlan, ReusesTheRangesOfDeadOperands) {
  // A chain: each intermediate dies when the next is made, so two slots suffice.
  std::vector<graph::Lifetime> chain;
  for (uint32_t i = 0; i < 10; ++i) chain.push_back({i, i, i + 1, 1000});
  const auto plan = graph::planArena(chain, 10, 64);
  EXPECT_TRUE(graph::isValidPlan(chain, plan));
  EXPECT_EQ(plan.arenaBytes, 2u * 1024);
}

TEST(MemoryPlan, RandomLifetimesNeverOverlapAndStayNearTheLowerBound) {
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    const uint32_t count = 1 + random() % 40;
    std::vector<graph::Lifetime> lifetimes;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t first = random() % 30;
      lifetimes.push_back(
          {i, first, first + static_cast<uint32_t>(random() % 10), 1 + random() % 5000});
    }
    const auto plan = graph::planArena(lifetimes, count, 64);
    ASSERT_TRUE(graph::isValidPlan(lifetimes, plan)) << "round " << round;
    // No plan can use less than the bytes alive at the busiest step.
    uint64_t busiest = 0;
    for (uint32_t step = 0; step < 40; ++step) {
      uint64_t alive = 0;
      for (const auto& l : lifetimes) {
        if (l.firstDefinition <= step && step <= l.lastUse) alive += l.byteLength;
      }
      busiest = std::max(busiest, alive);
    }
    EXPECT_GE(plan.arenaBytes, busiest);
    uint64_t total = 0;
    for (const auto& l : lifetimes) total += (l.byteLength + 63) / 64 * 64;
    EXPECT_LE(plan.arenaBytes, total);
  }
}

TEST(MemoryPlan, InvalidPlansAreDetected) {
  std::vector<graph::Lifetime> two = {{0, 0, 2, 100}, {1, 1, 3, 100}};
  graph::ArenaPlan plan;
  plan.offsets = {0, 50};
  plan.arenaBytes = 200;
  EXPECT_FALSE(graph::isValidPlan(two, plan));
  plan.offsets = {0, 100};
  EXPECT_TRUE(graph::isValidPlan(two, plan));
  plan.arenaBytes = 150;
  EXPECT_FALSE(graph::isValidPlan(two, plan));
}

}  // namespace
}  // namespace webnn
