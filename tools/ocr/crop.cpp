#include "ocr/crop.h"

#include <webnn/webnn.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace webnn::ocr {
namespace {

// The homography H (row-major 3x3, h33 = 1) with H * from[i] ~ to[i], by Gaussian elimination on
// the 8 x 8 system.
std::array<double, 9> homography(const std::array<Point, 4>& from, const std::array<Point, 4>& to) {
  double a[8][9] = {};
  for (int i = 0; i < 4; ++i) {
    const double x = from[i].x, y = from[i].y, u = to[i].x, v = to[i].y;
    double* r0 = a[2 * i];
    double* r1 = a[2 * i + 1];
    r0[0] = x, r0[1] = y, r0[2] = 1, r0[6] = -u * x, r0[7] = -u * y, r0[8] = u;
    r1[3] = x, r1[4] = y, r1[5] = 1, r1[6] = -v * x, r1[7] = -v * y, r1[8] = v;
  }
  for (int col = 0; col < 8; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 8; ++r) {
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
    }
    std::swap(a[col], a[pivot]);
    if (std::fabs(a[col][col]) < 1e-12) return {1, 0, 0, 0, 1, 0, 0, 0, 1};  // degenerate
    for (int r = 0; r < 8; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (int k = col; k < 9; ++k) a[r][k] -= f * a[col][k];
    }
  }
  std::array<double, 9> h{};
  for (int i = 0; i < 8; ++i) h[i] = a[i][8] / a[i][i];
  h[8] = 1;
  return h;
}

// A sample coordinate clamped to [0, high]; a degenerate quadrilateral's transform can give
// w = 0, and then a NaN or an infinity, read as 0 (found by ocr_image_fuzzer: the cast to int was
// undefined).
double inImage(double value, double high) {
  return std::isfinite(value) ? std::clamp(value, 0.0, high) : 0.0;
}

}  // namespace

Image cropQuad(const Image& image, const std::array<Point, 4>& corners) {
  auto distance = [](const Point& a, const Point& b) { return std::hypot(b.x - a.x, b.y - a.y); };
  const double across =
      std::max(distance(corners[0], corners[1]), distance(corners[2], corners[3]));
  const double down = std::max(distance(corners[0], corners[3]), distance(corners[1], corners[2]));
  // A quadrilateral's crop can be larger than the image (a thin, skewed one spans its
  // diagonal twice); text boxes never are. Refused beyond four times the image (and 1 Mi pixels),
  // or for corners that are not numbers, before any size is cast or allocated.
  const double limit = 4.0 * image.width * image.height + double(int64_t{1} << 20);
  if (!std::isfinite(across) || !std::isfinite(down) ||
      std::max(1.0, across) * std::max(1.0, down) > limit) {
    throw Error(Error::Kind::DataError, "the crop of " + std::to_string(across) + " x " +
                                            std::to_string(down) +
                                            " pixels is out of proportion to the image");
  }
  const int width = std::max(1, static_cast<int>(across));
  const int height = std::max(1, static_cast<int>(down));
  const std::array<Point, 4> rectangle = {
      Point{0, 0}, Point{static_cast<double>(width), 0},
      Point{static_cast<double>(width), static_cast<double>(height)},
      Point{0, static_cast<double>(height)}};
  // From the output's pixels to the image's.
  const std::array<double, 9> h = homography(rectangle, corners);
  Image out;
  out.width = width;
  out.height = height;
  out.rgb.resize(static_cast<size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      // Pixel corners map to corners (OpenCV's warpPerspective convention).
      const double w = h[6] * x + h[7] * y + h[8];
      const double sx = inImage((h[0] * x + h[1] * y + h[2]) / w, image.width - 1.0);
      const double sy = inImage((h[3] * x + h[4] * y + h[5]) / w, image.height - 1.0);
      const int x0 = static_cast<int>(sx), y0 = static_cast<int>(sy);
      const int x1 = std::min(x0 + 1, image.width - 1), y1 = std::min(y0 + 1, image.height - 1);
      const double wx = sx - x0, wy = sy - y0;
      for (int c = 0; c < 3; ++c) {
        const double top = image.at(x0, y0)[c] * (1 - wx) + image.at(x1, y0)[c] * wx;
        const double bottom = image.at(x0, y1)[c] * (1 - wx) + image.at(x1, y1)[c] * wx;
        out.at(x, y)[c] = static_cast<uint8_t>(std::lround(top * (1 - wy) + bottom * wy));
      }
    }
  }
  if (height >= 1.5 * width) return rotate90(out);
  return out;
}

}  // namespace webnn::ocr
