// conv2d: validation and shape inference, plus the helpers the other 2-D window ops
// (convTranspose2d, the pools) share: resolving padding/strides/dilations and layouts.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Returns `values`, or `size` copies of `fallback` when empty; throws unless it has `size`
// entries and (when `positive`) every entry is >= 1.
std::vector<uint32_t> resolveWindowOption(std::string_view type, std::string_view label,
                                          std::string_view name,
                                          const std::vector<uint32_t>& values, size_t size,
                                          uint32_t fallback, bool positive);

// (filterSize - 1) * dilation + 1, checked against uint32 overflow.
uint64_t effectiveWindowSize(std::string_view type, std::string_view label, uint32_t size,
                             uint32_t dilation);

// Height and width of an input of rank 4 in `layout`, and its channel count.
struct SpatialShape {
  uint32_t batches, channels, height, width;
};
SpatialShape spatialShapeOf(const std::vector<uint32_t>& shape, MLInputOperandLayout layout);
std::vector<uint32_t> makeShape(MLInputOperandLayout layout, uint32_t batches, uint32_t channels,
                                uint32_t height, uint32_t width);

// Filter dimensions of conv2d in any filter layout.
struct Conv2dFilterShape {
  uint32_t outputChannels, inputChannels, height, width;
};
Conv2dFilterShape conv2dFilterShapeOf(const std::vector<uint32_t>& shape,
                                      MLConv2dFilterOperandLayout layout);

// The first N values of `values` (which validation has sized) as an array.
template <size_t N>
std::array<uint32_t, N> toArray(const std::vector<uint32_t>& values) {
  std::array<uint32_t, N> result{};
  for (size_t i = 0; i < N && i < values.size(); ++i) result[i] = values[i];
  return result;
}

// Validates conv2d and fills `attributes` with the resolved options (padding, strides and
// dilations; bias is left for the caller, who knows its id). `bias` is the bias descriptor when
// options.bias is given.
MLOperandDescriptor validateConv2d(const OpCall& call, const MLOperandDescriptor& input,
                                   const MLOperandDescriptor& filter,
                                   const std::optional<MLOperandDescriptor>& bias,
                                   const MLConv2dOptions& options, Conv2dAttributes& attributes);

}  // namespace webnn::graph
