// libFuzzer target: the conformance loader on arbitrary text (parseCaseFile), then the bytes of
// every tensor it accepted (encodeTensor, which expands fills). Malformed files must give a
// LoadError, never a crash, a stack overflow or an allocation beyond the loader's limits.
// Built by the asan preset (WEBNN_BUILD_FUZZERS).
#include <cstddef>
#include <cstdint>
#include <string>

#include "conformance/case_loader.h"
#include "conformance/tensor_data.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto file = webnn::conformance::parseCaseFile(text, "fuzz.json");
    for (const auto& c : file.cases) {
      for (const auto& [name, tensor] : c.inputs) {
        try {
          webnn::conformance::encodeTensor(tensor);
        } catch (const webnn::conformance::LoadError&) {
        }
      }
    }
  } catch (const webnn::conformance::LoadError&) {
  }
  return 0;
}
