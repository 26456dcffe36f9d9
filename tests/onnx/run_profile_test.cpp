// `webnn run --profile`: the per-op table after the run (type, count, ms, share, implementation).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "npy.h"
#include "onnx/model_maker.h"
#include "tools/run_tool.h"
#include "webnn/config.h"

namespace webnn {
namespace {

TEST(RunProfile, PrintsOneRowPerOpTypeAndImplementation) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  testing::ModelMaker m;
  m.input("x", {1, 4, 8, 8});
  m.floats("w", {8, 4, 3, 3}, std::vector<float>(8 * 4 * 9, 0.1f));
  auto& conv = m.node("Conv", {"x", "w"}, {"c"});
  testing::ModelMaker::attr(conv, "pads", std::vector<int64_t>{1, 1, 1, 1});
  m.node("Relu", {"c"}, {"r"});
  m.node("Transpose", {"r"}, {"y"});
  m.output("y");
  const std::string model = m.save();
  std::vector<std::string> backends{"reference"};
#ifdef WEBNN_HAVE_CPU
  backends.push_back("cpu");  // the conv2d and relu run fused there: one "conv2d+relu" row
#endif
  for (const std::string& backend : backends) {
    const auto out =
        testing::runTool("run '" + model + "' --random-inputs --iterations 2 --profile --backend " +
                         backend + " --output-dir '" + m.folder() + "'");
    ASSERT_EQ(out.status, 0) << out.text;
    EXPECT_NE(out.text.find("profile (steady-state dispatches"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find("transpose"), std::string::npos) << out.text;
    if (backend == "reference") {
      EXPECT_NE(out.text.find("conv2d "), std::string::npos) << out.text;
      EXPECT_NE(out.text.find("reference kernel"), std::string::npos) << out.text;
    } else {
      EXPECT_NE(out.text.find("conv2d+relu "), std::string::npos) << out.text;
    }
  }
  const auto plain =
      testing::runTool("run '" + model + "' --random-inputs --output-dir '" + m.folder() + "'");
  EXPECT_EQ(plain.text.find("profile ("), std::string::npos) << plain.text;
}

// `webnn run --concurrent 2` times two dispatches at once, from two threads on the graph and on
// two contexts, and still writes the outputs of the run.
TEST(RunProfile, ConcurrentDispatchesAreTimed) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  testing::ModelMaker m;
  m.input("x", {1, 4, 8, 8});
  m.floats("w", {8, 4, 3, 3}, std::vector<float>(8 * 4 * 9, 0.1f));
  m.node("Conv", {"x", "w"}, {"y"});
  m.output("y");
  const std::string model = m.save();
  const auto out = testing::runTool("run '" + model +
                                    "' --random-inputs --iterations 3 --concurrent 2 --json "
                                    "--output-dir '" +
                                    m.folder() + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("concurrent: 2 dispatches at once"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("\"concurrent\": 2, \"concurrent_threads_ms\": "), std::string::npos)
      << out.text;
  EXPECT_EQ(out.text.find("\"concurrent_contexts_ms\": 0.000"), std::string::npos) << out.text;
  const auto plain =
      testing::runTool("run '" + model + "' --random-inputs --output-dir '" + m.folder() + "'");
  EXPECT_EQ(plain.text.find("concurrent:"), std::string::npos) << plain.text;
}

#ifdef WEBNN_HAVE_CPU
// A MatMulNBits of 4-bit weights: `webnn run` multiplies int8 activations when the model's nodes
// set accuracy_level 4 (as ONNX Runtime does), float32 ones otherwise; the flags override it.
TEST(RunActivations, FourBitProductsFollowTheModelsAccuracyLevelUnlessTold) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  auto make = [](int64_t accuracyLevel) {
    testing::ModelMaker m;
    m.opset("com.microsoft", 1);
    m.input("x", {1, 64});
    std::string weights(8 * 2 * 16, '\0');
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<char>(i * 37 % 256);
    m.raw("B", 2, {8, 2, 16}, weights);  // uint8: N 8, 2 blocks of 32 4-bit values
    m.floats("scales", {16}, std::vector<float>(16, 0.05f));
    auto& node = m.node("MatMulNBits", {"x", "B", "scales"}, {"y"});
    node.set_domain("com.microsoft");
    testing::ModelMaker::attr(node, "K", int64_t{64});
    testing::ModelMaker::attr(node, "N", int64_t{8});
    testing::ModelMaker::attr(node, "bits", int64_t{4});
    testing::ModelMaker::attr(node, "block_size", int64_t{32});
    testing::ModelMaker::attr(node, "accuracy_level", accuracyLevel);
    m.output("y");
    return std::pair{m.save(), m.folder()};
  };
  const std::pair<std::string, std::string> int8Model = make(4), floatModel = make(0);
  const std::string& asksInt8 = int8Model.first;
  const std::string& asksFloat = floatModel.first;
  const std::string& folder = int8Model.second;
  auto run = [&](const std::string& model, const std::string& flags) {
    const auto out =
        testing::runTool("run '" + model + "' --backend cpu --random-inputs --iterations 1 " +
                         flags + " --output-dir '" + folder + "'");
    EXPECT_EQ(out.status, 0) << out.text;
    return out.text;
  };
  EXPECT_NE(run(asksInt8, "")
                .find("4-bit products: int8 activations (1 of the model's 1 "
                      "MatMulNBits set accuracy_level 4)"),
            std::string::npos);
  EXPECT_NE(run(asksFloat, "").find("4-bit products: float32 activations (0 of the model's 1"),
            std::string::npos);
  EXPECT_NE(run(asksInt8, "--float-activations")
                .find("4-bit products: float32 activations (--float-activations)"),
            std::string::npos);
  EXPECT_NE(run(asksFloat, "--int8-activations")
                .find("4-bit products: int8 activations (--int8-activations)"),
            std::string::npos);
  const auto both = testing::runTool("run '" + asksInt8 +
                                     "' --int8-activations --float-activations --random-inputs");
  EXPECT_NE(both.status, 0) << both.text;
  // A model without MatMulNBits says nothing of it.
  testing::ModelMaker plain;
  plain.input("x", {2});
  plain.node("Relu", {"x"}, {"y"});
  plain.output("y");
  EXPECT_EQ(run(plain.save(), "").find("4-bit products"), std::string::npos);
}
// The cpu backend runs a gru whose gates are relu on the reference kernel: `webnn run` says so
// after the run (one line per kind of fallback, with its share of the time under --profile), and
// --strict refuses the model before loading it.
TEST(RunProfile, FallbacksArePrintedAndStrictRefusesThem) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  testing::ModelMaker m;
  m.input("x", {2, 1, 3});
  m.floats("w", {1, 12, 3}, std::vector<float>(12 * 3, 0.1f));
  m.floats("r", {1, 12, 4}, std::vector<float>(12 * 4, 0.05f));
  auto& gru = m.node("GRU", {"x", "w", "r"}, {"h"});
  testing::ModelMaker::attr(gru, "hidden_size", int64_t{4});
  auto* activations = gru.add_attribute();
  activations->set_name("activations");
  activations->set_type(::onnx::AttributeProto::STRINGS);
  activations->add_strings("Relu");
  activations->add_strings("Tanh");
  m.node("Relu", {"h"}, {"y"});
  m.output("y");
  const std::string model = m.save();
  const std::string run =
      "run '" + model + "' --random-inputs --backend cpu --output-dir '" + m.folder() + "'";
  const auto profiled = testing::runTool(run + " --iterations 2 --profile");
  ASSERT_EQ(profiled.status, 0) << profiled.text;
  EXPECT_NE(profiled.text.find("fallback: gru (float32) runs on the reference kernel: "),
            std::string::npos)
      << profiled.text;
  EXPECT_NE(profiled.text.find("% of the dispatch time"), std::string::npos) << profiled.text;
  EXPECT_EQ(profiled.text.find("fallback: relu"), std::string::npos) << profiled.text;
  const auto plain = testing::runTool(run);
  EXPECT_NE(plain.text.find("fallback: gru (float32)"), std::string::npos) << plain.text;
  const auto strict = testing::runTool(run + " --strict");
  EXPECT_EQ(strict.status, 1) << strict.text;
  EXPECT_NE(strict.text.find("--strict: the cpu backend runs 1 kind(s) of step on its reference "
                             "kernel; gru (float32): "),
            std::string::npos)
      << strict.text;
  EXPECT_EQ(strict.text.find("loading weights"), std::string::npos) << strict.text;
}
#endif

