// libFuzzer target: the ONNX importer on arbitrary bytes (a truncated or corrupted model must give
// a webnn::Error, never a crash), then build and loadConstants when the import succeeds.
// Built by the asan preset (WEBNN_BUILD_FUZZERS); run: onnx_import_fuzzer -max_len=65536 corpus/
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "webnn/onnx.h"
#include "webnn/webnn.h"
#include "webnn/weight_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memfd_create("model.onnx", 0);
  if (fd < 0) return 0;
  size_t written = 0;
  while (written < size) {
    const ssize_t n = write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    webnn::MLContext context = webnn::createContext();
    webnn::MLGraphBuilder builder(context);
    webnn::onnx::ImportOptions options;
    // Tighter than the defaults, so that a tiny file folding into tens of megabytes (allowed by
    // the defaults) does not slow the run down; the limits themselves are what is exercised.
    options.maxFoldedBytes = 16u << 20;
    options.maxTensorBytes = 16u << 20;
    auto model = webnn::onnx::importModel(path, builder, options);
    if (model.weightBytes < (64u << 20) && !model.outputOperands.empty()) {
      webnn::MLGraph graph = builder.build(model.outputOperands);
      if (model.weights) graph.loadConstants(*model.weights);
    }
  } catch (const webnn::Error&) {
    // Malformed input: a clear error is the expected outcome.
  }
  close(fd);
  return 0;
}
