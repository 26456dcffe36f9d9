// gru, gruCell, lstm, lstmCell: shape inference, validation errors, hand-computed values. (The WPT
// vectors of the four ops run in the conformance suite, conformance.<backend>, on every backend.)
#include <bit>
#include <cmath>
#include <cstring>

#include "core/float16.h"
#include "test_helpers.h"

namespace webnn {
namespace {

using testing::bytesOf;
using testing::expectError;
using K = Error::Kind;
using Act = MLRecurrentNetworkActivation;
using Dir = MLRecurrentNetworkDirection;
using Shape = std::vector<uint32_t>;

constexpr MLOperandDataType F32 = MLOperandDataType::Float32;
constexpr MLOperandDataType F16 = MLOperandDataType::Float16;

// Runs `graph` with float32 inputs and returns every float32 output.
std::map<std::string, std::vector<float>> runAll(
    MLContext& context, const MLGraph& graph,
    const std::map<std::string, std::vector<float>>& inputs = {}) {
  MLNamedTensors inputTensors;
  const auto inputDescriptors = graph.inputDescriptors();
  for (const auto& [name, values] : inputs) {
    MLTensor tensor = testing::inputTensor(context, inputDescriptors.at(name));
    context.writeTensor(tensor, bytesOf(values));
    inputTensors.emplace(name, tensor);
  }
  MLNamedTensors outputTensors;
  for (const auto& [name, descriptor] : graph.outputDescriptors()) {
    outputTensors.emplace(name, testing::outputTensor(context, descriptor));
  }
  context.dispatch(graph, inputTensors, outputTensors);
  std::map<std::string, std::vector<float>> results;
  for (const auto& [name, tensor] : outputTensors) {
    results[name] = testing::readAs<float>(context, tensor);
  }
  return results;
}

void expectNear(const std::vector<float>& actual, const std::vector<double>& expected,
                double tolerance = 1e-6) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "at index " << i;
  }
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

struct Recurrent : ::testing::Test {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder{context};
  void SetUp() override {
    if (!testing::backendSupportsOps(context, {"gru", "gruCell", "lstm", "lstmCell"})) {
      GTEST_SKIP() << "the backend under test has no recurrent ops";
    }
  }
  MLOperand constant(const Shape& shape, const std::vector<float>& values) {
    return builder.constant({F32, shape}, bytesOf(values));
  }
  MLOperand input(const std::string& name, const Shape& shape, MLOperandDataType type = F32) {
    return builder.input(name, {type, shape});
  }
};

// ---------------------------------------------------------------------------------------------
// Shape inference.

using RecurrentShapes = Recurrent;

TEST_F(RecurrentShapes, GruDefaultReturnsTheLastHiddenStateOnly) {
  auto out = builder.gru(input("x", {5, 3, 4}), input("w", {1, 6, 4}), input("r", {1, 6, 2}), 5, 2);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (Shape{1, 3, 2}));
  EXPECT_EQ(out[0].dataType(), F32);
}

TEST_F(RecurrentShapes, GruEveryOptionCombination) {
  for (auto direction : {Dir::Forward, Dir::Backward, Dir::Both}) {
    for (bool returnSequence : {false, true}) {
      for (auto layout : {MLGruWeightLayout::Zrn, MLGruWeightLayout::Rzn}) {
        for (bool resetAfter : {false, true}) {
          for (bool withOptionalOperands : {false, true}) {
            MLGraphBuilder b(context);
            const uint32_t d = direction == Dir::Both ? 2 : 1;
            MLGruOptions options;
            options.direction = direction;
            options.returnSequence = returnSequence;
            options.layout = layout;
            options.resetAfter = resetAfter;
            if (withOptionalOperands) {
              options.bias = b.input("b", {F16, {d, 15}});
              options.recurrentBias = b.input("rb", {F16, {d, 15}});
              options.initialHiddenState = b.input("h0", {F16, {d, 3, 5}});
              options.activations = {{Act::Relu, Act::Tanh}};
            }
            auto out = b.gru(b.input("x", {F16, {2, 3, 4}}), b.input("w", {F16, {d, 15, 4}}),
                             b.input("r", {F16, {d, 15, 5}}), 2, 5, options);
            ASSERT_EQ(out.size(), returnSequence ? 2u : 1u);
            EXPECT_EQ(out[0].shape(), (Shape{d, 3, 5}));
            EXPECT_EQ(out[0].dataType(), F16);
            if (returnSequence) {
              EXPECT_EQ(out[1].shape(), (Shape{2, d, 3, 5}));
              EXPECT_EQ(out[1].dataType(), F16);
            }
          }
        }
      }
    }
  }
}

