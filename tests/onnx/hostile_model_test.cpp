// Hostile ONNX models: every class of malformed input found by the attack of issue 12 gives a
// webnn::Error naming what is wrong (never a crash, a hang, an allocation bomb, a read outside
// the model's folder or a silently wrong shape). Several inputs per class.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <webnn/onnx.h>
#include <webnn/webnn.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <optional>

#include "model_maker.h"
#include "test_helpers.h"

namespace webnn::testing {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// The error importModel throws for `path` (a test failure when it succeeds).
std::optional<Error> importError(const std::string& path, const onnx::ImportOptions& options = {}) {
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  try {
    onnx::importModel(path, builder, options);
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << path << ": the import succeeded";
  return std::nullopt;
}

void expectImportError(const std::string& path, Error::Kind kind,
                       const std::vector<std::string>& fragments,
                       const onnx::ImportOptions& options = {}) {
  const auto error = importError(path, options);
  if (!error) return;
  EXPECT_EQ(error->kind(), kind) << error->name() << ": " << error->what();
  for (const auto& fragment : fragments) {
    EXPECT_NE(error->message().find(fragment), std::string::npos)
        << "message '" << error->what() << "' does not mention '" << fragment << "'";
  }
}

// An int64 initializer of any shape, kept in the proto (small) or not.
void int64s(ModelMaker& m, const std::string& name, const std::vector<int64_t>& dims,
            const std::vector<int64_t>& values) {
  auto* t = m.model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(7);
  for (int64_t d : dims) t->add_dims(d);
  for (int64_t v : values) t->add_int64_data(v);
}

void floatScalar(ModelMaker& m, const std::string& name, float value) {
  m.floats(name, {}, {value});
}

// Runs the imported model on float input x = [0, 1, 2, ...] and returns output y.
std::vector<float> runOnIota(const std::string& path) {
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  auto model = onnx::importModel(path, builder);
  MLGraph graph = builder.build(model.outputOperands);
  graph.loadConstants(*model.weights);
  MLNamedTensors inputs, outputs;
  for (const auto& [name, d] : model.inputs) {
    inputs[name] = context.createTensor({d, false, true});
    std::vector<float> x(d.elementCount());
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
    context.writeTensor(inputs[name], std::as_bytes(std::span(x)));
  }
  for (const auto& [name, d] : model.outputs)
    outputs[name] = context.createTensor({d, true, false});
  context.dispatch(graph, inputs, outputs);
  return readAs<float>(context, outputs.at("y"));
}

// ---- rank-0 operands and axes a scalar does not have ----

struct ScalarCase {
  const char* op;
  std::vector<std::string> extraInputs;
  void (*attributes)(::onnx::NodeProto&);
};

std::vector<ScalarCase> scalarCases() {
  return {
      {"Concat", {"x"}, [](::onnx::NodeProto& n) { ModelMaker::attr(n, "axis", int64_t{0}); }},
      {"Gather", {"index"}, [](::onnx::NodeProto& n) { ModelMaker::attr(n, "axis", int64_t{0}); }},
      {"Squeeze", {"axes"}, [](::onnx::NodeProto&) {}},
      {"Slice", {"starts", "ends", "axes"}, [](::onnx::NodeProto&) {}},
      {"Split", {}, [](::onnx::NodeProto& n) { ModelMaker::attr(n, "axis", int64_t{0}); }},
      {"Pad", {"pads", "", "axes"}, [](::onnx::NodeProto&) {}},
      {"Softmax", {}, [](::onnx::NodeProto& n) { ModelMaker::attr(n, "axis", int64_t{0}); }},
      {"LSTM",
       {"w", "r"},
       [](::onnx::NodeProto& n) { ModelMaker::attr(n, "hidden_size", int64_t{1}); }},
      {"GRU",
       {"w", "r"},
       [](::onnx::NodeProto& n) { ModelMaker::attr(n, "hidden_size", int64_t{1}); }},
  };
}

void addScalarCaseInputs(ModelMaker& m) {
  int64s(m, "index", {}, {0});
  int64s(m, "axes", {1}, {0});
  int64s(m, "starts", {1}, {0});
  int64s(m, "ends", {1}, {1});
  int64s(m, "pads", {2}, {1, 1});
  m.floats("w", {1, 4, 1}, {1, 1, 1, 1});
  m.floats("r", {1, 4, 1}, {1, 1, 1, 1});
}

TEST(HostileModel, ScalarOperandsOfAxisOpsAreDataErrors) {
  for (const auto& c : scalarCases()) {
    SCOPED_TRACE(c.op);
    ModelMaker m(18);
    m.input("x", {});
    addScalarCaseInputs(m);
    std::vector<std::string> inputs{"x"};
    inputs.insert(inputs.end(), c.extraInputs.begin(), c.extraInputs.end());
    c.attributes(m.node(c.op, inputs, {"y"}));
    m.output("y");
    const auto error = importError(m.save());
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), Error::Kind::DataError) << error->what();
    EXPECT_NE(error->message().find(c.op), std::string::npos) << error->what();
  }
}

