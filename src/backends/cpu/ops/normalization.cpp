// batchNormalization, layerNormalization and instanceNormalization on the cpu backend, float32,
// kernels of our own: per channel or per row, statistics in double, the normalization
// (x - mean) * (scale / sqrt(variance + epsilon)) + bias in float, vectorized for the CPU that runs
// them (kernels/normalization_rows.h), OpenMP over rows.
// layerNormalization over the trailing axes in order runs on contiguous rows; over any other axes
// (in any order, or none) each row walks its elements with an odometer. Other types stay on the
// reference.
#include <array>
#include <cmath>
#include <vector>

#include "graph/op_limits.h"

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/kernels/normalization_rows.h"

namespace webnn::cpu {
namespace {

constexpr int64_t kParallelElements = int64_t{1} << 14;

const float* optionalData(const DispatchTensors& tensors,
                          const std::optional<graph::OperandId>& id) {
  return id ? tensors[*id].as<float>() : nullptr;
}

class BatchNormalizationOp final : public CpuOp {
 public:
  explicit BatchNormalizationOp(const OpCompileContext& context)
      : attributes_(context.operation.attributesAs<graph::BatchNormalizationAttributes>()),
        input_(context.operation.inputs[0]),
        mean_(context.operation.inputs[1]),
        variance_(context.operation.inputs[2]),
        output_(context.operation.outputs[0]) {
    const auto& shape = context.descriptor(input_).shape;
    for (uint32_t i = 0; i < attributes_.axis; ++i) outer_ *= shape[i];
    channels_ = shape[attributes_.axis];
    for (size_t i = attributes_.axis + 1; i < shape.size(); ++i) inner_ *= shape[i];
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* x = tensors[input_].as<float>();
    float* y = tensors[output_].as<float>();
    const float* mean = tensors[mean_].as<float>();
    const float* variance = tensors[variance_].as<float>();
    const float* scale = optionalData(tensors, attributes_.scale);
    const float* bias = optionalData(tensors, attributes_.bias);
    std::vector<float> multiplier(static_cast<size_t>(channels_));
    for (int64_t c = 0; c < channels_; ++c) {
      const double inverse = 1.0 / std::sqrt(double{variance[c]} + attributes_.epsilon);
      multiplier[static_cast<size_t>(c)] = static_cast<float>(scale ? inverse * scale[c] : inverse);
    }
    const int64_t rows = outer_ * channels_, inner = inner_, channels = channels_;
#pragma omp parallel for schedule(static) if (rows * inner > kParallelElements)
    for (int64_t row = 0; row < rows; ++row) {
      const int64_t c = row % channels;
      const float m = mean[c], k = multiplier[static_cast<size_t>(c)], b = bias ? bias[c] : 0.0f;
      affineRow(x + row * inner, y + row * inner, inner, m, k, b);
    }
  }
  std::string implementation() const override {
    return "cpu batchNormalization kernel";
  }

 private:
  graph::BatchNormalizationAttributes attributes_;
  graph::OperandId input_, mean_, variance_, output_;
  int64_t outer_ = 1, channels_ = 1, inner_ = 1;
};

// layerNormalization over the trailing `count` elements of each row.
class LayerNormalizationOp final : public CpuOp {
 public:
  LayerNormalizationOp(const OpCompileContext& context, int64_t rowLength)
      : attributes_(context.operation.attributesAs<graph::LayerNormalizationAttributes>()),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        rowLength_(rowLength) {
    rows_ = static_cast<int64_t>(context.descriptor(input_).elementCount()) / rowLength_;
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* x = tensors[input_].as<float>();
    float* y = tensors[output_].as<float>();
    const float* scale = optionalData(tensors, attributes_.scale);
    const float* bias = optionalData(tensors, attributes_.bias);
    const int64_t rows = rows_, length = rowLength_;
    const double epsilon = attributes_.epsilon;
#pragma omp parallel for schedule(static) if (rows > 1 && rows * length > kParallelElements)
    for (int64_t row = 0; row < rows; ++row) {
      layerNormalizeRow(x + row * length, y + row * length, length, epsilon, scale, bias);
    }
  }
  std::string implementation() const override {
    return "cpu layerNormalization kernel";
  }

