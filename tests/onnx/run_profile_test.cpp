// `webnn run --profile`: the per-op table after the run (type, count, ms, share, implementation).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "onnx/model_maker.h"
#include "tools/run_tool.h"
#include "webnn/config.h"

namespace webnn {
namespace {

TEST(RunProfile, PrintsOneRowPerOpTypeAndImplementation) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  testing::ModelMaker m;
  m.input("x", {1, 4, 8, 8});
  m.floats("w", {8, 4, 3, 3}, std::vector<float>(8 * 4 * 9, 0.1f));
  auto& conv = m.node("Conv", {"x", "w"}, {"c"});
  testing::ModelMaker::attr(conv, "pads", std::vector<int64_t>{1, 1, 1, 1});
  m.node("Relu", {"c"}, {"r"});
  m.node("Transpose", {"r"}, {"y"});
  m.output("y");
  const std::string model = m.save();
  std::vector<std::string> backends{"reference"};
#ifdef WEBNN_HAVE_CPU
  backends.push_back("cpu");  // the conv2d and relu run fused there: one "conv2d+relu" row
#endif
  for (const std::string& backend : backends) {
    const auto out =
        testing::runTool("run '" + model + "' --random-inputs --iterations 2 --profile --backend " +
                         backend + " --output-dir '" + m.folder() + "'");
    ASSERT_EQ(out.status, 0) << out.text;
    EXPECT_NE(out.text.find("profile (steady-state dispatches"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find("transpose"), std::string::npos) << out.text;
    if (backend == "reference") {
      EXPECT_NE(out.text.find("conv2d "), std::string::npos) << out.text;
      EXPECT_NE(out.text.find("reference kernel"), std::string::npos) << out.text;
    } else {
      EXPECT_NE(out.text.find("conv2d+relu "), std::string::npos) << out.text;
    }
  }
  const auto plain =
      testing::runTool("run '" + model + "' --random-inputs --output-dir '" + m.folder() + "'");
  EXPECT_EQ(plain.text.find("profile ("), std::string::npos) << plain.text;
}

}  // namespace
}  // namespace webnn