TEST_F(RecurrentShapes, GruCell) {
  for (auto layout : {MLGruWeightLayout::Zrn, MLGruWeightLayout::Rzn}) {
    for (bool resetAfter : {false, true}) {
      for (bool withOptionalOperands : {false, true}) {
        MLGraphBuilder b(context);
        MLGruCellOptions options;
        options.layout = layout;
        options.resetAfter = resetAfter;
        if (withOptionalOperands) {
          options.bias = b.input("b", {F32, {12}});
          options.recurrentBias = b.input("rb", {F32, {12}});
          options.activations = {{Act::Sigmoid, Act::Relu}};
        }
        auto out = b.gruCell(b.input("x", {F32, {3, 2}}), b.input("w", {F32, {12, 2}}),
                             b.input("r", {F32, {12, 4}}), b.input("h", {F32, {3, 4}}), 4, options);
        EXPECT_EQ(out.shape(), (Shape{3, 4}));
        EXPECT_EQ(out.dataType(), F32);
      }
    }
  }
}

TEST_F(RecurrentShapes, LstmEveryOptionCombination) {
  for (auto direction : {Dir::Forward, Dir::Backward, Dir::Both}) {
    for (bool returnSequence : {false, true}) {
      for (auto layout : {MLLstmWeightLayout::Iofg, MLLstmWeightLayout::Ifgo}) {
        for (bool withOptionalOperands : {false, true}) {
          MLGraphBuilder b(context);
          const uint32_t d = direction == Dir::Both ? 2 : 1;
          MLLstmOptions options;
          options.direction = direction;
          options.returnSequence = returnSequence;
          options.layout = layout;
          if (withOptionalOperands) {
            options.bias = b.input("b", {F16, {d, 20}});
            options.recurrentBias = b.input("rb", {F16, {d, 20}});
            options.peepholeWeight = b.input("p", {F16, {d, 15}});
            options.initialHiddenState = b.input("h0", {F16, {d, 3, 5}});
            options.initialCellState = b.input("c0", {F16, {d, 3, 5}});
            options.activations = {{Act::Relu, Act::Tanh, Act::Sigmoid}};
          }
          auto out = b.lstm(b.input("x", {F16, {7, 3, 4}}), b.input("w", {F16, {d, 20, 4}}),
                            b.input("r", {F16, {d, 20, 5}}), 7, 5, options);
          ASSERT_EQ(out.size(), returnSequence ? 3u : 2u);
          EXPECT_EQ(out[0].shape(), (Shape{d, 3, 5}));
          EXPECT_EQ(out[1].shape(), (Shape{d, 3, 5}));
          for (const auto& operand : out) {
            EXPECT_EQ(operand.dataType(), F16);
          }
          if (returnSequence) {
            EXPECT_EQ(out[2].shape(), (Shape{7, d, 3, 5}));
          }
        }
      }
    }
  }
}

TEST_F(RecurrentShapes, LstmCell) {
  for (auto layout : {MLLstmWeightLayout::Iofg, MLLstmWeightLayout::Ifgo}) {
    for (bool withOptionalOperands : {false, true}) {
      MLGraphBuilder b(context);
      MLLstmCellOptions options;
      options.layout = layout;
      if (withOptionalOperands) {
        options.bias = b.input("b", {F32, {8}});
        options.recurrentBias = b.input("rb", {F32, {8}});
        options.peepholeWeight = b.input("p", {F32, {6}});
        options.activations = {{Act::Sigmoid, Act::Relu, Act::Relu}};
      }
      auto out = b.lstmCell(b.input("x", {F32, {3, 5}}), b.input("w", {F32, {8, 5}}),
                            b.input("r", {F32, {8, 2}}), b.input("h", {F32, {3, 2}}),
                            b.input("c", {F32, {3, 2}}), 2, options);
      ASSERT_EQ(out.size(), 2u);
      EXPECT_EQ(out[0].shape(), (Shape{3, 2}));
      EXPECT_EQ(out[1].shape(), (Shape{3, 2}));
    }
  }
}

