#include "core/huge_pages.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace webnn {
namespace {

constexpr int kHugePageOrder = 9;            // 2 MiB = 2^9 pages of 4 KiB
constexpr size_t kFreePageReportingBit = 5;  // VIRTIO_BALLOON_F_REPORTING
constexpr std::string_view kBalloonDevice = "0x0005";

std::string firstLine(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

bool balloonReportsFreePages(const std::filesystem::path& sysfs) {
  std::error_code error;
  const std::filesystem::path devices = sysfs / "bus/virtio/devices";
  for (const auto& entry : std::filesystem::directory_iterator(devices, error)) {
    if (firstLine(entry.path() / "device") != kBalloonDevice) continue;
    const std::string features = firstLine(entry.path() / "features");
    if (features.size() > kFreePageReportingBit && features[kFreePageReportingBit] == '1') {
      return true;
    }
  }
  return false;
}

}  // namespace

bool hugePagesPayOff(const std::string& sysfsRoot) {
  const std::filesystem::path sysfs(sysfsRoot);
  if (!balloonReportsFreePages(sysfs)) return true;
  const std::string order =
      firstLine(sysfs / "module/page_reporting/parameters/page_reporting_order");
  char* end = nullptr;
  const long value = std::strtol(order.c_str(), &end, 10);
  if (order.empty() || end == order.c_str()) return false;  // reporting, at an unknown order
  return value > kHugePageOrder;
}

bool adviseHugePages() {
  static const bool advise = [] {
    const char* policy = std::getenv("WEBNN_HUGE_PAGES");
    const std::string_view value = policy ? policy : "auto";
    if (value == "always") return true;
    if (value == "never") return false;
    return hugePagesPayOff("/sys");
  }();
  return advise;
}

}  // namespace webnn
