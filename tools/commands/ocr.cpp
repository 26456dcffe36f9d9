// webnn ocr: the text in an image, found and read by PaddleOCR's three models run weightless on a
// backend; prints the lines (top to bottom) with their confidence and box, and writes the image
// with the boxes drawn.
#include <webnn/webnn.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "command.h"

#if defined(WEBNN_HAVE_ONNX) && defined(WEBNN_HAVE_STB)
#include <nlohmann/json.hpp>

#include "ocr/accuracy.h"
#include "ocr/pipeline.h"
#include "peak_rss.h"
#endif

namespace {

struct OcrCommandOptions {
  std::string image, models, backend, output, truth;
  double minAccuracy = 0;
  bool json = false;
};

#if defined(WEBNN_HAVE_ONNX) && defined(WEBNN_HAVE_STB)
// "photo.jpg" -> "photo.boxes.png" beside it.
std::string boxesFileFor(const std::string& image) {
  const size_t slash = image.find_last_of('/');
  const size_t dot = image.find_last_of('.');
  const std::string stem = dot != std::string::npos && (slash == std::string::npos || dot > slash)
                               ? image.substr(0, dot)
                               : image;
  return stem + ".boxes.png";
}

// The text the image shows, one line per line (blank lines left out).
std::vector<std::string> readTruth(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw webnn::Error(webnn::Error::Kind::DataError, path + ": cannot read the text");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

int runOcr(const OcrCommandOptions& o) {
  using namespace webnn::ocr;
  // The ground truth is read first: a wrong path fails before the models run.
  const std::vector<std::string> truth =
      o.truth.empty() ? std::vector<std::string>{} : readTruth(o.truth);
  const Image image = readImage(o.image);
  // The boxes' file's folder is made before the models run (as webnn run's --output-dir), so a
  // path that cannot be written fails first.
  const std::string output = o.output.empty() ? boxesFileFor(o.image) : o.output;
  const std::filesystem::path folder = std::filesystem::path(output).parent_path();
  std::error_code error;
  if (!folder.empty() && !std::filesystem::create_directories(folder, error) && error) {
    throw webnn::Error(
        webnn::Error::Kind::OperationError,
        "--output: cannot make the folder " + folder.string() + ": " + error.message());
  }
  OcrOptions options;
  options.modelFolder = o.models.empty() ? defaultModelFolder() : o.models;
  options.backend = o.backend;
  OcrPipeline pipeline(options);
  const std::vector<TextLine> lines = pipeline.read(image);

  Image drawn = image;
  for (const TextLine& line : lines) drawPolygon(drawn, line.box, {220, 30, 30}, 2);
  writePng(output, drawn);

  nlohmann::json json = nlohmann::json::array();
  for (const TextLine& line : lines) {
    std::printf("%s\n", line.text.c_str());
    std::fflush(stdout);  // the line before its details on stderr, in a pipe too
    nlohmann::json box = nlohmann::json::array();
    for (const Point& p : line.box) box.push_back({std::lround(p.x), std::lround(p.y)});
    std::fprintf(stderr, "  confidence %.3f, box %s%s\n", line.confidence, box.dump().c_str(),
                 line.turned ? ", turned 180 degrees" : "");
    json.push_back({{"text", line.text},
                    {"confidence", line.confidence},
                    {"box", box},
                    {"turned", line.turned}});
  }
  const OcrTimes& t = pipeline.times();
  std::fprintf(stderr,
               "ocr: %zu line(s) in %s (%d x %d) on backend %s; detect %.1f ms, classify %.1f ms, "
               "recognize %.1f ms (%zu graphs built, weights loaded once each); peak RSS "
               "(VmHWM) %.1f MiB; boxes drawn in %s\n",
               lines.size(), o.image.c_str(), image.width, image.height,
               pipeline.backendName().c_str(), t.detectMs, t.classifyMs, t.recognizeMs,
               t.graphsBuilt, static_cast<double>(webnn::tools::peakRssBytes()) / (1024.0 * 1024.0),
               output.c_str());
  int status = 0;
  nlohmann::json summary = {{"lines", json}};
  if (!o.truth.empty()) {
    // What was read beside what the image shows, and PaddleOCR's character accuracy.
    std::vector<std::string> read;
    for (const TextLine& line : lines) read.push_back(line.text);
    std::fflush(stderr);
    std::printf("\n%-40s %s\n", "read", "the image shows");
    for (size_t i = 0; i < std::max(read.size(), truth.size()); ++i) {
      const std::string left = i < read.size() ? read[i] : "";
      const std::string right = i < truth.size() ? truth[i] : "";
      // Padded by code points, so a line of CJK characters lines up too.
      const size_t shown = codePoints(left).size();
      std::printf("%s%*s %s%s\n", left.c_str(), static_cast<int>(shown < 40 ? 40 - shown : 0), "",
                  right.c_str(), characterAccuracy({left}, {right}).edits ? "   <- differs" : "");
    }
    const CharacterAccuracy accuracy = characterAccuracy(read, truth);
    std::printf("character accuracy %.1f%% (%zu edit(s) over %zu characters, spaces ignored)\n",
                100 * accuracy.accuracy(), accuracy.edits, accuracy.characters);
    summary["accuracy"] = accuracy.accuracy();
    summary["edits"] = accuracy.edits;
    summary["characters"] = accuracy.characters;
    if (accuracy.accuracy() < o.minAccuracy) {
      std::fprintf(stderr, "webnn ocr: character accuracy %.3f is below --min-accuracy %.3f\n",
                   accuracy.accuracy(), o.minAccuracy);
      status = 1;
    }
  }
  if (o.json) std::printf("ocr-json: %s\n", summary.dump().c_str());
  return status;
}
#endif

}  // namespace

WEBNN_COMMAND("ocr", registerOcrCommand,
              "Find and read the text in an image (PaddleOCR's models, weightless)") {
  auto o = std::make_shared<OcrCommandOptions>();
  app.add_option("IMAGE", o->image, "A PNG, JPEG or BMP image")->required();
  app.add_option("--models", o->models,
                 "Folder of PaddleOCR's det/cls/rec models and ppocr_keys_v1.txt (default: the "
                 "cache scripts/fetch-models.sh fills)");
  app.add_option("--backend", o->backend, "Backend to run on (default: the default backend)");
  app.add_option("--output", o->output, "Where the image with the boxes goes (IMAGE.boxes.png)");
  app.add_option("--truth", o->truth,
                 "A text file of the lines the image shows: prints them beside what was read, "
                 "with the character accuracy (PaddleOCR's normalized edit distance, spaces "
                 "ignored)");
  app.add_option("--min-accuracy", o->minAccuracy,
                 "With --truth: exit 1 when the character accuracy is below this (0 to 1)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_flag("--json", o->json,
               "Also print one JSON line (ocr-json: {\"lines\": [...], \"accuracy\": ...})");
  return [o]() -> int {
#if defined(WEBNN_HAVE_ONNX) && defined(WEBNN_HAVE_STB)
    return runOcr(*o);
#else
    std::fprintf(stderr,
                 "webnn ocr: this build lacks the ONNX importer (libonnx-dev) or stb "
                 "(libstb-dev)\n");
    return 2;
#endif
  };
}
