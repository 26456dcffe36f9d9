// conv2d reference kernel: a direct convolution, accumulated in double per output element.
#include <vector>

#include "backends/reference/ops/registration.h"
#include "graph/ops/conv2d.h"

namespace webnn::reference {
namespace {

// Offset of element (n, c, h, w) of a rank-4 tensor of `shape` in `layout`.
uint64_t inputOffset(const std::vector<uint32_t>& s, MLInputOperandLayout layout, uint64_t n,
                     uint64_t c, uint64_t h, uint64_t w) {
  if (layout == MLInputOperandLayout::Nchw) return ((n * s[1] + c) * s[2] + h) * s[3] + w;
  return ((n * s[1] + h) * s[2] + w) * s[3] + c;
}

// Offset of filter element (o, i, h, w) in `layout`.
uint64_t filterOffset(const std::vector<uint32_t>& s, MLConv2dFilterOperandLayout layout,
                      uint64_t o, uint64_t i, uint64_t h, uint64_t w) {
  switch (layout) {
    case MLConv2dFilterOperandLayout::Oihw:
      return ((o * s[1] + i) * s[2] + h) * s[3] + w;
    case MLConv2dFilterOperandLayout::Hwio:
      return ((h * s[1] + w) * s[2] + i) * s[3] + o;
    case MLConv2dFilterOperandLayout::Ohwi:
      return ((o * s[1] + h) * s[2] + w) * s[3] + i;
    case MLConv2dFilterOperandLayout::Ihwo:
      return ((i * s[1] + h) * s[2] + w) * s[3] + o;
  }
  return 0;
}

void conv2d(const KernelContext& context) {
  const auto& options = context.attributes<graph::Conv2dAttributes>();
  const Tensor input = context.input(0);
  const Tensor filter = context.input(1);
  const Tensor output = context.output(0);
  if (!isFloatingPoint(output.dataType())) throwOperationError("conv2d: only float types");
  const graph::SpatialShape in = graph::spatialShapeOf(input.shape(), options.inputLayout);
  const graph::SpatialShape out = graph::spatialShapeOf(output.shape(), options.inputLayout);
  const graph::Conv2dFilterShape f =
      graph::conv2dFilterShapeOf(filter.shape(), options.filterLayout);
  const uint32_t groups = options.groups;
  const uint64_t inputChannelsPerGroup = in.channels / groups;
  const uint64_t outputChannelsPerGroup = out.channels / groups;
  std::optional<Tensor> bias;
  if (options.bias) bias = context.operand(*options.bias);

  for (uint64_t n = 0; n < out.batches; ++n) {
    for (uint64_t oc = 0; oc < out.channels; ++oc) {
      const uint64_t group = oc / outputChannelsPerGroup;
      const double biasValue = bias ? bias->load(oc) : 0.0;
      for (uint64_t oh = 0; oh < out.height; ++oh) {
        for (uint64_t ow = 0; ow < out.width; ++ow) {
          double sum = biasValue;
          for (uint64_t ic = 0; ic < inputChannelsPerGroup; ++ic) {
            const uint64_t c = group * inputChannelsPerGroup + ic;
            for (uint64_t kh = 0; kh < f.height; ++kh) {
              const int64_t h =
                  static_cast<int64_t>(oh * options.strides[0] + kh * options.dilations[0]) -
                  options.padding[0];
              if (h < 0 || h >= static_cast<int64_t>(in.height)) continue;
              for (uint64_t kw = 0; kw < f.width; ++kw) {
                const int64_t w =
                    static_cast<int64_t>(ow * options.strides[1] + kw * options.dilations[1]) -
                    options.padding[2];
                if (w < 0 || w >= static_cast<int64_t>(in.width)) continue;
                sum +=
                    input.load(inputOffset(input.shape(), options.inputLayout, n, c,
                                           static_cast<uint64_t>(h), static_cast<uint64_t>(w))) *
                    filter.load(filterOffset(filter.shape(), options.filterLayout, oc, ic, kh, kw));
              }
            }
          }
          output.store(inputOffset(output.shape(), options.inputLayout, n, oc, oh, ow), sum);
        }
      }
    }
  }
}

}  // namespace

void registerConv2dKernels(KernelTable& table) {
  table.set(graph::OpType::Conv2d, conv2d);
}

}  // namespace webnn::reference
