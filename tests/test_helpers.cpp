#include "test_helpers.h"

#include <algorithm>
#include <cstdlib>

#include "api/graph_state.h"

namespace webnn::testing {

std::string backendUnderTest() {
  const char* name = std::getenv("WEBNN_TEST_BACKEND");
  return name ? name : "";
}

MLContext createTestContext() { return createContext({.backend = backendUnderTest()}); }

uint64_t loaderChunkBytes(const MLGraph& graph, uint64_t requested) {
  const backend::StagingHints hints = graph.state()->compiled->stagingHints();
  return hints.direct ? requested : std::min(requested, hints.chunkBytes);
}

bool keepsTheFilesLayout(const MLGraph& graph) {
  const auto hints = graph.state()->compiled->stagingHints();
  return hints.direct && !hints.deviceMemory;
}

bool isBackendLimit(const Error& error) {
  const std::string backend = backendUnderTest();
  if (backend.empty() || backend == "reference") return false;
  const std::string message = error.message();
  if (error.kind() == Error::Kind::NotSupportedError) {
    return message.find("not supported by the " + backend + " backend") != std::string::npos;
  }
  if (error.kind() == Error::Kind::TypeError) {
    const std::string suffix = "(the " + backend + " backend)";
    const std::string tooLarge = "maxTensorByteLength";
    return (message.size() >= suffix.size() &&
            message.compare(message.size() - suffix.size(), suffix.size(), suffix) == 0) ||
           (message.find(tooLarge) != std::string::npos &&
            message.find("of the " + backend + " backend") != std::string::npos);
  }
  return false;
}

bool hasSpecLimits(const MLContext& context, const std::vector<std::string>& ops) {
  const auto limits = context.opSupportLimits();
  const auto spec = createContext({.backend = "reference"}).opSupportLimits();
  auto same = [](const MLTensorLimits& a, const MLTensorLimits& b) {
    for (auto type : b.dataTypes) {
      if (!a.supports(type)) return false;
    }
    return a.rankRange.min <= b.rankRange.min && a.rankRange.max >= b.rankRange.max;
  };
  for (const auto& [op, operands] : spec.ops) {
    if (!ops.empty() && std::find(ops.begin(), ops.end(), op) == ops.end()) continue;
    auto found = limits.ops.find(op);
    if (found == limits.ops.end()) return false;
    for (const auto& [operand, expected] : operands) {
      auto actual = found->second.find(operand);
      if (actual == found->second.end() || !same(actual->second, expected)) return false;
    }
  }
  return true;
}

bool backendSupportsOps(const MLContext& context, const std::vector<std::string>& ops) {
  const auto limits = context.opSupportLimits();
  for (const auto& op : ops) {
    if (!limits.ops.contains(op)) return false;
  }
  return true;
}

std::vector<float> runFloat(MLContext& context, const MLGraph& graph,
                            const std::map<std::string, std::vector<float>>& inputs,
                            const std::string& outputName) {
  MLNamedTensors inputTensors;
  const auto inputDescriptors = graph.inputDescriptors();
  for (const auto& [name, values] : inputs) {
    MLTensor tensor = inputTensor(context, inputDescriptors.at(name));
    context.writeTensor(tensor, bytesOf(values));
    inputTensors.emplace(name, tensor);
  }
  MLNamedTensors outputTensors;
  for (const auto& [name, descriptor] : graph.outputDescriptors()) {
    outputTensors.emplace(name, outputTensor(context, descriptor));
  }
  context.dispatch(graph, inputTensors, outputTensors);
  return readAs<float>(context, outputTensors.at(outputName));
}

void expectError(const std::function<void()>& call, Error::Kind kind,
                 const std::vector<std::string>& fragments) {
  try {
    call();
    ADD_FAILURE() << "expected an error, but the call succeeded";
  } catch (const Error& error) {
    bool expected = error.kind() == kind;
    for (const auto& fragment : fragments) {
      expected = expected && std::string(error.what()).find(fragment) != std::string::npos;
    }
    // The backend under test refused the call for its own limits before the check the test is
    // about: WEBNN_BACKEND_TEST skips the test (elsewhere it fails, as any escaping error does).
    if (!expected && isBackendLimit(error)) throw;
    EXPECT_EQ(error.kind(), kind) << error.name() << ": " << error.what();
    for (const auto& fragment : fragments) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
          << "message '" << error.what() << "' does not mention '" << fragment << "'";
    }
  }
}

}  // namespace webnn::testing
