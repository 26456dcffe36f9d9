// Progress of a long step (e.g. loading weights) on stderr: a bar redrawn in place on a terminal,
// plain lines at every quarter otherwise (logs, pipes, CI).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace webnn::tools {

// "[#########-----------]  45.0% (460.8 / 1024.0 MiB)" for `width` cells.
std::string progressBar(uint64_t done, uint64_t total, int width);

class Progress {
 public:
  // `terminal`: redraw one line with '\r' (isatty); otherwise print a line at 25/50/75/100%.
  Progress(std::string label, std::FILE* stream, bool terminal);
  // Reports bytes done out of total; callers serialize calls (LoadOptions::progress does). A total
  // below kMinimumBytes shows nothing: it loads before a bar could be read.
  void update(uint64_t done, uint64_t total);
  static constexpr uint64_t kMinimumBytes = uint64_t{1} << 20;
  // Ends the bar's line on a terminal.
  void finish();

 private:
  std::string label_;
  std::FILE* stream_;
  bool terminal_;
  int lastShown_ = -1;  // per mille on a terminal, quarter otherwise
};

}  // namespace webnn::tools
