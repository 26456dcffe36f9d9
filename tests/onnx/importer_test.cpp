// The ONNX importer on small models built with libonnx: op mappings against hand-computed values,
// embedded and external weights, and malformed or unsupported models.
#include <gtest/gtest.h>
#include <webnn/onnx.h>
#include <webnn/webnn.h>

#include <unistd.h>
#include <cmath>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <tuple>

#include "model_maker.h"
#include "test_helpers.h"

namespace webnn::testing {
namespace {

struct Ran {
  std::vector<float> values;
  std::vector<uint32_t> shape;
  onnx::ImportedModel model;
};

// Imports `path`, loads its weights, runs it on `x` and returns output `y`.
Ran runModel(const std::string& path, const std::vector<float>& x,
             onnx::ImportOptions options = {}) {
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  Ran ran;
  ran.model = onnx::importModel(path, builder, options);
  MLGraph graph = builder.build(ran.model.outputOperands);
  graph.loadConstants(*ran.model.weights);
  EXPECT_TRUE(graph.pendingConstants().empty());
  MLNamedTensors inputs, outputs;
  for (const auto& [name, d] : ran.model.inputs) {
    inputs[name] = context.createTensor({d, false, true});
    context.writeTensor(inputs[name], std::as_bytes(std::span(x)));
  }
  for (const auto& [name, d] : ran.model.outputs)
    outputs[name] = context.createTensor({d, true, false});
  context.dispatch(graph, inputs, outputs);
  ran.values = readAs<float>(context, outputs.at("y"));
  ran.shape = ran.model.outputs.at(0).second.shape;
  return ran;
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-5) << "at " << i;
}

TEST(OnnxImporter, AddWithEmbeddedInitializerIsHollowAndStreamed) {
  ModelMaker m;
  m.input("x", {100, 3});
  std::vector<float> w(300);  // above the strip threshold: its bytes stay in the file only
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);
  m.floats("w", {100, 3}, w);
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  std::vector<float> x(300, 0.5f);
  const Ran ran = runModel(m.save(), x);
  EXPECT_EQ(ran.shape, (std::vector<uint32_t>{100, 3}));
  std::vector<float> expected(300);
  for (size_t i = 0; i < 300; ++i) expected[i] = static_cast<float>(i) + 0.5f;
  expectNear(ran.values, expected);
  EXPECT_EQ(ran.model.weightCount, 1u);
  EXPECT_EQ(ran.model.weightBytes, 1200u);
}

TEST(OnnxImporter, OneElementInitializersAreClassicConstants) {
  // A scalar (hardSwish's 3, an epsilon) is read at import: backends fold and fuse on its value.
  ModelMaker m;
  m.input("x", {2, 3});
  m.floats("three", {}, {3.0f});
  m.floats("w", {2, 3}, {1, 2, 3, 4, 5, 6});
  m.node("Add", {"x", "three"}, {"x3"});
  m.node("Mul", {"x3", "w"}, {"y"});
  m.output("y");
  const Ran ran = runModel(m.save(), std::vector<float>(6, 1.0f));
  expectNear(ran.values, {4, 8, 12, 16, 20, 24});
  EXPECT_EQ(ran.model.weightCount, 1u);  // w only
  EXPECT_EQ(ran.model.weightBytes, 24u);
}

TEST(OnnxImporter, SmallConstantChainsAreFolded) {
  ModelMaker m;
  m.input("x", {2, 3});
  std::vector<float> w(300);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);
  m.floats("w", {100, 3}, w);
  m.ints("two", {2, 150});
  m.node("Reshape", {"w", "two"}, {"w2"});
  m.node("Slice", {"w2", "starts", "ends"}, {"w3"});
  m.ints("starts", {0, 0});
  m.ints("ends", {2, 3});
  m.node("Add", {"x", "w3"}, {"y"});
  m.output("y");
  const Ran ran = runModel(m.save(), {1, 2, 3, 4, 5, 6});
  expectNear(ran.values, {1, 3, 5, 154, 156, 158});
  EXPECT_EQ(ran.model.foldedNodeCount, 2u);
}