TEST_F(RecurrentShapes, SupportLimitsUseTheSpecsOperandNames) {
  const auto limits = context.opSupportLimits();
  ASSERT_TRUE(limits.ops.count("gru"));
  EXPECT_TRUE(limits.ops.at("gru").count("initialHiddenState"));
  EXPECT_TRUE(limits.ops.at("gru").count("outputs"));
  EXPECT_EQ(limits.ops.at("gru").at("input").rankRange.min, 3u);
  ASSERT_TRUE(limits.ops.count("gruCell"));
  EXPECT_TRUE(limits.ops.at("gruCell").count("hiddenState"));
  EXPECT_TRUE(limits.ops.at("gruCell").count("output"));
  ASSERT_TRUE(limits.ops.count("lstm"));
  EXPECT_TRUE(limits.ops.at("lstm").count("peepholeWeight"));
  EXPECT_TRUE(limits.ops.at("lstm").count("initialCellState"));
  ASSERT_TRUE(limits.ops.count("lstmCell"));
  EXPECT_TRUE(limits.ops.at("lstmCell").count("cellState"));
  EXPECT_FALSE(limits.ops.at("lstmCell").at("input").supports(MLOperandDataType::Int32));
}

// ---------------------------------------------------------------------------------------------
// Validation errors: TypeError naming the op (and label) and the problem.

using RecurrentErrors = Recurrent;

TEST_F(RecurrentErrors, GruRequiredOperands) {
  auto x = input("x", {2, 3, 4});
  auto w = input("w", {1, 6, 4});
  auto r = input("r", {1, 6, 2});
  auto gru = [&](const MLOperand& xx, const MLOperand& ww, const MLOperand& rr, uint32_t steps,
                 uint32_t hidden, const MLGruOptions& options = {}) {
    return [&, steps, hidden, options] { builder.gru(xx, ww, rr, steps, hidden, options); };
  };
  expectError(gru(input("x2", {2, 3}), w, r, 2, 2), K::TypeError, {"gru", "input", "rank 2"});
  expectError(gru(input("xi", {2, 3, 4}, MLOperandDataType::Int32), w, r, 2, 2), K::TypeError,
              {"gru", "input", "int32"});
  expectError(gru(x, input("w16", {1, 6, 4}, F16), r, 2, 2), K::TypeError,
              {"gru", "weight", "same data type"});
  expectError(gru(x, w, input("r4", {1, 6, 2, 1}), 2, 2), K::TypeError,
              {"gru", "recurrentWeight", "rank 4"});
  expectError(gru(x, w, r, 3, 2), K::TypeError, {"gru", "steps (3)", "shape[0] (2)"});
  expectError(gru(x, w, r, 0, 2), K::TypeError, {"gru", "steps must be greater than 0"});
  expectError(gru(x, w, r, 2, 0), K::TypeError, {"gru", "hiddenSize must be greater than 0"});
  expectError(gru(x, w, r, 2, 0x40000000), K::TypeError,
              {"gru", "hiddenSize * 6", "not a valid dimension"});
  expectError(gru(x, input("w5", {1, 6, 5}), r, 2, 2), K::TypeError,
              {"gru", "weight has shape [1, 6, 5]", "[1, 6, 4]"});
  expectError(gru(x, w, input("r3", {1, 6, 3}), 2, 2), K::TypeError,
              {"gru", "recurrentWeight has shape [1, 6, 3]", "[1, 6, 2]"});
  MLGruOptions both;
  both.direction = Dir::Both;
  expectError(gru(x, w, r, 2, 2, both), K::TypeError,
              {"gru", "weight", "numDirections", "[2, 6, 4]"});
  expectError([&] { builder.gru(x, MLOperand(), r, 2, 2); }, K::TypeError, {"gru", "empty"});
}