TEST(HostileModel, FoldedScalarsWithAxesAreDataErrors) {
  // The same ops on a scalar known at import (folded, not built).
  for (const char* op : {"Concat", "Gather", "Squeeze", "Slice"}) {
    SCOPED_TRACE(op);
    ModelMaker m(18);
    m.input("x", {1});
    addScalarCaseInputs(m);
    floatScalar(m, "s", 2.0f);
    std::vector<std::string> inputs{"s"};
    if (std::string(op) == "Concat") inputs.push_back("s");
    if (std::string(op) == "Gather") inputs.push_back("index");
    if (std::string(op) == "Squeeze") inputs.push_back("axes");
    if (std::string(op) == "Slice") inputs.insert(inputs.end(), {"starts", "ends", "axes"});
    auto& node = m.node(op, inputs, {"folded"});
    if (std::string(op) == "Concat" || std::string(op) == "Gather")
      ModelMaker::attr(node, "axis", int64_t{0});
    m.node("Add", {"x", "folded"}, {"y"});
    m.output("y");
    expectImportError(m.save(), Error::Kind::DataError, {"scalar"});
  }
}

TEST(HostileModel, FoldedConcatWhoseOtherDimensionsDisagreeIsADataError) {
  // [2, 2] ++ [1, 3] along axis 0: the old fold read past the second input's values.
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
      {{2, 2}, {1, 3}}, {{1, 4}, {2, 1}}, {{2, 1, 2}, {2, 2, 3}}};
  for (const auto& [a, b] : shapes) {
    ModelMaker m;
    m.input("x", {1});
    std::vector<float> av(static_cast<size_t>(a[0] * a[1] * (a.size() > 2 ? a[2] : 1)), 1.0f);
    std::vector<float> bv(static_cast<size_t>(b[0] * b[1] * (b.size() > 2 ? b[2] : 1)), 2.0f);
    m.floats("a", a, av);
    m.floats("b", b, bv);
    ModelMaker::attr(m.node("Concat", {"a", "b"}, {"ab"}), "axis", int64_t{a.size() == 3 ? 1 : 0});
    m.node("Shape", {"ab"}, {"y0"});
    ModelMaker::attr(m.node("Cast", {"y0"}, {"y1"}), "to", int64_t{1});
    m.node("Add", {"x", "y1"}, {"y"});
    m.output("y");
    expectImportError(m.save(), Error::Kind::DataError, {"Concat", "dimension"});
  }
}

// Part sizes whose sum overflows int64 (found by onnx_structure_fuzzer as a signed overflow in
// the fold; UBSan flags it without the check): refused as not adding up to the axis.
TEST(HostileModel, FoldedSplitWhosePartSizesOverflowIsADataError) {
  ModelMaker m(18);
  m.input("x", {1});
  m.floats("a", {3}, {1.0f, 2.0f, 3.0f});
  m.ints("parts", {2, std::numeric_limits<int64_t>::max()});
  ModelMaker::attr(m.node("Split", {"a", "parts"}, {"a0", "a1"}), "axis", int64_t{0});
  m.node("Add", {"x", "a0"}, {"y"});
  m.output("y");
  expectImportError(m.save(), Error::Kind::DataError, {"part sizes"});
}

