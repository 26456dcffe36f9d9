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
  return graph.state()->compiled->stagingHints().direct;
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
    EXPECT_EQ(error.kind(), kind) << error.name() << ": " << error.what();
    for (const auto& fragment : fragments) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
          << "message '" << error.what() << "' does not mention '" << fragment << "'";
    }
  }
}

}  // namespace webnn::testing
