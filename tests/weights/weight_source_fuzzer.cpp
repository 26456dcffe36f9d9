// libFuzzer target: WeightSource::open() on arbitrary bytes, then every tensor read.
// Built by the asan preset (WEBNN_BUILD_FUZZERS); seeds in tests/fuzz/corpus/weight_source_fuzzer
// (safetensors, GGUF, WebNN weights). Run: weight_source_fuzzer -max_len=65536 CORPUS_DIR
// The input is written to a memfd and opened through /proc/self/fd, so that the format is chosen
// from the contents as for a real file. Inputs starting with '{' or "WGWT" exercise the WebNN
// weights format: the fuzzer splits them at the first NUL into a manifest and a .weights file.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "webnn/weight_source.h"

namespace {

std::string tempDir() {
  static const std::string dir = [] {
    char pattern[] = "/tmp/webnn-fuzz-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    return std::string(made ? made : "/tmp");
  }();
  return dir;
}

void writeAll(const std::string& path, const uint8_t* data, size_t size) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) return;
  if (size) std::fwrite(data, 1, size, file);
  std::fclose(file);
}

void exercise(const std::string& path) {
  try {
    auto source = webnn::WeightSource::open(path);
    std::vector<std::byte> buffer;
    for (const auto& tensor : source->tensors()) {
      // Tensors are bounded by the file, which is bounded by -max_len.
      buffer.resize(static_cast<size_t>(tensor.byteLength));
      try {
        source->read(tensor, 0, buffer);
      } catch (const webnn::Error&) {
      }
      if (tensor.byteLength > 1) {
        source->readRaw(tensor, 1,
                        std::span(buffer).first(static_cast<size_t>(tensor.byteLength - 1)));
      }
      if (source->find(tensor.name) == nullptr) __builtin_trap();
    }
  } catch (const webnn::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const bool webnnWeights =
      (size >= 1 && data[0] == '{') || (size >= 4 && std::memcmp(data, "WGWT", 4) == 0);
  if (webnnWeights) {
    const auto* nul = static_cast<const uint8_t*>(std::memchr(data, 0, size));
    const size_t split = nul ? static_cast<size_t>(nul - data) : size;
    const std::string dir = tempDir();
    if (data[0] == '{') {
      writeAll(dir + "/f.manifest.json", data, split);
      writeAll(dir + "/f.weights", nul ? nul + 1 : data, nul ? size - split - 1 : 0);
      exercise(dir + "/f.manifest.json");
    } else {
      writeAll(dir + "/f.weights", data, split);
      writeAll(dir + "/f.manifest.json", nul ? nul + 1 : data, nul ? size - split - 1 : 0);
      exercise(dir + "/f.weights");
    }
    return 0;
  }
  const int fd = ::memfd_create("weights", MFD_CLOEXEC);
  if (fd < 0) return 0;
  size_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  exercise("/proc/self/fd/" + std::to_string(fd));
  ::close(fd);
  return 0;
}
