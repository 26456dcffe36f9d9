// The pieces of `webnn onnx-test` that need no model: ONNX's comparison rule and the
// expected-results file.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "core/float16.h"
#include "onnx_suite/allclose.h"
#include "onnx_suite/expectations.h"

namespace webnn::onnx_suite {
namespace {

template <typename T>
TensorValue tensor(MLOperandDataType type, std::vector<uint32_t> shape, std::vector<T> values) {
  TensorValue value{type, std::move(shape), std::vector<std::byte>(values.size() * sizeof(T))};
  std::memcpy(value.bytes.data(), values.data(), value.bytes.size());
  return value;
}

TensorValue floats(std::vector<float> values) {
  const auto n = static_cast<uint32_t>(values.size());
  return tensor(MLOperandDataType::Float32, {n}, std::move(values));
}

TEST(OnnxSuiteAllClose, WithinRtolAndAtolMatches) {
  // 1e-3 relative of 100 is 0.1; 1e-7 absolute around zero.
  EXPECT_EQ(compareAllClose(floats({100.09f, 0.0f}), floats({100.0f, 0.0f})), "");
  EXPECT_EQ(compareAllClose(floats({5e-8f}), floats({0.0f})), "");
}

TEST(OnnxSuiteAllClose, BeyondToleranceNamesTheFirstElementAndTheCount) {
  const auto actual = tensor<float>(MLOperandDataType::Float32, {2, 2}, {1, 2, 3.1f, 4.2f});
  const auto expected = tensor<float>(MLOperandDataType::Float32, {2, 2}, {1, 2, 3, 4});
  const std::string difference = compareAllClose(actual, expected);
  EXPECT_NE(difference.find("element [1, 0] is 3.0999999"), std::string::npos) << difference;
  EXPECT_NE(difference.find("2 of 4 elements differ"), std::string::npos) << difference;
  EXPECT_EQ(compareAllClose(actual, expected, {0.1, 0}), "") << "a looser rtol accepts it";
}

TEST(OnnxSuiteAllClose, NanMatchesNanAndInfinitiesMatchThemselves) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(compareAllClose(floats({nan, inf, -inf}), floats({nan, inf, -inf})), "");
  EXPECT_NE(compareAllClose(floats({1.0f}), floats({nan})), "");
  EXPECT_NE(compareAllClose(floats({nan}), floats({1.0f})), "");
  EXPECT_NE(compareAllClose(floats({inf}), floats({-inf})), "");
  EXPECT_NE(compareAllClose(floats({3e38f}), floats({inf})), "");
}

TEST(OnnxSuiteAllClose, IntegersCompareExactlyEvenBeyondDoublePrecision) {
  const int64_t big = (int64_t{1} << 60) + 1;
  const auto a = tensor<int64_t>(MLOperandDataType::Int64, {1}, {big});
  const auto b = tensor<int64_t>(MLOperandDataType::Int64, {1}, {big - 1});
  EXPECT_EQ(compareAllClose(a, a), "");
  EXPECT_NE(compareAllClose(a, b), "") << "one apart at 2^60 differs, though double rounds both";
  const auto i = tensor<int32_t>(MLOperandDataType::Int32, {2}, {1000, 7});
  const auto j = tensor<int32_t>(MLOperandDataType::Int32, {2}, {1001, 7});
  EXPECT_NE(compareAllClose(i, j), "") << "no relative tolerance for integers";
}

TEST(OnnxSuiteAllClose, Float16IsReadAsHalves) {
  const auto a =
      tensor<uint16_t>(MLOperandDataType::Float16, {2}, {floatToHalf(1.0f), floatToHalf(2.0f)});
  const auto b =
      tensor<uint16_t>(MLOperandDataType::Float16, {2}, {floatToHalf(1.0f), floatToHalf(2.5f)});
  EXPECT_EQ(compareAllClose(a, a), "");
  EXPECT_NE(compareAllClose(a, b).find("is 2, expected 2.5"), std::string::npos);
}

TEST(OnnxSuiteAllClose, TypeShapeAndSizeMustAgree) {
  const auto i = tensor<int32_t>(MLOperandDataType::Int32, {1}, {1});
  EXPECT_NE(compareAllClose(i, floats({1.0f})).find("data type int32, expected float32"),
            std::string::npos);
  const auto wide = tensor<float>(MLOperandDataType::Float32, {1, 2}, {1, 2});
  const auto tall = tensor<float>(MLOperandDataType::Float32, {2, 1}, {1, 2});
  EXPECT_NE(compareAllClose(wide, tall).find("shape [1, 2], expected [2, 1]"), std::string::npos);
  auto truncated = floats({1, 2});
  truncated.bytes.resize(4);
  EXPECT_NE(compareAllClose(truncated, floats({1, 2})).find("holds 4 bytes"), std::string::npos);
}

TEST(OnnxSuiteExpectations, FormatAndParseRoundTrip) {
  const std::vector<CaseOutcome> outcomes = {
      {"test_b", CaseStatus::Refused, "NotSupportedError: ops Mod (x1)", false},
      {"test_a", CaseStatus::Pass, "", true},
      {"test_c", CaseStatus::Wrong, "output 'y': element [0] is 1, expected 2", false}};
  const std::string text = formatExpectations(outcomes, {"a header"});
  EXPECT_EQ(text,
            "# a header\n"
            "test_a pass\n"
            "test_b refused NotSupportedError: ops Mod (x1)\n"
            "test_c wrong output 'y': element [0] is 1, expected 2\n");
  const auto parsed = parseExpectations(text, "cpu.txt");
  ASSERT_EQ(parsed.size(), 3u);
  EXPECT_EQ(parsed.at("test_b").status, CaseStatus::Refused);
  EXPECT_EQ(parsed.at("test_b").reason, "NotSupportedError: ops Mod (x1)");
  EXPECT_EQ(parsed.at("test_a").status, CaseStatus::Pass);
  size_t reworded = 99;
  EXPECT_TRUE(differences(outcomes, parsed, true, &reworded).empty());
  EXPECT_EQ(reworded, 0u);
}

void expectDataError(const std::string& text, const std::string& part) {
  try {
    parseExpectations(text, "cpu.txt");
    ADD_FAILURE() << "parsed: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), Error::Kind::DataError);
    EXPECT_NE(e.message().find(part), std::string::npos) << e.message();
  }
}

TEST(OnnxSuiteExpectations, MalformedLinesAreDataErrorsNamingTheLine) {
  expectDataError("# c\ntest_a passes\n", "cpu.txt line 2: 'passes' is not a status");
  expectDataError("test_a\n", "line 1: '' is not a status");
  expectDataError("test_a pass but why\n", "passes, so it takes no reason");
  expectDataError("test_a refused\n", "is refused without a reason");
  expectDataError("test_a pass\ntest_a pass\n", "line 2: case 'test_a' is listed twice");
}

TEST(OnnxSuiteExpectations, StatusOrErrorChangesAreDifferencesRewordingIsNot) {
  const auto expected = parseExpectations(
      "test_a pass\n"
      "test_b refused NotSupportedError: ops Mod (x1)\n"
      "test_c refused NotSupportedError: ops Trilu (x1)\n"
      "test_d refused TypeError: old words\n"
      "test_e pass\n",
      "cpu.txt");
  const std::vector<CaseOutcome> outcomes = {
      {"test_a", CaseStatus::Wrong, "output 'y': ...", true},          // stops passing
      {"test_b", CaseStatus::Pass, "", false},                         // starts passing
      {"test_c", CaseStatus::Refused, "DataError: ops Trilu", false},  // another error
      {"test_d", CaseStatus::Refused, "TypeError: new words", false},  // reworded only
      {"test_new", CaseStatus::Pass, "", false}};                      // not listed
  size_t reworded = 0;
  const auto found = differences(outcomes, expected, true, &reworded);
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].name, "test_a");
  EXPECT_EQ(found[0].expected, "pass");
  EXPECT_EQ(found[0].actual, "wrong output 'y': ...");
  EXPECT_EQ(found[1].name, "test_b");
  EXPECT_EQ(found[2].name, "test_c");
  EXPECT_EQ(found[3].name, "test_new");
  EXPECT_EQ(found[3].expected, "(not listed)");
  EXPECT_EQ(found[4].name, "test_e");
  EXPECT_EQ(found[4].actual, "(not run)");
  EXPECT_EQ(reworded, 1u);
  EXPECT_EQ(differences(outcomes, expected, false).size(), 4u)
      << "a filtered run does not miss the cases it left out";
}

TEST(OnnxSuiteExpectations, ErrorNameIsTheLeadingErrorWord) {
  EXPECT_EQ(errorName("NotSupportedError: x: y"), "NotSupportedError");
  EXPECT_EQ(errorName("test data: DataError: x"), "");
  EXPECT_EQ(errorName("exception: bad_alloc"), "");
  EXPECT_EQ(errorName("no colon"), "");
}

}  // namespace
}  // namespace webnn::onnx_suite
