// webnn::FileReader, the public reading hook of WeightSource: plain pread by default. (Apart from
// file_reader.cpp, whose internal helpers the webnn command compiles in too: the public class's
// definitions must exist once, in the library.)
#include <unistd.h>

#include <cerrno>
#include <limits>

#include "file_reader.h"

namespace webnn {

FileReader::~FileReader() = default;

ssize_t FileReader::pread(int fd, void* buffer, size_t count, uint64_t offset) {
  if (offset > static_cast<uint64_t>(std::numeric_limits<off_t>::max())) {
    errno = EINVAL;
    return -1;
  }
  return ::pread(fd, buffer, count, static_cast<off_t>(offset));
}

}  // namespace webnn
