// The `webnn` command on hostile arguments: dimensions and limits are parsed strictly with errors
// naming the option (never "stoul"), and non-regular files are refused without blocking.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/run_tool.h"
#include "weights/weight_generators.h"

namespace webnn::testing {
namespace {

using Output = ToolOutput;

class HostileCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  }
  TempDir dir;
};

TEST_F(HostileCli, DimensionsAreParsedStrictly) {
  for (const char* dim : {"N=-1", "N=abc", "N=4294967296", "N=18446744073709551617", "N=", "N=1e3",
                          "N=+1", "x=1x-3", "x=1x", "x=2,99999999999", "x=1x2xjunk"}) {
    SCOPED_TRACE(dim);
    const Output out =
        runTool(std::string("run '") + dir.file("absent.onnx") + "' --dim '" + dim + "'");
    EXPECT_EQ(out.status, 1) << out.text;
    EXPECT_NE(out.text.find("not a dimension"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find(dim), std::string::npos) << out.text;
    EXPECT_EQ(out.text.find("stoul"), std::string::npos) << out.text;
  }
}

TEST_F(HostileCli, LimitsAreParsedStrictly) {
  // Binary units are taken (64MiB, 1.5G: tools/byte_count.h); anything else is refused.
  for (const char* option :
       {"--max-tensor-bytes", "--max-folded-bytes", "--max-weight-bytes", "--memory-budget"}) {
    for (const char* value :
         {"-1", "1kb", "abc", "99999999999999999999", "1.5", "64 MiB", "16EiB"}) {
      SCOPED_TRACE(std::string(option) + " " + value);
      const Output out = runTool(std::string("run '") + dir.file("absent.onnx") + "' " + option +
                                 " '" + value + "'");
      EXPECT_EQ(out.status, 1) << out.text;
      EXPECT_NE(out.text.find("not a number of bytes"), std::string::npos) << out.text;
    }
  }
}

TEST_F(HostileCli, FifosAreRefusedWithoutBlocking) {
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& arguments :
       {"inspect '" + fifo + "'", "run '" + fifo + "'", "run absent.onnx --input 'x=" + fifo + "'",
        "conformance '" + dir.path() + "'"}) {
    SCOPED_TRACE(arguments);
    if (arguments.rfind("conformance", 0) == 0) {
      ASSERT_EQ(::rename(fifo.c_str(), dir.file("relu.json").c_str()), 0);
    }
    const Output out = runTool(arguments);
    EXPECT_NE(out.status, 124) << "blocked on the FIFO";
    EXPECT_NE(out.status, 0) << out.text;
    EXPECT_NE(out.text.find("not a regular file"), std::string::npos) << out.text;
  }
}

}  // namespace
}  // namespace webnn::testing
