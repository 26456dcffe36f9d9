// resample2d reference kernel. Coordinates map with half-pixel centers:
// source = (destination + 0.5) / scale - 0.5. Nearest-neighbor takes floor(source + 0.5)
// (= floor((destination + 0.5) / scale)); linear interpolates between the two neighbours,
// with source clamped to [0, size - 1].
#include <algorithm>
#include <array>
#include <cmath>

#include "backends/reference/ops/registration.h"
#include "graph/attributes.h"

namespace webnn::reference {
namespace {

struct Tap {
  uint64_t low, high;
  double weight;  // of `high`
};

Tap linearTap(uint64_t destination, double scale, uint32_t size) {
  double source = (static_cast<double>(destination) + 0.5) / scale - 0.5;
  source = std::clamp(source, 0.0, static_cast<double>(size - 1));
  const auto low = static_cast<uint64_t>(std::floor(source));
  const uint64_t high = std::min<uint64_t>(low + 1, size - 1);
  return {low, high, source - static_cast<double>(low)};
}

uint64_t nearestIndex(uint64_t destination, double scale, uint32_t size) {
  const double source = std::floor((static_cast<double>(destination) + 0.5) / scale);
  return static_cast<uint64_t>(std::clamp(source, 0.0, static_cast<double>(size - 1)));
}

void resample2d(const KernelContext& context) {
  const auto& options = context.attributes<graph::Resample2dAttributes>();
  const Tensor input = context.input(0);
  const Tensor output = context.output(0);
  const auto& axes = options.axes;
  const auto& scales = options.scales;
  const auto inStrides = stridesOf(input.shape());
  const auto& outShape = output.shape();
  const bool linear = options.mode == MLInterpolationMode::Linear;
  std::array<uint64_t, 4> position{};
  const uint64_t count = output.elementCount();
  for (uint64_t index = 0; index < count; ++index) {
    uint64_t rest = index;
    for (size_t d = 4; d-- > 0;) {
      position[d] = rest % outShape[d];
      rest /= outShape[d];
    }
    uint64_t base = 0;
    for (size_t d = 0; d < 4; ++d) {
      if (d != axes[0] && d != axes[1]) base += position[d] * inStrides[d];
    }
    const uint32_t size0 = input.shape()[axes[0]], size1 = input.shape()[axes[1]];
    const uint64_t stride0 = inStrides[axes[0]], stride1 = inStrides[axes[1]];
    double value;
    if (linear) {
      const Tap t0 = linearTap(position[axes[0]], scales[0], size0);
      const Tap t1 = linearTap(position[axes[1]], scales[1], size1);
      auto at = [&](uint64_t i0, uint64_t i1) {
        return input.load(base + i0 * stride0 + i1 * stride1);
      };
      const double top = at(t0.low, t1.low) * (1 - t1.weight) + at(t0.low, t1.high) * t1.weight;
      const double bottom =
          at(t0.high, t1.low) * (1 - t1.weight) + at(t0.high, t1.high) * t1.weight;
      value = top * (1 - t0.weight) + bottom * t0.weight;
    } else {
      value = input.load(base + nearestIndex(position[axes[0]], scales[0], size0) * stride0 +
                         nearestIndex(position[axes[1]], scales[1], size1) * stride1);
    }
    output.store(index, value);
  }
}

}  // namespace

void registerResample2dKernels(KernelTable& table) {
  table.set(graph::OpType::Resample2d, resample2d);
}

}  // namespace webnn::reference
