// Images for `webnn ocr`: 8-bit RGB pixels read from PNG/JPEG/BMP (Debian's stb_image) and written
// as PNG (stb_image_write), with the few operations the OCR pipeline needs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace webnn::ocr {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;  // row-major, 3 bytes a pixel

  uint8_t* at(int x, int y) { return rgb.data() + (static_cast<size_t>(y) * width + x) * 3; }
  const uint8_t* at(int x, int y) const {
    return rgb.data() + (static_cast<size_t>(y) * width + x) * 3;
  }
};

// Images above this many pixels (or either side above kMaxSide) are refused before decoding.
constexpr int64_t kMaxPixels = int64_t{100} << 20;
constexpr int kMaxSide = 32768;

// (Built with Debian's libstb-dev: WEBNN_HAVE_STB.)
// Throws webnn::Error (DataError) naming the file when it is not an image stb can decode or is
// too large; the file is read through the library's checked reader first.
Image readImage(const std::string& path);
// The same from the file's bytes (`name` in the errors); images above `maxPixels` are refused
// from their header, before decoding.
Image decodeImage(std::span<const std::byte> bytes, const std::string& name,
                  int64_t maxPixels = kMaxPixels);
// Throws webnn::Error (OperationError) when the PNG cannot be written.
void writePng(const std::string& path, const Image& image);

// Bilinear resampling (pixel centres aligned) to width x height.
Image resize(const Image& image, int width, int height);
// The image turned by 180 degrees.
Image rotate180(const Image& image);
// The image turned by 90 degrees counter-clockwise.
Image rotate90(const Image& image);

struct Point {
  double x = 0;
  double y = 0;
};

// Draws the closed polygon's edges `thickness` pixels wide in `color`.
void drawPolygon(Image& image, const std::array<Point, 4>& corners, std::array<uint8_t, 3> color,
                 int thickness);

}  // namespace webnn::ocr
