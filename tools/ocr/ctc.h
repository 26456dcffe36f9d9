// Text from a recognition model's output (PaddleOCR's CTC label decoding): the most probable
// class at each step, repeats collapsed, blanks (class 0) dropped; class i is the dictionary's
// line i - 1, and the class after the dictionary's last is a space.
#pragma once

#include <string>
#include <vector>

namespace webnn::ocr {

struct Recognized {
  std::string text;
  double confidence = 0;  // the mean probability of the characters kept (0 without any)
};

// `probabilities` holds steps x classes values (softmax per step).
Recognized decodeCtc(const float* probabilities, int steps, int classes,
                     const std::vector<std::string>& dictionary);

// The dictionary file's lines (UTF-8, one character each), with the space appended. DataError
// naming the file when it cannot be read or holds no line.
std::vector<std::string> readDictionary(const std::string& path);

}  // namespace webnn::ocr
