// libFuzzer target: `webnn ocr`'s image path on arbitrary bytes: the decoder (Debian's stb behind
// decodeImage, 1 Mi pixels at most), then what the pipeline does to a decoded image: a resize, a
// perspective crop of a quadrilateral the input picks (inside or outside the image), the turns
// and the boxes drawn. An error must be a webnn::Error; nothing may read or write out of bounds.
// Built by the asan preset (WEBNN_BUILD_FUZZERS) where libstb-dev is installed.
#include <webnn/webnn.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ocr/crop.h"
#include "ocr/image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace webnn::ocr;
  if (size < 8) return 0;
  // The first 8 bytes place the crop's corners (in 1/16ths of the image, from -1/4 to 5/4).
  std::array<Point, 4> corners{};
  const auto bytes = std::as_bytes(std::span(data + 8, size - 8));
  try {
    const Image image = decodeImage(bytes, "input", int64_t{1} << 20);
    for (size_t i = 0; i < 4; ++i) {
      corners[i] = {(data[2 * i] % 25 - 4) / 16.0 * image.width,
                    (data[2 * i + 1] % 25 - 4) / 16.0 * image.height};
    }
    const Image small = resize(image, 1 + data[0] % 64, 1 + data[1] % 64);
    Image crop = cropQuad(image, corners);
    if (crop.width * int64_t{crop.height} <= (int64_t{1} << 20)) {
      crop = rotate90(rotate180(crop));
      drawPolygon(crop, corners, {255, 0, 0}, 1 + data[2] % 4);
    }
    if (small.rgb.size() != static_cast<size_t>(small.width) * small.height * 3) __builtin_trap();
  } catch (const webnn::Error&) {
  }
  return 0;
}
