// convTranspose2d reference kernel: scatters each input element through the filter into a double
// accumulator of the output's size, then rounds once.
#include <vector>

#include "backends/reference/ops/registration.h"
#include "graph/ops/conv2d.h"
#include "graph/ops/conv_transpose2d.h"

namespace webnn::reference {
namespace {

uint64_t tensorOffset(const std::vector<uint32_t>& s, MLInputOperandLayout layout, uint64_t n,
                      uint64_t c, uint64_t h, uint64_t w) {
  if (layout == MLInputOperandLayout::Nchw) return ((n * s[1] + c) * s[2] + h) * s[3] + w;
  return ((n * s[1] + h) * s[2] + w) * s[3] + c;
}

// Offset of filter element (input channel i, output channel o within its group, h, w).
uint64_t filterOffset(const std::vector<uint32_t>& s, MLConvTranspose2dFilterOperandLayout layout,
                      uint64_t i, uint64_t o, uint64_t h, uint64_t w) {
  switch (layout) {
    case MLConvTranspose2dFilterOperandLayout::Iohw:
      return ((i * s[1] + o) * s[2] + h) * s[3] + w;
    case MLConvTranspose2dFilterOperandLayout::Hwoi:
      return ((h * s[1] + w) * s[2] + o) * s[3] + i;
    case MLConvTranspose2dFilterOperandLayout::Ohwi:
      return ((o * s[1] + h) * s[2] + w) * s[3] + i;
  }
  return 0;
}

void convTranspose2d(const KernelContext& context) {
  const auto& options = context.attributes<graph::ConvTranspose2dAttributes>();
  const Tensor input = context.input(0);
  const Tensor filter = context.input(1);
  const Tensor output = context.output(0);
  if (!isFloatingPoint(output.dataType())) throwOperationError("convTranspose2d: only float types");
  const graph::SpatialShape in = graph::spatialShapeOf(input.shape(), options.inputLayout);
  const graph::SpatialShape out = graph::spatialShapeOf(output.shape(), options.inputLayout);
  const graph::ConvTranspose2dFilterShape f =
      graph::convTranspose2dFilterShapeOf(filter.shape(), options.filterLayout);
  const uint64_t inputChannelsPerGroup = in.channels / options.groups;
  const uint64_t outputChannelsPerGroup = f.outputChannelsPerGroup;

  // Accumulator in nchw order, whatever the layout.
  std::vector<double> sums(output.elementCount(), 0.0);
  auto at = [&](uint64_t n, uint64_t c, uint64_t h, uint64_t w) -> double& {
    return sums[((n * out.channels + c) * out.height + h) * out.width + w];
  };
  for (uint64_t n = 0; n < in.batches; ++n) {
    for (uint64_t ic = 0; ic < in.channels; ++ic) {
      const uint64_t group = ic / inputChannelsPerGroup;
      for (uint64_t ih = 0; ih < in.height; ++ih) {
        for (uint64_t iw = 0; iw < in.width; ++iw) {
          const double x =
              input.load(tensorOffset(input.shape(), options.inputLayout, n, ic, ih, iw));
          for (uint64_t o = 0; o < outputChannelsPerGroup; ++o) {
            const uint64_t oc = group * outputChannelsPerGroup + o;
            for (uint64_t kh = 0; kh < f.height; ++kh) {
              const int64_t h =
                  static_cast<int64_t>(ih * options.strides[0] + kh * options.dilations[0]) -
                  options.padding[0];
              if (h < 0 || h >= static_cast<int64_t>(out.height)) continue;
              for (uint64_t kw = 0; kw < f.width; ++kw) {
                const int64_t w =
                    static_cast<int64_t>(iw * options.strides[1] + kw * options.dilations[1]) -
                    options.padding[2];
                if (w < 0 || w >= static_cast<int64_t>(out.width)) continue;
                at(n, oc, static_cast<uint64_t>(h), static_cast<uint64_t>(w)) +=
                    x *
                    filter.load(filterOffset(filter.shape(), options.filterLayout, ic, o, kh, kw));
              }
            }
          }
        }
      }
    }
  }
  std::optional<Tensor> bias;
  if (options.bias) bias = context.operand(*options.bias);
  for (uint64_t n = 0; n < out.batches; ++n) {
    for (uint64_t c = 0; c < out.channels; ++c) {
      const double biasValue = bias ? bias->load(c) : 0.0;
      for (uint64_t h = 0; h < out.height; ++h) {
        for (uint64_t w = 0; w < out.width; ++w) {
          output.store(tensorOffset(output.shape(), options.inputLayout, n, c, h, w),
                       at(n, c, h, w) + biasValue);
        }
      }
    }
  }
}

}  // namespace

void registerConvTranspose2dKernels(KernelTable& table) {
  table.set(graph::OpType::ConvTranspose2d, convTranspose2d);
}

}  // namespace webnn::reference
