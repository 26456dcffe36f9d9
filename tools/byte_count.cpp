#include "byte_count.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "core/checked_math.h"

namespace webnn::tools {

std::optional<uint64_t> parseByteCount(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) {
    ++digits;
  }
  const std::string_view number = text.substr(0, digits);
  std::string unit(text.substr(digits));
  for (char& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  static constexpr std::array<std::pair<std::string_view, uint32_t>, 9> kUnits{{{"", 0},
                                                                                {"k", 10},
                                                                                {"kib", 10},
                                                                                {"m", 20},
                                                                                {"mib", 20},
                                                                                {"g", 30},
                                                                                {"gib", 30},
                                                                                {"t", 40},
                                                                                {"tib", 40}}};
  std::optional<uint32_t> shift;
  for (const auto& [name, bits] : kUnits) {
    if (unit == name) shift = bits;
  }
  if (!shift || number.empty()) return std::nullopt;
  const size_t point = number.find('.');
  const std::string_view whole = number.substr(0, point);
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view() : number.substr(point + 1);
  if (point != std::string_view::npos &&
      (*shift == 0 || fraction.empty() || fraction.find('.') != std::string_view::npos)) {
    return std::nullopt;
  }
  const auto integer =
      whole.empty() ? std::optional<uint64_t>(0) : checked::parseInteger<uint64_t>(whole);
  if (!integer || *integer > (UINT64_MAX >> *shift)) return std::nullopt;
  uint64_t bytes = *integer << *shift;
  // The fraction, digit by digit: unit / 10, unit / 100, ... (exact to within a byte).
  long double part = 0, scale = 1;
  for (char digit : fraction) {
    scale /= 10;
    part += static_cast<long double>(digit - '0') * scale;
  }
  const auto extra = static_cast<uint64_t>(part * static_cast<long double>(uint64_t{1} << *shift));
  if (extra > UINT64_MAX - bytes) return std::nullopt;
  return bytes + extra;
}

}  // namespace webnn::tools