TEST(OnnxImporter, ExternalDataInitializer) {
  ModelMaker m;
  m.input("x", {1, 4});
  const std::vector<float> w{0, 0, 10, 20, 30, 40};  // 8 bytes of padding first
  {
    std::ofstream out(m.folder() + "/weights.bin", std::ios::binary);
    out.write(reinterpret_cast<const char*>(w.data()), 24);
  }
  m.externalFloats("w", {1, 4}, "weights.bin", 8, 16);
  m.node("Mul", {"x", "w"}, {"y"});
  m.output("y");
  const Ran ran = runModel(m.save(), {1, 2, 3, 4});
  expectNear(ran.values, {10, 40, 90, 160});
  EXPECT_EQ(ran.model.weights->formatName(), "onnx");
}

// Whether this process maps (part of) the file at `path` (/proc/self/maps).
bool processMaps(const std::string& path) {
  std::ifstream maps("/proc/self/maps");
  const std::string canonical = std::filesystem::canonical(path).string();
  std::string line;
  while (std::getline(maps, line)) {
    if (line.size() >= canonical.size() &&
        line.compare(line.size() - canonical.size(), canonical.size(), canonical) == 0) {
      return true;
    }
  }
  return false;
}

// Weights in two external data files: the model's WeightSource has no single descriptor, but
// each tensor has its range in its own file, so loadConstants(allowMapping) maps them (a model
// larger than memory runs from its pages) instead of copying every byte.
TEST(OnnxImporter, EachExternalTensorIsMappedFromItsOwnFile) {
  ModelMaker m;
  m.input("x", {1, 4});
  const std::vector<float> first{0, 0, 10, 20, 30, 40}, second{1, 2, 3, 4};
  for (const auto& [file, values] :
       {std::pair{"first.bin", first}, std::pair{"second.bin", second}}) {
    std::ofstream out(m.folder() + "/" + file, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()),
              static_cast<std::streamsize>(values.size() * sizeof(float)));
  }
  m.externalFloats("w", {1, 4}, "first.bin", 8, 16);
  m.externalFloats("v", {1, 4}, "second.bin", 0, 16);
  m.node("Mul", {"x", "w"}, {"t"});
  m.node("Add", {"t", "v"}, {"y"});
  m.output("y");
  const std::string path = m.save();

  MLContext context = createContext();
  MLGraphBuilder builder(context);
  onnx::ImportedModel model = onnx::importModel(path, builder);
  const WeightSource& source = *model.weights;
  EXPECT_EQ(source.fileDescriptor(), -1);  // two files
  for (const auto& [name, offset, values] :
       {std::tuple{"w", 8ull, std::vector<float>{10, 20, 30, 40}}, std::tuple{"v", 0ull, second}}) {
    const TensorInfo* tensor = source.find(name);
    ASSERT_NE(tensor, nullptr) << name;
    const auto range = source.fileRangeOf(*tensor);
    ASSERT_TRUE(range.has_value()) << name;
    EXPECT_EQ(range->offset, offset) << name;
    EXPECT_EQ(range->fileSize, name == std::string("w") ? 24u : 16u) << name;
    std::vector<float> read(4);
    ASSERT_EQ(::pread(range->fd, read.data(), 16, static_cast<off_t>(range->offset)), 16) << name;
    EXPECT_EQ(read, values) << name;
  }

  auto graph = std::make_unique<MLGraph>(builder.build(model.outputOperands));
  ASSERT_FALSE(processMaps(m.folder() + "/first.bin"));
  EXPECT_EQ(context.memoryStats().mappedConstantBytes, 0u);
  LoadOptions options;
  options.allowMapping = true;
  graph->loadConstants(source, options);
  EXPECT_TRUE(graph->pendingConstants().empty());
  EXPECT_TRUE(processMaps(m.folder() + "/first.bin"));
  EXPECT_TRUE(processMaps(m.folder() + "/second.bin"));
  // Both constants read from the maps, and counted so (MLMemoryStats::mappedConstantBytes).
  EXPECT_EQ(context.memoryStats().mappedConstantBytes, 32u);
  MLNamedTensors inputs, outputs;
  const std::vector<float> x{1, 2, 3, 4};
  inputs["x"] = context.createTensor({model.inputs.at(0).second, false, true});
  context.writeTensor(inputs["x"], std::as_bytes(std::span(x)));
  outputs["y"] = context.createTensor({model.outputs.at(0).second, true, false});
  context.dispatch(*graph, inputs, outputs);
  const std::vector<std::byte> bytes = context.readTensor(outputs["y"]);
  std::vector<float> y(4);
  std::memcpy(y.data(), bytes.data(), 16);
  expectNear(y, {11, 42, 93, 164});
  // The graph gone, its maps are gone and no longer counted.
  graph->destroy();
  graph.reset();
  EXPECT_EQ(context.memoryStats().mappedConstantBytes, 0u);
  EXPECT_FALSE(processMaps(m.folder() + "/first.bin"));
}

