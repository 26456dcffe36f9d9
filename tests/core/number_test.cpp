// MLNumber: the spec's bigint-or-double, exact for int64/uint64, with saturating conversions; and
// scalar constants that store it exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/element.h"
#include "webnn/number.h"

namespace webnn {
namespace {

TEST(MLNumber, KeepsEachKindExactly) {
  const int64_t big = (int64_t{1} << 62) + 1;
  EXPECT_EQ(MLNumber(big).kind(), MLNumber::Kind::Int64);
  EXPECT_EQ(MLNumber(big).toInt64(), big);
  EXPECT_NE(static_cast<int64_t>(static_cast<double>(big)), big);  // what a double would lose
  const uint64_t top = ~uint64_t{0};
  EXPECT_EQ(MLNumber(top).kind(), MLNumber::Kind::Uint64);
  EXPECT_EQ(MLNumber(top).toUint64(), top);
  EXPECT_EQ(MLNumber(2.5).kind(), MLNumber::Kind::Double);
  EXPECT_EQ(MLNumber(2.5f).toDouble(), 2.5);
  EXPECT_EQ(MLNumber(7).toInt64(), 7);
  EXPECT_TRUE(MLNumber(true).isInteger());
}

TEST(MLNumber, ConversionsSaturate) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(MLNumber(inf).toInt64(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(MLNumber(-inf).toInt64(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(MLNumber(std::nan("")).toInt64(), 0);
  EXPECT_EQ(MLNumber(-3.9).toInt64(), -3);
  EXPECT_EQ(MLNumber(-5).toUint64(), 0u);
  EXPECT_EQ(MLNumber(1e30).toUint64(), ~uint64_t{0});
  EXPECT_EQ(MLNumber(~uint64_t{0}).toInt64(), std::numeric_limits<int64_t>::max());
}

TEST(MLNumber, EqualityAcrossKinds) {
  EXPECT_EQ(MLNumber(3), MLNumber(uint64_t{3}));
  EXPECT_EQ(MLNumber(3), MLNumber(3.0));
  EXPECT_FALSE(MLNumber(-1) == MLNumber(~uint64_t{0}));
  EXPECT_FALSE(MLNumber((int64_t{1} << 62) + 1) == MLNumber(int64_t{1} << 62));
}

TEST(MLNumber, StoreNumberIsExactForWideIntegersAndCastsOthers) {
  int64_t i64 = 0;
  storeNumber(MLOperandDataType::Int64, reinterpret_cast<std::byte*>(&i64), 0,
              MLNumber((int64_t{1} << 62) + 1));
  EXPECT_EQ(i64, (int64_t{1} << 62) + 1);
  uint64_t u64 = 0;
  storeNumber(MLOperandDataType::Uint64, reinterpret_cast<std::byte*>(&u64), 0,
              MLNumber(~uint64_t{0} - 1));
  EXPECT_EQ(u64, ~uint64_t{0} - 1);
  int8_t i8 = 0;
  storeNumber(MLOperandDataType::Int8, reinterpret_cast<std::byte*>(&i8), 0,
              MLNumber(int64_t{1} << 40));
  EXPECT_EQ(i8, 127);
  storeNumber(MLOperandDataType::Int8, reinterpret_cast<std::byte*>(&i8), 0,
              MLNumber(~uint64_t{0}));
  EXPECT_EQ(i8, 127);
  float f = 0;
  storeNumber(MLOperandDataType::Float32, reinterpret_cast<std::byte*>(&f), 0, MLNumber(0.5));
  EXPECT_EQ(f, 0.5f);
}

}  // namespace
}  // namespace webnn
