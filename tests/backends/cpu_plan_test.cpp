// The cpu backend's plan (backends/cpu/plan.h) and op table (backends/cpu/op_table.h), checked on
// what the compiler makes of small graphs: where each operation went, why one fell back or was not
// fused, and that the arena keeps apart what one step reads and writes.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/op_table.h"
#include "backends/cpu/plan.h"
#include "graph/memory_plan.h"
#include "test_helpers.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace {

constexpr auto F32 = MLOperandDataType::Float32;
constexpr auto F16 = MLOperandDataType::Float16;
using Kind = cpu::OperationPlacement::Kind;

const cpu::CpuPlan& planOf(const MLGraph& graph) {
  const cpu::CpuPlan* plan = cpu::planOf(*graph.state()->compiled);
  if (!plan) throw std::logic_error("not a cpu graph");
  return *plan;
}

const graph::GraphIR& irOf(const MLGraph& graph) {
  return *cpu::compiledIrOf(*graph.state()->compiled);
}

// The index of the only step of these types.
size_t stepOf(const cpu::CpuPlan& plan, const std::string& types) {
  size_t found = plan.steps.size();
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    if (plan.steps[s].types != types) continue;
    EXPECT_EQ(found, plan.steps.size()) << "two steps " << types;
    found = s;
  }
  if (found == plan.steps.size()) ADD_FAILURE() << "no step " << types;
  return found;
}

// The IR operations of this type.
std::vector<uint32_t> operationsOf(const graph::GraphIR& ir, graph::OpType type) {
  std::vector<uint32_t> found;
  for (uint32_t i = 0; i < ir.operations.size(); ++i) {
    if (ir.operations[i].type == type) found.push_back(i);
  }
  return found;
}

MLOperand filled(MLGraphBuilder& b, MLOperandDescriptor descriptor, float value = 0.125f) {
  std::vector<float> values(descriptor.elementCount(), value);
  return b.constant(descriptor, testing::bytesOf(values));
}

TEST(CpuOpTable, EveryImplementedOpNamesItsTypesAndOnlyProducersAnchorAChain) {
  for (graph::OpType type : graph::allOpTypes()) {
    const cpu::CpuOpEntry& entry = cpu::cpuOpEntry(type);
    const std::string name(graph::specName(type));
    if (!entry.create) {
      EXPECT_TRUE(entry.dataTypes.empty()) << name;
      EXPECT_EQ(entry.fusion, cpu::FusionRole::None) << name;
      EXPECT_FALSE(entry.readsBlockedLayouts) << name;
      continue;
    }
    EXPECT_FALSE(entry.dataTypes.empty()) << name;
    if (entry.fusion == cpu::FusionRole::Anchor) {
      EXPECT_TRUE(type == graph::OpType::Conv2d || type == graph::OpType::Matmul ||
                  type == graph::OpType::Gemm)
          << name;
    }
  }
  // The ops of the fast path today (a change here is a change of the fast path: see
  // tests/backends/cpu_known_fallbacks.inc for what runs on the reference kernel).
  EXPECT_TRUE(cpu::cpuOpEntry(graph::OpType::Conv2d).readsBlockedLayouts);
  EXPECT_FALSE(cpu::cpuOpEntry(graph::OpType::Matmul).readsBlockedLayouts);
  EXPECT_EQ(cpu::cpuOpEntry(graph::OpType::Relu).fusion, cpu::FusionRole::PostOp);
  EXPECT_EQ(cpu::cpuOpEntry(graph::OpType::Softmax).fusion, cpu::FusionRole::None);
  EXPECT_NE(cpu::cpuOpEntry(graph::OpType::L2Pool2d).create, nullptr);
  // Integer reductions run on the reference kernel (the op suite's list is float32 and float16).
  EXPECT_FALSE(
      cpu::cpuOpEntry(graph::OpType::ReduceSum).dataTypes.contains(MLOperandDataType::Int32));
}