TEST(OnnxImporter, GemmSoftmaxAndShapeFolding) {
  ModelMaker m;
  m.input("x", {-1, 2});
  m.floats("w", {3, 2}, {1, 0, 0, 1, 1, 1});
  m.floats("b", {3}, {0, 0, -1});
  auto& gemm = m.node("Gemm", {"x", "w", "b"}, {"g"});
  ModelMaker::attr(gemm, "transB", int64_t{1});
  m.node("Shape", {"g"}, {"s"});
  m.node("Reshape", {"g", "s"}, {"r"});
  m.node("Softmax", {"r"}, {"y"});
  m.output("y");
  onnx::ImportOptions options;
  options.dimensions["N"] = 1;
  const Ran ran = runModel(m.save(), {1, 2}, options);
  // g = [1, 2, 2]
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), sum = e1 + 2 * e2;
  expectNear(ran.values, {static_cast<float>(e1 / sum), static_cast<float>(e2 / sum),
                          static_cast<float>(e2 / sum)});
}

TEST(OnnxImporter, ConvWithSamePaddingAndRelu) {
  ModelMaker m;
  m.input("x", {1, 1, 3, 3});
  m.floats("w", {1, 1, 3, 3}, {0, 0, 0, 0, 1, 0, 0, 0, -1});
  auto& conv = m.node("Conv", {"x", "w"}, {"c"});
  ModelMaker::attr(conv, "auto_pad", std::string("SAME_UPPER"));
  m.node("Relu", {"c"}, {"y"});
  m.output("y");
  const Ran ran = runModel(m.save(), {1, 2, 3, 4, 5, 6, 7, 8, 9});
  // y[i][j] = relu(x[i][j] - x[i+1][j+1])
  expectNear(ran.values, {0, 0, 3, 0, 0, 6, 7, 8, 9});
}

TEST(OnnxImporter, TransposeConcatAndReduceMean) {
  ModelMaker m;
  m.input("x", {2, 3});
  auto& t = m.node("Transpose", {"x"}, {"t"});
  ModelMaker::attr(t, "perm", std::vector<int64_t>{1, 0});
  auto& cat = m.node("Concat", {"t", "t"}, {"c"});
  ModelMaker::attr(cat, "axis", int64_t{1});
  auto& mean = m.node("ReduceMean", {"c"}, {"y"});
  ModelMaker::attr(mean, "axes", std::vector<int64_t>{1});
  ModelMaker::attr(mean, "keepdims", int64_t{0});
  m.output("y");
  const Ran ran = runModel(m.save(), {1, 2, 3, 4, 5, 6});
  expectNear(ran.values, {2.5f, 3.5f, 4.5f});
}

TEST(OnnxImporter, UnsupportedOpsAreListedWithCountsBeforeAnyRead) {
  ModelMaker m;
  m.input("x", {2});
  m.node("Foo", {"x"}, {"a"});
  m.node("Foo", {"a"}, {"b"});
  m.node("Bar", {"b"}, {"c"});
  auto& r = m.node("Resize", {"c"}, {"y"});
  ModelMaker::attr(r, "mode", std::string("lanczos"));
  m.output("y");
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  const std::string path = m.save();
  expectError([&] { onnx::importModel(path, builder); }, Error::Kind::NotSupportedError,
              {"Foo (x2)", "Bar (x1)", "Resize (mode=lanczos) x1"});
}

TEST(OnnxImporter, TruncatedFileIsADataError) {
  ModelMaker m;
  m.input("x", {2});
  m.floats("w", {100}, std::vector<float>(100, 1.0f));
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  const std::string path = m.save();
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (size_t keep : {bytes.size() / 2, bytes.size() - 3, size_t{5}}) {
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), static_cast<std::streamsize>(keep));
    }
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    expectError([&] { onnx::importModel(path, builder); }, Error::Kind::DataError, {path});
  }
}