TEST_F(RecurrentErrors, GruOptions) {
  auto x = input("x", {2, 3, 4});
  auto w = input("w", {1, 6, 4});
  auto r = input("r", {1, 6, 2});
  auto expectOptionError = [&](const MLGruOptions& options,
                               const std::vector<std::string>& fragments) {
    expectError([&] { builder.gru(x, w, r, 2, 2, options); }, K::TypeError, fragments);
  };
  MLGruOptions o;
  o.label = "encoder";
  o.bias = input("b", {1, 5});
  expectOptionError(o, {"gru 'encoder'", "bias has shape [1, 5]", "[1, 6]"});
  o.bias = input("b16", {1, 6}, F16);
  expectOptionError(o, {"gru 'encoder'", "bias (float16)", "same data type"});
  o.bias.reset();
  o.recurrentBias = input("rb", {6});
  expectOptionError(o, {"recurrentBias", "rank 1"});
  o.recurrentBias.reset();
  o.initialHiddenState = input("h0", {1, 2, 2});
  expectOptionError(o, {"initialHiddenState has shape [1, 2, 2]", "[1, 3, 2]"});
  o.initialHiddenState.reset();
  o.activations = {{Act::Sigmoid}};
  expectOptionError(o, {"gru 'encoder'", "activations must hold 2 functions, got 1"});
  o.activations.reset();
  MLGraphBuilder other(context);
  o.bias = other.input("b", {F32, {1, 6}});
  expectOptionError(o, {"gru 'encoder'", "another MLGraphBuilder"});
}

TEST_F(RecurrentErrors, GruCell) {
  auto x = input("x", {3, 2});
  auto w = input("w", {12, 2});
  auto r = input("r", {12, 4});
  auto h = input("h", {3, 4});
  auto cell = [&](const MLOperand& hh, uint32_t hidden, const MLGruCellOptions& options = {}) {
    return [&, hidden, options] { builder.gruCell(x, w, r, hh, hidden, options); };
  };
  expectError(cell(input("h2", {2, 4}), 4), K::TypeError,
              {"gruCell", "hiddenState has shape [2, 4]", "[3, 4]"});
  expectError(cell(input("h16", {3, 4}, F16), 4), K::TypeError,
              {"gruCell", "hiddenState", "same data type"});
  expectError(cell(input("h3", {1, 3, 4}), 4), K::TypeError, {"gruCell", "hiddenState", "rank 3"});
  expectError(cell(h, 3), K::TypeError, {"gruCell", "weight has shape [12, 2]", "[9, 2]"});
  expectError(cell(h, 0), K::TypeError, {"gruCell", "hiddenSize"});
  expectError(
      [&] {
        builder.gruCell(input("x3", {1, 3, 2}), w, r, h, 4);
      },
      K::TypeError, {"gruCell", "input", "rank 3"});
  MLGruCellOptions o;
  o.bias = input("b", {1, 12});
  expectError(cell(h, 4, o), K::TypeError, {"gruCell", "bias", "rank 2"});
  o.bias = input("b11", {11});
  expectError(cell(h, 4, o), K::TypeError, {"gruCell", "bias has shape [11]", "[12]"});
  o.bias.reset();
  o.recurrentBias = input("rb", {13});
  expectError(cell(h, 4, o), K::TypeError, {"gruCell", "recurrentBias has shape [13]"});
  o.recurrentBias.reset();
  o.activations = {{Act::Sigmoid, Act::Tanh, Act::Tanh}};
  o.label = "cell";
  expectError(cell(h, 4, o), K::TypeError,
              {"gruCell 'cell'", "activations must hold 2 functions, got 3"});
}

