// lstm, lstmCell, gru, gruCell on the cpu backend's kernel of its own (ops/recurrent.cpp): on
// graphs the op suite may not build (both directions with the sequence, peepholes, initial states,
// the ifgo / rzn layouts, batch 3, 17 steps, weights as hollow constants filled after build or as
// graph inputs), every output equals the reference backend's (relative L2 <= 1e-5) and no step of
// the plan falls back to the reference kernel.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/plan.h"
#include "test_helpers.h"
#include "webnn/webnn.h"

namespace webnn {
namespace {

using Type = MLOperandDataType;
using Direction = MLRecurrentNetworkDirection;

// How a recurrent op's weights (and biases, peepholes) reach the graph.
enum class WeightsAs { Constants, HollowConstants, Inputs };

std::vector<float> valuesFor(const std::string& name, size_t count) {
  std::vector<float> values(count);
  std::mt19937 random(static_cast<uint32_t>(std::hash<std::string>{}(name)));
  std::uniform_real_distribution<float> uniform(-0.6f, 0.6f);
  for (auto& value : values) value = uniform(random);
  return values;
}

// Builds one graph on a backend: `data` makes an operand of deterministic values named `name`
// (the input sequence and states are always graph inputs, weights as `weightsAs` says).
class GraphMaker {
 public:
  GraphMaker(MLGraphBuilder& builder, WeightsAs weightsAs)
      : builder_(builder), weightsAs_(weightsAs) {}

  MLOperand input(const std::string& name, std::vector<uint32_t> shape) {
    const MLOperandDescriptor descriptor{Type::Float32, std::move(shape)};
    inputs_[name] = valuesFor(name, descriptor.elementCount());
    return builder_.input(name, descriptor);
  }
  MLOperand weight(const std::string& name, std::vector<uint32_t> shape) {
    const MLOperandDescriptor descriptor{Type::Float32, std::move(shape)};
    std::vector<float> values = valuesFor(name, descriptor.elementCount());
    switch (weightsAs_) {
      case WeightsAs::Constants:
        return builder_.constant(descriptor, testing::bytesOf(values));
      case WeightsAs::HollowConstants: {
        MLOperand operand = builder_.constant(descriptor, {.label = name});
        hollow_.push_back({operand, std::move(values)});
        return operand;
      }
      case WeightsAs::Inputs:
        inputs_[name] = std::move(values);
        return builder_.input(name, descriptor);
    }
    return {};
  }

  // Builds the graph, fills the hollow constants and runs it: every output by name.
  std::map<std::string, std::vector<float>> run(MLContext& context, const MLNamedOperands& outputs,
                                                MLGraph& graph) {
    graph = builder_.build(outputs);
    for (const auto& [operand, values] : hollow_) {
      graph.setConstantData(operand, testing::bytesOf(values));
    }
    std::map<std::string, std::vector<float>> results;
    for (const auto& [name, operand] : outputs) {
      results[name] = testing::runFloat(context, graph, inputs_, name);
    }
    return results;
  }

