// A test runner for float ops: builds one graph from float data (converted to float16 where a
// descriptor says so), runs it on the reference backend and returns the output as floats.
#pragma once

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/float16.h"
#include "test_helpers.h"

namespace webnn::testing {

constexpr MLOperandDataType F32 = MLOperandDataType::Float32;
constexpr MLOperandDataType F16 = MLOperandDataType::Float16;

struct Runner {
  MLContext context = testing::createTestContext();
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

inline void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float tolerance = 1e-4f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance * std::max(1.0f, std::abs(expected[i])))
        << "at " << i;
  }
}

inline std::vector<float> iota(size_t count, float start = 0) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = start + static_cast<float>(i);
  return values;
}

}  // namespace webnn::testing