TEST_F(RecurrentErrors, Lstm) {
  auto x = input("x", {2, 3, 4});
  auto w = input("w", {1, 8, 4});
  auto r = input("r", {1, 8, 2});
  auto lstm = [&](uint32_t steps, uint32_t hidden, const MLLstmOptions& options = {}) {
    return [&, steps, hidden, options] { builder.lstm(x, w, r, steps, hidden, options); };
  };
  expectError(lstm(0, 2), K::TypeError, {"lstm", "steps must be greater than 0"});
  expectError(lstm(1, 2), K::TypeError, {"lstm", "steps (1)"});
  expectError(lstm(2, 3), K::TypeError, {"lstm", "weight has shape [1, 8, 4]", "[1, 12, 4]"});
  expectError(lstm(2, 0x20000000), K::TypeError, {"lstm", "hiddenSize * 8"});
  expectError(
      [&] {
        builder.lstm(input("xh", {2, 3, 4}, F16), w, r, 2, 2);
      },
      K::TypeError, {"lstm", "same data type"});
  MLLstmOptions o;
  o.peepholeWeight = input("p", {1, 8});
  expectError(lstm(2, 2, o), K::TypeError,
              {"lstm", "peepholeWeight has shape [1, 8]", "[numDirections, 3 * hiddenSize]"});
  o.peepholeWeight.reset();
  o.initialCellState = input("c0", {2, 3, 2});
  expectError(lstm(2, 2, o), K::TypeError, {"lstm", "initialCellState has shape [2, 3, 2]"});
  o.initialCellState.reset();
  o.initialHiddenState = input("h0", {1, 3, 2}, F16);
  expectError(lstm(2, 2, o), K::TypeError, {"lstm", "initialHiddenState", "same data type"});
  o.initialHiddenState.reset();
  o.bias = input("b", {1, 6});
  expectError(lstm(2, 2, o), K::TypeError, {"lstm", "bias has shape [1, 6]", "[1, 8]"});
  o.bias.reset();
  o.activations = {{Act::Sigmoid, Act::Tanh}};
  expectError(lstm(2, 2, o), K::TypeError, {"lstm", "activations must hold 3 functions, got 2"});
  o.activations.reset();
  o.direction = Dir::Both;
  expectError(lstm(2, 2, o), K::TypeError, {"lstm", "weight has shape [1, 8, 4]", "[2, 8, 4]"});
}

TEST_F(RecurrentErrors, LstmCell) {
  auto x = input("x", {3, 5});
  auto w = input("w", {8, 5});
  auto r = input("r", {8, 2});
  auto h = input("h", {3, 2});
  auto c = input("c", {3, 2});
  auto cell = [&](const MLOperand& cc, const MLLstmCellOptions& options = {}) {
    return [&, options] { builder.lstmCell(x, w, r, h, cc, 2, options); };
  };
  expectError(cell(input("c2", {3, 3})), K::TypeError,
              {"lstmCell", "cellState has shape [3, 3]", "[3, 2]"});
  expectError(cell(input("c16", {3, 2}, F16)), K::TypeError, {"lstmCell", "cellState", "same"});
  expectError(
      [&] {
        builder.lstmCell(x, w, r, input("h1", {2, 2}), c, 2);
      },
      K::TypeError, {"lstmCell", "hiddenState has shape [2, 2]"});
  expectError(
      [&] {
        builder.lstmCell(x, w, input("r3", {8, 3}), h, c, 2);
      },
      K::TypeError, {"lstmCell", "recurrentWeight has shape [8, 3]", "[8, 2]"});
  MLLstmCellOptions o;
  o.label = "step";
  o.peepholeWeight = input("p", {8});
  expectError(cell(c, o), K::TypeError, {"lstmCell 'step'", "peepholeWeight has shape [8]", "[6]"});
  o.peepholeWeight.reset();
  o.recurrentBias = input("rb", {2, 4});
  expectError(cell(c, o), K::TypeError, {"lstmCell 'step'", "recurrentBias", "rank 2"});
  o.recurrentBias.reset();
  o.activations = std::vector<Act>{};
  expectError(cell(c, o), K::TypeError,
              {"lstmCell 'step'", "activations must hold 3 functions, got 0"});
}

TEST_F(RecurrentErrors, AfterBuildTheBuilderIsSpent) {
  auto x = input("x", {1, 1, 1});
  auto w = constant({1, 3, 1}, {1, 1, 1});
  auto r = constant({1, 3, 1}, {1, 1, 1});
  auto out = builder.gru(x, w, r, 1, 1);
  builder.build({{"y", out[0]}});
  expectError([&] { builder.gru(x, w, r, 1, 1); }, K::InvalidStateError, {"gru"});
}