TEST(OnnxImporter, ExternalInitializerBeyondTheEndOfItsFile) {
  ModelMaker m;
  m.input("x", {4});
  {
    std::ofstream out(m.folder() + "/weights.bin", std::ios::binary);
    out.write("0123456789", 10);
  }
  m.externalFloats("w", {4}, "weights.bin", 0, 16);
  m.node("Add", {"x", "w"}, {"y"});
  m.output("y");
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  const std::string path = m.save();
  expectError([&] { onnx::importModel(path, builder); }, Error::Kind::DataError,
              {"'w'", "beyond its end"});
}

TEST(OnnxImporter, SizeMismatchMissingInputAndCycle) {
  {
    ModelMaker m;
    m.input("x", {4});
    m.floats("w", {5}, {1, 2, 3, 4});
    m.node("Add", {"x", "w"}, {"y"});
    m.output("y");
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    const std::string path = m.save();
    expectError([&] { onnx::importModel(path, builder); }, Error::Kind::DataError, {"'w'", "16"});
  }
  {
    ModelMaker m;
    m.input("x", {4});
    m.node("Add", {"x", "nowhere"}, {"y"});
    m.output("y");
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    const std::string path = m.save();
    expectError([&] { onnx::importModel(path, builder); }, Error::Kind::DataError, {"'nowhere'"});
  }
  {
    ModelMaker m;
    m.input("x", {4});
    m.node("Add", {"x", "b"}, {"a"});
    m.node("Relu", {"a"}, {"b"});
    m.node("Relu", {"a"}, {"y"});
    m.output("y");
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    const std::string path = m.save();
    expectError([&] { onnx::importModel(path, builder); }, Error::Kind::DataError, {"cycle"});
  }
}

TEST(OnnxImporter, UnknownDynamicDimensionIsNamed) {
  ModelMaker m;
  m.input("x", {-1, 4});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  const std::string path = m.save();
  expectError([&] { onnx::importModel(path, builder); }, Error::Kind::TypeError, {"'N'"});
}

// A shape given for an input fills its dynamic dimensions; contradicting a fixed one (as an .npy
// of another shape would) is a TypeError naming the input, the dimension and both values.
TEST(OnnxImporter, AGivenShapeMayNotContradictAFixedDimension) {
  ModelMaker m;
  m.input("x", {-1, 4});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  const std::string path = m.save();
  onnx::ImportOptions options;
  options.inputShapes["x"] = {2, 4};
  EXPECT_EQ(runModel(path, std::vector<float>(8, -1.0f), options).shape,
            (std::vector<uint32_t>{2, 4}));
  for (const std::vector<uint32_t>& shape : {std::vector<uint32_t>{2, 5}, {8}}) {
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    options.inputShapes["x"] = shape;
    expectError([&] { onnx::importModel(path, builder, options); }, Error::Kind::TypeError,
                {"'x'", shape.size() == 1 ? "has rank 2 in the model" : "dimension 1 is 4"});
  }
}

// A WebNN graph's outputs are results of operations: an ONNX output that is folded to a constant
// (Shape) or that is a graph input (Identity) is computed through identity.
TEST(OnnxImporter, OutputsThatAreConstantsOrInputsAreComputed) {
  ModelMaker m;
  m.input("x", {2, 3});
  m.node("Identity", {"x"}, {"y"});
  m.node("Shape", {"x"}, {"s"});
  m.output("y");
  m.output("s");
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  const auto model = onnx::importModel(m.save(), builder);
  MLGraph graph = builder.build(model.outputOperands);
  const std::vector<float> x = {1, -2, 3, -4, 5, -6};
  MLNamedTensors inputs, outputs;
  inputs["x"] = context.createTensor({model.inputs.at(0).second, false, true});
  context.writeTensor(inputs["x"], std::as_bytes(std::span(x)));
  for (const auto& [name, d] : model.outputs)
    outputs[name] = context.createTensor({d, true, false});
  context.dispatch(graph, inputs, outputs);
  EXPECT_EQ(readAs<float>(context, outputs.at("y")), x);
  EXPECT_EQ(readAs<int64_t>(context, outputs.at("s")), (std::vector<int64_t>{2, 3}));
}