TEST(CpuPlan, EachOperationIsPlacedInTheStepThatRunsIt) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand x = b.input("x", {F32, {1, 8, 10, 10}});
  MLOperand convolved = b.conv2d(x, filled(b, {F32, {16, 8, 3, 3}}), {.padding = {1, 1, 1, 1}});
  MLOperand activated = b.relu(convolved);
  MLOperand pooled =
      b.l2Pool2d(activated, {.windowDimensions = std::vector<uint32_t>{2, 2}, .strides = {2, 2}});
  // An int32 reduction: no int32 implementation of the cpu backend's own.
  MLOperand counted = b.reduceSum(b.cast(pooled, MLOperandDataType::Int32));
  MLGraph graph = b.build({{"y", counted}});
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  ASSERT_EQ(plan.operations.size(), ir.operations.size());

  const size_t convStep = stepOf(plan, "conv2d+relu");
  const size_t poolStep = stepOf(plan, "l2Pool2d");
  const size_t sumStep = stepOf(plan, "reduceSum");
  const uint32_t conv = operationsOf(ir, graph::OpType::Conv2d).at(0);
  const uint32_t relu = operationsOf(ir, graph::OpType::Relu).at(0);
  const uint32_t pool = operationsOf(ir, graph::OpType::L2Pool2d).at(0);
  const uint32_t sum = operationsOf(ir, graph::OpType::ReduceSum).at(0);
  EXPECT_EQ(plan.operations[conv].kind, Kind::Step);
  EXPECT_EQ(plan.operations[conv].step, convStep);
  EXPECT_EQ(plan.operations[relu].kind, Kind::Fused);
  EXPECT_EQ(plan.operations[relu].step, convStep);
  EXPECT_EQ(plan.steps[convStep].operations, (std::vector<uint32_t>{conv, relu}));
  EXPECT_EQ(plan.operations[pool].kind, Kind::Step);
  EXPECT_EQ(plan.operations[pool].step, poolStep);
  EXPECT_EQ(plan.operations[sum].kind, Kind::Step);
  EXPECT_EQ(plan.operations[sum].step, sumStep);

  EXPECT_FALSE(plan.steps[convStep].isFallback());
  EXPECT_EQ(plan.implementationOf(relu), "fused: " + plan.steps[convStep].implementation);
  EXPECT_FALSE(plan.steps[poolStep].isFallback());
  ASSERT_TRUE(plan.steps[sumStep].isFallback());
  EXPECT_NE(plan.steps[sumStep].fallbackReason.find("no int32 implementation"), std::string::npos)
      << plan.steps[sumStep].fallbackReason;
  // describe() names the fallback and its reason.
  const auto lines = plan.describe();
  ASSERT_EQ(lines.size(), plan.steps.size());
  EXPECT_NE(lines[sumStep].find("reference fallback (" + plan.steps[sumStep].fallbackReason),
            std::string::npos)
      << lines[sumStep];
}

TEST(CpuPlan, AFloat16GraphRunsWidenedWithCastsAtItsInputsAndOutputs) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand x = b.input("x", {F16, {1, 8, 6, 6}});
  MLOperand filter = b.constant({F16, {8, 8, 3, 3}}, std::vector<std::byte>(8 * 8 * 9 * 2));
  MLOperand y = b.softmax(b.reshape(b.relu(b.conv2d(x, filter)), {8, 16}), 1);
  MLGraph graph = b.build({{"y", y}});
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  EXPECT_NE(&ir, graph.state()->ir.get());  // the widened IR
  ASSERT_GE(plan.steps.size(), 4u);
  for (const cpu::PlanStep& step : plan.steps) {
    EXPECT_FALSE(step.isFallback()) << step.types << ": " << step.fallbackReason;
  }
  EXPECT_EQ(plan.steps.front().types, "cast");
  EXPECT_EQ(plan.steps.back().types, "cast");
  EXPECT_EQ(ir.descriptor(ir.inputs.at("x")).dataType, F16);
  EXPECT_EQ(ir.descriptor(ir.outputs.at("y")).dataType, F16);
  // Everything between the casts is float32.
  const uint32_t conv = operationsOf(ir, graph::OpType::Conv2d).at(0);
  EXPECT_EQ(ir.descriptor(ir.operations[conv].inputs[0]).dataType, F32);
  EXPECT_EQ(ir.descriptor(ir.operations[conv].inputs[1]).dataType, F32);
  EXPECT_EQ(ir.descriptor(ir.operations[conv].outputs[0]).dataType, F32);
  // One implementation per operation of the graph as built.
  EXPECT_EQ(cpu::operationImplementations(*graph.state()->compiled).size(),
            graph.state()->ir->operations.size());
}

