#include "ocr/accuracy.h"

#include <algorithm>
#include <numeric>

namespace webnn::ocr {
namespace {

// A lead byte's sequence length (1 for an invalid lead byte).
size_t sequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;
}

bool isSpace(const std::string& c) {
  return c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u3000";
}

std::vector<std::string> joinedWithoutSpaces(const std::vector<std::string>& lines) {
  std::vector<std::string> joined;
  for (const std::string& line : lines) {
    for (std::string& c : codePoints(line)) {
      if (!isSpace(c)) joined.push_back(std::move(c));
    }
  }
  return joined;
}

// Levenshtein distance, one row at a time.
size_t editDistance(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> codePoints(const std::string& text) {
  std::vector<std::string> points;
  for (size_t i = 0; i < text.size();) {
    size_t length = sequenceLength(static_cast<unsigned char>(text[i]));
    // A truncated or malformed sequence: its lead byte alone.
    bool valid = i + length <= text.size();
    for (size_t k = 1; valid && k < length; ++k) {
      valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    }
    if (!valid) length = 1;
    points.push_back(text.substr(i, length));
    i += length;
  }
  return points;
}

double CharacterAccuracy::accuracy() const {
  return characters == 0 ? 1.0 : 1.0 - static_cast<double>(edits) / characters;
}

CharacterAccuracy characterAccuracy(const std::vector<std::string>& read,
                                    const std::vector<std::string>& truth) {
  const std::vector<std::string> a = joinedWithoutSpaces(read);
  const std::vector<std::string> b = joinedWithoutSpaces(truth);
  return {editDistance(a, b), std::max(a.size(), b.size())};
}

}  // namespace webnn::ocr
