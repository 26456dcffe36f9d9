// Activation kernels. Floats compute in double and round once to the output type; the integer
// paths (relu, prelu, clamp) are exact.
#include <cmath>
#include <limits>

#include "backends/reference/kernel.h"
#include "graph/ops/activations.h"

namespace webnn::reference {
namespace {

// Applies f (double -> double) to every element of a float32/float16 tensor.
template <class F>
void mapFloats(const KernelContext& context, F f) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const uint64_t count = out.elementCount();
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (kIsFloat<T>) {
      const T* pi = in.as<T>();
      T* po = out.as<T>();
      for (uint64_t i = 0; i < count; ++i) po[i] = fromDouble<T>(f(toDouble(pi[i])));
    } else {
      throwOperationError(context.operation().type + ": only float32 and float16 are supported");
    }
  });
}

// Two's complement multiplication (wraps like the integer mul op).
template <class T>
T wrapMul(T x, T y) {
  using U = std::make_unsigned_t<T>;
  using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  return static_cast<T>(static_cast<Wide>(static_cast<U>(x)) *
                        static_cast<Wide>(static_cast<U>(y)));
}

void relu(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const uint64_t count = out.elementCount();
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      throwOperationError("relu: int4/uint4 are not supported");
    } else {
      const T* pi = in.as<T>();
      T* po = out.as<T>();
      for (uint64_t i = 0; i < count; ++i) {
        if constexpr (kIsFloat<T>) {
          const double x = toDouble(pi[i]);
          // max(0, x) as the spec's emulation computes it with max(): NaN gives 0.
          po[i] = fromDouble<T>(x > 0 ? x : 0.0);
        } else {
          po[i] = pi[i] > T{0} ? pi[i] : T{0};
        }
      }
    }
  });
}

// prelu: max(0, x) + slope * min(0, x), with input and slope broadcast to the output.
void prelu(const KernelContext& context) {
  const Tensor input = context.input(0);
  const Tensor slope = context.input(1);
  const Tensor out = context.output(0);
  BroadcastIterator iterator(out.shape(), {input.shape(), slope.shape()});
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      throwOperationError("prelu: int4/uint4 are not supported");
    } else {
      const T* px = input.as<T>();
      const T* ps = slope.as<T>();
      T* po = out.as<T>();
      iterator.forEach([&](uint64_t index, const std::vector<uint64_t>& offsets) {
        if constexpr (kIsFloat<T>) {
          const double x = toDouble(px[offsets[0]]);
          po[index] = fromDouble<T>(x < 0 ? toDouble(ps[offsets[1]]) * x : x);
        } else {
          const T x = px[offsets[0]];
          po[index] = x < T{0} ? wrapMul(ps[offsets[1]], x) : x;
        }
      });
    }
  });
}

// clamp with the bounds already cast to the input's type; NaN passes through.
void clamp(const KernelContext& context) {
  const auto& options = context.attributes<MLClampOptions>();
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const uint64_t count = out.elementCount();
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      const auto low = static_cast<int64_t>(options.minValue);
      const auto high = static_cast<int64_t>(options.maxValue);
      for (uint64_t i = 0; i < count; ++i) {
        const int64_t x = loadInteger(in.dataType(), in.data, i);
        storeInteger(out.dataType(), out.data, i, x < low ? low : (x > high ? high : x));
      }
    } else if constexpr (kIsFloat<T>) {
      const T* pi = in.as<T>();
      T* po = out.as<T>();
      for (uint64_t i = 0; i < count; ++i) {
        const double x = toDouble(pi[i]);
        po[i] = fromDouble<T>(x < options.minValue ? options.minValue
                                                   : (x > options.maxValue ? options.maxValue : x));
      }
    } else {
      // Integer bounds: exact (fromDouble saturates the bounds that lie outside T).
      const T low = fromDouble<T>(options.minValue);
      const T high = fromDouble<T>(options.maxValue);
      const T* pi = in.as<T>();
      T* po = out.as<T>();
      for (uint64_t i = 0; i < count; ++i)
        po[i] = pi[i] < low ? low : (pi[i] > high ? high : pi[i]);
    }
  });
}

// softmax along one axis: exp(x - max) / sum(exp(x - max)), in double.
void softmax(const KernelContext& context) {
  const uint32_t axis = context.attributes<graph::SoftmaxAttributes>().axis;
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const auto& shape = in.shape();
  uint64_t outer = 1;
  uint64_t inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const uint64_t length = shape[axis];
  std::vector<double> values(length);
  for (uint64_t o = 0; o < outer; ++o) {
    for (uint64_t i = 0; i < inner; ++i) {
      const uint64_t base = o * length * inner + i;
      double maximum = -std::numeric_limits<double>::infinity();
      for (uint64_t k = 0; k < length; ++k) {
        values[k] = in.load(base + k * inner);
        maximum = std::fmax(maximum, values[k]);
      }
      double sum = 0;
      for (uint64_t k = 0; k < length; ++k) {
        values[k] = std::exp(values[k] - maximum);
        sum += values[k];
      }
      for (uint64_t k = 0; k < length; ++k) out.store(base + k * inner, values[k] / sum);
    }
  }
}

WEBNN_REFERENCE_KERNELS {
  registerKernel("relu", relu);
  registerKernel("prelu", prelu);
  registerKernel("clamp", clamp);
  registerKernel("softmax", softmax);
  registerKernel("elu", [](const KernelContext& c) {
    const double alpha = c.attributes<MLEluOptions>().alpha;
    mapFloats(c, [alpha](double x) { return x > 0 ? x : alpha * std::expm1(x); });
  });
  registerKernel("gelu", [](const KernelContext& c) {
    mapFloats(c, [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); });
  });
  registerKernel("hardSigmoid", [](const KernelContext& c) {
    const auto& options = c.attributes<MLHardSigmoidOptions>();
    mapFloats(c, [&options](double x) {
      const double y = options.alpha * x + options.beta;
      return y < 0 ? 0.0 : (y > 1 ? 1.0 : y);
    });
  });
  registerKernel("hardSwish", [](const KernelContext& c) {
    mapFloats(c, [](double x) {
      const double y = x + 3;
      return x * (y < 0 ? 0.0 : (y > 6 ? 6.0 : y)) / 6;
    });
  });
  registerKernel("leakyRelu", [](const KernelContext& c) {
    const double alpha = c.attributes<MLLeakyReluOptions>().alpha;
    mapFloats(c, [alpha](double x) { return x < 0 ? alpha * x : x; });
  });
  registerKernel("linear", [](const KernelContext& c) {
    const auto& options = c.attributes<MLLinearOptions>();
    mapFloats(c, [&options](double x) { return options.alpha * x + options.beta; });
  });
  registerKernel("sigmoid", [](const KernelContext& c) {
    mapFloats(c, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
  });
  registerKernel("softplus", [](const KernelContext& c) {
    // log(1 + exp(x)), in a form that does not overflow for large x.
    mapFloats(
        c, [](double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); });
  });
  registerKernel("softsign", [](const KernelContext& c) {
    mapFloats(c, [](double x) { return x / (1.0 + std::fabs(x)); });
  });
  registerKernel(
      "tanh", [](const KernelContext& c) { mapFloats(c, [](double x) { return std::tanh(x); }); });
}

}  // namespace
}  // namespace webnn::reference
