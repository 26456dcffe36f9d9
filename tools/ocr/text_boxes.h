// Text boxes from a text-probability map (PaddleOCR's DB post-processing): pixels above a
// threshold, grouped into 8-connected regions; each region's minimum-area rectangle, kept when the
// mean probability inside is high enough, then grown ("unclipped") by area * ratio / perimeter on
// every side, as DB's shrunk kernels are.
#pragma once

#include <array>
#include <vector>

#include "ocr/image.h"

namespace webnn::ocr {

struct Rectangle {
  // Corners clockwise from the top-left (image coordinates, y down).
  std::array<Point, 4> corners;
  double width = 0;   // along corners[0] -> corners[1]
  double height = 0;  // along corners[1] -> corners[2]
};

// The smallest-area rectangle holding every point (rotating calipers on the convex hull).
Rectangle minimumAreaRectangle(const std::vector<Point>& points);

struct TextBoxOptions {
  double threshold = 0.3;     // a pixel is text above it
  double boxThreshold = 0.6;  // a region is kept when its mean probability is above it
  double unclipRatio = 1.5;
  double minSide = 3;  // regions narrower than this (in map pixels) are dropped
  size_t maxBoxes = 1000;
};

struct TextBox {
  Rectangle box;  // in map coordinates
  double score = 0;
};

// Regions of `probability` (height x width, row-major), largest first up to maxBoxes.
std::vector<TextBox> findTextBoxes(const float* probability, int width, int height,
                                   const TextBoxOptions& options = {});

}  // namespace webnn::ocr