 private:
  graph::LayerNormalizationAttributes attributes_;
  graph::OperandId input_, output_;
  int64_t rowLength_ = 1, rows_ = 0;
};

// layerNormalization over axes that are not the trailing ones in order: each row (a row-major index
// over the other dimensions) walks its elements in the order of the axes, which is the order of
// the scale and bias elements.
class StridedLayerNormalizationOp final : public CpuOp {
 public:
  struct Dimension {
    int64_t size = 1, stride = 1;
  };
  StridedLayerNormalizationOp(const OpCompileContext& context, std::vector<Dimension> rows,
                              std::vector<Dimension> normalized)
      : attributes_(context.operation.attributesAs<graph::LayerNormalizationAttributes>()),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        rows_(std::move(rows)),
        normalized_(std::move(normalized)) {
    for (const Dimension& d : rows_) rowCount_ *= d.size;
    for (const Dimension& d : normalized_) length_ *= d.size;
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* x = tensors[input_].as<float>();
    float* y = tensors[output_].as<float>();
    const float* scale = optionalData(tensors, attributes_.scale);
    const float* bias = optionalData(tensors, attributes_.bias);
    const int64_t rows = rowCount_, length = length_;
    const double epsilon = attributes_.epsilon;
#pragma omp parallel for schedule(static) if (rows > 1 && rows * length > kParallelElements)
    for (int64_t row = 0; row < rows; ++row) {
      int64_t offset = 0, rest = row;
      for (size_t d = rows_.size(); d-- > 0;) {
        offset += (rest % rows_[d].size) * rows_[d].stride;
        rest /= rows_[d].size;
      }
      double sum = 0;
      visit(offset, [&](int64_t, int64_t at) { sum += x[at]; });
      const double mean = sum / static_cast<double>(length);
      double squares = 0;
      visit(offset, [&](int64_t, int64_t at) {
        const double d = x[at] - mean;
        squares += d * d;
      });
      const float m = static_cast<float>(mean);
      const float inverse =
          static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(length) + epsilon));
      visit(offset, [&](int64_t i, int64_t at) {
        float value = (x[at] - m) * inverse;
        if (scale) value *= scale[i];
        if (bias) value += bias[i];
        y[at] = value;
      });
    }
  }
  std::string implementation() const override {
    return "cpu layerNormalization kernel (strided axes)";
  }

 private:
  // Calls f(i, offset) for the i-th normalized element of the row at `base`, in the axes' order.
  template <class F>
  void visit(int64_t base, F&& f) const {
    std::array<int64_t, graph::kMaxRank> digits{};
    const size_t count = normalized_.size();
    for (int64_t i = 0, at = base; i < length_; ++i) {
      f(i, at);
      for (size_t d = count; d-- > 0;) {
        at += normalized_[d].stride;
        if (++digits[d] < normalized_[d].size) break;
        at -= normalized_[d].stride * normalized_[d].size;
        digits[d] = 0;
      }
    }
  }

  graph::LayerNormalizationAttributes attributes_;
  graph::OperandId input_, output_;
  std::vector<Dimension> rows_, normalized_;
  int64_t rowCount_ = 1, length_ = 1;
};

