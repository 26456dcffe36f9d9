#include "ocr/image.h"

#include <webnn/webnn.h>

#ifdef WEBNN_HAVE_STB
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#endif

#include <algorithm>
#include <cmath>
#include <memory>

#include "weights/file_reader.h"

namespace webnn::ocr {

#ifdef WEBNN_HAVE_STB
Image readImage(const std::string& path) {
  weights::OpenedFile file = weights::openFile(path);
  constexpr uint64_t kMaxFileBytes = uint64_t{512} << 20;
  if (file.size == 0 || file.size > kMaxFileBytes) {
    throw Error(Error::Kind::DataError, path + ": the file is empty or above 512 MiB");
  }
  std::vector<std::byte> bytes(file.size);
  FileReader reader;
  if (const auto failure =
          weights::preadExact(reader, file.handle.get(), bytes.data(), bytes.size(), 0)) {
    throw Error(Error::Kind::DataError, path + ": " + weights::describeFailure(*failure));
  }
  return decodeImage(bytes, path);
}

Image decodeImage(std::span<const std::byte> bytes, const std::string& name, int64_t maxPixels) {
  if (bytes.empty() || bytes.size() > static_cast<size_t>(INT32_MAX)) {
    throw Error(Error::Kind::DataError, name + ": no image (empty, or above 2 GiB)");
  }
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int length = static_cast<int>(bytes.size());
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(data, length, &width, &height, &channels)) {
    throw Error(Error::Kind::DataError,
                name + ": not an image this build reads (PNG, JPEG, BMP, GIF, TGA, PNM)");
  }
  if (width <= 0 || height <= 0 || width > kMaxSide || height > kMaxSide ||
      int64_t{width} * height > maxPixels) {
    throw Error(Error::Kind::DataError, name + ": the image is " + std::to_string(width) + " x " +
                                            std::to_string(height) + ", above the limit");
  }
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(data, length, &width, &height, &channels, 3), stbi_image_free);
  if (!pixels) {
    throw Error(Error::Kind::DataError,
                name + ": the image cannot be decoded (" + stbi_failure_reason() + ")");
  }
  if (width <= 0 || height <= 0 || int64_t{width} * height > maxPixels) {  // as decoded
    throw Error(Error::Kind::DataError, name + ": the decoded image is above the limit");
  }
  Image image;
  image.width = width;
  image.height = height;
  image.rgb.assign(pixels.get(), pixels.get() + static_cast<size_t>(width) * height * 3);
  return image;
}

void writePng(const std::string& path, const Image& image) {
  if (!stbi_write_png(path.c_str(), image.width, image.height, 3, image.rgb.data(),
                      image.width * 3)) {
    throw Error(Error::Kind::OperationError, path + ": the PNG could not be written");
  }
}

#endif  // WEBNN_HAVE_STB

Image resize(const Image& image, int width, int height) {
  Image out;
  out.width = width;
  out.height = height;
  out.rgb.resize(static_cast<size_t>(width) * height * 3);
  const double sx = static_cast<double>(image.width) / width;
  const double sy = static_cast<double>(image.height) / height;
  for (int y = 0; y < height; ++y) {
    const double fy = std::clamp((y + 0.5) * sy - 0.5, 0.0, image.height - 1.0);
    const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, image.height - 1);
    const double wy = fy - y0;
    for (int x = 0; x < width; ++x) {
      const double fx = std::clamp((x + 0.5) * sx - 0.5, 0.0, image.width - 1.0);
      const int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, image.width - 1);
      const double wx = fx - x0;
      for (int c = 0; c < 3; ++c) {
        const double top = image.at(x0, y0)[c] * (1 - wx) + image.at(x1, y0)[c] * wx;
        const double bottom = image.at(x0, y1)[c] * (1 - wx) + image.at(x1, y1)[c] * wx;
        out.at(x, y)[c] = static_cast<uint8_t>(std::lround(top * (1 - wy) + bottom * wy));
      }
    }
  }
  return out;
}

Image rotate180(const Image& image) {
  Image out = image;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      std::copy_n(image.at(image.width - 1 - x, image.height - 1 - y), 3, out.at(x, y));
    }
  }
  return out;
}

Image rotate90(const Image& image) {
  Image out;
  out.width = image.height;
  out.height = image.width;
  out.rgb.resize(image.rgb.size());
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      // Counter-clockwise: the output's row y is the input's column width - 1 - y.
      std::copy_n(image.at(image.width - 1 - y, x), 3, out.at(x, y));
    }
  }
  return out;
}

void drawPolygon(Image& image, const std::array<Point, 4>& corners, std::array<uint8_t, 3> color,
                 int thickness) {
  for (size_t i = 0; i < 4; ++i) {
    const Point a = corners[i], b = corners[(i + 1) % 4];
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    const int steps = std::max(1, static_cast<int>(std::ceil(length)));
    for (int s = 0; s <= steps; ++s) {
      const double t = static_cast<double>(s) / steps;
      const int cx = static_cast<int>(std::lround(a.x + (b.x - a.x) * t));
      const int cy = static_cast<int>(std::lround(a.y + (b.y - a.y) * t));
      for (int dy = -thickness / 2; dy <= thickness / 2; ++dy) {
        for (int dx = -thickness / 2; dx <= thickness / 2; ++dx) {
          const int x = cx + dx, y = cy + dy;
          if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
          std::copy(color.begin(), color.end(), image.at(x, y));
        }
      }
    }
  }
}

}  // namespace webnn::ocr