// ---------------------------------------------------------------------------------------------
// Values, computed by hand.

using RecurrentValues = Recurrent;

// A one-unit gruCell: every gate is a scalar expression.
TEST_F(RecurrentValues, GruCellSingleUnitEveryLayoutAndReset) {
  const double x = 2, h = 0.5;
  const std::vector<float> w = {0.1f, 0.2f, 0.3f}, r = {0.4f, 0.5f, 0.6f};
  const std::vector<float> b = {0.01f, 0.02f, 0.03f}, rb = {0.04f, 0.05f, 0.06f};
  for (auto layout : {MLGruWeightLayout::Zrn, MLGruWeightLayout::Rzn}) {
    for (bool resetAfter : {true, false}) {
      MLGraphBuilder gb(context);
      MLGruCellOptions options;
      options.bias = gb.constant({F32, {3}}, bytesOf(b));
      options.recurrentBias = gb.constant({F32, {3}}, bytesOf(rb));
      options.layout = layout;
      options.resetAfter = resetAfter;
      auto out = gb.gruCell(gb.input("x", {F32, {1, 1}}), gb.constant({F32, {3, 1}}, bytesOf(w)),
                            gb.constant({F32, {3, 1}}, bytesOf(r)), gb.input("h", {F32, {1, 1}}), 1,
                            options);
      auto graph = gb.build({{"y", out}});
      const size_t zi = layout == MLGruWeightLayout::Zrn ? 0 : 1;
      const size_t ri = 1 - zi;
      auto gate = [&](size_t k) {
        return double(b[k]) + double(rb[k]) + double(w[k]) * x + double(r[k]) * h;
      };
      const double z = sigmoid(gate(zi));
      const double rr = sigmoid(gate(ri));
      const double n =
          resetAfter
              ? std::tanh(double(b[2]) + double(w[2]) * x + rr * (double(rb[2]) + double(r[2]) * h))
              : std::tanh(double(b[2]) + double(rb[2]) + double(w[2]) * x + rr * h * double(r[2]));
      auto y = runAll(context, graph, {{"x", {float(x)}}, {"h", {float(h)}}});
      expectNear(y["y"], {z * h + (1 - z) * n});
    }
  }
}

// Without bias, zero weights give z = r = 1/2 and n = 0: the hidden state halves.
TEST_F(RecurrentValues, GruCellDefaultsWithZeroWeightsHalveTheState) {
  auto out = builder.gruCell(input("x", {2, 3}), constant({6, 3}, std::vector<float>(18, 0)),
                             constant({6, 2}, std::vector<float>(12, 0)), input("h", {2, 2}), 2);
  auto graph = builder.build({{"y", out}});
  auto y = runAll(context, graph, {{"x", {1, 2, 3, 4, 5, 6}}, {"h", {2, -4, 6, 8}}});
  expectNear(y["y"], {1, -2, 3, 4});
}

