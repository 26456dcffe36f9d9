// Unit tests of the conformance runner's pieces: float16 rounding (WPT's toHalf), the tolerance
// rules, tensor encoding (int64 strings, int4 packing, fills) and vector/known-failure parsing.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "conformance/case_loader.h"
#include "conformance/compare.h"
#include "conformance/known_failures.h"
#include "conformance/tensor_data.h"

namespace webnn::conformance {
namespace {

template <class T>
std::vector<std::byte> bytesOf(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<uint8_t> asU8(const std::vector<std::byte>& bytes) {
  std::vector<uint8_t> values(bytes.size());
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

TensorData tensor(MLOperandDataType type, std::vector<uint32_t> shape, Json data) {
  TensorData t;
  t.dataType = type;
  t.shape = std::move(shape);
  t.data = std::move(data);
  return t;
}

const Tolerance kExact{Tolerance::Kind::Ulp, 0};

TEST(ToHalf, MatchesWptOnOrdinaryValues) {
  EXPECT_EQ(toHalf(1.0), 0x3c00);
  EXPECT_EQ(toHalf(-2.0), 0xc000);
  EXPECT_EQ(toHalf(0.1), 0x2e66);
  EXPECT_EQ(toHalf(65504.0), 0x7bff);
  EXPECT_EQ(toHalf(0.0), 0x0000);
  EXPECT_EQ(toHalf(-0.0), 0x8000);
}

TEST(ToHalf, RoundsTiesAwayFromZeroLikeWpt) {
  // 1 + 2^-11 is halfway between two halves: IEEE rounds to even (0x3c00), toHalf rounds up.
  EXPECT_EQ(toHalf(1.0 + std::ldexp(1.0, -11)), 0x3c01);
  EXPECT_EQ(toHalf(-(1.0 + std::ldexp(1.0, -11))), 0xbc01);
  EXPECT_EQ(toHalf(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);
  // The value is rounded to float32 first (as a Float32Array store does).
  EXPECT_EQ(toHalf(1.0 + std::ldexp(1.0, -11) - std::ldexp(1.0, -40)), 0x3c01);
}

TEST(ToHalf, DenormalsOverflowAndSpecials) {
  EXPECT_EQ(toHalf(1e-5), 168);                     // 1e-5 / 2^-24 = 167.77
  EXPECT_EQ(toHalf(std::ldexp(1.0, -24)), 0x0001);  // smallest denormal
  EXPECT_EQ(toHalf(std::ldexp(1.0, -25)), 0x0000);  // exponent 102: flushed to zero
  EXPECT_EQ(toHalf(-std::ldexp(1.0, -25)), 0x8000);
  EXPECT_EQ(toHalf(65520.0), 0x7c00);  // rounds up into infinity
  EXPECT_EQ(toHalf(1e6), 0x7c00);
  EXPECT_EQ(toHalf(-1e6), 0xfc00);
  EXPECT_EQ(toHalf(std::numeric_limits<double>::infinity()), 0x7c00);
  EXPECT_EQ(toHalf(-std::numeric_limits<double>::infinity()), 0xfc00);
  EXPECT_EQ(toHalf(std::numeric_limits<double>::quiet_NaN()), 0x7c01);
}

TEST(HalfToDouble, DecodesEveryClass) {
  EXPECT_EQ(halfToDouble(0x3c00), 1.0);
  EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(halfToDouble(0x7bff), 65504.0);
  EXPECT_TRUE(std::signbit(halfToDouble(0x8000)));
  EXPECT_EQ(halfToDouble(0xfc00), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(halfToDouble(0x7e00)));
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) {  // round trip of every finite half
    ASSERT_EQ(toHalf(halfToDouble(static_cast<uint16_t>(bits))), bits);
  }
}

TEST(UlpDistance, Float32IsSignMagnitude) {
  EXPECT_EQ(ulpDistanceFloat32(1.0f, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(ulpDistanceFloat32(0.0f, -0.0f), 0u);
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(ulpDistanceFloat32(-tiny, tiny), 2u);
  EXPECT_EQ(ulpDistanceFloat32(-1.0f, 1.0f), 2u * 0x3f800000u);
  EXPECT_EQ(ulpDistanceFloat32(-1.0f, std::nextafter(-1.0f, -2.0f)), 1u);
}

TEST(UlpDistance, Float16OnBitPatternsWithSignedZerosEqual) {
  EXPECT_EQ(ulpDistanceFloat16(0x3c00, 0x3c03), 3u);
  EXPECT_EQ(ulpDistanceFloat16(0x8000, 0x0000), 0u);
  EXPECT_EQ(ulpDistanceFloat16(0x8001, 0x0000), 0x8001u);
}

TEST(CompareOutput, Float32WithinAndBeyondUlpTolerance) {
  const float one = 1.0f;
  const float next2 = std::nextafter(std::nextafter(one, 2.0f), 2.0f);
  const auto expected = tensor(MLOperandDataType::Float32, {2}, Json::array({1.0, 2.0}));
  EXPECT_TRUE(
      compareOutput(expected, bytesOf(std::vector<float>{next2, 2.0f}), {Tolerance::Kind::Ulp, 2})
          .passed);
  const CompareResult result =
      compareOutput(expected, bytesOf(std::vector<float>{next2, 2.0f}), {Tolerance::Kind::Ulp, 1});
  EXPECT_FALSE(result.passed);
  ASSERT_TRUE(result.first);
  EXPECT_EQ(result.first->index, 0u);
  EXPECT_EQ(result.first->distance, "2 ULP");
  EXPECT_EQ(result.mismatches, 1u);
}

TEST(CompareOutput, SignedZerosNanAndInfinity) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const auto expected =
      tensor(MLOperandDataType::Float32, {4}, Json::array({"-0", 0, "NaN", "-Infinity"}));
  EXPECT_TRUE(
      compareOutput(expected, bytesOf(std::vector<float>{0.0f, -0.0f, -nan, -inf}), kExact).passed);
  EXPECT_FALSE(
      compareOutput(expected, bytesOf(std::vector<float>{0.0f, -0.0f, 1.0f, -inf}), kExact).passed);
  EXPECT_FALSE(
      compareOutput(expected, bytesOf(std::vector<float>{0.0f, -0.0f, nan, inf}), kExact).passed);
}

TEST(CompareOutput, Float16ComparesBitPatternsOfToHalf) {
  // Expected 0.1 is 0x2e66; 0x2e68 is two ULP away.
  const auto expected = tensor(MLOperandDataType::Float16, {3}, Json::array({0.1, "-0", "NaN"}));
  const std::vector<uint16_t> actual = {0x2e68, 0x0000, 0x7e00};
  EXPECT_TRUE(compareOutput(expected, bytesOf(actual), {Tolerance::Kind::Ulp, 2}).passed);
  EXPECT_FALSE(compareOutput(expected, bytesOf(actual), {Tolerance::Kind::Ulp, 1}).passed);
}

TEST(CompareOutput, AtolDecodesFloat16) {
  const auto expected = tensor(MLOperandDataType::Float16, {1}, Json::array({0.5}));
  const std::vector<uint16_t> actual = {toHalf(0.5009765625)};  // 0.5 + 2^-10
  EXPECT_TRUE(compareOutput(expected, bytesOf(actual), {Tolerance::Kind::Atol, 1.0 / 512}).passed);
  EXPECT_FALSE(
      compareOutput(expected, bytesOf(actual), {Tolerance::Kind::Atol, 1.0 / 2048}).passed);
}

TEST(CompareOutput, IntegersAreAbsoluteAndInt64ComesFromDecimalStrings) {
  const auto expected = tensor(MLOperandDataType::Int64, {3},
                               Json::array({"-4147483648", "4147483647", "-9223372036854775808"}));
  std::vector<int64_t> actual = {-4147483648LL, 4147483647LL, std::numeric_limits<int64_t>::min()};
  EXPECT_TRUE(compareOutput(expected, bytesOf(actual), kExact).passed);
  actual[1] += 1;
  EXPECT_FALSE(compareOutput(expected, bytesOf(actual), kExact).passed);
  EXPECT_TRUE(compareOutput(expected, bytesOf(actual), {Tolerance::Kind::Ulp, 1}).passed);

  const auto unsignedExpected =
      tensor(MLOperandDataType::Uint64, {1}, Json::array({"18446744073709551615"}));
  EXPECT_TRUE(compareOutput(unsignedExpected,
                            bytesOf(std::vector<uint64_t>{18446744073709551615ULL}), kExact)
                  .passed);
}

TEST(CompareOutput, UnpacksInt4WithSign) {
  const auto expected = tensor(MLOperandDataType::Int4, {3}, Json::array({-8, 7, -1}));
  EXPECT_TRUE(compareOutput(expected, bytesOf(std::vector<uint8_t>{0x78, 0x0f}), kExact).passed);
  const auto uint4 = tensor(MLOperandDataType::Uint4, {2}, Json::array({15, 16}));
  const CompareResult result = compareOutput(uint4, bytesOf(std::vector<uint8_t>{0xff}), kExact);
  EXPECT_FALSE(result.passed);  // 16 fits no uint4
  EXPECT_EQ(result.first->index, 1u);
}

TEST(CompareOutput, ScalarFillChecksTheFirstThousandElements) {
  const auto expected = tensor(MLOperandDataType::Float32, {2000}, Json(3.0));
  std::vector<float> actual(2000, 3.0f);
  actual[1500] = 0.0f;
  CompareResult result = compareOutput(expected, bytesOf(actual), kExact);
  EXPECT_TRUE(result.passed);
  EXPECT_EQ(result.checked, 1000u);
  actual[10] = 0.0f;
  result = compareOutput(expected, bytesOf(actual), kExact);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.first->index, 10u);
}

TEST(CompareOutput, WrongByteCountIsAnError) {
  const auto expected = tensor(MLOperandDataType::Float32, {2}, Json::array({1, 2}));
  const CompareResult result = compareOutput(expected, bytesOf(std::vector<float>{1}), kExact);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.error.find("4 bytes"), std::string::npos);
}

TEST(EncodeTensor, FloatsWithSpecialStrings) {
  const auto bytes = encodeTensor(
      tensor(MLOperandDataType::Float32, {4}, Json::array({"NaN", "Infinity", "-0", 1.5})));
  std::vector<float> values(4);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  EXPECT_TRUE(std::isnan(values[0]));
  EXPECT_EQ(values[1], std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::signbit(values[2]));
  EXPECT_EQ(values[3], 1.5f);
}

TEST(EncodeTensor, Float16GoesThroughToHalf) {
  const auto bytes = encodeTensor(
      tensor(MLOperandDataType::Float16, {2}, Json::array({1.0 + std::ldexp(1.0, -11), -2})));
  EXPECT_EQ(asU8(bytes), (std::vector<uint8_t>{0x01, 0x3c, 0x00, 0xc0}));
}

TEST(EncodeTensor, IntegersWrapLikeTypedArrays) {
  EXPECT_EQ(asU8(encodeTensor(tensor(MLOperandDataType::Int8, {3}, Json::array({200, -1, 1.9})))),
            (std::vector<uint8_t>{200, 255, 1}));
  const auto int64 = encodeTensor(
      tensor(MLOperandDataType::Int64, {2}, Json::array({"-4147483648", "9223372036854775807"})));
  std::vector<int64_t> values(2);
  std::memcpy(values.data(), int64.data(), int64.size());
  EXPECT_EQ(values[0], -4147483648LL);
  EXPECT_EQ(values[1], std::numeric_limits<int64_t>::max());
  EXPECT_EQ(parseIntegerBits(Json("18446744073709551615")), 18446744073709551615ULL);
  EXPECT_EQ(parseIntegerBits(Json(-3)), static_cast<uint64_t>(-3));
}

TEST(EncodeTensor, PacksFourBitValuesLowNibbleFirst) {
  EXPECT_EQ(asU8(encodeTensor(tensor(MLOperandDataType::Uint4, {2, 5},
                                     Json::array({1, 2, 3, 4, 5, 6, 7, 8, 9, 10})))),
            (std::vector<uint8_t>{0x21, 0x43, 0x65, 0x87, 0xa9}));
  EXPECT_EQ(asU8(encodeTensor(tensor(MLOperandDataType::Int4, {3}, Json::array({-8, -3, 7})))),
            (std::vector<uint8_t>{0xd8, 0x07}));
  // Out-of-range values keep their low four bits, as the harness's `& 0xF` does.
  EXPECT_EQ(asU8(encodeTensor(tensor(MLOperandDataType::Int4, {2}, Json::array({10, -15})))),
            (std::vector<uint8_t>{0x1a}));
}

TEST(EncodeTensor, ScalarFills) {
  EXPECT_EQ(asU8(encodeTensor(tensor(MLOperandDataType::Uint8, {2, 2}, Json(7)))),
            (std::vector<uint8_t>{7, 7, 7, 7}));
  EXPECT_EQ(asU8(encodeTensor(tensor(MLOperandDataType::Uint4, {3}, Json(5)))),
            (std::vector<uint8_t>{0x55, 0x05}));
  EXPECT_EQ(asU8(encodeTensor(tensor(MLOperandDataType::Float16, {}, Json(1)))),
            (std::vector<uint8_t>{0x00, 0x3c}));
}

const char* kValidFile = R"({"op": "conv2d", "cases": [{
  "name": "quantized", "source": "x.js",
  "inputs": {"x": {"dataType": "float32", "shape": [2], "data": [1, 2], "constant": true}},
  "operators": [{"name": "dequantizeLinear",
                 "arguments": [{"input": "x"}, {"scale": "s", "zeroPoint": "z"}],
                 "outputs": ["a", "b"]}],
  "expectedOutputs": {"a": {"dataType": "int64", "shape": [], "data": ["5"]}},
  "tolerance": {"kind": "atol", "value": 0.5}}]})";

