// Text found and read in an image with PaddleOCR's three models, each imported weightless and
// filled after build(): detection (a text-probability map -> boxes), direction classification
// (turns upside-down crops) and recognition (CTC over PaddleOCR's dictionary). Graphs are built
// once per input shape and kept.
#pragma once

#include <webnn/webnn.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ocr/image.h"
#include "ocr/text_boxes.h"

namespace webnn::ocr {

struct OcrOptions {
  // The folder holding ch_PP-OCRv4_det_infer.onnx, ch_ppocr_mobile_v2.0_cls_infer.onnx,
  // ch_PP-OCRv4_rec_infer.onnx and ppocr_keys_v1.txt.
  std::string modelFolder;
  std::string backend;  // empty: the default backend
  int limitSide = 960;  // detection input's longer side at most (PaddleOCR's default)
  TextBoxOptions boxes;
  double flipThreshold = 0.9;  // turn a crop when the classifier says 180 degrees this surely
  double dropScore = 0.5;      // lines recognized with less confidence are left out
};

struct TextLine {
  std::string text;
  double confidence = 0;
  std::array<Point, 4> box{};  // image coordinates, clockwise from the top-left
  bool turned = false;         // the classifier turned the crop by 180 degrees
};

struct OcrTimes {
  double detectMs = 0, classifyMs = 0, recognizeMs = 0;
  size_t graphsBuilt = 0;
};

class OcrPipeline {
 public:
  explicit OcrPipeline(OcrOptions options);
  ~OcrPipeline();

  // The lines of text, top to bottom (then left to right).
  std::vector<TextLine> read(const Image& image);
  const OcrTimes& times() const { return times_; }
  std::string backendName() const;

 private:
  struct Model;
  Model& model(const std::string& file, const std::vector<uint32_t>& inputShape);
  std::vector<float> run(Model& model, const std::vector<float>& input);

  OcrOptions options_;
  MLContext context_;
  std::vector<std::string> dictionary_;
  std::map<std::string, std::unique_ptr<Model>> models_;
  OcrTimes times_;
};

// PaddleOCR's models in the cache scripts/fetch-models.sh fills ($WEBNN_MODEL_CACHE or
// ~/.cache/webnn-cpp).
std::string defaultModelFolder();

}  // namespace webnn::ocr
