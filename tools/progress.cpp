#include "progress.h"

#include <algorithm>
#include <utility>

namespace webnn::tools {
namespace {

double mebibytes(uint64_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

double fraction(uint64_t done, uint64_t total) {
  if (total == 0) return 1.0;
  return std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
}

}  // namespace

std::string progressBar(uint64_t done, uint64_t total, int width) {
  const double part = fraction(done, total);
  const int filled = static_cast<int>(part * width);
  std::string bar = "[" + std::string(filled, '#') + std::string(width - filled, '-') + "]";
  char numbers[64];
  std::snprintf(numbers, sizeof numbers, " %5.1f%% (%.1f / %.1f MiB)", 100.0 * part,
                mebibytes(done), mebibytes(total));
  return bar + numbers;
}

Progress::Progress(std::string label, std::FILE* stream, bool terminal)
    : label_(std::move(label)), stream_(stream), terminal_(terminal) {}

void Progress::update(uint64_t done, uint64_t total) {
  if (total < kMinimumBytes) return;
  const double part = fraction(done, total);
  if (terminal_) {
    const int perMille = static_cast<int>(part * 1000);
    if (perMille == lastShown_) return;
    lastShown_ = perMille;
    std::fprintf(stream_, "\r%s %s", label_.c_str(), progressBar(done, total, 30).c_str());
  } else {
    const int quarter = static_cast<int>(part * 4);
    if (quarter == lastShown_ || quarter == 0) return;
    lastShown_ = quarter;
    std::fprintf(stream_, "%s: %d%% (%.1f / %.1f MiB)\n", label_.c_str(), quarter * 25,
                 mebibytes(done), mebibytes(total));
  }
  std::fflush(stream_);
}

void Progress::finish() {
  if (terminal_ && lastShown_ >= 0) std::fprintf(stream_, "\n");
}

}  // namespace webnn::tools
