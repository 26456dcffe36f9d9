#include "ocr/text_boxes.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace webnn::ocr {
namespace {

double cross(const Point& o, const Point& a, const Point& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// Andrew's monotone chain; collinear points dropped.
std::vector<Point> convexHull(std::vector<Point> points) {
  std::sort(points.begin(), points.end(),
            [](const Point& a, const Point& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  points.erase(std::unique(points.begin(), points.end(),
                           [](const Point& a, const Point& b) { return a.x == b.x && a.y == b.y; }),
               points.end());
  if (points.size() < 3) return points;
  std::vector<Point> hull(2 * points.size());
  size_t k = 0;
  for (const Point& p : points) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], p) <= 0) --k;
    hull[k++] = p;
  }
  for (size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);
  return hull;
}

// Corners clockwise from the top-left, as PaddleOCR orders them: the two leftmost points give the
// top-left (smaller y) and bottom-left, the two rightmost the top-right and bottom-right.
std::array<Point, 4> orderCorners(std::array<Point, 4> p) {
  std::sort(p.begin(), p.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  const Point topLeft = p[0].y <= p[1].y ? p[0] : p[1];
  const Point bottomLeft = p[0].y <= p[1].y ? p[1] : p[0];
  const Point topRight = p[2].y <= p[3].y ? p[2] : p[3];
  const Point bottomRight = p[2].y <= p[3].y ? p[3] : p[2];
  return {topLeft, topRight, bottomRight, bottomLeft};
}

Rectangle fromCorners(const std::array<Point, 4>& unordered) {
  Rectangle r;
  r.corners = orderCorners(unordered);
  r.width = std::hypot(r.corners[1].x - r.corners[0].x, r.corners[1].y - r.corners[0].y);
  r.height = std::hypot(r.corners[2].x - r.corners[1].x, r.corners[2].y - r.corners[1].y);
  return r;
}

}  // namespace

Rectangle minimumAreaRectangle(const std::vector<Point>& points) {
  const std::vector<Point> hull = convexHull(points);
  if (hull.empty()) return {};
  if (hull.size() < 3) {  // a point or a segment: a rectangle of no area along it
    const Point a = hull.front(), b = hull.back();
    return fromCorners({a, b, b, a});
  }
  double bestArea = std::numeric_limits<double>::infinity();
  std::array<Point, 4> best{};
  for (size_t i = 0; i < hull.size(); ++i) {
    const Point a = hull[i], b = hull[(i + 1) % hull.size()];
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    if (length == 0) continue;
    const double ux = (b.x - a.x) / length, uy = (b.y - a.y) / length;  // along the edge
    double minU = 0, maxU = 0, minV = 0, maxV = 0;
    for (const Point& p : hull) {
      const double u = (p.x - a.x) * ux + (p.y - a.y) * uy;
      const double v = -(p.x - a.x) * uy + (p.y - a.y) * ux;
      minU = std::min(minU, u);
      maxU = std::max(maxU, u);
      minV = std::min(minV, v);
      maxV = std::max(maxV, v);
    }
    const double area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      auto corner = [&](double u, double v) {
        return Point{a.x + u * ux - v * uy, a.y + u * uy + v * ux};
      };
      best = {corner(minU, minV), corner(maxU, minV), corner(maxU, maxV), corner(minU, maxV)};
    }
  }
  return fromCorners(best);
}

std::vector<TextBox> findTextBoxes(const float* probability, int width, int height,
                                   const TextBoxOptions& options) {
  const size_t count = static_cast<size_t>(width) * height;
  std::vector<int> region(count, -1);
  std::vector<TextBox> boxes;
  std::vector<size_t> stack;
  int regions = 0;
  for (size_t start = 0; start < count; ++start) {
    if (region[start] >= 0 || !(probability[start] > options.threshold)) continue;
    // One 8-connected region: its pixels' corners bound it.
    std::vector<Point> corners;
    stack.assign(1, start);
    region[start] = regions;
    while (!stack.empty()) {
      const size_t i = stack.back();
      stack.pop_back();
      const int x = static_cast<int>(i % width), y = static_cast<int>(i / width);
      for (const auto& [dx, dy] :
           {std::pair{0, 0}, std::pair{1, 0}, std::pair{0, 1}, std::pair{1, 1}})
        corners.push_back({static_cast<double>(x + dx), static_cast<double>(y + dy)});
      for (int ny = std::max(0, y - 1); ny <= std::min(height - 1, y + 1); ++ny) {
        for (int nx = std::max(0, x - 1); nx <= std::min(width - 1, x + 1); ++nx) {
          const size_t j = static_cast<size_t>(ny) * width + nx;
          if (region[j] < 0 && probability[j] > options.threshold) {
            region[j] = regions;
            stack.push_back(j);
          }
        }
      }
    }
    const int id = regions++;
    Rectangle rect = minimumAreaRectangle(corners);
    if (std::min(rect.width, rect.height) < options.minSide) continue;
    // The region's mean probability (over its own pixels: DB's kernels fill their rectangles).
    double sum = 0;
    size_t pixels = 0;
    int minX = width, minY = height, maxX = 0, maxY = 0;
    for (const Point& p : corners) {
      minX = std::min(minX, static_cast<int>(p.x));
      minY = std::min(minY, static_cast<int>(p.y));
      maxX = std::max(maxX, static_cast<int>(p.x));
      maxY = std::max(maxY, static_cast<int>(p.y));
    }
    for (int y = minY; y < std::min(maxY, height); ++y) {
      for (int x = minX; x < std::min(maxX, width); ++x) {
        const size_t i = static_cast<size_t>(y) * width + x;
        if (region[i] == id) {
          sum += probability[i];
          ++pixels;
        }
      }
    }
    const double score = pixels ? sum / static_cast<double>(pixels) : 0;
    if (score < options.boxThreshold) continue;
    // Unclip: grow every side by area * ratio / perimeter.
    const double area = rect.width * rect.height;
    const double distance = area * options.unclipRatio / (2 * (rect.width + rect.height));
    const Point center{(rect.corners[0].x + rect.corners[2].x) / 2,
                       (rect.corners[0].y + rect.corners[2].y) / 2};
    std::array<Point, 4> grown{};
    const double ux = (rect.corners[1].x - rect.corners[0].x) / rect.width;
    const double uy = (rect.corners[1].y - rect.corners[0].y) / rect.width;
    const double halfW = rect.width / 2 + distance, halfH = rect.height / 2 + distance;
    const std::array<std::pair<double, double>, 4> signs = {
        std::pair{-1.0, -1.0}, std::pair{1.0, -1.0}, std::pair{1.0, 1.0}, std::pair{-1.0, 1.0}};
    for (size_t k = 0; k < 4; ++k) {
      const double u = signs[k].first * halfW, v = signs[k].second * halfH;
      grown[k] = {center.x + u * ux - v * uy, center.y + u * uy + v * ux};
    }
    Rectangle unclipped = fromCorners(grown);
    if (std::min(unclipped.width, unclipped.height) < options.minSide + 2) continue;
    boxes.push_back({unclipped, score});
  }
  std::stable_sort(boxes.begin(), boxes.end(), [](const TextBox& a, const TextBox& b) {
    return a.box.width * a.box.height > b.box.width * b.box.height;
  });
  if (boxes.size() > options.maxBoxes) boxes.resize(options.maxBoxes);
  return boxes;
}

}  // namespace webnn::ocr
