#include "peak_rss.h"

#include <fstream>
#include <string>

#include "core/checked_math.h"

namespace webnn::tools {

uint64_t peakRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      std::string number = line.substr(6);
      number.erase(0, number.find_first_not_of(" \t"));
      number.erase(number.find_first_not_of("0123456789"));
      return webnn::checked::parseInteger<uint64_t>(number).value_or(0) * 1024;
    }
  }
  return 0;
}

}  // namespace webnn::tools