TEST(HostileModel, RecurrentOpsCheckTheRankOfEveryInput) {
  for (const char* op : {"LSTM", "GRU"}) {
    for (const std::vector<int64_t>& shape :
         std::vector<std::vector<int64_t>>{{4}, {1, 4}, {1, 1, 1, 1}}) {
      SCOPED_TRACE(std::string(op) + " rank " + std::to_string(shape.size()));
      ModelMaker m;
      m.input("x", shape);
      addScalarCaseInputs(m);
      ModelMaker::attr(m.node(op, {"x", "w", "r"}, {"y"}), "hidden_size", int64_t{1});
      m.output("y");
      expectImportError(m.save(), Error::Kind::DataError, {"rank"});
    }
  }
}

// ---- checked shape arithmetic ----

TEST(HostileModel, ReshapeShapesWhoseProductWrapsAreRefused) {
  // 7 * 0x6db6db6db6db6db7 = 1 (mod 2^64): it passed the element-count check before.
  const int64_t inverseOf7 = 0x6db6db6db6db6db7;
  const std::vector<std::vector<int64_t>> shapes = {
      {7, inverseOf7}, {inverseOf7, 7, 1}, {int64_t{1} << 32, int64_t{1} << 32}};
  for (const auto& shape : shapes) {
    for (bool folded : {false, true}) {
      SCOPED_TRACE(std::to_string(shape[0]) + (folded ? " folded" : " built"));
      ModelMaker m;
      m.input("x", {1});
      m.ints("shape", shape);
      if (folded) {
        floatScalar(m, "one", 1.0f);
        m.node("Reshape", {"one", "shape"}, {"r"});
        m.node("Add", {"x", "r"}, {"y"});
      } else {
        m.node("Reshape", {"x", "shape"}, {"y"});
      }
      m.output("y");
      expectImportError(m.save(), Error::Kind::DataError, {"overflow"});
    }
  }
}

TEST(HostileModel, SliceWithExtremeStartsEndsAndStepsGivesTheRightElements) {
  struct Case {
    std::vector<int64_t> starts, ends, steps;
    std::vector<float> expected;  // of x = [0, 1, 2, 3, 4]
  };
  const std::vector<Case> cases = {
      {{kInt64Max}, {kInt64Min}, {kInt64Min}, {4}}, {{0}, {kInt64Max}, {kInt64Max}, {0}},
      {{kInt64Min}, {kInt64Max}, {2}, {0, 2, 4}},   {{kInt64Max}, {kInt64Min}, {-2}, {4, 2, 0}},
      {{-1}, {kInt64Min}, {kInt64Min + 1}, {4}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::to_string(c.starts[0]) + ":" + std::to_string(c.ends[0]) + ":" +
                 std::to_string(c.steps[0]));
    ModelMaker m;
    m.input("x", {5});
    m.ints("starts", c.starts);
    m.ints("ends", c.ends);
    m.ints("axes", {0});
    m.ints("steps", c.steps);
    m.node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"y"});
    m.output("y");
    EXPECT_EQ(runOnIota(m.save()), c.expected);

    // Folded: the same slice of a known vector, then added to a zero input.
    ModelMaker f;
    f.input("x", {static_cast<int64_t>(c.expected.size())});
    f.floats("data", {5}, {0, 1, 2, 3, 4});
    f.ints("starts", c.starts);
    f.ints("ends", c.ends);
    f.ints("axes", {0});
    f.ints("steps", c.steps);
    f.node("Slice", {"data", "starts", "ends", "axes", "steps"}, {"s"});
    f.node("Sub", {"s", "x"}, {"d"});
    f.node("Add", {"d", "x"}, {"y"});
    f.output("y");
    EXPECT_EQ(runOnIota(f.save()), c.expected);
  }
}

