// resample2d on the cpu backend, a kernel of our own with the reference's (and WebNN's)
// coordinate mapping: half-pixel centres, source = (destination + 0.5) / scale - 0.5; nearest
// takes floor((destination + 0.5) / scale), linear interpolates the two neighbours with the source
// clamped to [0, size - 1]. (oneDNN's resampling rounds nearest differently.) Any two axes of the
// 4-D input. Linear in float32; nearest for every whole-byte type (a copy). The taps of the rows'
// axes are computed per row, the inner axis's tabled at compile (when bounded); OpenMP over rows.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {
namespace {

constexpr int64_t kParallelElements = int64_t{1} << 14;

// The source positions of destination position `d` along one axis: `low` and `high` (equal for
// nearest) and the weight of `high`.
struct Tap {
  int64_t low, high;
  float weight;
};

Tap tapAt(int64_t d, int64_t inSize, double scale, bool linear) {
  if (linear) {
    double source = (static_cast<double>(d) + 0.5) / scale - 0.5;
    source = std::clamp(source, 0.0, static_cast<double>(inSize - 1));
    const auto low = static_cast<int64_t>(std::floor(source));
    return {low, std::min(low + 1, inSize - 1),
            static_cast<float>(source - static_cast<double>(low))};
  }
  const double source = std::floor((static_cast<double>(d) + 0.5) / scale);
  const auto index = static_cast<int64_t>(std::clamp(source, 0.0, static_cast<double>(inSize - 1)));
  return {index, index, 0.0f};
}

// The innermost axis's taps are tabled once at compile when the axis is at most this long (the
// table then costs at most 1.5 MiB); a longer axis computes each tap where it is used, so no
// compile-time allocation grows with an (untrusted) output size.
constexpr int64_t kMaxTabledTaps = int64_t{1} << 16;

class ResampleOp final : public CpuOp {
 public:
  ResampleOp(const OpCompileContext& context, size_t elementBytes)
      : input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        elementBytes_(elementBytes) {
    const auto& attributes = context.operation.attributesAs<graph::Resample2dAttributes>();
    linear_ = attributes.mode == MLInterpolationMode::Linear;
    const auto& in = context.descriptor(input_).shape;
    const auto& out = context.descriptor(output_).shape;
    int64_t stride = 1;
    for (size_t d = 4; d-- > 0;) {
      inStrides_[d] = stride;
      inDims_[d] = in[d];
      stride *= in[d];
      outDims_[d] = out[d];
    }
    for (size_t k = 0; k < 2; ++k) {
      const uint32_t axis = attributes.axes[k];
      resampled_[axis] = true;
      scales_[axis] = attributes.scales[k];
    }
    if (resampled_[3] && outDims_[3] <= kMaxTabledTaps) {
      innerTaps_.reserve(static_cast<size_t>(outDims_[3]));
      for (int64_t d = 0; d < outDims_[3]; ++d) innerTaps_.push_back(innerTap(d));
    }
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    if (linear_) {
      runLinear(tensors[input_].as<float>(), tensors[output_].as<float>());
      return;
    }
    switch (elementBytes_) {
      case 1:
        return runNearest(tensors[input_].as<uint8_t>(), tensors[output_].as<uint8_t>());
      case 2:
        return runNearest(tensors[input_].as<uint16_t>(), tensors[output_].as<uint16_t>());
      case 4:
        return runNearest(tensors[input_].as<uint32_t>(), tensors[output_].as<uint32_t>());
      default:
        return runNearest(tensors[input_].as<uint64_t>(), tensors[output_].as<uint64_t>());
    }
  }
  std::string implementation() const override { return "cpu resample2d kernel"; }

 private:
  // The source offsets and weights of the (up to 4) corners of output row `row` (dims 0..2).
  int corners(int64_t row, std::array<int64_t, 4>& offsets, std::array<float, 4>& weights) const {
    int count = 1;
    offsets[0] = 0;
    weights[0] = 1.0f;
    int64_t rest = row;
    for (size_t d = 3; d-- > 0;) {
      const auto p = static_cast<size_t>(rest % outDims_[d]);
      rest /= outDims_[d];
      if (!resampled_[d]) {
        for (int c = 0; c < count; ++c) offsets[c] += static_cast<int64_t>(p) * inStrides_[d];
        continue;
      }
      const Tap t = tapAt(static_cast<int64_t>(p), inDims_[d], scales_[d], linear_);
      if (!linear_) {
        for (int c = 0; c < count; ++c) offsets[c] += t.low * inStrides_[d];
        continue;
      }
      const float w = t.weight;
      for (int c = 0; c < count; ++c) {
        offsets[count + c] = offsets[c] + t.high * inStrides_[d];
        weights[count + c] = weights[c] * w;
        offsets[c] += t.low * inStrides_[d];
        weights[c] *= 1.0f - w;
      }
      count *= 2;
    }
    return count;
  }

