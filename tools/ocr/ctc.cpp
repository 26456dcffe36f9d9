#include "ocr/ctc.h"

#include <webnn/webnn.h>

#include <fstream>

namespace webnn::ocr {

Recognized decodeCtc(const float* probabilities, int steps, int classes,
                     const std::vector<std::string>& dictionary) {
  Recognized result;
  int previous = -1;
  double sum = 0;
  int kept = 0;
  for (int t = 0; t < steps; ++t) {
    const float* row = probabilities + static_cast<size_t>(t) * classes;
    int best = 0;
    for (int k = 1; k < classes; ++k) {
      if (row[k] > row[best]) best = k;
    }
    if (best != 0 && best != previous && static_cast<size_t>(best - 1) < dictionary.size()) {
      result.text += dictionary[static_cast<size_t>(best - 1)];
      sum += row[best];
      ++kept;
    }
    previous = best;
  }
  result.confidence = kept ? sum / kept : 0;
  return result;
}

std::vector<std::string> readDictionary(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(Error::Kind::DataError, path + ": cannot read the dictionary");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  if (lines.empty()) throw Error(Error::Kind::DataError, path + ": the dictionary is empty");
  lines.push_back(" ");
  return lines;
}

}  // namespace webnn::ocr
