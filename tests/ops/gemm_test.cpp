// gemm: transposes, alpha, beta, c broadcast to [M, N], float16; shape inference and the
// TypeErrors.
#include <cmath>
#include <cstring>

#include "core/float16.h"
#include "test_helpers.h"

// Options are written with designated initializers; the members left out keep their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace webnn {
namespace {

using testing::expectError;
using K = Error::Kind;
constexpr MLOperandDataType F32 = MLOperandDataType::Float32;
constexpr MLOperandDataType F16 = MLOperandDataType::Float16;

// Builds one graph from float data (converted to float16 where the descriptor says so) and runs
// it, returning the output as floats.
struct Runner {
  MLContext context = createContext();
  MLGraphBuilder builder{context};
  std::map<std::string, std::pair<MLOperandDescriptor, std::vector<float>>> feeds;

  MLOperand input(const std::string& name, std::vector<uint32_t> shape, std::vector<float> data,
                  MLOperandDataType type = F32) {
    MLOperandDescriptor descriptor{type, std::move(shape)};
    feeds[name] = {descriptor, std::move(data)};
    return builder.input(name, descriptor);
  }
  static std::vector<std::byte> encode(MLOperandDataType type, const std::vector<float>& values) {
    std::vector<std::byte> bytes;
    if (type == F16) {
      std::vector<uint16_t> bits;
      for (float v : values) bits.push_back(floatToHalf(v));
      bytes.resize(bits.size() * 2);
      std::memcpy(bytes.data(), bits.data(), bytes.size());
    } else {
      bytes.resize(values.size() * 4);
      std::memcpy(bytes.data(), values.data(), bytes.size());
    }
    return bytes;
  }
  MLOperand constant(std::vector<uint32_t> shape, const std::vector<float>& data,
                     MLOperandDataType type = F32) {
    return builder.constant({type, std::move(shape)}, encode(type, data));
  }
  std::vector<float> run(const MLOperand& output) {
    MLGraph graph = builder.build({{"out", output}});
    MLNamedTensors inputs;
    for (const auto& [name, feed] : feeds) {
      MLTensor tensor = testing::inputTensor(context, feed.first);
      context.writeTensor(tensor, encode(feed.first.dataType, feed.second));
      inputs.emplace(name, tensor);
    }
    const MLOperandDescriptor outDescriptor = graph.outputDescriptors().at("out");
    MLTensor out = testing::outputTensor(context, outDescriptor);
    context.dispatch(graph, inputs, {{"out", out}});
    auto bytes = context.readTensor(out);
    std::vector<float> values;
    if (outDescriptor.dataType == F16) {
      std::vector<uint16_t> bits(bytes.size() / 2);
      std::memcpy(bits.data(), bytes.data(), bytes.size());
      for (uint16_t b : bits) values.push_back(halfToFloat(b));
    } else {
      values.resize(bytes.size() / 4);
      std::memcpy(values.data(), bytes.data(), bytes.size());
    }
    return values;
  }
};

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float tolerance = 1e-4f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance * std::max(1.0f, std::abs(expected[i])))
        << "at " << i;
  }
}

[[maybe_unused]] std::vector<float> iota(size_t count, float start = 0) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = start + static_cast<float>(i);
  return values;
}

// A = [[1, 2, 3], [4, 5, 6]], B = [[1, 2], [3, 4], [5, 6]]: A B = [[22, 28], [49, 64]].
const std::vector<float> kA = {1, 2, 3, 4, 5, 6};
const std::vector<float> kAT = {1, 4, 2, 5, 3, 6};  // A stored transposed, [3, 2]
const std::vector<float> kB = {1, 2, 3, 4, 5, 6};
const std::vector<float> kBT = {1, 3, 5, 2, 4, 6};  // B stored transposed, [2, 3]

TEST(Gemm, DefaultOptions) {
  Runner r;
  auto a = r.input("a", {2, 3}, kA);
  auto b = r.input("b", {3, 2}, kB);
  auto y = r.builder.gemm(a, b);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 2}));
  expectNear(r.run(y), {22, 28, 49, 64});
}