// `webnn run --fix-input NAME=FILE.npy`: the input becomes a constant at import, so a Reshape
// whose shape it gives folds; an input no output uses is not fed (the graph has no such input).
TEST(RunFixInput, AFixedInputFoldsAndAnUnusedInputIsNotFed) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  testing::ModelMaker m;
  m.input("x", {2, 3});
  m.input("shape", {2}, ::onnx::TensorProto::INT64);
  m.input("unused", {4});
  m.node("Reshape", {"x", "shape"}, {"y"});
  m.output("y");
  const std::string model = m.save();
  tools::NpyArray shape;
  shape.dataType = MLOperandDataType::Int64;
  shape.shape = {2};
  const std::vector<int64_t> values = {3, 2};
  const auto bytes = std::as_bytes(std::span(values));
  shape.data.assign(bytes.begin(), bytes.end());
  const std::string file = m.folder() + "/shape.npy";
  tools::writeNpy(file, shape);
  const std::string run =
      "run '" + model + "' --random-inputs --iterations 1 --output-dir '" + m.folder() + "'";
  const auto refused = testing::runTool(run);
  EXPECT_NE(refused.status, 0) << refused.text;
  EXPECT_NE(refused.text.find("--fix-input shape=FILE.npy"), std::string::npos) << refused.text;
  const auto out = testing::runTool(run + " --fix-input shape='" + file + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("output y: float32 [3, 2]"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("input unused: unused by the model's outputs, not fed"),
            std::string::npos)
      << out.text;
}

