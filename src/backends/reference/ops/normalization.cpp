// Normalization reference kernels, in double: (x - mean) / sqrt(variance + epsilon) * scale + bias
// with the population variance.
#include <cmath>
#include <vector>

#include "backends/reference/ops/registration.h"
#include "graph/ops/conv2d.h"

namespace webnn::reference {
namespace {

std::optional<Tensor> optionalOperand(const KernelContext& context,
                                      const std::optional<graph::OperandId>& id) {
  if (!id) return std::nullopt;
  return context.operand(*id);
}

void batchNormalization(const KernelContext& context) {
  const auto& options = context.attributes<graph::BatchNormalizationAttributes>();
  const Tensor input = context.input(0);
  const Tensor mean = context.input(1);
  const Tensor variance = context.input(2);
  const Tensor output = context.output(0);
  const auto scale = optionalOperand(context, options.scale);
  const auto bias = optionalOperand(context, options.bias);
  const uint64_t channels = input.shape()[options.axis];
  const uint64_t inner = stridesOf(input.shape())[options.axis];
  const uint64_t count = input.elementCount();
  for (uint64_t index = 0; index < count; ++index) {
    const uint64_t c = (index / inner) % channels;
    double value =
        (input.load(index) - mean.load(c)) / std::sqrt(variance.load(c) + options.epsilon);
    if (scale) value *= scale->load(c);
    if (bias) value += bias->load(c);
    output.store(index, value);
  }
}

void instanceNormalization(const KernelContext& context) {
  const auto& options = context.attributes<graph::InstanceNormalizationAttributes>();
  const Tensor input = context.input(0);
  const Tensor output = context.output(0);
  const auto scale = optionalOperand(context, options.scale);
  const auto bias = optionalOperand(context, options.bias);
  const auto& s = input.shape();
  const graph::SpatialShape in = graph::spatialShapeOf(s, options.layout);
  const bool nchw = options.layout == MLInputOperandLayout::Nchw;
  auto offset = [&](uint64_t n, uint64_t c, uint64_t h, uint64_t w) {
    return nchw ? ((n * s[1] + c) * s[2] + h) * s[3] + w : ((n * s[1] + h) * s[2] + w) * s[3] + c;
  };
  const double size = static_cast<double>(in.height) * in.width;
  for (uint64_t n = 0; n < in.batches; ++n) {
    for (uint64_t c = 0; c < in.channels; ++c) {
      double sum = 0.0;
      for (uint64_t h = 0; h < in.height; ++h) {
        for (uint64_t w = 0; w < in.width; ++w) sum += input.load(offset(n, c, h, w));
      }
      const double mean = sum / size;
      double squares = 0.0;
      for (uint64_t h = 0; h < in.height; ++h) {
        for (uint64_t w = 0; w < in.width; ++w) {
          const double d = input.load(offset(n, c, h, w)) - mean;
          squares += d * d;
        }
      }
      const double deviation = std::sqrt(squares / size + options.epsilon);
      const double scaleValue = scale ? scale->load(c) : 1.0;
      const double biasValue = bias ? bias->load(c) : 0.0;
      for (uint64_t h = 0; h < in.height; ++h) {
        for (uint64_t w = 0; w < in.width; ++w) {
          const uint64_t i = offset(n, c, h, w);
          output.store(i, (input.load(i) - mean) / deviation * scaleValue + biasValue);
        }
      }
    }
  }
}

void layerNormalization(const KernelContext& context) {
  const auto& options = context.attributes<graph::LayerNormalizationAttributes>();
  const Tensor input = context.input(0);
  const Tensor output = context.output(0);
  const auto scale = optionalOperand(context, options.scale);
  const auto bias = optionalOperand(context, options.bias);
  const auto& shape = input.shape();
  const auto& axes = options.axes;
  const auto strides = stridesOf(shape);

  // The reduced elements: offsets relative to a group's base, and their scale/bias index.
  std::vector<uint32_t> parameterShape;
  for (uint32_t axis : axes) parameterShape.push_back(shape[axis]);
  const auto parameterStrides = stridesOf(parameterShape);
  std::vector<uint64_t> reducedOffsets{0}, parameterIndices{0};
  for (size_t i = 0; i < axes.size(); ++i) {
    std::vector<uint64_t> offsets, indices;
    for (size_t j = 0; j < reducedOffsets.size(); ++j) {
      for (uint64_t k = 0; k < shape[axes[i]]; ++k) {
        offsets.push_back(reducedOffsets[j] + k * strides[axes[i]]);
        indices.push_back(parameterIndices[j] + k * parameterStrides[i]);
      }
    }
    reducedOffsets = std::move(offsets);
    parameterIndices = std::move(indices);
  }
  // The kept dimensions enumerate the groups.
  std::vector<uint32_t> keptDims;
  for (uint32_t axis = 0; axis < shape.size(); ++axis) {
    bool reduced = false;
    for (uint32_t a : axes) reduced = reduced || a == axis;
    if (!reduced) keptDims.push_back(axis);
  }
  uint64_t groups = 1;
  for (uint32_t axis : keptDims) groups *= shape[axis];
  const double size = static_cast<double>(reducedOffsets.size());
  for (uint64_t group = 0; group < groups; ++group) {
    uint64_t rest = group, base = 0;
    for (size_t i = keptDims.size(); i-- > 0;) {
      base += (rest % shape[keptDims[i]]) * strides[keptDims[i]];
      rest /= shape[keptDims[i]];
    }
    double sum = 0.0;
    for (uint64_t offset : reducedOffsets) sum += input.load(base + offset);
    const double mean = sum / size;
    double squares = 0.0;
    for (uint64_t offset : reducedOffsets) {
      const double d = input.load(base + offset) - mean;
      squares += d * d;
    }
    const double deviation = std::sqrt(squares / size + options.epsilon);
    for (size_t j = 0; j < reducedOffsets.size(); ++j) {
      double value = (input.load(base + reducedOffsets[j]) - mean) / deviation;
      if (scale) value *= scale->load(parameterIndices[j]);
      if (bias) value += bias->load(parameterIndices[j]);
      output.store(base + reducedOffsets[j], value);
    }
  }
}

}  // namespace

void registerNormalizationKernels(KernelTable& table) {
  table.set(graph::OpType::BatchNormalization, batchNormalization);
  table.set(graph::OpType::InstanceNormalization, instanceNormalization);
  table.set(graph::OpType::LayerNormalization, layerNormalization);
}

}  // namespace webnn::reference
