// Small helpers shared by the unit tests.
#pragma once

#include <gtest/gtest.h>
#include <webnn/webnn.h>

#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace webnn::testing {

// The backend the per-backend suites run on: $WEBNN_TEST_BACKEND (CTest sets it once per
// registered backend), or the default backend when it is unset.
std::string backendUnderTest();
// A context on backendUnderTest(): what every op and API test builds on.
MLContext createTestContext();
// The chunk size loadConstants uses on `graph` when asked for `requested` bytes per chunk (the
// backend's staging hints may cut it).
uint64_t loaderChunkBytes(const MLGraph& graph, uint64_t requested);
// Whether `graph`'s backend stores constants in the file's layout (its staging is final storage,
// so it can also adopt a memory map).
bool keepsTheFilesLayout(const MLGraph& graph);

template <class T>
std::span<const std::byte> bytesOf(const std::vector<T>& values) {
  return std::as_bytes(std::span(values));
}

inline MLTensor inputTensor(MLContext& context, const MLOperandDescriptor& descriptor) {
  return context.createTensor({descriptor, false, true});
}
inline MLTensor outputTensor(MLContext& context, const MLOperandDescriptor& descriptor) {
  return context.createTensor({descriptor, true, false});
}

template <class T>
std::vector<T> readAs(MLContext& context, const MLTensor& tensor) {
  auto bytes = context.readTensor(tensor);
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Runs `graph` with float32 inputs and returns float32 output `outputName`.
std::vector<float> runFloat(MLContext& context, const MLGraph& graph,
                            const std::map<std::string, std::vector<float>>& inputs,
                            const std::string& outputName);

// Expects `call` to throw webnn::Error of `kind` whose message contains every fragment.
void expectError(const std::function<void()>& call, Error::Kind kind,
                 const std::vector<std::string>& fragments = {});

}  // namespace webnn::testing
