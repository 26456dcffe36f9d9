// Byte counts given on the command line: "67108864", "64MiB", "64M", "1.5GiB" (binary units: K,
// KiB, M, MiB, G, GiB, T, TiB; case-insensitive; a decimal fraction only with a unit).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace webnn::tools {

// The byte count `text` says, or nullopt when it is not one (empty, a sign, another unit, a
// fraction of a byte, above 2^64 - 1).
std::optional<uint64_t> parseByteCount(std::string_view text);

}  // namespace webnn::tools
