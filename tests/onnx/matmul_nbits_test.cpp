// ONNX Runtime's contrib op com.microsoft MatMulNBits through the importer, on the reference
// backend: 4- and 8-bit weights packed as ONNX Runtime packs them (low nibble first), against the
// product computed here by dequantizing by hand; B stays a hollow constant read from the file; and
// what the importer refuses, with its messages.
#include <gtest/gtest.h>
#include <webnn/onnx.h>
#include <webnn/webnn.h>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/float16.h"
#include "model_maker.h"
#include "test_helpers.h"

namespace webnn::testing {
namespace {

constexpr int32_t kOnnxFloat = 1, kOnnxUint8 = 2, kOnnxInt32 = 6, kOnnxFloat16 = 10;

enum class ZeroPoints { None, Packed, Float };

struct Case {
  int64_t m = 3, k = 100, n = 8, bits = 4, blockSize = 16;
  ZeroPoints zeroPoints = ZeroPoints::None;
  bool bias = false;
  bool float16 = false;
  bool trivialGroups = false;  // a g_idx input with the order MatMulNBits has without it
  int64_t accuracyLevel = 4;
};

// A MatMulNBits model with its weights, input and the output computed from the same numbers.
struct Made {
  ModelMaker maker;
  std::vector<float> a;
  std::vector<double> expected;
  int64_t blocks = 0;
};

std::string bytesOf(const std::vector<uint8_t>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

template <typename T>
std::string bytesOf(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// Float initializer values as float32 or float16 (the expectation uses the rounded values).
std::string floatBytes(std::vector<float>& values, bool float16) {
  if (!float16) return bytesOf(values);
  std::vector<uint16_t> halves;
  for (float& v : values) {
    halves.push_back(floatToHalf(v));
    v = halfToFloat(halves.back());
  }
  return bytesOf(halves);
}

void make(Made& made, const Case& t) {
  const int64_t blocks = (t.k + t.blockSize - 1) / t.blockSize;
  const int64_t blob = t.blockSize * t.bits / 8;
  const int64_t levels = int64_t{1} << t.bits;
  made.blocks = blocks;
  ModelMaker& m = made.maker;
  m.opset("com.microsoft", 1);
  m.input("A", {t.m, t.k}, t.float16 ? kOnnxFloat16 : kOnnxFloat);

  // q[n][k]: every value of the range; the last block's padding is filled with a value (levels -
  // 1) that would change the product if it were read.
  std::vector<uint8_t> b(static_cast<size_t>(t.n * blocks * blob), 0);
  std::vector<int64_t> q(static_cast<size_t>(t.n * t.k));
  for (int64_t n = 0; n < t.n; ++n) {
    for (int64_t kk = 0; kk < blocks * t.blockSize; ++kk) {
      const int64_t value = kk < t.k ? (n * 5 + kk * 3 + kk / 7) % levels : levels - 1;
      if (kk < t.k) q[static_cast<size_t>(n * t.k + kk)] = value;
      const int64_t block = kk / t.blockSize, j = kk % t.blockSize;
      const size_t at = static_cast<size_t>((n * blocks + block) * blob + j * t.bits / 8);
      b[at] |= static_cast<uint8_t>(t.bits == 4 ? value << (4 * (j % 2)) : value);
    }
  }
  m.raw("B", kOnnxUint8, {t.n, blocks, blob}, bytesOf(b));

  std::vector<float> scales(static_cast<size_t>(t.n * blocks));
  for (size_t i = 0; i < scales.size(); ++i)
    scales[i] = 0.015625f * static_cast<float>(1 + (i * 7) % 5) * (i % 3 == 0 ? -1.0f : 1.0f);
  m.raw("scales", t.float16 ? kOnnxFloat16 : kOnnxFloat, {t.n * blocks},
        floatBytes(scales, t.float16));

  // zero[n][block]: the default 2^(bits - 1) without zero points.
  std::vector<double> zero(static_cast<size_t>(t.n * blocks),
                           static_cast<double>(int64_t{1} << (t.bits - 1)));
  std::vector<std::string> inputs{"A", "B", "scales"};
  if (t.zeroPoints == ZeroPoints::Packed) {
    // Each row padded to whole bytes (odd n_blocks: a half-used last byte).
    const int64_t columns = (blocks * t.bits + 7) / 8;
    std::vector<uint8_t> packed(static_cast<size_t>(t.n * columns), 0);
    for (int64_t n = 0; n < t.n; ++n) {
      for (int64_t block = 0; block < blocks; ++block) {
        const int64_t value = (n * 3 + block * 5 + 1) % levels;
        zero[static_cast<size_t>(n * blocks + block)] = static_cast<double>(value);
        const size_t at = static_cast<size_t>(n * columns + block * t.bits / 8);
        packed[at] |= static_cast<uint8_t>(t.bits == 4 ? value << (4 * (block % 2)) : value);
      }
    }
    m.raw("zero_points", kOnnxUint8, {t.n, columns}, bytesOf(packed));
    inputs.push_back("zero_points");
  } else if (t.zeroPoints == ZeroPoints::Float) {
    std::vector<float> points(static_cast<size_t>(t.n * blocks));
    for (size_t i = 0; i < points.size(); ++i) points[i] = 0.5f + static_cast<float>(i % 13);
    m.raw("zero_points", t.float16 ? kOnnxFloat16 : kOnnxFloat, {t.n, blocks},
          floatBytes(points, t.float16));
    for (size_t i = 0; i < points.size(); ++i) zero[i] = points[i];
    inputs.push_back("zero_points");
  }
  if (t.trivialGroups) {
    std::vector<int32_t> groups(static_cast<size_t>(t.k));
    for (size_t i = 0; i < groups.size(); ++i)
      groups[i] = static_cast<int32_t>(static_cast<int64_t>(i) / t.blockSize);
    m.raw("g_idx", kOnnxInt32, {t.k}, bytesOf(groups));
    while (inputs.size() < 4) inputs.push_back("");
    inputs.push_back("g_idx");
  }
  std::vector<float> bias(static_cast<size_t>(t.n), 0.0f);
  if (t.bias) {
    for (size_t i = 0; i < bias.size(); ++i) bias[i] = 0.25f * static_cast<float>(i) - 1.0f;
    m.raw("bias", t.float16 ? kOnnxFloat16 : kOnnxFloat, {t.n}, floatBytes(bias, t.float16));
    while (inputs.size() < 5) inputs.push_back("");
    inputs.push_back("bias");
  }
  auto& node = m.node("MatMulNBits", inputs, {"y"});
  node.set_domain("com.microsoft");
  ModelMaker::attr(node, "K", t.k);
  ModelMaker::attr(node, "N", t.n);
  ModelMaker::attr(node, "bits", t.bits);
  ModelMaker::attr(node, "block_size", t.blockSize);
  ModelMaker::attr(node, "accuracy_level", t.accuracyLevel);
  m.output("y");

  made.a.resize(static_cast<size_t>(t.m * t.k));
  for (size_t i = 0; i < made.a.size(); ++i) {
    made.a[i] = static_cast<float>((i * 11) % 17) * 0.125f - 1.0f;
    if (t.float16) made.a[i] = halfToFloat(floatToHalf(made.a[i]));
  }
  made.expected.assign(static_cast<size_t>(t.m * t.n), 0.0);
  for (int64_t i = 0; i < t.m; ++i) {
    for (int64_t n = 0; n < t.n; ++n) {
      double sum = bias[static_cast<size_t>(n)];
      for (int64_t kk = 0; kk < t.k; ++kk) {
        const size_t block = static_cast<size_t>(n * blocks + kk / t.blockSize);
        const double w = (static_cast<double>(q[static_cast<size_t>(n * t.k + kk)]) - zero[block]) *
                         scales[block];
        sum += made.a[static_cast<size_t>(i * t.k + kk)] * w;
      }
      made.expected[static_cast<size_t>(i * t.n + n)] = sum;
    }
  }
}

struct Result {
  std::vector<float> y;
  onnx::ImportedModel model;
  std::map<std::string, std::string> pending;  // the hollow constants before loadConstants
};

Result run(const std::string& path, const std::vector<float>& a, bool float16) {
  MLContext context = createContext({.backend = "reference"});
  MLGraphBuilder builder(context);
  Result r;
  r.model = onnx::importModel(path, builder);
  MLGraph graph = builder.build(r.model.outputOperands);
  for (const MLOperand& c : graph.pendingConstants()) {
    r.pending[c.label()] = toString(c.descriptor());
  }
  graph.loadConstants(*r.model.weights);
  EXPECT_TRUE(graph.pendingConstants().empty());
  MLNamedTensors inputs, outputs;
  const auto& [name, descriptor] = r.model.inputs.at(0);
  inputs[name] = context.createTensor({descriptor, false, true});
  if (float16) {
    std::vector<uint16_t> halves;
    for (float v : a) halves.push_back(floatToHalf(v));
    context.writeTensor(inputs[name], std::as_bytes(std::span(halves)));
  } else {
    context.writeTensor(inputs[name], std::as_bytes(std::span(a)));
  }
  outputs["y"] = context.createTensor({r.model.outputs.at(0).second, true, false});
  context.dispatch(graph, inputs, outputs);
  if (float16) {
    for (uint16_t h : readAs<uint16_t>(context, outputs.at("y"))) r.y.push_back(halfToFloat(h));
  } else {
    r.y = readAs<float>(context, outputs.at("y"));
  }
  return r;
}

void expectProduct(const Case& t, double tolerance) {
  Made made;
  make(made, t);
  const Result r = run(made.maker.save(), made.a, t.float16);
  EXPECT_EQ(r.model.outputs.at(0).second.shape,
            (std::vector<uint32_t>{static_cast<uint32_t>(t.m), static_cast<uint32_t>(t.n)}));
  EXPECT_EQ(r.model.outputs.at(0).second.dataType,
            t.float16 ? MLOperandDataType::Float16 : MLOperandDataType::Float32);
  ASSERT_EQ(r.y.size(), made.expected.size());
  for (size_t i = 0; i < r.y.size(); ++i) {
    EXPECT_NEAR(r.y[i], made.expected[i], tolerance * (1.0 + std::fabs(made.expected[i])))
        << "at " << i;
  }
}

TEST(OnnxMatMulNBits, FourBitsWithTheDefaultZeroPointAndAPaddedLastBlock) {
  expectProduct({}, 1e-5);  // K=100: 7 blocks of 16, the last 4 values used
}

TEST(OnnxMatMulNBits, FourBitsWithPackedZeroPointsOfAnOddBlockCount) {
  expectProduct({.zeroPoints = ZeroPoints::Packed}, 1e-5);           // 7 blocks: rows of 4 bytes
  expectProduct({.k = 64, .zeroPoints = ZeroPoints::Packed}, 1e-5);  // 4 blocks: rows of 2
}

TEST(OnnxMatMulNBits, EightBitsWithAndWithoutZeroPoints) {
  expectProduct({.k = 96, .bits = 8, .blockSize = 32}, 1e-5);
  expectProduct({.k = 80, .bits = 8, .blockSize = 32, .zeroPoints = ZeroPoints::Packed}, 1e-5);
}

TEST(OnnxMatMulNBits, BiasFloatZeroPointsAndTheTrivialGroupOrder) {
  expectProduct({.bias = true}, 1e-5);
  expectProduct({.zeroPoints = ZeroPoints::Float, .bias = true}, 1e-5);
  expectProduct({.k = 64, .blockSize = 32, .trivialGroups = true}, 1e-5);
}

TEST(OnnxMatMulNBits, Float16Activations) {
  expectProduct({.float16 = true}, 1e-2);
  expectProduct({.bits = 8, .zeroPoints = ZeroPoints::Packed, .bias = true, .float16 = true}, 1e-2);
}

// summarizeModel reads what the model asks without building it: MatMulNBits with accuracy_level
// 4 allow int8 activations (ONNX Runtime computes them so); any other level, or a model without
// MatMulNBits, does not.
TEST(OnnxMatMulNBits, TheSummarySaysWhetherEveryNodeAllowsInt8Activations) {
  for (const int64_t level : {int64_t{4}, int64_t{0}, int64_t{1}}) {
    Made made;
    make(made, {.accuracyLevel = level});
    const onnx::ModelSummary summary = onnx::summarizeModel(made.maker.save());
    EXPECT_EQ(summary.blockQuantizedMatMuls, 1u);
    EXPECT_EQ(summary.int8AccuracyMatMuls, level == 4 ? 1u : 0u);
    EXPECT_EQ(summary.allowsInt8Activations(), level == 4) << level;
    EXPECT_GT(summary.opsetVersion, 0);
  }
  ModelMaker plain;
  plain.input("x", {2});
  plain.node("Relu", {"x"}, {"y"});
  plain.output("y");
  const onnx::ModelSummary none = onnx::summarizeModel(plain.save());
  EXPECT_EQ(none.blockQuantizedMatMuls, 0u);
  EXPECT_FALSE(none.allowsInt8Activations());
  expectError([] { onnx::summarizeModel("/nonexistent/model.onnx"); }, Error::Kind::OperationError,
              {"model.onnx"});
}

// B, in the file as uint8 [N, n_blocks, blob_size], is described as uint4 [N, n_blocks,
// block_size] with the same bytes: a hollow constant that loadConstants reads from the file.
TEST(OnnxMatMulNBits, FourBitWeightsStayHollowConstantsOfTheFilesBytes) {
  Made made;
  make(made, {.zeroPoints = ZeroPoints::Packed});  // B: 8 x 7 x 8 = 448 bytes, kept in the file
  const Result r = run(made.maker.save(), made.a, false);
  const MLOperandDescriptor b{MLOperandDataType::Uint4, {8, 7, 16}};
  // B and the scales (224 bytes) are hollow; the packed zero points are read at import (repacked).
  EXPECT_EQ(r.pending,
            (std::map<std::string, std::string>{{"B", toString(b)}, {"scales", "float32 [56]"}}));
  EXPECT_EQ(r.model.weightCount, 2u);
  EXPECT_EQ(r.model.weightBytes, 448u + 224u);
  const TensorInfo* info = r.model.weights->find("B");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(toString(info->descriptor()), toString(b));
  EXPECT_EQ(info->byteLength, 448u);
  EXPECT_EQ(info->fileDataType, "uint8");
}

// A weight that another node reads as well keeps its uint8 description; MatMulNBits then reads
// its bytes at import.
TEST(OnnxMatMulNBits, AWeightOtherNodesReadIsReadAtImport) {
  Made made;
  make(made, {});
  made.maker.node("Identity", {"B"}, {"b_copy"});  // (its result unused)
  MLContext context = createContext({.backend = "reference"});
  MLGraphBuilder builder(context);
  const auto model = onnx::importModel(made.maker.save(), builder);
  EXPECT_EQ(model.weights->find("B")->dataType, MLOperandDataType::Uint8);
  const Result r = run(made.maker.save(), made.a, false);
  ASSERT_EQ(r.y.size(), made.expected.size());
  for (size_t i = 0; i < r.y.size(); ++i) EXPECT_NEAR(r.y[i], made.expected[i], 1e-5);
}

std::string savedWith(const Case& t, const std::function<void(ModelMaker&)>& change) {
  Made made;
  make(made, t);
  change(made.maker);
  return made.maker.save();
}

::onnx::NodeProto& nBitsNode(ModelMaker& m) {
  for (auto& node : *m.model.mutable_graph()->mutable_node()) {
    if (node.op_type() == "MatMulNBits") return node;
  }
  throw std::runtime_error("no MatMulNBits node");
}

void setAttribute(ModelMaker& m, const std::string& name, int64_t value) {
  for (auto& a : *nBitsNode(m).mutable_attribute()) {
    if (a.name() == name) a.set_i(value);
  }
}

void expectImportError(const std::string& path, Error::Kind kind,
                       const std::vector<std::string>& parts) {
  MLContext context = createContext({.backend = "reference"});
  MLGraphBuilder builder(context);
  expectError([&] { onnx::importModel(path, builder); }, kind, parts);
}

TEST(OnnxMatMulNBits, OtherBitCountsAreRefusedBeforeAnyRead) {
  const std::string path = savedWith({}, [](ModelMaker& m) { setAttribute(m, "bits", 3); });
  expectImportError(path, Error::Kind::NotSupportedError, {"com.microsoft:MatMulNBits (bits=3)"});
}

TEST(OnnxMatMulNBits, AGroupIndexThatReordersIsRefused) {
  const std::string path = savedWith({.k = 64, .blockSize = 32}, [](ModelMaker& m) {
    std::vector<int32_t> groups(64);
    for (size_t i = 0; i < groups.size(); ++i) groups[i] = static_cast<int32_t>(i % 2);
    m.raw("g_idx", kOnnxInt32, {64}, bytesOf(groups));
    auto& node = nBitsNode(m);
    node.add_input("");
    node.add_input("g_idx");
  });
  expectImportError(path, Error::Kind::NotSupportedError,
                    {"MatMulNBits node", "g_idx (input 4) reorders", "g_idx[1] = 1, not 0"});
}

TEST(OnnxMatMulNBits, AttributesThatDisagreeWithTheShapesAreDataErrors) {
  // K=100 in blocks of 16 gives 7 blocks; N=9 does not match B's 8 rows.
  expectImportError(savedWith({}, [](ModelMaker& m) { setAttribute(m, "N", 9); }),
                    Error::Kind::DataError,
                    {"MatMulNBits node", "B (input 1) has shape [8, 7, 8]", "[9, 7, 8]"});
  // K=90 gives 6 blocks, and A's last dimension is 100.
  expectImportError(savedWith({}, [](ModelMaker& m) { setAttribute(m, "K", 90); }),
                    Error::Kind::DataError,
                    {"A (input 0) has shape [3, 100]", "last dimension must be K=90"});
  // block_size 24: not a power of 2.
  expectImportError(savedWith({}, [](ModelMaker& m) { setAttribute(m, "block_size", 24); }),
                    Error::Kind::DataError, {"block_size=24 is not a power of 2"});
  // Scales for 6 blocks a row.
  expectImportError(
      savedWith({},
                [](ModelMaker& m) {
                  auto& scales = *m.model.mutable_graph()->mutable_initializer(1);
                  scales.set_dims(0, 48);
                  scales.set_raw_data(std::string(48 * 4, '\0'));
                }),
      Error::Kind::DataError,
      {"scales (input 2) has shape [48]", "[N * n_blocks] or [N, n_blocks] = [8, 7]"});
  // Packed zero points of 3 bytes a row (7 blocks of 4 bits need 4).
  expectImportError(savedWith({.zeroPoints = ZeroPoints::Packed},
                              [](ModelMaker& m) {
                                auto& points = *m.model.mutable_graph()->mutable_initializer(2);
                                points.set_dims(1, 3);
                                points.set_raw_data(std::string(24, '\0'));
                              }),
                    Error::Kind::DataError, {"zero_points (input 3) has shape [8, 3]"});
  // A bias of the wrong length.
  expectImportError(savedWith({.bias = true},
                              [](ModelMaker& m) {
                                auto& bias = *m.model.mutable_graph()->mutable_initializer(2);
                                bias.set_dims(0, 4);
                                bias.set_raw_data(std::string(16, '\0'));
                              }),
                    Error::Kind::DataError, {"bias (input 5) is float [4]", "[N] = [8]"});
}

}  // namespace
}  // namespace webnn::testing