class InstanceNormalizationOp final : public CpuOp {
 public:
  explicit InstanceNormalizationOp(const OpCompileContext& context)
      : attributes_(context.operation.attributesAs<graph::InstanceNormalizationAttributes>()),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]) {
    const auto& s = context.descriptor(input_).shape;
    batches_ = s[0];
    const bool nchw = attributes_.layout == MLInputOperandLayout::Nchw;
    channels_ = nchw ? s[1] : s[3];
    spatial_ = nchw ? int64_t{s[2]} * s[3] : int64_t{s[1]} * s[2];
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* x = tensors[input_].as<float>();
    float* y = tensors[output_].as<float>();
    const float* scale = optionalData(tensors, attributes_.scale);
    const float* bias = optionalData(tensors, attributes_.bias);
    const int64_t channels = channels_, spatial = spatial_, batches = batches_;
    const double epsilon = attributes_.epsilon;
    if (attributes_.layout == MLInputOperandLayout::Nchw) {
      const int64_t rows = batches * channels;
#pragma omp parallel for schedule(static) if (rows > 1 && rows * spatial > kParallelElements)
      for (int64_t row = 0; row < rows; ++row) {
        const int64_t c = row % channels;
        float mean = 0, inverse = 0;
        rowStatistics(x + row * spatial, spatial, epsilon, mean, inverse);
        const float k = scale ? inverse * scale[c] : inverse, b = bias ? bias[c] : 0.0f;
        affineRow(x + row * spatial, y + row * spatial, spatial, mean, k, b);
      }
      return;
    }
    // nhwc: per batch, statistics of every channel over the spatial positions.
    for (int64_t n = 0; n < batches; ++n) {
      const float* xb = x + n * spatial * channels;
      float* yb = y + n * spatial * channels;
      std::vector<double> sum(static_cast<size_t>(channels), 0.0), squares(sum);
      for (int64_t p = 0; p < spatial; ++p) {
        for (int64_t c = 0; c < channels; ++c) sum[static_cast<size_t>(c)] += xb[p * channels + c];
      }
      std::vector<float> mean(sum.size()), multiplier(sum.size()), shift(sum.size());
      for (size_t c = 0; c < sum.size(); ++c) sum[c] /= static_cast<double>(spatial);
      for (int64_t p = 0; p < spatial; ++p) {
        for (int64_t c = 0; c < channels; ++c) {
          const double d = xb[p * channels + c] - sum[static_cast<size_t>(c)];
          squares[static_cast<size_t>(c)] += d * d;
        }
      }
      for (size_t c = 0; c < sum.size(); ++c) {
        const double inverse = 1.0 / std::sqrt(squares[c] / static_cast<double>(spatial) + epsilon);
        mean[c] = static_cast<float>(sum[c]);
        multiplier[c] = static_cast<float>(scale ? inverse * scale[c] : inverse);
        shift[c] = bias ? bias[c] : 0.0f;
      }
      const float* m = mean.data();
      const float* k = multiplier.data();
      const float* b = shift.data();
#pragma omp parallel for schedule(static) if (spatial * channels > kParallelElements)
      for (int64_t p = 0; p < spatial; ++p) {
#pragma omp simd
        for (int64_t c = 0; c < channels; ++c) {
          yb[p * channels + c] = (xb[p * channels + c] - m[c]) * k[c] + b[c];
        }
      }
    }
  }
  std::string implementation() const override {
    return "cpu instanceNormalization kernel";
  }

 private:
  graph::InstanceNormalizationAttributes attributes_;
  graph::OperandId input_, output_;
  int64_t batches_ = 1, channels_ = 1, spatial_ = 1;
};

bool allFloat32(const OpCompileContext& context) {
  for (graph::OperandId id : context.operation.inputs) {
    if (context.descriptor(id).dataType != MLOperandDataType::Float32) return false;
  }
  return context.descriptor(context.operation.outputs[0]).dataType == MLOperandDataType::Float32;
}

}  // namespace

std::unique_ptr<CpuOp> createNormalizationOp(const OpCompileContext& context) {
  if (!allFloat32(context)) return nullptr;
  const auto& input = context.descriptor(context.operation.inputs[0]);
  if (input.elementCount() == 0) return nullptr;
  switch (context.operation.type) {
    case graph::OpType::BatchNormalization:
      if (input.shape.empty()) return nullptr;
      return std::make_unique<BatchNormalizationOp>(context);
    case graph::OpType::InstanceNormalization:
      if (input.shape.size() != 4) return nullptr;
      return std::make_unique<InstanceNormalizationOp>(context);
    case graph::OpType::LayerNormalization: {
      const auto& axes = context.operation.attributesAs<graph::LayerNormalizationAttributes>().axes;
      const size_t rank = input.shape.size();
      // The trailing dimensions in order: contiguous rows (the parameters' layout matches them).
      bool trailing = !axes.empty() && axes.size() <= rank;
      int64_t length = 1;
      for (size_t i = 0; trailing && i < axes.size(); ++i) {
        trailing = axes[i] == rank - axes.size() + i;
        length *= input.shape[axes[i]];
      }
      if (trailing) return std::make_unique<LayerNormalizationOp>(context, length);
      std::vector<int64_t> strides(rank, 1);
      for (size_t d = rank; d-- > 1;) strides[d - 1] = strides[d] * input.shape[d];
      std::vector<bool> normalizedAxis(rank, false);
      std::vector<StridedLayerNormalizationOp::Dimension> rows, normalized;
      for (uint32_t axis : axes) {
        normalizedAxis[axis] = true;
        normalized.push_back({input.shape[axis], strides[axis]});
      }
      for (size_t d = 0; d < rank; ++d) {
        if (!normalizedAxis[d]) rows.push_back({input.shape[d], strides[d]});
      }
      return std::make_unique<StridedLayerNormalizationOp>(context, std::move(rows),
                                                           std::move(normalized));
    }
    default:
      return nullptr;
  }
}

}  // namespace webnn::cpu