// Mod: fmod=0 takes the divisor's sign (Python's %), fmod=1 the dividend's (C's fmod).
TEST(OnnxImporter, ModFollowsTheSignRuleOfItsFmodAttribute) {
  for (const int64_t fmod : {0, 1}) {
    ModelMaker m;
    m.input("a", {4}, ::onnx::TensorProto::INT32);
    m.input("b", {4}, ::onnx::TensorProto::INT32);
    auto& node = m.node("Mod", {"a", "b"}, {"y"});
    ModelMaker::attr(node, "fmod", fmod);
    m.output("y");
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    const auto model = onnx::importModel(m.save(), builder);
    MLGraph graph = builder.build(model.outputOperands);
    const std::vector<int32_t> a = {7, -7, 7, -7}, b = {3, 3, -3, -3};
    MLNamedTensors inputs, outputs;
    for (const auto& [name, d] : model.inputs) {
      inputs[name] = context.createTensor({d, false, true});
      context.writeTensor(inputs[name], std::as_bytes(std::span(name == "a" ? a : b)));
    }
    outputs["y"] = context.createTensor({model.outputs.at(0).second, true, false});
    context.dispatch(graph, inputs, outputs);
    EXPECT_EQ(readAs<int32_t>(context, outputs.at("y")),
              fmod ? (std::vector<int32_t>{1, -1, 1, -1}) : (std::vector<int32_t>{1, 2, -2, -1}))
        << "fmod=" << fmod;
  }
}

// ArgMax with select_last_index=1 picks the last of equal maxima.
TEST(OnnxImporter, ArgMaxSelectsTheLastIndexWhenAsked) {
  ModelMaker m;
  m.input("x", {2, 4});
  auto& node = m.node("ArgMax", {"x"}, {"y"});
  ModelMaker::attr(node, "axis", int64_t{1});
  ModelMaker::attr(node, "select_last_index", int64_t{1});
  m.output("y");
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  const auto model = onnx::importModel(m.save(), builder);
  MLGraph graph = builder.build(model.outputOperands);
  const std::vector<float> x = {5, 1, 5, 0, 2, 9, 9, 9};
  MLNamedTensors inputs, outputs;
  inputs["x"] = context.createTensor({model.inputs.at(0).second, false, true});
  context.writeTensor(inputs["x"], std::as_bytes(std::span(x)));
  outputs["y"] = context.createTensor({model.outputs.at(0).second, true, false});
  context.dispatch(graph, inputs, outputs);
  EXPECT_EQ(readAs<int64_t>(context, outputs.at("y")), (std::vector<int64_t>{2, 3}));
}

// A resize resample2d cannot express (linear with align_corners) goes through an interpolation
// matrix per axis: [0, 3] stretched to 4 positions with its corners aligned is 0, 1, 2, 3.
TEST(OnnxImporter, ResizeResample2dCannotExpressMultipliesByInterpolationMatrices) {
  ModelMaker m;
  m.input("x", {1, 1, 1, 2});
  m.ints("sizes", {1, 1, 1, 4});
  auto& node = m.node("Resize", {"x", "", "", "sizes"}, {"y"});
  ModelMaker::attr(node, "mode", std::string("linear"));
  ModelMaker::attr(node, "coordinate_transformation_mode", std::string("align_corners"));
  m.output("y");
  const Ran ran = runModel(m.save(), {0.0f, 3.0f});
  EXPECT_EQ(ran.shape, (std::vector<uint32_t>{1, 1, 1, 4}));
  expectNear(ran.values, {0, 1, 2, 3});
}

