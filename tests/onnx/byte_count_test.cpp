// The byte counts `webnn run`'s limits take (tools/byte_count.h): plain integers, binary units,
// fractions with a unit; everything else refused.
#include <gtest/gtest.h>

#include "byte_count.h"

namespace webnn::tools {
namespace {

TEST(ByteCount, IntegersAndBinaryUnits) {
  EXPECT_EQ(parseByteCount("0"), 0u);
  EXPECT_EQ(parseByteCount("67108864"), 67108864u);
  EXPECT_EQ(parseByteCount("64MiB"), 64ull << 20);
  EXPECT_EQ(parseByteCount("64M"), 64ull << 20);
  EXPECT_EQ(parseByteCount("64mib"), 64ull << 20);
  EXPECT_EQ(parseByteCount("16GiB"), 16ull << 30);
  EXPECT_EQ(parseByteCount("4k"), 4096u);
  EXPECT_EQ(parseByteCount("1TiB"), 1ull << 40);
  EXPECT_EQ(parseByteCount("1.5G"), 3ull << 29);
  EXPECT_EQ(parseByteCount("0.25KiB"), 256u);
  EXPECT_EQ(parseByteCount("18446744073709551615"), UINT64_MAX);
}

TEST(ByteCount, AnythingElseIsRefused) {
  for (const char* text : {"", "-1", "+1", " 1", "1 ", "1 MiB", "1MB", "1e6", "1.5", "1.", ".G",
                           "1.2.3G", "0x10", "MiB", "18446744073709551616", "16777216TiB"}) {
    EXPECT_FALSE(parseByteCount(text).has_value()) << '"' << text << '"';
  }
}

}  // namespace
}  // namespace webnn::tools
