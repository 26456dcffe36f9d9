// Pooling reference kernels. Window elements outside the input (padding, or past the end with
// ceil rounding) are skipped: averagePool2d divides by the number of elements inside the input.
#include <cmath>
#include <limits>
#include <vector>

#include "backends/reference/ops/registration.h"
#include "graph/ops/conv2d.h"

namespace webnn::reference {
namespace {

uint64_t tensorOffset(const std::vector<uint32_t>& s, MLInputOperandLayout layout, uint64_t n,
                      uint64_t c, uint64_t h, uint64_t w) {
  if (layout == MLInputOperandLayout::Nchw) return ((n * s[1] + c) * s[2] + h) * s[3] + w;
  return ((n * s[1] + h) * s[2] + w) * s[3] + c;
}

enum class PoolKind { Average, L2, Max };

void pool2d(const KernelContext& context, PoolKind kind) {
  const auto& options = context.attributes<graph::Pool2dAttributes>();
  const Tensor input = context.input(0);
  const Tensor output = context.output(0);
  const graph::SpatialShape in = graph::spatialShapeOf(input.shape(), options.layout);
  const graph::SpatialShape out = graph::spatialShapeOf(output.shape(), options.layout);
  const auto& window = options.windowDimensions;
  for (uint64_t n = 0; n < out.batches; ++n) {
    for (uint64_t c = 0; c < out.channels; ++c) {
      for (uint64_t oh = 0; oh < out.height; ++oh) {
        for (uint64_t ow = 0; ow < out.width; ++ow) {
          double sum = 0.0;
          double maximum = -std::numeric_limits<double>::infinity();
          uint64_t count = 0;
          for (uint64_t kh = 0; kh < window[0]; ++kh) {
            const int64_t h =
                static_cast<int64_t>(oh * options.strides[0] + kh * options.dilations[0]) -
                options.padding[0];
            if (h < 0 || h >= static_cast<int64_t>(in.height)) continue;
            for (uint64_t kw = 0; kw < window[1]; ++kw) {
              const int64_t w =
                  static_cast<int64_t>(ow * options.strides[1] + kw * options.dilations[1]) -
                  options.padding[2];
              if (w < 0 || w >= static_cast<int64_t>(in.width)) continue;
              const double x =
                  input.load(tensorOffset(input.shape(), options.layout, n, c,
                                          static_cast<uint64_t>(h), static_cast<uint64_t>(w)));
              sum += kind == PoolKind::L2 ? x * x : x;
              if (x > maximum || std::isnan(x)) maximum = x;
              ++count;
            }
          }
          double result = 0.0;
          switch (kind) {
            case PoolKind::Average:
              result = count ? sum / static_cast<double>(count) : 0.0;
              break;
            case PoolKind::L2:
              result = std::sqrt(sum);
              break;
            case PoolKind::Max:
              result = maximum;
              break;
          }
          output.store(tensorOffset(output.shape(), options.layout, n, c, oh, ow), result);
        }
      }
    }
  }
}

}  // namespace

void registerPoolingKernels(KernelTable& table) {
  table.set(graph::OpType::AveragePool2d,
            [](const KernelContext& c) { pool2d(c, PoolKind::Average); });
  table.set(graph::OpType::L2Pool2d, [](const KernelContext& c) { pool2d(c, PoolKind::L2); });
  table.set(graph::OpType::MaxPool2d, [](const KernelContext& c) { pool2d(c, PoolKind::Max); });
}

}  // namespace webnn::reference
