// Shape arithmetic shared by the op mappings and the constant folder (ONNX semantics).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "onnx/context.h"

namespace webnn::onnx_import {

using Shape64 = std::vector<int64_t>;

// Reshape's target: 0 copies the input's dimension (unless allowZero), -1 is inferred.
Shape64 reshapeTarget(Context& c, const Shape64& input, const Shape64& spec, bool allowZero);
Shape64 squeezeShape(Context& c, const Shape64& input, const std::optional<Shape64>& axes);
Shape64 unsqueezeShape(Context& c, const Shape64& input, const Shape64& axes);
Shape64 broadcastShapes(Context& c, const Shape64& a, const Shape64& b);
// Flatten to 2-D at `axis`.
Shape64 flattenShape(Context& c, const Shape64& input, int64_t axis);

// One axis of a Slice, normalized: the elements start, start + step, ... (count of them).
struct SliceAxis {
  uint32_t axis = 0;
  int64_t start = 0;
  int64_t step = 1;
  int64_t count = 0;
};
std::vector<SliceAxis> sliceAxes(Context& c, const Shape64& input, const Shape64& starts,
                                 const Shape64& ends, const std::optional<Shape64>& axes,
                                 const std::optional<Shape64>& steps);

// The known value of Slice's, Squeeze's... axes-like inputs (opset >= 13 inputs, attributes
// before).
std::optional<Shape64> axesInput(Context& c, size_t input, const char* attribute,
                                 int64_t sinceOpset);

}  // namespace webnn::onnx_import
