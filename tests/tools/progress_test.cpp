// The progress display of `webnn run`: a bar redrawn in place on a terminal, quarter lines
// otherwise.
#include "progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using webnn::tools::Progress;
using webnn::tools::progressBar;

constexpr uint64_t kMiB = 1024 * 1024;

// Runs `body` on a Progress writing into a memory stream; returns what it wrote.
template <typename Body>
std::string capture(bool terminal, Body body) {
  char* buffer = nullptr;
  size_t size = 0;
  std::FILE* stream = ::open_memstream(&buffer, &size);
  {
    Progress progress("loading weights", stream, terminal);
    body(progress);
  }
  std::fclose(stream);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

TEST(ProgressBar, FillsCellsInProportion) {
  EXPECT_EQ(progressBar(0, 8 * kMiB, 8), "[--------]   0.0% (0.0 / 8.0 MiB)");
  EXPECT_EQ(progressBar(2 * kMiB, 8 * kMiB, 8), "[##------]  25.0% (2.0 / 8.0 MiB)");
  EXPECT_EQ(progressBar(8 * kMiB, 8 * kMiB, 8), "[########] 100.0% (8.0 / 8.0 MiB)");
}

TEST(ProgressBar, NothingToLoadIsDone) {
  EXPECT_EQ(progressBar(0, 0, 4), "[####] 100.0% (0.0 / 0.0 MiB)");
}

TEST(Progress, TerminalRedrawsOneLineAndEndsIt) {
  const std::string text = capture(true, [](Progress& p) {
    p.update(1 * kMiB, 4 * kMiB);
    p.update(1 * kMiB, 4 * kMiB);  // same per mille: not redrawn
    p.update(4 * kMiB, 4 * kMiB);
    p.finish();
  });
  EXPECT_EQ(text, "\rloading weights " + progressBar(1 * kMiB, 4 * kMiB, 30) +
                      "\rloading weights " + progressBar(4 * kMiB, 4 * kMiB, 30) + "\n");
}

TEST(Progress, NotATerminalPrintsAPlainLinePerQuarter) {
  const std::string text = capture(false, [](Progress& p) {
    for (uint64_t done = 0; done <= 8 * kMiB; done += kMiB / 2) p.update(done, 8 * kMiB);
    p.finish();
  });
  EXPECT_EQ(text,
            "loading weights: 25% (2.0 / 8.0 MiB)\n"
            "loading weights: 50% (4.0 / 8.0 MiB)\n"
            "loading weights: 75% (6.0 / 8.0 MiB)\n"
            "loading weights: 100% (8.0 / 8.0 MiB)\n");
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

// A model of a few kilobytes loads before a bar could be read: nothing is shown (not a bar of
// "0.0 / 0.0 MiB").
TEST(Progress, LessThanAMebibyteShowsNothing) {
  for (const bool terminal : {true, false}) {
    const std::string text = capture(terminal, [](Progress& p) {
      p.update(0, 4096);
      p.update(4096, 4096);
      p.finish();
    });
    EXPECT_EQ(text, "") << (terminal ? "terminal" : "log");
  }
}

}  // namespace