TEST(HostileModel, RangeWithoutAFiniteLengthIsADataError) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::array<float, 3>> cases = {
      {0, inf, 1}, {-inf, 0, 1}, {0, nan, 1}, {0, 1, nan}, {0, 3e38f, 1e-38f}};
  for (const auto& [start, limit, delta] : cases) {
    SCOPED_TRACE(std::to_string(start) + " " + std::to_string(limit) + " " + std::to_string(delta));
    ModelMaker m;
    m.input("x", {1});
    floatScalar(m, "start", start);
    floatScalar(m, "limit", limit);
    floatScalar(m, "delta", delta);
    m.node("Range", {"start", "limit", "delta"}, {"r"});
    m.node("Add", {"x", "r"}, {"y"});
    m.output("y");
    expectImportError(m.save(), Error::Kind::DataError, {"Range"});
  }
}

TEST(HostileModel, RangeNeedsScalarInputs) {
  ModelMaker m;
  m.input("x", {1});
  m.floats("start", {0}, {});
  floatScalar(m, "limit", 4);
  floatScalar(m, "delta", 1);
  m.node("Range", {"start", "limit", "delta"}, {"r"});
  m.node("Add", {"x", "r"}, {"y"});
  m.output("y");
  expectImportError(m.save(), Error::Kind::DataError, {"one value"});
}

TEST(HostileModel, ResizeScalesOutsideTheDimensionRangeAreDataErrors) {
  for (float scale : {1e30f, 3e9f, std::numeric_limits<float>::infinity()}) {
    SCOPED_TRACE(scale);
    ModelMaker m(13);
    m.input("x", {1, 1, 2, 2});
    m.floats("scales", {4}, {1, 1, scale, scale});
    m.node("Resize", {"x", "", "scales"}, {"y"});
    m.output("y");
    expectImportError(m.save(), Error::Kind::DataError, {"dimension range"});
  }
}

TEST(HostileModel, HugeNearestResizesAreRefusedWithoutVisitingEveryPosition) {
  // Found by onnx_import_fuzzer: the nearest-mode check looped over every output position (2^31
  // here, within WebNN's dimensions and the default tensor limit): a CPU bomb.
  for (float scale : {1e9f, 2e9f, 1e8f}) {
    SCOPED_TRACE(scale);
    ModelMaker m(13);
    m.input("x", {1, 1, 1, 2});
    m.floats("scales", {4}, {1, 1, 1, scale});
    m.node("Resize", {"x", "", "scales"}, {"y"});
    m.output("y");
    const auto start = std::chrono::steady_clock::now();
    expectImportError(m.save(), Error::Kind::NotSupportedError, {"positions along an axis"});
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  }
  // Larger than the tensor limit: refused as such.
  ModelMaker m(13);
  m.input("x", {1, 1, 2, 2});
  m.floats("scales", {4}, {1, 1, 1e5f, 1e5f});
  m.node("Resize", {"x", "", "scales"}, {"y"});
  m.output("y");
  expectImportError(m.save(), Error::Kind::DataError, {"ImportOptions::maxTensorBytes"});
}

TEST(HostileModel, ResizeSizesOutsideTheDimensionRangeAreDataErrors) {
  for (int64_t size : {int64_t{1} << 40, kInt64Max, int64_t{-1}}) {
    ModelMaker m(13);
    m.input("x", {1, 1, 2, 2});
    m.ints("sizes", {1, 1, size, 2});
    m.node("Resize", {"x", "", "", "sizes"}, {"y"});
    m.output("y");
    expectImportError(m.save(), Error::Kind::DataError, {"out of range"});
  }
}

TEST(HostileModel, PadsOutsideTheDimensionRangeAreDataErrors) {
  for (int64_t pad : {int64_t{1} << 32, kInt64Min, kInt64Max}) {
    ModelMaker m(18);
    m.input("x", {2});
    m.ints("pads", {pad, 0});
    m.node("Pad", {"x", "pads"}, {"y"});
    m.output("y");
    expectImportError(m.save(), Error::Kind::DataError, {"pad"});
  }
}

// ---- allocation bombs from tiny files ----