// A graph input fixed at import is a constant: the Reshape whose shape it gives folds, and it is
// no longer an input. Without it, the refusal names the input to fix.
TEST(OnnxImporter, FixedInputsBecomeConstantsThatFold) {
  ModelMaker m;
  m.input("x", {2, 3});
  m.input("shape", {2}, ::onnx::TensorProto::INT64);
  m.node("Reshape", {"x", "shape"}, {"y"});
  m.output("y");
  const std::string path = m.save();
  {
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    expectError([&] { onnx::importModel(path, builder); }, Error::Kind::NotSupportedError,
                {"it is the graph input 'shape'", "--fix-input shape=FILE.npy"});
  }
  const std::vector<int64_t> target = {3, 2};
  onnx::ImportOptions options;
  auto& fixed = options.fixedInputs["shape"];
  fixed.descriptor.dataType = MLOperandDataType::Int64;
  fixed.descriptor.shape.push_back(2);
  const auto bytes = std::as_bytes(std::span(target));
  fixed.bytes.assign(bytes.begin(), bytes.end());
  const Ran ran = runModel(path, {1, 2, 3, 4, 5, 6}, options);
  EXPECT_EQ(ran.shape, (std::vector<uint32_t>{3, 2}));
  ASSERT_EQ(ran.model.inputs.size(), 1u);
  EXPECT_EQ(ran.model.inputs[0].first, "x");
  expectNear(ran.values, {1, 2, 3, 4, 5, 6});

  auto wrong = options;
  wrong.fixedInputs["shape"].descriptor.dataType = MLOperandDataType::Int32;
  wrong.fixedInputs["shape"].bytes.resize(8);
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  expectError([&] { onnx::importModel(path, builder, wrong); }, Error::Kind::TypeError,
              {"--fix-input 'shape'", "the input is int64"});
  auto unknown = options;
  unknown.fixedInputs["nope"] = options.fixedInputs["shape"];
  MLGraphBuilder builder2(context);
  expectError([&] { onnx::importModel(path, builder2, unknown); }, Error::Kind::TypeError,
              {"'nope'", "no input of that name"});
}

// Pads cut from one initializer by Split and put back together by Concat (as exported models
// compute them) are known at import: the Split folds, and Pad gets constant pads.
TEST(OnnxImporter, SplitOfAnInitializerFoldsIntoPads) {
  ModelMaker m(13);
  m.input("x", {1, 2});
  m.ints("all", {0, 1, 0, 0, 9, 9});
  m.ints("parts", {2, 2, 2});
  m.node("Split", {"all", "parts"}, {"begin", "end", "unused"});
  m.node("Concat", {"begin", "end"}, {"pads"}).add_attribute()->CopyFrom([] {
    ::onnx::AttributeProto a;
    a.set_name("axis");
    a.set_type(::onnx::AttributeProto::INT);
    a.set_i(0);
    return a;
  }());
  m.node("Pad", {"x", "pads"}, {"y"});
  m.output("y");
  const Ran ran = runModel(m.save(), {5, 6});
  EXPECT_EQ(ran.shape, (std::vector<uint32_t>{1, 3}));  // one zero before the second axis
  expectNear(ran.values, {0, 5, 6});
  EXPECT_EQ(ran.model.nodeCount, 1u) << "only Pad is mapped; Split and Concat fold";
}

// An If whose condition depends only on shapes (as the three Ifs of a voice-activity model do)
// folds at import: the branch it takes is mapped in its place, the other is never looked at
// (it may use ops the importer does not know).
TEST(OnnxImporter, AnIfWhoseConditionFoldsMapsTheBranchItTakes) {
  for (const int64_t rows : {2, 3}) {
    ModelMaker m;
    m.input("x", {rows, 2});
    m.node("Shape", {"x"}, {"shape"});
    m.ints("first", {0});
    m.node("Gather", {"shape", "first"}, {"rows"});
    m.ints("two", {2});
    m.node("Equal", {"rows", "two"}, {"is_two"});
    m.node("Squeeze", {"is_two"}, {"cond"});
    auto& node = m.node("If", {"cond"}, {"y"});
    auto branch = [](const std::string& name, const std::string& op) {
      ::onnx::AttributeProto a;
      a.set_name(name);
      a.set_type(::onnx::AttributeProto::GRAPH);
      auto* g = a.mutable_g();
      g->set_name(name);
      auto* n = g->add_node();
      n->set_op_type(op);
      n->add_input("x");
      n->add_output(name + "_out");
      g->add_output()->set_name(name + "_out");
      return a;
    };
    *node.add_attribute() = branch("then_branch", "Neg");
    *node.add_attribute() = branch("else_branch", "NoSuchOp");
    m.output("y");
    const std::string path = m.save();
    if (rows == 2) {
      const Ran ran = runModel(path, {1, -2, 3, -4});
      expectNear(ran.values, {-1, 2, -3, 4});
    } else {
      MLContext context = createContext();
      MLGraphBuilder builder(context);
      expectError([&] { onnx::importModel(path, builder); }, Error::Kind::NotSupportedError,
                  {"NoSuchOp", "does not support this op"});
    }
  }
}

