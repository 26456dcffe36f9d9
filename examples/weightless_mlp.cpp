// Builds a two-layer MLP weightless, shows that dispatch refuses to run while weights are missing,
// streams the weights in (chunk by chunk, each byte copied once into the graph's final storage),
// runs it, checks the result against a plain C++ computation, and prints the memory account.
#include <webnn/webnn.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace {

std::span<const std::byte> bytesOf(const std::vector<float>& values) {
  return std::as_bytes(std::span(values));
}

std::vector<float> randomValues(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(-0.5f, 0.5f);
  std::vector<float> values(count);
  for (float& value : values) value = distribution(generator);
  return values;
}

}  // namespace

int main() {
  using namespace webnn;
  constexpr uint32_t kIn = 512, kHidden = 1024, kOut = 256;

  MLContext context = createContext();
  MLGraphBuilder builder(context);
  MLOperand x = builder.input("x", {MLOperandDataType::Float32, {1, kIn}});
  MLOperand w1 = builder.constant({MLOperandDataType::Float32, {kIn, kHidden}}, {.label = "fc1.weight"});
  MLOperand b1 = builder.constant({MLOperandDataType::Float32, {kHidden}}, {.label = "fc1.bias"});
  MLOperand w2 = builder.constant({MLOperandDataType::Float32, {kHidden, kOut}}, {.label = "fc2.weight"});
  MLOperand hidden = builder.relu(builder.add(builder.matmul(x, w1), b1));
  MLOperand y = builder.matmul(hidden, w2);
  MLGraph graph = builder.build({{"y", y}});  // no weight bytes needed
  std::printf("built weightless on the '%s' backend: %zu constants pending\n",
              context.backendName().c_str(), graph.pendingConstants().size());

  MLTensor input = context.createTensor({{MLOperandDataType::Float32, {1, kIn}}, false, true});
  MLTensor output = context.createTensor({{MLOperandDataType::Float32, {1, kOut}}, true, false});
  const auto inputValues = randomValues(kIn, 1);
  context.writeTensor(input, bytesOf(inputValues));
  try {
    context.dispatch(graph, {{"x", input}}, {{"y", output}});
  } catch (const Error& error) {
    std::printf("dispatch before the weights: %s: %s\n", std::string(error.name()).c_str(),
                error.what());
  }

  // Stream the weights in: fc1.weight in 64 KiB chunks, in reverse order to show any order works.
  const auto weight1 = randomValues(size_t{kIn} * kHidden, 2);
  const auto bias1 = randomValues(kHidden, 3);
  const auto weight2 = randomValues(size_t{kHidden} * kOut, 4);
  const auto all1 = bytesOf(weight1);
  constexpr size_t kChunk = 64 * 1024;
  for (size_t offset = (all1.size() - 1) / kChunk * kChunk;; offset -= kChunk) {
    graph.writeConstantData(w1, offset, all1.subspan(offset, std::min(kChunk, all1.size() - offset)));
    if (offset == 0) break;
  }
  graph.setConstantData(b1, bytesOf(bias1));
  graph.setConstantData(w2, bytesOf(weight2));
  std::printf("weights streamed: %zu constants pending\n", graph.pendingConstants().size());

  context.dispatch(graph, {{"x", input}}, {{"y", output}});
  std::vector<float> result(kOut);
  context.readTensor(output, std::as_writable_bytes(std::span(result)));

  // The same computation in plain C++.
  std::vector<double> h(kHidden);
  for (uint32_t j = 0; j < kHidden; ++j) {
    double sum = bias1[j];
    for (uint32_t i = 0; i < kIn; ++i) sum += double(inputValues[i]) * weight1[size_t{i} * kHidden + j];
    h[j] = std::max(0.0, double(float(sum)));
  }
  double maxError = 0;
  for (uint32_t j = 0; j < kOut; ++j) {
    double sum = 0;
    for (uint32_t i = 0; i < kHidden; ++i) sum += h[i] * weight2[size_t{i} * kOut + j];
    maxError = std::max(maxError, std::fabs(sum - result[j]));
  }
  std::printf("y[0..3] = %.5f %.5f %.5f %.5f; max |error| vs plain C++ = %.2e\n", result[0],
              result[1], result[2], result[3], maxError);

  const MLMemoryStats stats = context.memoryStats();
  const uint64_t modelBytes = (size_t{kIn} * kHidden + kHidden + size_t{kHidden} * kOut) * 4;
  std::printf("memory account: constants %.2f MiB (model %.2f MiB), activations peak %.1f KiB, "
              "tensors %.1f KiB, staging peak %llu bytes\n",
              stats.constantBytes / 1048576.0, modelBytes / 1048576.0,
              stats.activationBytesPeak / 1024.0, stats.tensorBytes / 1024.0,
              static_cast<unsigned long long>(stats.stagingBytesPeak));
  return maxError < 1e-3 ? 0 : 1;
}
