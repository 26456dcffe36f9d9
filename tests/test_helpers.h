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

// Whether `error` is what a builder call throws for an op, a data type or a rank that the
// backend under test lacks but the spec allows (its opSupportLimits are narrower than the
// reference's): NotSupportedError "not supported by the <backend> backend", or a TypeError
// ending "(the <backend> backend)". Never true on the reference backend.
bool isBackendLimit(const Error& error);
// Whether the context's limits of every op of `ops` (spec names; empty: every op) are the
// reference backend's (the spec's data types and ranks): tests of the spec's type tables need them.
bool hasSpecLimits(const MLContext& context, const std::vector<std::string>& ops);
#define WEBNN_REQUIRE_SPEC_LIMITS(context, ...)                 \
  if (!::webnn::testing::hasSpecLimits(context, {__VA_ARGS__})) \
  GTEST_SKIP() << "the backend under test narrows the spec's limits of the ops this test checks"
// Whether the backend under test runs every op of `ops` (spec names).
bool backendSupportsOps(const MLContext& context, const std::vector<std::string>& ops);

// TEST(suite, name) for the per-backend suites: a test whose graph needs an op, data type or rank
// the backend under test lacks (isBackendLimit) is skipped, naming it, instead of failing. Every
// assertion of the test stays as it is on the backends that run it.
#define WEBNN_BACKEND_TEST(suite, name)                                                       \
  void suite##_##name##_Body();                                                               \
  TEST(suite, name) {                                                                         \
    try {                                                                                     \
      suite##_##name##_Body();                                                                \
    } catch (const ::webnn::Error& error) {                                                   \
      if (!::webnn::testing::isBackendLimit(error)) throw;                                    \
      GTEST_SKIP() << "the backend under test lacks what this test builds: " << error.what(); \
    }                                                                                         \
  }                                                                                           \
  void suite##_##name##_Body()

// Expects `call` to throw webnn::Error of `kind` whose message contains every fragment. An error
// that is not the one expected but a limit of the backend under test (isBackendLimit) is rethrown,
// so that WEBNN_BACKEND_TEST skips the test.
void expectError(const std::function<void()>& call, Error::Kind kind,
                 const std::vector<std::string>& fragments = {});

}  // namespace webnn::testing