TEST(HostileModel, FoldedValuesLargerThanTheLimitsAreRefusedBeforeAllocation) {
  struct Bomb {
    const char* name;
    void (*build)(ModelMaker&);
  };
  const std::vector<Bomb> bombs = {
      {"ConstantOfShape 65536 x 65536",
       [](ModelMaker& m) {
         m.ints("shape", {65536, 65536});
         m.node("ConstantOfShape", {"shape"}, {"big"});
       }},
      {"ConstantOfShape shape tensor of 2^31",
       [](ModelMaker& m) {
         m.ints("shape", {int64_t{1} << 31});
         m.node("ConstantOfShape", {"shape"}, {"big"});
       }},
      {"Expand to 2^20 x 2^20",
       [](ModelMaker& m) {
         floatScalar(m, "one", 1.0f);
         m.ints("shape", {int64_t{1} << 20, int64_t{1} << 20});
         m.node("Expand", {"one", "shape"}, {"big"});
       }},
      {"Add broadcasting 40000 x 40000",
       [](ModelMaker& m) {
         m.floats("col", {40000, 1}, std::vector<float>(40000, 1.0f));
         m.floats("row", {1, 40000}, std::vector<float>(40000, 1.0f));
         m.node("Add", {"col", "row"}, {"big"});
       }},
      {"Gather repeating rows",
       [](ModelMaker& m) {
         m.floats("data", {1, 60000}, std::vector<float>(60000, 1.0f));
         m.ints("indices", std::vector<int64_t>(60000, 0));
         m.node("Gather", {"data", "indices"}, {"big"});
       }},
  };
  for (const auto& bomb : bombs) {
    SCOPED_TRACE(bomb.name);
    ModelMaker m;
    m.input("x", {1});
    bomb.build(m);
    m.node("Add", {"x", "big"}, {"y"});
    m.output("y");
    expectImportError(m.save(), Error::Kind::DataError, {"limit", "ImportOptions::max"});
  }
}

TEST(HostileModel, TheFoldLimitIsTheUsersAndCountsEveryFoldedValue) {
  auto model = [](int64_t n) {
    ModelMaker m;
    m.input("x", {n});
    m.ints("shape", {n});
    m.node("ConstantOfShape", {"shape"}, {"zeros"});
    m.node("Add", {"x", "zeros"}, {"y"});
    m.output("y");
    return m.save();
  };
  onnx::ImportOptions options;
  options.maxFoldedBytes = 1024;  // 128 values of 8 bytes, the shape tensor included
  expectImportError(model(200), Error::Kind::DataError, {"1024", "ImportOptions::maxFoldedBytes"},
                    options);
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  EXPECT_NO_THROW(onnx::importModel(model(100), builder, options));
  options.maxFoldedBytes = 1u << 30;
  options.maxTensorBytes = 800;
  expectImportError(model(101), Error::Kind::DataError, {"800", "ImportOptions::maxTensorBytes"},
                    options);
}

TEST(HostileModel, WeightAndInputLimitsAreCheckedBeforeLoading) {
  ModelMaker m;
  m.input("x", {100, 3});
  m.floats("w", {100, 3}, std::vector<float>(300, 1.0f));
  m.floats("v", {100, 3}, std::vector<float>(300, 2.0f));
  m.node("Add", {"x", "w"}, {"xw"});
  m.node("Add", {"xw", "v"}, {"y"});
  m.output("y");
  const std::string path = m.save();
  onnx::ImportOptions options;
  options.maxTensorBytes = 1199;
  expectImportError(path, Error::Kind::DataError, {"'w'", "1199", "maxTensorBytes"}, options);
  options.maxTensorBytes = 1200;
  options.maxWeightBytes = 2399;
  expectImportError(path, Error::Kind::DataError, {"'v'", "2399", "maxWeightBytes"}, options);
  options.maxWeightBytes = 2400;
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  EXPECT_NO_THROW(onnx::importModel(path, builder, options));

  ModelMaker big;
  big.input("x", {1 << 20, 1 << 13});  // 32 GiB of float32: above the default limit
  big.node("Relu", {"x"}, {"y"});
  big.output("y");
  expectImportError(big.save(), Error::Kind::DataError, {"input 'x'", "maxTensorBytes"});
}

// ---- dimensions above 2^32 are refused, not truncated ----