TEST(CpuPlan, AResidualAddAfterAConvolutionSaysWhyItWasNotFused) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand x = b.input("x", {F32, {1, 16, 8, 8}});
  MLOperand convolved = b.conv2d(x, filled(b, {F32, {16, 16, 3, 3}}), {.padding = {1, 1, 1, 1}});
  MLGraph graph = b.build({{"y", b.add(convolved, x)}});
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  const uint32_t add = operationsOf(ir, graph::OpType::Add).at(0);
  EXPECT_EQ(plan.operations[add].kind, Kind::Step);
  EXPECT_EQ(plan.steps[plan.operations[add].step].types, "add");
  EXPECT_NE(plan.operations[add].notFused.find("whole-tensor"), std::string::npos)
      << plan.operations[add].notFused;
  const uint32_t conv = operationsOf(ir, graph::OpType::Conv2d).at(0);
  EXPECT_TRUE(plan.operations[conv].notFused.empty());
}

// An inverted residual block (MobileNetV3, PaddleOCR cls): x -> conv2d -> conv2d, then
// relu(add(that, x)). x is read by the block's first conv2d, in an earlier step, and by the add:
// the block's last conv2d sums into x's buffer (a sum post-op) and writes its result there.
TEST(CpuPlan, AConvolutionSumsIntoAResidualNothingReadsAfter) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand input = b.input("input", {F32, {1, 8, 12, 12}});
  MLOperand x = b.conv2d(input, filled(b, {F32, {16, 8, 3, 3}}), {.padding = {1, 1, 1, 1}});
  MLOperand expanded = b.relu(b.conv2d(x, filled(b, {F32, {32, 16, 1, 1}})));
  MLOperand projected = b.conv2d(expanded, filled(b, {F32, {16, 32, 1, 1}}));
  MLOperand block = b.relu(b.add(projected, x));
  MLGraph graph = b.build({{"y", b.averagePool2d(block)}});
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  const size_t summing = stepOf(plan, "conv2d+add+relu");
  const cpu::PlanStep& step = plan.steps[summing];
  const graph::OperandId residual =
      ir.operations[operationsOf(ir, graph::OpType::Conv2d).at(0)].outputs[0];
  ASSERT_TRUE(step.outputInto.has_value());
  EXPECT_EQ(*step.outputInto, residual);
  EXPECT_EQ(step.implementation.find("gemm"), std::string::npos) << step.implementation;
  // One buffer for the two, kept until the pooling read the result.
  const graph::OperandId output = step.writes.front();
  EXPECT_EQ(plan.arena.offsets[output], plan.arena.offsets[residual]);
  EXPECT_NE(plan.arena.offsets[residual], graph::kNotPlanned);
  for (const cpu::PlanStep& other : plan.steps) EXPECT_NE(other.types, "add");
}

