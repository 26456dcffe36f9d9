#include "core/huge_pages.h"

#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace webnn {
namespace {

constexpr int kHugePageOrder = 9;            // 2 MiB = 2^9 pages of 4 KiB
constexpr size_t kFreePageReportingBit = 5;  // VIRTIO_BALLOON_F_REPORTING
constexpr std::string_view kBalloonDevice = "0x0005";
constexpr uint64_t kHugePageBytes = 2ull << 20;
constexpr uint64_t kSmallPageBytes = 4096;
// The probe: one huge page, and an eighth of it in 4 KiB pages (64 faults): 1 ms where 4 KiB
// faults run at 0.3 GB/s and huge ones at 2 GB/s or more; a probe of 4 MiB each way cost 11 ms of
// every process's first result there.
constexpr uint64_t kProbeBytes = kHugePageBytes;
constexpr uint64_t kSmallProbeShare = 8;

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

// Seconds to fault in `bytes` of a fresh, huge-page-aligned anonymous mapping under `advice`;
// negative when the mapping or the advice fails.
double timeFirstTouch(uint64_t bytes, int advice) {
  const uint64_t length = bytes + kHugePageBytes;
  void* mapping = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return -1;
  const uintptr_t start =
      (reinterpret_cast<uintptr_t>(mapping) + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  auto* bytesAt = reinterpret_cast<volatile unsigned char*>(start);
  double seconds = -1;
  if (madvise(reinterpret_cast<void*>(start), bytes, advice) == 0) {
    const auto begin = std::chrono::steady_clock::now();
    for (uint64_t offset = 0; offset < bytes; offset += kSmallPageBytes) bytesAt[offset] = 1;
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }
  munmap(mapping, length);
  return seconds;
}

}  // namespace

FirstTouchTimes firstTouchProbe(uint64_t bytes) {
  bytes = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
  const uint64_t smallBytes = bytes / kSmallProbeShare;
  const double small = timeFirstTouch(smallBytes, MADV_NOHUGEPAGE);
  const double huge = timeFirstTouch(bytes, MADV_HUGEPAGE);
  if (small >= 0 && huge >= 0) return {huge, small * static_cast<double>(kSmallProbeShare)};
#endif
  return {};
}

bool hugePageFaultsPayOff(const FirstTouchTimes& times) {
  return times.hugeSeconds <= 2 * times.smallSeconds;
}

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
    return hugePagesPayOff("/sys") || hugePageFaultsPayOff(firstTouchProbe(kProbeBytes));
  }();
  return advise;
}

}  // namespace webnn