TEST(HostileModel, DimensionsAbove32BitsAreRefused) {
  for (int64_t d : {int64_t{1} << 32, (int64_t{1} << 32) + 1, kInt64Max}) {
    SCOPED_TRACE(d);
    ModelMaker m;
    m.input("x", {d});
    m.node("Relu", {"x"}, {"y"});
    m.output("y");
    expectImportError(m.save(), Error::Kind::DataError, {"input 'x' dimension 0"});

    ModelMaker w;
    w.input("x", {1});
    auto* t = w.model.mutable_graph()->add_initializer();
    t->set_name("w");
    t->set_data_type(1);
    t->add_dims(d);
    t->set_raw_data(std::string(4, '\0'));
    w.node("Add", {"x", "w"}, {"y"});
    w.output("y");
    expectImportError(w.save(), Error::Kind::DataError, {"'w'", "dimension"});
  }
}

// ---- external data stays inside the model's folder ----

std::string writeOutsideFile(const std::string& name) {
  const std::string path = std::filesystem::temp_directory_path().string() + "/" + name;
  std::ofstream(path, std::ios::binary) << std::string(64, 'S');
  return path;
}

TEST(HostileModel, ExternalDataThroughASymlinkOutsideTheFolderIsRefused) {
  const std::string outside = writeOutsideFile("webnn-hostile-secret.bin");
  const std::string outsideFolder =
      std::filesystem::temp_directory_path().string() + "/webnn-hostile-outside";
  std::filesystem::create_directories(outsideFolder);
  std::ofstream(outsideFolder + "/data.bin", std::ios::binary) << std::string(64, 'S');
  struct Case {
    std::string location;
    std::function<void(const std::string& folder)> make;
  };
  const std::vector<Case> cases = {
      {"link.bin",
       [&](const std::string& f) { ::symlink(outside.c_str(), (f + "/link.bin").c_str()); }},
      {"dir/data.bin",
       [&](const std::string& f) { ::symlink(outsideFolder.c_str(), (f + "/dir").c_str()); }},
      {"sub/link.bin",
       [&](const std::string& f) {
         std::filesystem::create_directories(f + "/sub");
         ::symlink("/etc/passwd", (f + "/sub/link.bin").c_str());
       }},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.location);
    ModelMaker m;
    m.input("x", {4});
    m.externalFloats("w", {4}, c.location, 0, 16);
    m.node("Add", {"x", "w"}, {"y"});
    m.output("y");
    c.make(m.folder());
    expectImportError(m.save(), Error::Kind::DataError, {"outside the model's folder"});
  }
}

TEST(HostileModel, ExternalDataThroughASymlinkInsideTheFolderIsRead) {
  ModelMaker m;
  m.input("x", {4});
  const std::vector<float> w = {1, 2, 3, 4};
  std::filesystem::create_directories(m.folder() + "/blobs");
  std::ofstream(m.folder() + "/blobs/w.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(w.data()), 16);
  ::symlink("blobs/w.bin", (m.folder() + "/w.bin").c_str());
  m.externalFloats("w", {4}, "w.bin", 0, 16);
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  EXPECT_EQ(runOnIota(m.save()), (std::vector<float>{1, 3, 5, 7}));
}

TEST(HostileModel, ExternalDataLocationsWithNulOrDotsAreRefused) {
  for (const std::string& location :
       {std::string("w.bin\0/../../etc/passwd", 23), std::string("w.bin\0", 6),
        std::string("../w.bin"), std::string("/etc/passwd")}) {
    ModelMaker m;
    m.input("x", {4});
    std::ofstream(m.folder() + "/w.bin", std::ios::binary) << std::string(16, '\0');
    m.externalFloats("w", {4}, location, 0, 16);
    m.node("Add", {"x", "w"}, {"y"});
    m.output("y");
    const auto error = importError(m.save());
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), Error::Kind::DataError) << error->what();
    EXPECT_NE(error->message().find("external data location"), std::string::npos) << error->what();
  }
}

