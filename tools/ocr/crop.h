// A text box cut out of the image and made upright (PaddleOCR's get_rotate_crop_image): the
// quadrilateral is mapped onto a width x height rectangle (width the longer of its top and bottom
// edges, height of its sides) by a perspective transform with bilinear sampling; a crop at least
// 1.5 times taller than wide is vertical text, turned 90 degrees. A crop larger than four times
// the image (plus 1 Mi pixels), which only a degenerate quadrilateral gives, is a DataError.
#pragma once

#include <array>

#include "ocr/image.h"

namespace webnn::ocr {

Image cropQuad(const Image& image, const std::array<Point, 4>& corners);

}  // namespace webnn::ocr