  int64_t rows() const { return outDims_[0] * outDims_[1] * outDims_[2]; }

  Tap innerTap(int64_t d) const { return tapAt(d, inDims_[3], scales_[3], linear_); }

  // The tap of inner position `i`: from the table, or computed when the axis was too long to table.
  Tap tapOfInner(int64_t i) const {
    return innerTaps_.empty() ? innerTap(i) : innerTaps_[static_cast<size_t>(i)];
  }

  void runLinear(const float* x, float* y) const {
    const int64_t inner = outDims_[3], rowCount = rows();
    const bool innerResampled = resampled_[3];
#pragma omp parallel for schedule(static) if (rowCount > 1 && rowCount * inner > kParallelElements)
    for (int64_t row = 0; row < rowCount; ++row) {
      std::array<int64_t, 4> offsets{};
      std::array<float, 4> weights{};
      const int count = corners(row, offsets, weights);
      float* out = y + row * inner;
      if (innerResampled) {
        for (int64_t i = 0; i < inner; ++i) {
          const Tap t = tapOfInner(i);
          const int64_t low = t.low, high = t.high;
          const float w = t.weight;
          float value = 0;
          for (int c = 0; c < count; ++c) {
            const float* s = x + offsets[static_cast<size_t>(c)];
            value += weights[static_cast<size_t>(c)] * (s[low] * (1.0f - w) + s[high] * w);
          }
          out[i] = value;
        }
      } else {
        const float* s0 = x + offsets[0];
        const float w0 = weights[0];
#pragma omp simd
        for (int64_t i = 0; i < inner; ++i) out[i] = w0 * s0[i];
        for (int c = 1; c < count; ++c) {
          const float* s = x + offsets[static_cast<size_t>(c)];
          const float w = weights[static_cast<size_t>(c)];
#pragma omp simd
          for (int64_t i = 0; i < inner; ++i) out[i] += w * s[i];
        }
      }
    }
  }

  template <class E>
  void runNearest(const E* x, E* y) const {
    const int64_t inner = outDims_[3], rowCount = rows();
    const bool innerResampled = resampled_[3];
#pragma omp parallel for schedule(static) if (rowCount > 1 && rowCount * inner > kParallelElements)
    for (int64_t row = 0; row < rowCount; ++row) {
      std::array<int64_t, 4> offsets{};
      std::array<float, 4> weights{};
      corners(row, offsets, weights);
      const E* s = x + offsets[0];
      E* out = y + row * inner;
      if (innerResampled) {
        for (int64_t i = 0; i < inner; ++i) out[i] = s[tapOfInner(i).low];
      } else {
        std::memcpy(out, s, static_cast<size_t>(inner) * sizeof(E));
      }
    }
  }

  graph::OperandId input_, output_;
  size_t elementBytes_;
  bool linear_ = false;
  std::array<int64_t, 4> inStrides_{}, inDims_{}, outDims_{};
  std::array<double, 4> scales_{};
  std::array<bool, 4> resampled_{};
  std::vector<Tap> innerTaps_;  // empty when the inner axis is not resampled or too long
};

}  // namespace

std::unique_ptr<CpuOp> createResampleOp(const OpCompileContext& context) {
  const auto& input = context.descriptor(context.operation.inputs[0]);
  const auto& output = context.descriptor(context.operation.outputs[0]);
  if (input.shape.size() != 4 || input.elementCount() == 0 || output.elementCount() == 0) {
    return nullptr;
  }
  const auto& attributes = context.operation.attributesAs<graph::Resample2dAttributes>();
  if (attributes.axes[0] == attributes.axes[1] || attributes.axes[0] > 3 ||
      attributes.axes[1] > 3) {
    return nullptr;
  }
  if (attributes.mode == MLInterpolationMode::Linear) {
    if (input.dataType != MLOperandDataType::Float32) return nullptr;
    return std::make_unique<ResampleOp>(context, 4);
  }
  const uint32_t bits = bitsPerElement(input.dataType);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return nullptr;
  return std::make_unique<ResampleOp>(context, bits / 8);
}

}  // namespace webnn::cpu
