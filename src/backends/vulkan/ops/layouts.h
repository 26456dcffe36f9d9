// Strides of the 2-D convolution and pooling operands in their layouts, so that one shader runs
// every layout.
#pragma once

#include <array>
#include <cstdint>

#include "graph/ops/conv2d.h"

namespace webnn::vulkan {

// Element strides of (n, c, h, w) in a tensor of `shape` in `layout`.
inline std::array<uint32_t, 4> activationStrides(const graph::SpatialShape& s,
                                                 MLInputOperandLayout layout) {
  if (layout == MLInputOperandLayout::Nchw) {
    return {s.channels * s.height * s.width, s.height * s.width, s.width, 1};
  }
  return {s.height * s.width * s.channels, 1, s.width * s.channels, s.channels};
}

// Element strides of (o, i, h, w) in a conv2d filter in `layout`.
inline std::array<uint32_t, 4> conv2dFilterStrides(const graph::Conv2dFilterShape& f,
                                                   MLConv2dFilterOperandLayout layout) {
  const uint32_t O = f.outputChannels, I = f.inputChannels, H = f.height, W = f.width;
  switch (layout) {
    case MLConv2dFilterOperandLayout::Oihw:
      return {I * H * W, H * W, W, 1};
    case MLConv2dFilterOperandLayout::Hwio:
      return {1, O, W * I * O, I * O};
    case MLConv2dFilterOperandLayout::Ohwi:
      return {H * W * I, 1, W * I, I};
    default:
      return {1, H * W * O, W * O, O};  // ihwo
  }
}

}  // namespace webnn::vulkan