TEST(CaseLoader, ReadsEveryKeyOfAnArgumentEntryInOrder) {
  const CaseFile file = parseCaseFile(kValidFile, "conv2d.json");
  ASSERT_EQ(file.cases.size(), 1u);
  const Case& c = file.cases[0];
  EXPECT_EQ(c.id(), "conv2d/quantized");
  EXPECT_TRUE(c.hasConstants());
  ASSERT_EQ(c.operators[0].arguments.size(), 3u);
  EXPECT_EQ(c.operators[0].arguments[1].key, "scale");
  EXPECT_EQ(c.operators[0].arguments[2].key, "zeroPoint");
  EXPECT_TRUE(c.operators[0].outputsIsList);
  EXPECT_EQ(c.operators[0].outputs, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(c.tolerance.kind, Tolerance::Kind::Atol);
  EXPECT_EQ(c.expectedOutputs[0].second.dataType, MLOperandDataType::Int64);
}

void expectLoadError(const std::string& text, const std::string& fragment) {
  try {
    parseCaseFile(text, "bad.json");
    ADD_FAILURE() << "no LoadError for " << text;
  } catch (const LoadError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("bad.json"), std::string::npos) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(CaseLoader, MalformedFilesGiveClearErrors) {
  expectLoadError("{\"op\": \"relu\", \"cases\": [", "invalid JSON");
  expectLoadError("{\"cases\": []}", "missing \"op\"");
  std::string text = kValidFile;
  expectLoadError(std::string(text).replace(text.find("\"float32\""), 9, "\"float64\""),
                  "unknown dataType \"float64\"");
  expectLoadError(std::string(text).replace(text.find("[1, 2]"), 6, "[1, 2, 3]"),
                  "3 values for 2 elements");
  expectLoadError(std::string(text).replace(text.find("\"atol\""), 6, "\"rtol\""),
                  "unknown tolerance kind");
  expectLoadError(std::string(text).replace(text.find("\"name\": \"quantized\""), 19, "\"nom\": 1"),
                  "missing \"name\"");
}

TEST(KnownFailures, ParsesEntriesAndRejectsMalformedOnes) {
  const KnownFailures list = KnownFailures::parse(
      "# comment\n\nl2Pool2d/l2Pool2d float32 4D tensor options.roundingType=ceil  # upstream: "
      "no sqrt\n  multi__subgraph/a # b  # reason with # inside?\n",
      "list.txt");
  ASSERT_NE(list.reason("l2Pool2d/l2Pool2d float32 4D tensor options.roundingType=ceil"), nullptr);
  EXPECT_EQ(*list.reason("l2Pool2d/l2Pool2d float32 4D tensor options.roundingType=ceil"),
            "upstream: no sqrt");
  EXPECT_EQ(list.reason("relu/x"), nullptr);
  EXPECT_EQ(list.entries().size(), 2u);
  EXPECT_THROW(KnownFailures::parse("relu/x\n", "list.txt"), std::runtime_error);
  EXPECT_THROW(KnownFailures::parse("relu/x  #  \n", "list.txt"), std::runtime_error);
  EXPECT_THROW(KnownFailures::parse("relux  # why\n", "list.txt"), std::runtime_error);
  EXPECT_THROW(KnownFailures::parse("relu/x  # a\nrelu/x  # b\n", "list.txt"), std::runtime_error);
}

}  // namespace
}  // namespace webnn::conformance
