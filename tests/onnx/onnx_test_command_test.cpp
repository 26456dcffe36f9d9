// `webnn onnx-test`: the ONNX test-case layout (model.onnx + test_data_set_N/{input,output}_M.pb)
// read and checked, and its TensorProto reader.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "onnx/model_maker.h"
#include "onnx_suite/tensor_file.h"
#include "tools/run_tool.h"

namespace webnn {
namespace {

namespace fs = std::filesystem;

void writeProto(const std::string& path, const ::onnx::TensorProto& tensor) {
  std::ofstream out(path, std::ios::binary);
  ASSERT_TRUE(tensor.SerializeToOstream(&out)) << path;
}

::onnx::TensorProto floatTensor(const std::string& name, const std::vector<int64_t>& dims,
                                const std::vector<float>& values) {
  ::onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(::onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  for (float v : values) t.add_float_data(v);
  return t;
}

// A case folder named `name` holding y = relu(x) and one data set with `expectedY`.
std::string writeReluCase(testing::ModelMaker& m, const std::string& name,
                          const std::vector<float>& expectedY) {
  m.input("x", {1, 4});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  const std::string model = m.save();
  const fs::path folder = fs::path(m.folder()) / name;
  fs::create_directories(folder / "test_data_set_0");
  fs::copy_file(model, folder / "model.onnx");
  writeProto((folder / "test_data_set_0/input_0.pb").string(),
             floatTensor("x", {1, 4}, {-1, 2, -3, 4}));
  writeProto((folder / "test_data_set_0/output_0.pb").string(),
             floatTensor("y", {1, 4}, expectedY));
  return folder.string();
}

TEST(OnnxTestCommand, APassingCaseAndAWrongOneAgainstTheExpectedResults) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  testing::ModelMaker good, bad;
  const std::string passing = writeReluCase(good, "test_relu_good", {0, 2, 0, 4});
  const std::string wrong = writeReluCase(bad, "test_relu_bad", {0, 2, 0, 4.01f});

  auto out = testing::runTool("onnx-test '" + passing + "'");
  EXPECT_EQ(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("1 cases: 1 pass, 0 refused, 0 failed, 0 wrong"), std::string::npos)
      << out.text;

  out = testing::runTool("onnx-test '" + wrong + "'");
  EXPECT_EQ(out.status, 1) << out.text;
  EXPECT_NE(out.text.find("0 pass, 0 refused, 0 failed, 1 wrong"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("output 'y': element [0, 3] is 4, expected 4.01"), std::string::npos)
      << out.text;

  // Recorded as wrong, the case matches; recorded as passing, it is a difference.
  const std::string recorded = bad.folder() + "/expected.txt";
  out = testing::runTool("onnx-test '" + wrong + "' --write-expected '" + recorded + "'");
  out = testing::runTool("onnx-test '" + wrong + "' --expected '" + recorded + "'");
  EXPECT_EQ(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("0 difference(s)"), std::string::npos) << out.text;
  std::ofstream(recorded) << "test_relu_bad pass\n";
  out = testing::runTool("onnx-test '" + wrong + "' --expected '" + recorded + "'");
  EXPECT_EQ(out.status, 1) << out.text;
  EXPECT_NE(out.text.find("1 difference(s)"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("expected: pass"), std::string::npos) << out.text;
}

TEST(OnnxTestCommand, AModelTheImporterCannotMapIsRefusedWithItsReason) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  testing::ModelMaker m;
  m.input("x", {4});
  m.node("StringNormalizer", {"x"}, {"y"});
  m.output("y");
  const std::string model = m.save();
  const fs::path cases = fs::path(m.folder()) / "cases";  // a folder of case folders
  fs::create_directories(cases / "test_strings" / "test_data_set_0");
  fs::copy_file(model, cases / "test_strings" / "model.onnx");
  const std::string recorded = m.folder() + "/expected.txt";
  const auto out =
      testing::runTool("onnx-test '" + cases.string() + "' --write-expected '" + recorded + "'");
  EXPECT_EQ(out.status, 1) << out.text;
  EXPECT_NE(out.text.find("0 pass, 1 refused"), std::string::npos) << out.text;
  std::ifstream in(recorded);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\ntest_strings refused NotSupportedError: model.onnx: the model uses what "
                      "the ONNX importer does not support: ops StringNormalizer (x1)\n"),
            std::string::npos)
      << text;
}

class TensorFileTest : public ::testing::Test {
 protected:
  std::string write(const ::onnx::TensorProto& t) {
    const std::string path = folder_ + "/t" + std::to_string(count_++) + ".pb";
    writeProto(path, t);
    return path;
  }
  void SetUp() override {
    testing::ModelMaker m;  // only for its fresh temporary folder
    m.save();
    folder_ = m.folder();
  }
  std::string folder_;
  int count_ = 0;
};

TEST_F(TensorFileTest, TypedFieldsAndRawDataReadIntoWebnnLayout) {
  auto f = onnx_suite::readTensorFile(write(floatTensor("x", {2}, {1.5f, -2})));
  EXPECT_EQ(f.name, "x");
  EXPECT_EQ(f.value.dataType, MLOperandDataType::Float32);
  EXPECT_EQ(f.value.shape, (std::vector<uint32_t>{2}));
  std::vector<float> values(2);
  std::memcpy(values.data(), f.value.bytes.data(), 8);
  EXPECT_EQ(values, (std::vector<float>{1.5f, -2}));

  ::onnx::TensorProto b;
  b.set_data_type(::onnx::TensorProto::BOOL);
  b.add_dims(3);
  for (int v : {1, 0, 1}) b.add_int32_data(v);
  f = onnx_suite::readTensorFile(write(b));
  EXPECT_EQ(f.value.dataType, MLOperandDataType::Uint8);
  EXPECT_EQ(f.value.bytes, (std::vector<std::byte>{std::byte{1}, std::byte{0}, std::byte{1}}));

  ::onnx::TensorProto raw;
  raw.set_data_type(::onnx::TensorProto::INT64);
  raw.add_dims(1);
  const int64_t big = int64_t{1} << 50;
  raw.set_raw_data(std::string(reinterpret_cast<const char*>(&big), 8));
  f = onnx_suite::readTensorFile(write(raw));
  EXPECT_EQ(f.value.dataType, MLOperandDataType::Int64);
  int64_t read = 0;
  std::memcpy(&read, f.value.bytes.data(), 8);
  EXPECT_EQ(read, big);
}

TEST_F(TensorFileTest, TypesWebnnLacksAreMarkedUnsupported) {
  ::onnx::TensorProto d;
  d.set_data_type(::onnx::TensorProto::DOUBLE);
  d.add_dims(1);
  d.add_double_data(1.0);
  const auto f = onnx_suite::readTensorFile(write(d));
  EXPECT_FALSE(f.supported);
  EXPECT_EQ(f.unsupportedReason, "ONNX type double, which WebNN has no type for");
}

TEST_F(TensorFileTest, DataThatDoesNotHoldTheShapeIsADataError) {
  for (const auto& t : {floatTensor("x", {3}, {1, 2}), [] {
                          ::onnx::TensorProto r;
                          r.set_data_type(::onnx::TensorProto::FLOAT);
                          r.add_dims(2);
                          r.set_raw_data(std::string(7, '\0'));
                          return r;
                        }()}) {
    const std::string path = write(t);
    try {
      onnx_suite::readTensorFile(path);
      ADD_FAILURE() << "read " << path;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), Error::Kind::DataError);
      EXPECT_NE(e.message().find(path), std::string::npos) << e.message();
    }
  }
  const std::string garbage = folder_ + "/garbage.pb";
  std::ofstream(garbage) << "\xff\xff\xff not a proto";
  EXPECT_THROW(onnx_suite::readTensorFile(garbage), Error);
}

}  // namespace
}  // namespace webnn