// A convTranspose2d whose stride equals its kernel (no padding) writes non-overlapping patches:
// with few channels it runs on the patch kernel, not on oneDNN's gemm (which allocates its packing
// buffers at every call); with padding the patches overlap, and with many channels the gemm packs
// better: oneDNN runs those.
TEST(CpuPlan, AConvTransposeOfNonOverlappingPatchesRunsThePatchKernel) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand input = b.input("input", {F32, {1, 8, 10, 24}});
  MLOperand patches = b.convTranspose2d(input, filled(b, {F32, {8, 4, 2, 2}}), {.strides = {2, 2}});
  MLOperand overlapping = b.convTranspose2d(input, filled(b, {F32, {8, 4, 3, 3}}),
                                            {.padding = {1, 1, 1, 1}, .strides = {2, 2}});
  MLOperand wide = b.convTranspose2d(b.input("wide", {F32, {1, 64, 4, 24}}),
                                     filled(b, {F32, {64, 64, 2, 2}}), {.strides = {2, 2}});
  MLGraph graph = b.build({{"patches", patches}, {"overlapping", overlapping}, {"wide", wide}});
  const cpu::CpuPlan& plan = planOf(graph);
  std::vector<std::string> implementations;
  for (const cpu::PlanStep& step : plan.steps) {
    if (step.types == "convTranspose2d") implementations.push_back(step.implementation);
  }
  ASSERT_EQ(implementations.size(), 3u);
  EXPECT_EQ(std::count(implementations.begin(), implementations.end(),
                       "cpu patch convTranspose2d kernel"),
            1)
      << implementations[0] << ", " << implementations[1] << ", " << implementations[2];
}

// Where the residual is read after the add, or the chain ends in a graph output (the caller's
// tensor, not the residual's buffer), or the residual is the summing step's own input, the add
// stays a step and says why.
TEST(CpuPlan, AResidualReadLaterOrAGraphOutputIsNotSummedInto) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand input = b.input("input", {F32, {1, 16, 8, 8}});
  MLOperand x = b.conv2d(input, filled(b, {F32, {16, 16, 3, 3}}), {.padding = {1, 1, 1, 1}});
  MLOperand readLater = b.add(b.conv2d(x, filled(b, {F32, {16, 16, 1, 1}})), x);
  MLOperand later = b.mul(readLater, x);  // x read after the add
  MLOperand x2 = b.conv2d(later, filled(b, {F32, {16, 16, 1, 1}}));
  MLOperand toOutput = b.add(b.conv2d(x2, filled(b, {F32, {16, 16, 1, 1}})), x2);
  MLGraph graph = b.build({{"y", toOutput}});
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  const auto adds = operationsOf(ir, graph::OpType::Add);
  ASSERT_EQ(adds.size(), 2u);
  for (uint32_t add : adds) {
    EXPECT_EQ(plan.operations[add].kind, Kind::Step);
    EXPECT_EQ(plan.steps[plan.operations[add].step].types, "add");
  }
  EXPECT_NE(plan.operations[adds[0]].notFused.find("read after the add"), std::string::npos)
      << plan.operations[adds[0]].notFused;
  EXPECT_NE(plan.operations[adds[1]].notFused.find("graph output"), std::string::npos)
      << plan.operations[adds[1]].notFused;
  for (const cpu::PlanStep& step : plan.steps) EXPECT_FALSE(step.outputInto.has_value());
}

// A residual in a plain layout (a concat's result): the conv2d would have to write plain nchw, on
// which oneDNN runs a gemm convolution; the chain then stops before the add (the conv2d keeps its
// batchNormalization), and the add runs as a step that says why.
TEST(CpuPlan, APlainResidualEndsTheChainBeforeTheAdd) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand x =
      b.concat({b.input("a", {F32, {1, 16, 6, 6}}), b.input("b", {F32, {1, 16, 6, 6}})}, 1);
  MLOperand y = b.batchNormalization(b.conv2d(x, filled(b, {F32, {32, 32, 1, 1}})),
                                     filled(b, {F32, {32}}, 0.5f), filled(b, {F32, {32}}, 2.0f));
  MLGraph graph = b.build({{"y", b.averagePool2d(b.relu(b.add(y, x)))}});
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  const uint32_t add = operationsOf(ir, graph::OpType::Add).at(0);
  EXPECT_EQ(plan.operations[add].kind, Kind::Step);
  EXPECT_NE(plan.operations[add].notFused.find("not summed into"), std::string::npos)
      << plan.operations[add].notFused;
  stepOf(plan, "conv2d+batchNormalization");
  for (const cpu::PlanStep& step : plan.steps) EXPECT_FALSE(step.outputInto.has_value());
}