TEST_F(RecurrentValues, LstmCellSingleUnitWithPeepholeEveryLayout) {
  const double x = 1.5, h = -0.5, c = 0.75;
  const std::vector<float> w = {0.1f, -0.2f, 0.3f, 0.4f}, r = {0.5f, 0.6f, -0.7f, 0.8f};
  const std::vector<float> b = {0.01f, 0.02f, 0.03f, 0.04f}, rb = {0.05f, 0.06f, 0.07f, 0.08f};
  const std::vector<float> p = {0.9f, -1.0f, 1.1f};  // i, o, f whatever the layout
  for (auto layout : {MLLstmWeightLayout::Iofg, MLLstmWeightLayout::Ifgo}) {
    MLGraphBuilder gb(context);
    MLLstmCellOptions options;
    options.bias = gb.constant({F32, {4}}, bytesOf(b));
    options.recurrentBias = gb.constant({F32, {4}}, bytesOf(rb));
    options.peepholeWeight = gb.constant({F32, {3}}, bytesOf(p));
    options.layout = layout;
    auto out = gb.lstmCell(gb.input("x", {F32, {1, 1}}), gb.constant({F32, {4, 1}}, bytesOf(w)),
                           gb.constant({F32, {4, 1}}, bytesOf(r)), gb.input("h", {F32, {1, 1}}),
                           gb.input("c", {F32, {1, 1}}), 1, options);
    auto graph = gb.build({{"h1", out[0]}, {"c1", out[1]}});
    // Positions of i, o, f, g in the weights.
    const bool iofg = layout == MLLstmWeightLayout::Iofg;
    const size_t ii = 0, oi = iofg ? 1 : 3, fi = iofg ? 2 : 1, gi = iofg ? 3 : 2;
    auto gate = [&](size_t k) {
      return double(b[k]) + double(rb[k]) + double(w[k]) * x + double(r[k]) * h;
    };
    const double i = sigmoid(gate(ii) + c * double(p[0]));
    const double o = sigmoid(gate(oi) + c * double(p[1]));
    const double f = sigmoid(gate(fi) + c * double(p[2]));
    const double g = std::tanh(gate(gi));
    const double ct = f * c + i * g;
    auto y = runAll(context, graph, {{"x", {float(x)}}, {"h", {float(h)}}, {"c", {float(c)}}});
    expectNear(y["c1"], {ct});
    expectNear(y["h1"], {o * std::tanh(ct)});
  }
}

// With relu activations, a reset gate fixed at 1 (bias) and an update gate fixed at 0, each gru
// step computes h = wn * x + h: a running sum, scaled by direction (wn = 1 forward, 2 backward).
// x = [1, 2] over the steps.
struct RunningSum {
  std::vector<double> hidden, sequence;
};
RunningSum runningSum(Dir direction, const std::vector<double>& initial) {
  RunningSum result;
  const std::vector<double> x = {1, 2};
  const bool both = direction == Dir::Both;
  std::vector<std::vector<double>> perDirection;  // sequence by time, per direction
  for (int d = 0; d < (both ? 2 : 1); ++d) {
    const bool backward = d == 1 || direction == Dir::Backward;
    const double scale = d == 1 ? 2 : 1;
    double h = initial.empty() ? 0 : initial[d];
    std::vector<double> sequence(2);
    for (int step = 0; step < 2; ++step) {
      const int t = backward ? 1 - step : step;
      h += scale * x[t];
      sequence[t] = h;
    }
    result.hidden.push_back(h);
    perDirection.push_back(sequence);
  }
  for (int t = 0; t < 2; ++t) {
    for (const auto& sequence : perDirection) result.sequence.push_back(sequence[t]);
  }
  return result;
}

TEST_F(RecurrentValues, GruDirectionsSequencesAndInitialState) {
  for (auto direction : {Dir::Forward, Dir::Backward, Dir::Both}) {
    for (bool withInitial : {false, true}) {
      MLGraphBuilder gb(context);
      const uint32_t d = direction == Dir::Both ? 2 : 1;
      // Per direction: weight [z, r, n] = [0, 0, scale], recurrentWeight [0, 0, 1],
      // bias [0, 1, 0].
      std::vector<float> w, r, b;
      for (uint32_t k = 0; k < d; ++k) {
        w.insert(w.end(), {0, 0, k == 1 ? 2.0f : 1.0f});
        r.insert(r.end(), {0, 0, 1});
        b.insert(b.end(), {0, 1, 0});
      }
      MLGruOptions options;
      options.direction = direction;
      options.returnSequence = true;
      options.resetAfter = false;
      options.activations = {{Act::Relu, Act::Relu}};
      options.bias = gb.constant({F32, {d, 3}}, bytesOf(b));
      std::vector<double> initial;
      if (withInitial) {
        initial = {10, 20};
        options.initialHiddenState = gb.input("h0", {F32, {d, 1, 1}});
      }
      auto out = gb.gru(gb.input("x", {F32, {2, 1, 1}}), gb.constant({F32, {d, 3, 1}}, bytesOf(w)),
                        gb.constant({F32, {d, 3, 1}}, bytesOf(r)), 2, 1, options);
      auto graph = gb.build({{"hidden", out[0]}, {"sequence", out[1]}});
      std::map<std::string, std::vector<float>> inputs = {{"x", {1, 2}}};
      if (withInitial) {
        std::vector<float> h0 = {10, 20};
        h0.resize(d);
        inputs["h0"] = h0;
      }
      auto y = runAll(context, graph, inputs);
      const auto expected = runningSum(direction, initial);
      SCOPED_TRACE(::testing::Message()
                   << "direction " << int(direction) << " initial " << withInitial);
      expectNear(y["hidden"], expected.hidden);
      expectNear(y["sequence"], expected.sequence);
    }
  }
}