 private:
  MLGraphBuilder& builder_;
  WeightsAs weightsAs_;
  std::map<std::string, std::vector<float>> inputs_;
  std::vector<std::pair<MLOperand, std::vector<float>>> hollow_;
};

using GraphBody = std::function<MLNamedOperands(GraphMaker&, MLGraphBuilder&)>;

double relativeL2(const std::vector<float>& actual, const std::vector<float>& expected) {
  double difference = 0, norm = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const double delta = double{actual[i]} - double{expected[i]};
    difference += delta * delta;
    norm += double{expected[i]} * double{expected[i]};
  }
  return std::sqrt(difference / std::max(norm, 1e-30));
}

// Runs `body` on the cpu and the reference backends: equal outputs, and no fallback on cpu.
void expectCpuMatchesReference(const GraphBody& body, WeightsAs weightsAs) {
  std::map<std::string, std::vector<float>> results[2];
  const char* backends[2] = {"cpu", "reference"};
  for (int i = 0; i < 2; ++i) {
    MLContext context = createContext({.backend = backends[i]});
    MLGraphBuilder builder(context);
    GraphMaker maker(builder, weightsAs);
    const MLNamedOperands outputs = body(maker, builder);
    MLGraph graph;
    results[i] = maker.run(context, outputs, graph);
    if (i == 0) {
      const cpu::CpuPlan* plan = cpu::planOf(*graph.state()->compiled);
      ASSERT_NE(plan, nullptr);
      for (const auto& step : plan->steps) {
        EXPECT_FALSE(step.isFallback()) << step.types << ": " << step.fallbackReason;
      }
    }
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  for (const auto& [name, expected] : results[1]) {
    const auto& actual = results[0].at(name);
    ASSERT_EQ(actual.size(), expected.size()) << name;
    EXPECT_LE(relativeL2(actual, expected), 1e-5) << "output " << name;
  }
}

constexpr uint32_t kSteps = 17, kBatch = 3, kInput = 5, kHidden = 6;

MLNamedOperands named(const std::vector<MLOperand>& operands) {
  MLNamedOperands outputs;
  for (size_t i = 0; i < operands.size(); ++i) outputs["out" + std::to_string(i)] = operands[i];
  return outputs;
}

GraphBody lstmBody(Direction direction, MLLstmWeightLayout layout, bool everyOption) {
  return [=](GraphMaker& maker, MLGraphBuilder& builder) {
    const uint32_t directions = direction == Direction::Both ? 2 : 1;
    auto x = maker.input("x", {kSteps, kBatch, kInput});
    auto w = maker.weight("w", {directions, 4 * kHidden, kInput});
    auto r = maker.weight("r", {directions, 4 * kHidden, kHidden});
    MLLstmOptions options{.returnSequence = true, .direction = direction, .layout = layout};
    if (everyOption) {
      options.bias = maker.weight("b", {directions, 4 * kHidden});
      options.recurrentBias = maker.weight("rb", {directions, 4 * kHidden});
      options.peepholeWeight = maker.weight("p", {directions, 3 * kHidden});
      options.initialHiddenState = maker.input("h0", {directions, kBatch, kHidden});
      options.initialCellState = maker.input("c0", {directions, kBatch, kHidden});
    }
    return named(builder.lstm(x, w, r, kSteps, kHidden, options));
  };
}

GraphBody gruBody(Direction direction, MLGruWeightLayout layout, bool resetAfter,
                  bool everyOption) {
  return [=](GraphMaker& maker, MLGraphBuilder& builder) {
    const uint32_t directions = direction == Direction::Both ? 2 : 1;
    auto x = maker.input("x", {kSteps, kBatch, kInput});
    auto w = maker.weight("w", {directions, 3 * kHidden, kInput});
    auto r = maker.weight("r", {directions, 3 * kHidden, kHidden});
    MLGruOptions options{
        .resetAfter = resetAfter, .returnSequence = true, .direction = direction, .layout = layout};
    if (everyOption) {
      options.bias = maker.weight("b", {directions, 3 * kHidden});
      options.recurrentBias = maker.weight("rb", {directions, 3 * kHidden});
      options.initialHiddenState = maker.input("h0", {directions, kBatch, kHidden});
    }
    return named(builder.gru(x, w, r, kSteps, kHidden, options));
  };
}

TEST(CpuRecurrent, LstmBothDirectionsWithEveryOptionAndSequence) {
  for (auto layout : {MLLstmWeightLayout::Iofg, MLLstmWeightLayout::Ifgo}) {
    expectCpuMatchesReference(lstmBody(Direction::Both, layout, true), WeightsAs::Constants);
  }
}

TEST(CpuRecurrent, LstmForwardAndBackwardWithoutOptions) {
  for (auto direction : {Direction::Forward, Direction::Backward}) {
    expectCpuMatchesReference(lstmBody(direction, MLLstmWeightLayout::Ifgo, false),
                              WeightsAs::Constants);
  }
}

TEST(CpuRecurrent, LstmWeightsAsHollowConstantsAndAsInputs) {
  expectCpuMatchesReference(lstmBody(Direction::Backward, MLLstmWeightLayout::Iofg, true),
                            WeightsAs::HollowConstants);
  expectCpuMatchesReference(lstmBody(Direction::Both, MLLstmWeightLayout::Ifgo, true),
                            WeightsAs::Inputs);
}

TEST(CpuRecurrent, GruBothDirectionsBothLayoutsBothResets) {
  for (auto layout : {MLGruWeightLayout::Zrn, MLGruWeightLayout::Rzn}) {
    for (bool resetAfter : {true, false}) {
      expectCpuMatchesReference(gruBody(Direction::Both, layout, resetAfter, true),
                                WeightsAs::Constants);
    }
  }
}

TEST(CpuRecurrent, GruWithoutOptionsHollowConstantsAndInputs) {
  expectCpuMatchesReference(gruBody(Direction::Backward, MLGruWeightLayout::Rzn, false, false),
                            WeightsAs::HollowConstants);
  expectCpuMatchesReference(gruBody(Direction::Forward, MLGruWeightLayout::Zrn, true, true),
                            WeightsAs::HollowConstants);
  expectCpuMatchesReference(gruBody(Direction::Both, MLGruWeightLayout::Rzn, true, true),
                            WeightsAs::Inputs);
}

TEST(CpuRecurrent, NonDefaultActivations) {
  using A = MLRecurrentNetworkActivation;
  expectCpuMatchesReference(
      [](GraphMaker& maker, MLGraphBuilder& builder) {
        auto x = maker.input("x", {kSteps, kBatch, kInput});
        auto w = maker.weight("w", {1, 4 * kHidden, kInput});
        auto r = maker.weight("r", {1, 4 * kHidden, kHidden});
        MLLstmOptions options{.returnSequence = true,
                              .activations = std::vector<A>{A::Tanh, A::Relu, A::Sigmoid}};
        return named(builder.lstm(x, w, r, kSteps, kHidden, options));
      },
      WeightsAs::Constants);
  expectCpuMatchesReference(
      [](GraphMaker& maker, MLGraphBuilder& builder) {
        auto x = maker.input("x", {kSteps, kBatch, kInput});
        auto w = maker.weight("w", {1, 3 * kHidden, kInput});
        auto r = maker.weight("r", {1, 3 * kHidden, kHidden});
        MLGruOptions options{.resetAfter = false,
                             .activations = std::vector<A>{A::Sigmoid, A::Relu}};
        return named(builder.gru(x, w, r, kSteps, kHidden, options));
      },
      WeightsAs::Constants);
}

// A gru whose gates are not sigmoid runs on the reference kernel, and the plan says why (an
// unbounded update gate amplifies the kernel's float rounding past WPT's tolerance).
TEST(CpuRecurrent, AGruWithUnboundedGatesFallsBackWithItsReason) {
  using A = MLRecurrentNetworkActivation;
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {MLOperandDataType::Float32, {kSteps, kBatch, kInput}});
  auto w = builder.input("w", {MLOperandDataType::Float32, {1, 3 * kHidden, kInput}});
  auto r = builder.input("r", {MLOperandDataType::Float32, {1, 3 * kHidden, kHidden}});
  MLGruOptions options{.activations = std::vector<A>{A::Relu, A::Tanh}};
  auto outputs = builder.gru(x, w, r, kSteps, kHidden, options);
  MLGraph graph = builder.build({{"h", outputs.at(0)}});
  const cpu::CpuPlan* plan = cpu::planOf(*graph.state()->compiled);
  ASSERT_NE(plan, nullptr);
  ASSERT_EQ(plan->steps.size(), 1u);
  EXPECT_TRUE(plan->steps[0].isFallback());
  EXPECT_NE(plan->steps[0].fallbackReason.find("declines"), std::string::npos)
      << plan->steps[0].fallbackReason;
}

TEST(CpuRecurrent, CellsWithEveryOptionAndBothLayouts) {
  for (auto weightsAs : {WeightsAs::Constants, WeightsAs::HollowConstants, WeightsAs::Inputs}) {
    for (auto layout : {MLLstmWeightLayout::Iofg, MLLstmWeightLayout::Ifgo}) {
      expectCpuMatchesReference(
          [layout](GraphMaker& maker, MLGraphBuilder& builder) {
            auto x = maker.input("x", {kBatch, kInput});
            auto w = maker.weight("w", {4 * kHidden, kInput});
            auto r = maker.weight("r", {4 * kHidden, kHidden});
            auto h = maker.input("h", {kBatch, kHidden});
            auto c = maker.input("c", {kBatch, kHidden});
            MLLstmCellOptions options{.bias = maker.weight("b", {4 * kHidden}),
                                      .recurrentBias = maker.weight("rb", {4 * kHidden}),
                                      .peepholeWeight = maker.weight("p", {3 * kHidden}),
                                      .layout = layout};
            return named(builder.lstmCell(x, w, r, h, c, kHidden, options));
          },
          weightsAs);
    }
    for (auto layout : {MLGruWeightLayout::Zrn, MLGruWeightLayout::Rzn}) {
      for (bool resetAfter : {true, false}) {
        expectCpuMatchesReference(
            [layout, resetAfter](GraphMaker& maker, MLGraphBuilder& builder) {
              auto x = maker.input("x", {kBatch, kInput});
              auto w = maker.weight("w", {3 * kHidden, kInput});
              auto r = maker.weight("r", {3 * kHidden, kHidden});
              auto h = maker.input("h", {kBatch, kHidden});
              MLGruCellOptions options{.bias = maker.weight("b", {3 * kHidden}),
                                       .recurrentBias = maker.weight("rb", {3 * kHidden}),
                                       .resetAfter = resetAfter,
                                       .layout = layout};
              return MLNamedOperands{{"h", builder.gruCell(x, w, r, h, kHidden, options)}};
            },
            weightsAs);
      }
    }
  }
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
