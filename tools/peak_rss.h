// The process's peak resident set (VmHWM of /proc/self/status), as `webnn run` and `webnn ocr`
// report it.
#pragma once

#include <cstdint>

namespace webnn::tools {

// Bytes; 0 where /proc is not there.
uint64_t peakRssBytes();

}  // namespace webnn::tools