TEST(HostileModel, ExternalDataNumbersAreParsedStrictly) {
  for (const char* text : {"0junk", "", " 0", "+0", "-1", "1e3", "0x10", "18446744073709551616"}) {
    for (const char* key : {"offset", "length"}) {
      SCOPED_TRACE(std::string(key) + "=" + text);
      ModelMaker m;
      m.input("x", {4});
      std::ofstream(m.folder() + "/w.bin", std::ios::binary) << std::string(16, '\0');
      m.externalFloats("w", {4}, "w.bin", 0, 16);
      auto* data = m.model.mutable_graph()->mutable_initializer(0)->mutable_external_data();
      for (auto& kv : *data) {
        if (kv.key() == key) kv.set_value(text);
      }
      m.node("Add", {"x", "w"}, {"y"});
      m.output("y");
      expectImportError(m.save(), Error::Kind::DataError, {key, "not a decimal number"});
    }
  }
}

// ---- files that are not regular: refused without blocking ----

// Runs `call` on a thread; if it has not returned within a few seconds, unblocks it by opening
// `fifo` for writing and fails.
void expectReturnsWithoutBlocking(const std::string& fifo, const std::function<void()>& call) {
  auto done = std::async(std::launch::async, call);
  if (done.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    ADD_FAILURE() << "blocked on the FIFO " << fifo;
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    if (fd >= 0) ::close(fd);
  }
  done.get();
}

TEST(HostileModel, FifosAreRefusedWithoutBlocking) {
  ModelMaker m;
  const std::string model = m.folder() + "/fifo.onnx";
  ASSERT_EQ(::mkfifo(model.c_str(), 0600), 0);
  expectReturnsWithoutBlocking(
      model, [&] { expectImportError(model, Error::Kind::DataError, {"not a regular file"}); });

  ModelMaker e;
  e.input("x", {4});
  ASSERT_EQ(::mkfifo((e.folder() + "/w.bin").c_str(), 0600), 0);
  e.externalFloats("w", {4}, "w.bin", 0, 16);
  e.node("Add", {"x", "w"}, {"y"});
  e.output("y");
  const std::string path = e.save();
  expectReturnsWithoutBlocking(e.folder() + "/w.bin", [&] {
    expectImportError(path, Error::Kind::DataError, {"not a regular file"});
  });

  const std::string weights = m.folder() + "/fifo.safetensors";
  ASSERT_EQ(::mkfifo(weights.c_str(), 0600), 0);
  expectReturnsWithoutBlocking(weights, [&] {
    expectError([&] { WeightSource::open(weights); }, Error::Kind::DataError,
                {"not a regular file"});
  });
}

// ---- a model that shrinks while it is imported ----

// Truncates the model to `keep` bytes on the first read: what a file changed by another process
// during import looks like. Every read then sees the shorter file.
class ShrinkingReader : public FileReader {
 public:
  ShrinkingReader(std::string path, uint64_t keep) : path_(std::move(path)), keep_(keep) {}
  ssize_t pread(int fd, void* buffer, size_t count, uint64_t offset) override {
    if (!shrunk_.exchange(true)) {
      if (::truncate(path_.c_str(), static_cast<off_t>(keep_)) != 0) return -1;
    }
    return FileReader::pread(fd, buffer, count, offset);
  }

 private:
  std::string path_;
  uint64_t keep_;
  std::atomic<bool> shrunk_{false};
};

TEST(HostileModel, AModelThatShrinksDuringImportIsADataErrorNotSigbus) {
  for (double fraction : {0.0, 0.5, 0.9}) {
    SCOPED_TRACE(fraction);
    ModelMaker m;
    m.input("x", {1});
    // Initializers of 512 KiB between the graph's field headers: windows lie far apart.
    for (int i = 0; i < 4; ++i) {
      m.floats("w" + std::to_string(i), {1 << 17}, std::vector<float>(1 << 17, 1.0f));
    }
    m.node("Relu", {"x"}, {"y"});
    m.output("y");
    const std::string path = m.save();
    const auto size = std::filesystem::file_size(path);
    onnx::ImportOptions options;
    options.reader =
        std::make_shared<ShrinkingReader>(path, static_cast<uint64_t>(size * fraction));
    expectImportError(path, Error::Kind::DataError, {"changed while it was imported"}, options);
  }
}

}  // namespace
}  // namespace webnn::testing
