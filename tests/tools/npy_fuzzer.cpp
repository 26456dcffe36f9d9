// libFuzzer target: the CLI's .npy reader on arbitrary bytes (through a memfd, as a real file),
// then a write of what it read to a memfd and a read back, which must give the same array.
// Built by the asan preset (WEBNN_BUILD_FUZZERS).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "npy.h"

namespace {

int memfdWith(const uint8_t* data, size_t size) {
  const int fd = ::memfd_create("input.npy", MFD_CLOEXEC);
  if (fd < 0) return -1;
  size_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memfdWith(data, size);
  if (fd < 0) return 0;
  try {
    const auto array = webnn::tools::readNpy("/proc/self/fd/" + std::to_string(fd));
    const int out = ::memfd_create("output.npy", MFD_CLOEXEC);
    if (out >= 0) {
      const std::string path = "/proc/self/fd/" + std::to_string(out);
      webnn::tools::writeNpy(path, array);
      const auto again = webnn::tools::readNpy(path);
      if (again.shape != array.shape || again.data != array.data) __builtin_trap();
      ::close(out);
    }
  } catch (const webnn::Error&) {
  }
  ::close(fd);
  return 0;
}