// A squeeze-and-excitation block: the gate, [1, C, 1, 1] in the blocked layout its conv2d wrote,
// is read as the plain vector it is (every element where the plain layout puts it), so the
// multiply runs on the blocked convolution result without reorders, the shortcut add after it
// as its post-op.
TEST(CpuPlan, ASqueezeAndExcitationGateNeedsNoReorder) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand x = b.input("x", {F32, {1, 8, 10, 10}});
  MLOperand c = b.conv2d(x, filled(b, {F32, {24, 8, 3, 3}}), {.padding = {1, 1, 1, 1}});
  MLOperand gate = b.hardSigmoid(b.conv2d(b.averagePool2d(c), filled(b, {F32, {24, 24, 1, 1}})));
  MLOperand shortcut = b.add(c, b.mul(c, gate));
  MLGraph graph = b.build({{"y", b.conv2d(shortcut, filled(b, {F32, {8, 24, 1, 1}}))}});
  const cpu::CpuPlan& plan = planOf(graph);
  for (const cpu::PlanStep& step : plan.steps) {
    EXPECT_NE(step.types, "reorder") << "of " << step.label;
    EXPECT_TRUE(step.plainViews.empty()) << step.types;
  }
  // The shortcut add is a binary post-op of the multiply.
  const cpu::PlanStep& fused = plan.steps[stepOf(plan, "mul+add")];
  EXPECT_EQ(fused.implementation.rfind("ref", 0), std::string::npos) << fused.implementation;
}

TEST(CpuPlan, ATransposeAMatmulReadsThroughStridesIsAView) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand x = b.input("x", {F32, {2, 16, 8}});
  MLOperand other = b.input("w", {F32, {2, 16, 4}});
  MLOperand transposed = b.transpose(x, {.permutation = std::vector<uint32_t>{0, 2, 1}});
  MLGraph graph = b.build({{"y", b.matmul(transposed, other)}});
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  const uint32_t transpose = operationsOf(ir, graph::OpType::Transpose).at(0);
  EXPECT_EQ(plan.operations[transpose].kind, Kind::View);
  EXPECT_EQ(plan.implementationOf(transpose), "view: through strides of a matmul");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].types, "matmul");
}

TEST(CpuPlan, AttentionHeadsOfABatchOfOneAreViewsOnBrgemm) {
  // Q [1, 8, 32] split into 4 heads as [1, 4, 8, 8] (oneDNN's acbd) times K's heads transposed
  // (adbc): oneDNN 2.6 matches those layouts on every stride, the batch's of 1 too (256, not 32),
  // and runs the product on brgemm, as it runs the plain one.
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  auto heads = [&](const char* name, std::vector<uint32_t> permutation) {
    return b.transpose(b.reshape(b.input(name, {F32, {1, 8, 32}}), {1, 8, 4, 8}),
                       {.permutation = std::move(permutation)});
  };
  MLOperand scores = b.matmul(heads("q", {0, 2, 1, 3}), heads("k", {0, 2, 3, 1}));
  MLGraph graph = b.build({{"y", scores}});
  MLGraphBuilder plainBuilder(context);
  MLGraph plainGraph = plainBuilder.build(
      {{"y", plainBuilder.matmul(plainBuilder.input("q", {F32, {1, 4, 8, 8}}),
                                 plainBuilder.input("k", {F32, {1, 4, 8, 8}}))}});
  const std::string& plainImplementation = planOf(plainGraph).steps.at(0).implementation;
  if (plainImplementation.rfind("brg", 0) != 0) {
    GTEST_SKIP() << "no brgemm matmul here: " << plainImplementation;
  }
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  for (graph::OpType type : {graph::OpType::Reshape, graph::OpType::Transpose}) {
    for (uint32_t operation : operationsOf(ir, type)) {
      EXPECT_EQ(plan.operations[operation].kind, Kind::View) << plan.operations[operation].notFused;
    }
  }
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].implementation, plainImplementation);
}