// First-hour paper cuts (issue 21): the output folder is made before the model runs, a path that
// cannot be one fails before anything runs; an .npy contradicting a fixed dimension is refused;
// a tiny model prints neither an empty producer nor a peak-to-weights ratio of thousands.
TEST(RunPaperCuts, OutputFolderFixedDimensionsAndTinyModels) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  testing::ModelMaker m;
  m.input("x", {1, 4});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  const std::string model = m.save();
  const std::string nested = m.folder() + "/made/on/the/way";
  auto out = testing::runTool("run '" + model + "' --random-inputs --iterations 1 --output-dir '" +
                              nested + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_TRUE(std::filesystem::exists(nested + "/y.npy")) << out.text;
  EXPECT_NE(out.text.find("(opset 17), backend"), std::string::npos) << out.text;
  EXPECT_EQ(out.text.find("x weights)"), std::string::npos) << out.text;

  std::ofstream(m.folder() + "/a-file") << "not a folder";
  out = testing::runTool("run '" + model + "' --random-inputs --output-dir '" + m.folder() +
                         "/a-file'");
  EXPECT_NE(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("--output-dir"), std::string::npos) << out.text;
  EXPECT_EQ(out.text.find("time: parse"), std::string::npos) << "failed before running";

  tools::NpyArray wrong;
  wrong.shape = {1, 5};
  wrong.data.resize(20);
  tools::writeNpy(m.folder() + "/x5.npy", wrong);
  out = testing::runTool("run '" + model + "' --input x='" + m.folder() +
                         "/x5.npy' --output-dir '" + m.folder() + "'");
  EXPECT_NE(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("dimension 1 is 4 in the model"), std::string::npos) << out.text;
}

}  // namespace
}  // namespace webnn
