// float16 conversions: every half value round-trips, and float -> half rounds to nearest even.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/element.h"
#include "core/float16.h"

namespace webnn {
namespace {

TEST(Float16, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const float value = halfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(value)))) << bits;
      continue;
    }
    EXPECT_EQ(floatToHalf(value), bits) << "bits " << bits << " value " << value;
  }
}

TEST(Float16, KnownValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);  // rounds up to infinity
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(5.960464477539063e-8f), 0x0001);  // smallest subnormal
  EXPECT_EQ(floatToHalf(2.9e-8f), 0x0000);                // below half of it
  EXPECT_EQ(floatToHalf(3.0e-8f), 0x0001);                // above half of it
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
}

TEST(Float16, RoundsHalfwayToEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even mantissa (1.0).
  EXPECT_EQ(floatToHalf(1.0f + 0.00048828125f), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: ties to even (0x3c02).
  EXPECT_EQ(floatToHalf(1.0f + 3 * 0.00048828125f), 0x3c02);
  // Just above halfway rounds up.
  EXPECT_EQ(floatToHalf(1.0f + 0.00048828125f + 1e-7f), 0x3c01);
}

TEST(Float16, DoubleRoundsOnceAndAgreesWithFloatPath) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const float value = halfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value)) continue;
    EXPECT_EQ(doubleToHalf(value), bits) << bits;
    // Values strictly between neighbours go to the nearer one, as the float path does.
    const double next = std::nextafter(static_cast<double>(value), 1e300);
    EXPECT_EQ(doubleToHalf(next), floatToHalf(static_cast<float>(next))) << bits;
  }
  // 1 + 2^-11 + 2^-40 is just above halfway: rounds up; via float it would tie to even (down).
  const double justAbove = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(doubleToHalf(justAbove), 0x3c01);
  EXPECT_EQ(doubleToHalf(65519.0), 0x7bff);
  EXPECT_EQ(doubleToHalf(65520.0), 0x7c00);
  EXPECT_EQ(doubleToHalf(-0.0), 0x8000);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -25)), 0x0000);  // tie to even
  EXPECT_EQ(doubleToHalf(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(doubleToHalf(std::ldexp(1023.5, -24)), 0x0400);  // rounds up into the normals
}

TEST(Element, GenericAccessCoversEveryTypeAndPacksNibbles) {
  std::byte bytes[16] = {};
  storeElement(MLOperandDataType::Int4, bytes, 0, -3);
  storeElement(MLOperandDataType::Int4, bytes, 1, 7);
  EXPECT_EQ(static_cast<uint8_t>(bytes[0]), 0x7d);  // low nibble first
  EXPECT_EQ(loadElement(MLOperandDataType::Int4, bytes, 0), -3);
  EXPECT_EQ(loadElement(MLOperandDataType::Int4, bytes, 1), 7);
  storeElement(MLOperandDataType::Uint8, bytes, 2, 300.0);  // saturates
  EXPECT_EQ(loadElement(MLOperandDataType::Uint8, bytes, 2), 255);
  storeElement(MLOperandDataType::Int32, bytes, 1, -43.5);  // truncates toward zero
  EXPECT_EQ(loadElement(MLOperandDataType::Int32, bytes, 1), -43);
  storeInteger(MLOperandDataType::Int64, bytes, 1, (int64_t{1} << 62) + 1);  // exact
  EXPECT_EQ(loadInteger(MLOperandDataType::Int64, bytes, 1), (int64_t{1} << 62) + 1);
  storeElement(MLOperandDataType::Float16, bytes, 0, 0.5);
  EXPECT_EQ(loadElement(MLOperandDataType::Float16, bytes, 0), 0.5);
}

TEST(Descriptor, ByteLengthPacksFourBitTypesAndDetectsOverflow) {
  EXPECT_EQ((MLOperandDescriptor{MLOperandDataType::Int4, {3}}.byteLength()), 2u);
  EXPECT_EQ((MLOperandDescriptor{MLOperandDataType::Float16, {2, 3}}.byteLength()), 12u);
  EXPECT_EQ((MLOperandDescriptor{MLOperandDataType::Int64, {}}.byteLength()), 8u);
  MLOperandDescriptor huge{MLOperandDataType::Float32,
                           {0xffffffffu, 0xffffffffu, 0xffffffffu}};
  EXPECT_THROW(huge.byteLength(), Error);
}

}  // namespace
}  // namespace webnn