TEST(CpuPlan, AViewOnWhichTheMatmulWouldLeaveBrgemmRunsAndSaysWhy) {
  // [2, 6, 10] written as [6, 2, 10] (strides 10, 20, 1): oneDNN 2.6 runs that on its gemm-based
  // matmul, JIT-compiled at the first dispatch, where the plain product runs on brgemm. The
  // transpose runs as a step and says why it is not a view.
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand x = b.input("x", {F32, {2, 6, 8}});
  MLOperand y = b.relu(b.matmul(x, filled(b, {F32, {8, 10}})));
  MLOperand swapped = b.transpose(y, {.permutation = std::vector<uint32_t>{1, 0, 2}});
  MLGraph graph = b.build({{"y", b.sigmoid(swapped)}});
  const cpu::CpuPlan& plan = planOf(graph);
  const graph::GraphIR& ir = irOf(graph);
  const size_t matmulStep = stepOf(plan, "matmul+relu");
  if (plan.steps[matmulStep].implementation.rfind("brg", 0) != 0) {
    GTEST_SKIP() << "no brgemm matmul here: " << plan.steps[matmulStep].implementation;
  }
  const uint32_t transpose = operationsOf(ir, graph::OpType::Transpose).at(0);
  EXPECT_EQ(plan.operations[transpose].kind, Kind::Step);
  const std::string& why = plan.operations[transpose].notFused;
  EXPECT_EQ(why.rfind("not a view: ", 0), 0u) << why;
  EXPECT_NE(why.find("gemm"), std::string::npos) << why;
  EXPECT_NE(why.find(plan.steps[matmulStep].implementation), std::string::npos) << why;
  std::vector<std::string> types;
  for (const auto& step : plan.steps) types.push_back(step.types);
  EXPECT_EQ(types, (std::vector<std::string>{"matmul+relu", "transpose", "sigmoid"}));
  // describe() says it on the transpose's step.
  const auto lines = plan.describe();
  ASSERT_EQ(lines.size(), plan.steps.size());
  const size_t transposeStep = plan.operations[transpose].step;
  EXPECT_NE(lines[transposeStep].find(why), std::string::npos) << lines[transposeStep];
}

TEST(CpuPlan, TheArenaKeepsApartWhatAStepReadsAndWrites) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  MLOperand x = b.input("x", {F32, {1, 3, 16, 16}});
  MLOperand value = x;
  uint32_t channels = 3;
  for (uint32_t layer = 0; layer < 4; ++layer) {
    const uint32_t next = 8 + 8 * layer;
    value = b.relu(
        b.conv2d(value, filled(b, {F32, {next, channels, 3, 3}}), {.padding = {1, 1, 1, 1}}));
    if (layer % 2 == 1) value = b.add(value, b.sigmoid(value));
    channels = next;
  }
  MLOperand pooled = b.averagePool2d(value);
  MLGraph graph = b.build({{"y", b.softmax(b.reshape(pooled, {1, channels}), 1)}});
  const cpu::CpuPlan& plan = planOf(graph);
  ASSERT_EQ(plan.arena.offsets.size(), plan.tensorCount);
  EXPECT_TRUE(graph::isValidPlan(plan.lifetimes, plan.arena));
  std::vector<uint64_t> bytes(plan.tensorCount, 0);
  for (const auto& lifetime : plan.lifetimes) bytes[lifetime.operand] = lifetime.byteLength;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const cpu::PlanStep& step = plan.steps[s];
    for (graph::OperandId written : step.writes) {
      if (plan.arena.offsets[written] == graph::kNotPlanned) continue;
      const uint64_t begin = plan.arena.offsets[written];
      const uint64_t end = begin + bytes[written];
      EXPECT_LE(end, plan.arena.arenaBytes);
      for (graph::OperandId read : step.reads) {
        if (read == written || plan.arena.offsets[read] == graph::kNotPlanned) continue;
        const uint64_t readBegin = plan.arena.offsets[read];
        const uint64_t readEnd = readBegin + bytes[read];
        EXPECT_TRUE(end <= readBegin || readEnd <= begin)
            << "step " << s << " (" << step.types << ") writes " << written << " over " << read;
      }
    }
  }
  // Some intermediates share bytes: the arena is smaller than all of them side by side.
  uint64_t total = 0;
  for (uint64_t size : bytes) total += size;
  EXPECT_LT(plan.arena.arenaBytes, total);
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
