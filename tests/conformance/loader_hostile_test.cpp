// The conformance loader on hostile vector files: deep nesting, fills and shapes that would
// allocate gigabytes, dimensions above 2^32, files that are not regular.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <string>

#include "conformance/case_loader.h"

namespace webnn::conformance {
namespace {

// A case file whose one input has `shape` (JSON) and `data` (JSON).
std::string caseWithInput(const std::string& shape, const std::string& data) {
  return R"({"op": "relu", "cases": [{"name": "c", "inputs": {"x": {"dataType": "float32", "shape": )" +
         shape + R"(, "data": )" + data + R"(}},
  "operators": [{"name": "relu", "arguments": [{"input": "x"}], "outputs": "y"}],
  "expectedOutputs": {"y": {"dataType": "float32", "shape": [1], "data": [1]}},
  "tolerance": {"kind": "ulp", "value": 0}}]})";
}

std::string loadError(const std::string& text) {
  try {
    parseCaseFile(text, "hostile.json");
  } catch (const LoadError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no LoadError";
  return {};
}

TEST(HostileCaseFile, DeepNestingIsRefusedWithoutRecursion) {
  for (size_t depth : {257u, 100000u, 1000000u}) {
    SCOPED_TRACE(depth);
    EXPECT_NE(loadError(std::string(depth, '[') + std::string(depth, ']')).find("nested deeper"),
              std::string::npos);
    std::string objects;
    for (size_t i = 0; i < depth; ++i) objects += "{\"a\":";
    objects += "1" + std::string(depth, '}');
    EXPECT_NE(loadError(objects).find("nested deeper"), std::string::npos);
    // Inside a tensor's data, where a real file would put it.
    EXPECT_NE(
        loadError(caseWithInput("[1]", std::string(depth, '[') + "1" + std::string(depth, ']')))
            .find("nested deeper"),
        std::string::npos);
  }
}

TEST(HostileCaseFile, NumbersBeyondDoublesRangeAreLoadErrors) {
  // Found by case_loader_fuzzer: nlohmann throws out_of_range, not parse_error, for these.
  for (const char* number : {"5.675880E9089660645", "1e400", "-1e999999"}) {
    SCOPED_TRACE(number);
    EXPECT_NE(loadError(caseWithInput("[1]", std::string("[") + number + "]")).find("invalid JSON"),
              std::string::npos);
  }
}

TEST(HostileCaseFile, BracketsInsideStringsAreNotNesting) {
  const std::string name = std::string(1000, '[') + "\\\"" + std::string(1000, '{');
  const std::string text = caseWithInput("[1]", "[1]");
  const std::string renamed = std::string(text).replace(text.find("\"c\""), 3, "\"" + name + "\"");
  EXPECT_NO_THROW(parseCaseFile(renamed, "strings.json"));
}

TEST(HostileCaseFile, HugeFillsAndShapesAreRefusedBeforeAllocation) {
  for (const char* shape : {"[65536, 65536]", "[4294967295, 4294967295, 4294967295]",
                            "[1073741824]", "[16384, 16384, 2]"}) {
    SCOPED_TRACE(shape);
    EXPECT_NE(loadError(caseWithInput(shape, "1")).find("limit"), std::string::npos);
  }
}

TEST(HostileCaseFile, DimensionsAbove32BitsAreRefusedNotTruncated) {
  for (const char* shape :
       {"[4294967296]", "[4294967297]", "[18446744073709551615]", "[-1]", "[1.5]"}) {
    SCOPED_TRACE(shape);
    EXPECT_NE(loadError(caseWithInput(shape, "1")).find("not a dimension"), std::string::npos);
  }
}

TEST(HostileCaseFile, AFifoIsRefusedWithoutBlocking) {
  const auto dir = std::filesystem::temp_directory_path() / "webnn-hostile-conformance";
  std::filesystem::create_directories(dir);
  const auto fifo = dir / "relu.json";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto done = std::async(std::launch::async, [&] {
    try {
      loadCaseFile(fifo);
      ADD_FAILURE() << "no LoadError";
    } catch (const LoadError& error) {
      EXPECT_NE(std::string(error.what()).find("not a regular file"), std::string::npos)
          << error.what();
    }
  });
  ASSERT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready) << "blocked";
  done.get();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace webnn::conformance
