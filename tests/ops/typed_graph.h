// A test graph over raw bytes of any data type (inputs with data, one output "out"), and byte
// helpers: raw bytes of a vector, float16 bit patterns, int4/uint4 packing.
#pragma once

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/float16.h"
#include "test_helpers.h"

namespace webnn::testing {

template <class V>
std::vector<std::byte> raw(const std::vector<V>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(V));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

inline std::vector<uint16_t> halves(const std::vector<float>& values) {
  std::vector<uint16_t> bits;
  for (float value : values) bits.push_back(floatToHalf(value));
  return bits;
}

// Packs int4/uint4 values two per byte, low nibble first.
inline std::vector<std::byte> nibbles(const std::vector<int>& values) {
  std::vector<std::byte> bytes((values.size() + 1) / 2);
  for (size_t i = 0; i < values.size(); ++i) {
    const auto nibble = static_cast<uint8_t>(values[i] & 0x0f);
    bytes[i / 2] |= static_cast<std::byte>(i % 2 == 0 ? nibble : nibble << 4);
  }
  return bytes;
}

// One graph: inputs with data; run() computes output "out", runAll() any named outputs.
struct Graph {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder{context};
  std::map<std::string, std::vector<std::byte>> feeds;

  MLOperand input(const std::string& name, const MLOperandDescriptor& descriptor,
                  std::vector<std::byte> data) {
    feeds[name] = std::move(data);
    return builder.input(name, descriptor);
  }
  template <class V>
  MLOperand input(const std::string& name, const MLOperandDescriptor& descriptor,
                  const std::vector<V>& values) {
    return input(name, descriptor, raw(values));
  }
  std::map<std::string, std::vector<std::byte>> runAll(const MLNamedOperands& outputs) {
    MLGraph graph = builder.build(outputs);
    MLNamedTensors inputs;
    for (const auto& [name, descriptor] : graph.inputDescriptors()) {
      MLTensor tensor = testing::inputTensor(context, descriptor);
      context.writeTensor(tensor, feeds.at(name));
      inputs.emplace(name, tensor);
    }
    MLNamedTensors outs;
    for (const auto& [name, descriptor] : graph.outputDescriptors()) {
      outs.emplace(name, testing::outputTensor(context, descriptor));
    }
    context.dispatch(graph, inputs, outs);
    std::map<std::string, std::vector<std::byte>> results;
    for (const auto& [name, tensor] : outs) results[name] = context.readTensor(tensor);
    return results;
  }
  std::vector<std::byte> run(const MLOperand& output) { return runAll({{"out", output}}).at("out"); }
  template <class V>
  std::vector<V> runAs(const MLOperand& output) {
    auto bytes = run(output);
    std::vector<V> values(bytes.size() / sizeof(V));
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
};

}  // namespace webnn::testing
