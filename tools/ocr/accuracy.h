// How much of a text was read right: PaddleOCR's normalized edit distance (RecMetric's
// norm_edit_dis, with its default ignore_space), on Unicode code points, over the lines read
// top to bottom against the lines the image shows, each side joined.
#pragma once

#include <string>
#include <vector>

namespace webnn::ocr {

struct CharacterAccuracy {
  size_t edits = 0;       // insertions, deletions and substitutions from what was read to the truth
  size_t characters = 0;  // the longer side's code points (the metric's denominator)
  // 1 - edits / characters (1 when both sides are empty).
  double accuracy() const;
};

// Spaces (and tabs, line ends) are left out on both sides, as PaddleOCR's metric does: a line
// read as "HelloWebNN" for "Hello WebNN" is right. Invalid UTF-8 bytes count as one code point
// each.
CharacterAccuracy characterAccuracy(const std::vector<std::string>& read,
                                    const std::vector<std::string>& truth);

// The UTF-8 text's code points, each as its bytes (an invalid byte alone).
std::vector<std::string> codePoints(const std::string& text);

}  // namespace webnn::ocr