// ONNX's LSTM output gate peeks at the new cell state, WebNN's lstm at the previous one: with
// output-gate peephole weights the LSTM is unrolled with ONNX's equations (it once mapped
// silently to other values); without them WebNN's lstm computes the same. One step by hand.
TEST(OnnxImporter, LstmOutputGatePeepholesReadTheNewCellState) {
  for (const float outputGate : {0.0f, 0.5f}) {
    ModelMaker m;
    m.input("x", {1, 1, 1});
    m.floats("w", {1, 4, 1}, {0.1f, 0.2f, 0.3f, 0.4f});  // gates i, o, f, c
    m.floats("r", {1, 4, 1}, {0.1f, 0.2f, 0.3f, 0.4f});
    m.floats("p", {1, 3}, {0.3f, outputGate, 0.2f});  // peepholes i, o, f
    auto& node = m.node("LSTM", {"x", "w", "r", "", "", "", "", "p"}, {"", "y"});
    ModelMaker::attr(node, "hidden_size", int64_t{1});
    m.output("y");
    const Ran ran = runModel(m.save(), {0.5f});
    auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
    const double i = sigmoid(0.05), f = sigmoid(0.15), g = std::tanh(0.2);
    const double cell = f * 0 + i * g;
    const double o = sigmoid(0.1 + outputGate * cell);  // the new cell state
    expectNear(ran.values, {static_cast<float>(o * std::tanh(cell))});
  }
}

// RNN, which WebNN lacks, unrolled: a bidirectional one of one unit over two steps against the
// recurrence computed by hand (the backward direction reads the steps last to first).
TEST(OnnxImporter, BidirectionalRnnIsUnrolledStepByStep) {
  ModelMaker m;
  m.input("x", {2, 1, 1});
  m.floats("w", {2, 1, 1}, {1.0f, 2.0f});
  m.floats("r", {2, 1, 1}, {0.5f, 0.5f});
  auto& node = m.node("RNN", {"x", "w", "r"}, {"y", "y_h"});
  ModelMaker::attr(node, "hidden_size", int64_t{1});
  ModelMaker::attr(node, "direction", std::string("bidirectional"));
  m.output("y");
  m.output("y_h");
  const std::vector<float> x = {0.5f, -1.0f};
  const Ran ran = runModel(m.save(), x);
  const double h1 = std::tanh(0.5), h2 = std::tanh(-1.0 + 0.5 * h1);
  const double g1 = std::tanh(2 * -1.0), g0 = std::tanh(2 * 0.5 + 0.5 * g1);
  EXPECT_EQ(ran.shape, (std::vector<uint32_t>{2, 2, 1, 1}));
  expectNear(ran.values, {static_cast<float>(h1), static_cast<float>(g0), static_cast<float>(h2),
                          static_cast<float>(g1)});
}

// layout=1 (batch first) RNN with an initial state: initial_h [batch, dirs, hidden] is read per
// batch row (it was sliced as [dirs, batch, hidden], and the import failed).
TEST(OnnxImporter, BatchFirstRnnReadsItsInitialStatePerBatchRow) {
  ModelMaker m;
  m.input("x", {2, 1, 1});  // [batch, steps, input]
  m.floats("w", {1, 1, 1}, {2.0f});
  m.floats("r", {1, 1, 1}, {0.5f});
  m.floats("h0", {2, 1, 1}, {0.25f, -0.5f});                             // [batch, dirs, hidden]
  auto& node = m.node("RNN", {"x", "w", "r", "", "", "h0"}, {"", "y"});  // y: Y_h
  ModelMaker::attr(node, "hidden_size", int64_t{1});
  ModelMaker::attr(node, "layout", int64_t{1});
  m.output("y");
  const Ran ran = runModel(m.save(), {0.5f, -1.0f});
  EXPECT_EQ(ran.shape, (std::vector<uint32_t>{2, 1, 1}));
  expectNear(ran.values, {static_cast<float>(std::tanh(2 * 0.5 + 0.5 * 0.25)),
                          static_cast<float>(std::tanh(2 * -1.0 + 0.5 * -0.5))});
}