// The same running sum through lstm: relu everywhere, i = f = o = 1 (bias), g = wg * x, so
// c = c + wg * x and h = c.
TEST_F(RecurrentValues, LstmDirectionsSequencesAndInitialState) {
  for (auto direction : {Dir::Forward, Dir::Backward, Dir::Both}) {
    for (auto layout : {MLLstmWeightLayout::Iofg, MLLstmWeightLayout::Ifgo}) {
      MLGraphBuilder gb(context);
      const uint32_t d = direction == Dir::Both ? 2 : 1;
      const size_t gi = layout == MLLstmWeightLayout::Iofg ? 3 : 2;
      std::vector<float> w, b;
      for (uint32_t k = 0; k < d; ++k) {
        std::vector<float> wk(4, 0), bk(4, 1);
        wk[gi] = k == 1 ? 2.0f : 1.0f;
        bk[gi] = 0;
        w.insert(w.end(), wk.begin(), wk.end());
        b.insert(b.end(), bk.begin(), bk.end());
      }
      MLLstmOptions options;
      options.direction = direction;
      options.returnSequence = true;
      options.layout = layout;
      options.activations = {{Act::Relu, Act::Relu, Act::Relu}};
      options.bias = gb.constant({F32, {d, 4}}, bytesOf(b));
      options.initialCellState = gb.input("c0", {F32, {d, 1, 1}});
      const std::vector<float> r(4 * d, 0);
      auto out = gb.lstm(gb.input("x", {F32, {2, 1, 1}}), gb.constant({F32, {d, 4, 1}}, bytesOf(w)),
                         gb.constant({F32, {d, 4, 1}}, bytesOf(r)), 2, 1, options);
      auto graph = gb.build({{"hidden", out[0]}, {"cell", out[1]}, {"sequence", out[2]}});
      std::vector<float> c0 = {10, 20};
      c0.resize(d);
      auto y = runAll(context, graph, {{"x", {1, 2}}, {"c0", c0}});
      const auto expected = runningSum(direction, {10, 20});
      SCOPED_TRACE(::testing::Message() << "direction " << int(direction));
      expectNear(y["hidden"], expected.hidden);
      expectNear(y["cell"], expected.hidden);
      expectNear(y["sequence"], expected.sequence);
    }
  }
}

// Hollow weights: the graph builds without bytes and computes once they are set.
TEST_F(RecurrentValues, WeightlessGruComputesAfterTheWeightsArrive) {
  auto w = builder.constant({F32, {1, 3, 1}}, MLConstantOptions{.label = "gru.weight"});
  auto r = builder.constant({F32, {1, 3, 1}}, MLConstantOptions{.label = "gru.recurrentWeight"});
  MLGruOptions options;
  options.bias = builder.constant({F32, {1, 3}}, MLConstantOptions{.label = "gru.bias"});
  options.resetAfter = false;
  options.activations = {{Act::Relu, Act::Relu}};
  auto out = builder.gru(input("x", {2, 1, 1}), w, r, 2, 1, options);
  auto graph = builder.build({{"h", out[0]}});
  EXPECT_EQ(graph.pendingConstants().size(), 3u);
  const std::vector<float> wv = {0, 0, 1}, rv = {0, 0, 1}, bv = {0, 1, 0};
  graph.setConstantData(w, bytesOf(wv));
  graph.setConstantData(r, bytesOf(rv));
  graph.setConstantData(*options.bias, bytesOf(bv));
  auto y = runAll(context, graph, {{"x", {1, 2}}});
  expectNear(y["h"], {3});
}

}  // namespace
}  // namespace webnn