TEST(Gemm, Transposes) {
  for (bool aT : {false, true}) {
    for (bool bT : {false, true}) {
      Runner r;
      auto a = r.input("a", aT ? std::vector<uint32_t>{3, 2} : std::vector<uint32_t>{2, 3}, aT ? kAT : kA);
      auto b = r.constant(bT ? std::vector<uint32_t>{2, 3} : std::vector<uint32_t>{3, 2}, bT ? kBT : kB);
      auto y = r.builder.gemm(a, b, {.aTranspose = aT, .bTranspose = bT});
      EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 2}));
      expectNear(r.run(y), {22, 28, 49, 64});
    }
  }
}

TEST(Gemm, AlphaBetaAndC) {
  Runner r;
  auto a = r.input("a", {2, 3}, kA);
  auto b = r.constant({3, 2}, kB);
  auto c = r.constant({2, 2}, {1, 2, 3, 4});
  expectNear(r.run(r.builder.gemm(a, b, {.c = c, .alpha = 2, .beta = -3})),
             {44 - 3, 56 - 6, 98 - 9, 128 - 12});
}

TEST(Gemm, BetaWithoutCIsIgnored) {
  Runner r;
  auto a = r.input("a", {2, 3}, kA);
  auto b = r.constant({3, 2}, kB);
  expectNear(r.run(r.builder.gemm(a, b, {.alpha = 0.5, .beta = 7})), {11, 14, 24.5, 32});
}

TEST(Gemm, CBroadcasts) {
  struct Case {
    std::vector<uint32_t> shape;
    std::vector<float> data;
    std::vector<float> expected;
  };
  const std::vector<Case> cases = {
      {{}, {1}, {23, 29, 50, 65}},
      {{1}, {1}, {23, 29, 50, 65}},
      {{2}, {1, 2}, {23, 30, 50, 66}},
      {{1, 2}, {1, 2}, {23, 30, 50, 66}},
      {{2, 1}, {1, 2}, {23, 29, 51, 66}},
      {{1, 1}, {1}, {23, 29, 50, 65}},
  };
  for (const auto& c : cases) {
    Runner r;
    auto a = r.input("a", {2, 3}, kA);
    auto b = r.constant({3, 2}, kB);
    auto cc = r.constant(c.shape, c.data);
    expectNear(r.run(r.builder.gemm(a, b, {.c = cc})), c.expected);
  }
}

TEST(Gemm, Float16) {
  Runner r;
  auto a = r.input("a", {2, 3}, kA, F16);
  auto b = r.constant({3, 2}, kB, F16);
  auto c = r.constant({2}, {0.5, 0.25}, F16);
  auto y = r.builder.gemm(a, b, {.c = c});
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {22.5, 28.25, 49.5, 64.25}, 1e-3f);
}

TEST(Gemm, Errors) {
  struct Case {
    std::string name;
    MLOperandDescriptor a, b;
    MLGemmOptions options;
    std::optional<MLOperandDescriptor> c;
    std::string fragment;
  };
  std::vector<Case> cases = {
      {"a rank", {F32, {2, 3, 1}}, {F32, {3, 2}}, {}, {}, "a has rank 3"},
      {"b rank", {F32, {2, 3}}, {F32, {3}}, {}, {}, "b has rank 1"},
      {"int", {MLOperandDataType::Int32, {2, 3}}, {MLOperandDataType::Int32, {3, 2}}, {}, {}, "int32"},
      {"types", {F32, {2, 3}}, {F16, {3, 2}}, {}, {}, "same data type"},
      {"inner", {F32, {2, 3}}, {F32, {2, 3}}, {}, {}, "inner dimensions differ"},
      {"inner transposed", {F32, {2, 3}}, {F32, {3, 2}}, {.aTranspose = true}, {}, "(transposed)"},
      {"c shape", {F32, {2, 3}}, {F32, {3, 2}}, {}, MLOperandDescriptor{F32, {3, 2}}, "not broadcastable"},
      {"c rank", {F32, {2, 3}}, {F32, {3, 2}}, {}, MLOperandDescriptor{F32, {1, 2, 2}}, "c has rank 3"},
      {"c type", {F32, {2, 3}}, {F32, {3, 2}}, {}, MLOperandDescriptor{F16, {2, 2}}, "same data type"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    auto a = builder.input("a", c.a);
    auto b = builder.input("b", c.b);
    c.options.label = "fc";
    if (c.c) c.options.c = builder.input("c", *c.c);
    expectError([&] { builder.gemm(a, b, c.options); }, K::TypeError, {"gemm 'fc'", c.fragment});
  }
}

}  // namespace
}  // namespace webnn
