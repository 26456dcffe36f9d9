// `webnn inspect`: runs the built tool (WEBNN_TOOL, set by tests/CMakeLists.txt) on weights files
// written by the generators of tests/weights.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tools/run_tool.h"
#include "weights/weight_generators.h"

namespace webnn::testing {
namespace {

using Output = ToolOutput;

class Inspect : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  }
  TempDir dir;
};

std::string sampleSafetensors(const TempDir& dir) {
  const std::string path = dir.file("model.safetensors");
  writeFile(path, makeSafetensors({
                      {"layers.0.weight", "F32", {2, 3}, patternBytes(24, 1)},
                      {"layers.0.scale", "BF16", {4}, patternBytes(8, 2)},
                      {"positions", "I64", {5}, patternBytes(40, 3)},
                  }));
  return path;
}

TEST_F(Inspect, TableListsTensorsAndTotals) {
  const std::string path = sampleSafetensors(dir);
  const Output out = runTool("inspect '" + path + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  for (const char* part :
       {"format:  safetensors", "NAME", "TYPE", "SHAPE", "OFFSET", "BYTES", "layers.0.weight",
        "float32", "[2, 3]", "layers.0.scale", "BF16 (unsupported)", "positions", "int64", "[5]",
        "3 tensors, 72 bytes", "1 unsupported"}) {
    EXPECT_NE(out.text.find(part), std::string::npos) << "no '" << part << "' in:\n" << out.text;
  }
}

TEST_F(Inspect, JsonHasEveryField) {
  const std::string path = sampleSafetensors(dir);
  const Output out = runTool("inspect --json '" + path + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  const auto report = nlohmann::json::parse(out.text);
  EXPECT_EQ(report["format"], "safetensors");
  EXPECT_EQ(report["file"], path);
  EXPECT_EQ(report["tensorCount"], 3);
  EXPECT_EQ(report["totalBytes"], 72);
  EXPECT_EQ(report["unsupportedCount"], 1);
  const auto& tensors = report["tensors"];
  ASSERT_EQ(tensors.size(), 3u);
  auto source = WeightSource::open(path);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorInfo& t = source->tensors()[i];
    EXPECT_EQ(tensors[i]["name"], t.name);
    EXPECT_EQ(tensors[i]["fileDataType"], t.fileDataType);
    EXPECT_EQ(tensors[i]["byteOffset"], t.byteOffset);
    EXPECT_EQ(tensors[i]["byteLength"], t.byteLength);
    EXPECT_EQ(tensors[i]["shape"].get<std::vector<uint32_t>>(), t.shape);
    EXPECT_EQ(tensors[i]["supported"], t.supported);
  }
  EXPECT_EQ(tensors[0]["dataType"], "float32");
  EXPECT_TRUE(tensors[1]["dataType"].is_null());
  EXPECT_NE(tensors[1]["unsupportedReason"].get<std::string>().find("BF16"), std::string::npos);
}

TEST_F(Inspect, GgufShapesInWebnnOrder) {
  const std::string path = dir.file("model.gguf");
  writeFile(path, makeGguf({{"token_embd.weight", kGgmlF16, {8, 3}, patternBytes(48, 4)},
                            {"blk.0.q", kGgmlQ4_0, {64}, patternBytes(36, 5)},
                            {"blk.0.k", kGgmlQ4_K, {256}, patternBytes(144, 6)}}));
  const Output out = runTool("inspect '" + path + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  for (const char* part :
       {"format:  gguf", "token_embd.weight", "float16", "[3, 8]", "blk.0.q ", "uint4 (from q4_0)",
        "blk.0.q.scale", "float16 (from q4_0)", "blk.0.q.zero_point", "q4_K (unsupported)",
        "5 tensors", "1 unsupported", "3 tensors derived from quantized tensors"}) {
    EXPECT_NE(out.text.find(part), std::string::npos) << "no '" << part << "' in:\n" << out.text;
  }
  const Output json = runTool("inspect --json '" + path + "'");
  ASSERT_EQ(json.status, 0) << json.text;
  const auto report = nlohmann::json::parse(json.text);
  EXPECT_EQ(report["derivedCount"], 3);
  EXPECT_EQ(report["tensors"][2]["name"], "blk.0.q.scale");
  EXPECT_EQ(report["tensors"][2]["dataType"], "float16");
  EXPECT_EQ(report["tensors"][2]["fileDataType"], "q4_0");
  EXPECT_EQ(report["tensors"][2]["derived"], true);
  EXPECT_EQ(report["tensors"][2]["byteLength"], 4);
  EXPECT_EQ(report["tensors"][0]["derived"], false);
}

TEST_F(Inspect, WebnnWeightsNamesTheDataFile) {
  const std::string weights = writeWebnnWeights(
      dir, "model", makeWebnnWeights({{"w", "float32", {4}, patternBytes(16, 6)}}));
  const Output out = runTool("inspect '" + dir.file("model.manifest.json") + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  for (const std::string& part : {std::string("format:  webnn-weights"), "data:    " + weights,
                                  std::string("1 tensor, 16 bytes")}) {
    EXPECT_NE(out.text.find(part), std::string::npos) << "no '" << part << "' in:\n" << out.text;
  }
}

TEST_F(Inspect, BadFileFailsWithTheReason) {
  const std::string path = dir.file("broken.safetensors");
  writeFile(path, makeSafetensorsRaw("{\"w\":{\"dtype\":\"F32\",\"shape\":[4],"
                                     "\"data_offsets\":[0,16]}}   ",
                                     patternBytes(8, 7)));  // 8 bytes where 16 are promised
  const Output out = runTool("inspect '" + path + "'");
  EXPECT_EQ(out.status, 1) << out.text;
  EXPECT_NE(out.text.find("DataError"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find(path), std::string::npos) << out.text;

  const Output missing = runTool("inspect '" + dir.file("nothing-here") + "'");
  EXPECT_NE(missing.status, 0) << missing.text;
}

TEST_F(Inspect, HelpAndUsage) {
  const Output help = runTool("inspect --help");
  EXPECT_EQ(help.status, 0) << help.text;
  EXPECT_NE(help.text.find("FILE"), std::string::npos) << help.text;
  EXPECT_NE(help.text.find("--json"), std::string::npos) << help.text;
  const Output top = runTool("--help");
  EXPECT_NE(top.text.find("inspect"), std::string::npos) << top.text;
  const Output noFile = runTool("inspect");
  EXPECT_NE(noFile.status, 0) << noFile.text;
}

}  // namespace
}  // namespace webnn::testing