// Einsum, which WebNN lacks, as diagonals, sums, transposes and one batched matmul: each equation
// against the sums written out.
TEST(OnnxImporter, EinsumEquationsMatchTheirSums) {
  struct Case {
    std::string equation;
    std::vector<std::vector<int64_t>> shapes;
    std::vector<uint32_t> outShape;
  };
  const std::vector<Case> cases = {{"bij,bjk->bik", {{2, 2, 3}, {2, 3, 2}}, {2, 2, 2}},
                                   {"ij,jk", {{2, 3}, {3, 2}}, {2, 2}},   // implicit output: ik
                                   {"i,i", {{3}, {3}}, {}},               // inner product
                                   {"ij->ji", {{2, 3}}, {3, 2}},          // transpose
                                   {"ij->i", {{2, 3}}, {2}},              // sum
                                   {"...ii->...i", {{2, 3, 3}}, {2, 3}},  // batch diagonal
                                   {"i,j->ij", {{2}, {3}}, {2, 3}}};      // outer product
  for (const Case& t : cases) {
    ModelMaker m;
    std::vector<std::string> names;
    std::vector<std::vector<float>> data;
    for (size_t i = 0; i < t.shapes.size(); ++i) {
      names.push_back(i == 0 ? "x" : "z");
      m.input(names.back(), t.shapes[i]);
      size_t n = 1;
      for (int64_t d : t.shapes[i]) n *= static_cast<size_t>(d);
      std::vector<float> values(n);
      for (size_t k = 0; k < n; ++k) values[k] = static_cast<float>(k % 5) - 1.5f + 0.25f * i;
      data.push_back(values);
    }
    auto& node = m.node("Einsum", names, {"y"});
    ModelMaker::attr(node, "equation", t.equation);
    m.output("y");
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    const auto model = onnx::importModel(m.save(), builder);
    MLGraph graph = builder.build(model.outputOperands);
    MLNamedTensors inputs, outputs;
    for (size_t i = 0; i < names.size(); ++i) {
      inputs[names[i]] = context.createTensor({model.inputs.at(i).second, false, true});
      context.writeTensor(inputs[names[i]], std::as_bytes(std::span(data[i])));
    }
    outputs["y"] = context.createTensor({model.outputs.at(0).second, true, false});
    context.dispatch(graph, inputs, outputs);
    EXPECT_EQ(model.outputs.at(0).second.shape, t.outShape) << t.equation;
    const std::vector<float> y = readAs<float>(context, outputs.at("y"));
    const auto& a = data[0];
    std::vector<float> expected;
    if (t.equation == "bij,bjk->bik") {
      for (int b = 0; b < 2; ++b)
        for (int i = 0; i < 2; ++i)
          for (int k = 0; k < 2; ++k) {
            float sum = 0;
            for (int j = 0; j < 3; ++j) sum += a[b * 6 + i * 3 + j] * data[1][b * 6 + j * 2 + k];
            expected.push_back(sum);
          }
    } else if (t.equation == "ij,jk") {
      for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k) {
          float sum = 0;
          for (int j = 0; j < 3; ++j) sum += a[i * 3 + j] * data[1][j * 2 + k];
          expected.push_back(sum);
        }
    } else if (t.equation == "i,i") {
      expected = {a[0] * data[1][0] + a[1] * data[1][1] + a[2] * data[1][2]};
    } else if (t.equation == "ij->ji") {
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 2; ++i) expected.push_back(a[i * 3 + j]);
    } else if (t.equation == "ij->i") {
      expected = {a[0] + a[1] + a[2], a[3] + a[4] + a[5]};
    } else if (t.equation == "...ii->...i") {
      for (int b = 0; b < 2; ++b)
        for (int i = 0; i < 3; ++i) expected.push_back(a[b * 9 + i * 3 + i]);
    } else {
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) expected.push_back(a[i] * data[1][j]);
    }
    ASSERT_EQ(y.size(), expected.size()) << t.equation;
    for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-5) << t.equation;
  }
}

}  // namespace
}  // namespace webnn::testing
