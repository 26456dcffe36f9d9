// webnn ocr: the text in an image, found and read by PaddleOCR's three models run weightless on a
// backend; prints the lines (top to bottom) with their confidence and box, and writes the image
// with the boxes drawn.
#include <webnn/webnn.h>

#include <cstdio>
#include <memory>
#include <string>

#include "command.h"

#if defined(WEBNN_HAVE_ONNX) && defined(WEBNN_HAVE_STB)
#include <nlohmann/json.hpp>

#include "ocr/pipeline.h"
#endif

namespace {

struct OcrCommandOptions {
  std::string image, models, backend, output;
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

int runOcr(const OcrCommandOptions& o) {
  using namespace webnn::ocr;
  const Image image = readImage(o.image);
  OcrOptions options;
  options.modelFolder = o.models.empty() ? defaultModelFolder() : o.models;
  options.backend = o.backend;
  OcrPipeline pipeline(options);
  const std::vector<TextLine> lines = pipeline.read(image);

  Image drawn = image;
  for (const TextLine& line : lines) drawPolygon(drawn, line.box, {220, 30, 30}, 2);
  const std::string output = o.output.empty() ? boxesFileFor(o.image) : o.output;
  writePng(output, drawn);

  nlohmann::json json = nlohmann::json::array();
  for (const TextLine& line : lines) {
    std::printf("%s\n", line.text.c_str());
    nlohmann::json box = nlohmann::json::array();
    for (const Point& p : line.box) box.push_back({std::lround(p.x), std::lround(p.y)});
    std::fprintf(stderr, "  confidence %.3f, box %s%s\n", line.confidence, box.dump().c_str(),
                 line.turned ? ", turned 180 degrees" : "");
    json.push_back({{"text", line.text}, {"confidence", line.confidence}, {"box", box}});
  }
  const OcrTimes& t = pipeline.times();
  std::fprintf(stderr,
               "ocr: %zu line(s) in %s (%d x %d) on backend %s; detect %.1f ms, classify %.1f ms, "
               "recognize %.1f ms (%zu graphs built, weights loaded once each); boxes drawn in "
               "%s\n",
               lines.size(), o.image.c_str(), image.width, image.height,
               pipeline.backendName().c_str(), t.detectMs, t.classifyMs, t.recognizeMs,
               t.graphsBuilt, output.c_str());
  if (o.json) std::printf("ocr-json: %s\n", json.dump().c_str());
  return 0;
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
  app.add_flag("--json", o->json, "Also print the lines as one JSON line (ocr-json: [...])");
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
