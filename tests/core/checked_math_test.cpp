// core/checked_math.h: the one helper for size arithmetic and strict number parsing.
#include "core/checked_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace webnn {
namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();

TEST(CheckedMath, AddAndMulReportOverflow) {
  EXPECT_EQ(checked::add<uint64_t>(kU64Max - 1, 1), kU64Max);
  EXPECT_FALSE(checked::add<uint64_t>(kU64Max, 1));
  EXPECT_FALSE(checked::mul<uint64_t>(uint64_t{1} << 32, uint64_t{1} << 32));
  EXPECT_EQ(checked::mul<uint64_t>(uint64_t{1} << 31, uint64_t{1} << 32), uint64_t{1} << 63);
  EXPECT_FALSE(checked::mul<int64_t>(7, 0x6db6db6db6db6db7));  // = 1 mod 2^64
  EXPECT_FALSE(checked::sub<int64_t>(kI64Min, 1));
}

TEST(CheckedMath, WrappingIntegerOpsAreModular) {
  EXPECT_EQ(checked::wrappingAdd(kI64Max, 1), kI64Min);
  EXPECT_EQ(checked::wrappingSub(kI64Min, 1), kI64Max);
  EXPECT_EQ(checked::wrappingMul(7, 0x6db6db6db6db6db7), 1);
  EXPECT_EQ(checked::wrappingNeg(kI64Min), kI64Min);
}

TEST(CheckedMath, ElementCountRefusesNegativeDimensionsAndOverflow) {
  EXPECT_EQ(checked::elementCount(std::vector<int64_t>{}), 1u);
  EXPECT_EQ(checked::elementCount(std::vector<uint32_t>{2, 3, 4}), 24u);
  EXPECT_EQ(checked::elementCount(std::vector<int64_t>{5, 0, -1}), std::nullopt);
  EXPECT_EQ(checked::elementCount(std::vector<int64_t>{7, 0x6db6db6db6db6db7}), std::nullopt);
  EXPECT_EQ(checked::elementCount(std::vector<uint32_t>{0xffffffffu, 0xffffffffu, 2}),
            std::nullopt);
  EXPECT_EQ(checked::byteLength(std::vector<uint32_t>{0xffffffffu, 0xffffffffu}, 4), std::nullopt);
  EXPECT_EQ(checked::byteLength(std::vector<uint32_t>{1024, 1024}, 4), 4u << 20);
}

TEST(CheckedMath, DimensionsAreRefusedAbove32Bits) {
  EXPECT_EQ(checked::toDimension(int64_t{0xffffffff}), 0xffffffffu);
  EXPECT_EQ(checked::toDimension(int64_t{1} << 32), std::nullopt);
  EXPECT_EQ(checked::toDimension(int64_t{-1}), std::nullopt);
  EXPECT_EQ(checked::toDimension(kU64Max), std::nullopt);
}

TEST(CheckedMath, DoubleToInt64RefusesOrSaturatesWhatDoesNotFit) {
  EXPECT_EQ(checked::toInt64(-2.9), -2);
  EXPECT_EQ(checked::toInt64(9223372036854774784.0), 9223372036854774784);
  EXPECT_EQ(checked::toInt64(9223372036854775808.0), std::nullopt);
  EXPECT_EQ(checked::toInt64(-9223372036854775808.0), kI64Min);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (double bad : {std::nan(""), kInf, -kInf, 1e30, -1e300}) {
    EXPECT_EQ(checked::toInt64(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(checked::toInt64Saturated(1e30), kI64Max);
  EXPECT_EQ(checked::toInt64Saturated(-kInf), kI64Min);
  EXPECT_EQ(checked::toInt64Saturated(std::nan("")), 0);
}

TEST(CheckedMath, ParseIntegerTakesTheWholeStringOrNothing) {
  EXPECT_EQ(checked::parseInteger<uint64_t>("0"), 0u);
  EXPECT_EQ(checked::parseInteger<uint64_t>("18446744073709551615"), kU64Max);
  EXPECT_EQ(checked::parseInteger<int64_t>("-9223372036854775808"), kI64Min);
  EXPECT_EQ(checked::parseInteger<uint32_t>("4294967295"), 0xffffffffu);
  for (const char* bad :
       {"", "0junk", " 1", "1 ", "+1", "-1", "1e3", "0x10", "18446744073709551616", "1.0", "--1"}) {
    EXPECT_EQ(checked::parseInteger<uint64_t>(bad), std::nullopt) << "'" << bad << "'";
  }
  EXPECT_EQ(checked::parseInteger<uint32_t>("4294967296"), std::nullopt);
  EXPECT_EQ(checked::parseInteger<int64_t>("9223372036854775808"), std::nullopt);
  EXPECT_EQ(checked::parseInteger<int64_t>("+5"), std::nullopt);
  EXPECT_EQ(checked::parseInteger<int64_t>("-5"), -5);
}

}  // namespace
}  // namespace webnn
