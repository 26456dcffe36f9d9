// Activation kernels. Floats compute in double and round once to the output type; the integer
// paths (relu, prelu, clamp) are exact.
#include <cmath>
#include <limits>
#include <type_traits>

#include "backends/reference/ops/registration.h"
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
      throwOperationError(context.opName() + ": only float32 and float16 are supported");
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

// A clamp bound as a value of the integer type T: exact for int64/uint64, saturated to T's range
// (the bounds validation cast already lie inside it).
template <class T>
T integerBound(const MLNumber& bound) {
  if constexpr (std::is_same_v<T, uint64_t>) {
    return bound.toUint64();
  } else if constexpr (std::is_signed_v<T>) {
    const int64_t value = bound.toInt64();
    if (value < static_cast<int64_t>(std::numeric_limits<T>::lowest())) {
      return std::numeric_limits<T>::lowest();
    }
    if (value > static_cast<int64_t>(std::numeric_limits<T>::max())) {
      return std::numeric_limits<T>::max();
    }
    return static_cast<T>(value);
  } else {
    const uint64_t value = bound.toUint64();
    if (value > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
      return std::numeric_limits<T>::max();
    }
    return static_cast<T>(value);
  }
}

// clamp with the bounds already cast to the input's type; NaN passes through. Integer types
// clamp exactly (int64/uint64 bounds beyond 2^53 included).
void clamp(const KernelContext& context) {
  const auto& attributes = context.attributes<graph::ClampAttributes>();
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const uint64_t count = out.elementCount();
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      const int64_t low = attributes.minValue.toInt64();
      const int64_t high = attributes.maxValue.toInt64();
      for (uint64_t i = 0; i < count; ++i) {
        const int64_t x = loadInteger(in.dataType(), in.data, i);
        storeInteger(out.dataType(), out.data, i, x < low ? low : (x > high ? high : x));
      }
    } else if constexpr (kIsFloat<T>) {
      const double low = attributes.minValue.toDouble();
      const double high = attributes.maxValue.toDouble();
      const T* pi = in.as<T>();
      T* po = out.as<T>();
      for (uint64_t i = 0; i < count; ++i) {
        const double x = toDouble(pi[i]);
        po[i] = fromDouble<T>(x < low ? low : (x > high ? high : x));
      }
    } else {
      const T low = integerBound<T>(attributes.minValue);
      const T high = integerBound<T>(attributes.maxValue);
      const T* pi = in.as<T>();
      T* po = out.as<T>();
      for (uint64_t i = 0; i < count; ++i) {
        po[i] = pi[i] < low ? low : (pi[i] > high ? high : pi[i]);
      }
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

}  // namespace

void registerActivationKernels(KernelTable& table) {
  table.set(graph::OpType::Relu, relu);
  table.set(graph::OpType::Prelu, prelu);
  table.set(graph::OpType::Clamp, clamp);
  table.set(graph::OpType::Softmax, softmax);
  table.set(graph::OpType::Elu, [](const KernelContext& c) {
    const double alpha = c.attributes<graph::EluAttributes>().alpha;
    mapFloats(c, [alpha](double x) { return x > 0 ? x : alpha * std::expm1(x); });
  });
  table.set(graph::OpType::Gelu, [](const KernelContext& c) {
    mapFloats(c, [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); });
  });
  table.set(graph::OpType::HardSigmoid, [](const KernelContext& c) {
    const auto& options = c.attributes<graph::HardSigmoidAttributes>();
    mapFloats(c, [&options](double x) {
      const double y = options.alpha * x + options.beta;
      return y < 0 ? 0.0 : (y > 1 ? 1.0 : y);
    });
  });
  table.set(graph::OpType::HardSwish, [](const KernelContext& c) {
    mapFloats(c, [](double x) {
      const double y = x + 3;
      return x * (y < 0 ? 0.0 : (y > 6 ? 6.0 : y)) / 6;
    });
  });
  table.set(graph::OpType::LeakyRelu, [](const KernelContext& c) {
    const double alpha = c.attributes<graph::LeakyReluAttributes>().alpha;
    mapFloats(c, [alpha](double x) { return x < 0 ? alpha * x : x; });
  });
  table.set(graph::OpType::Linear, [](const KernelContext& c) {
    const auto& options = c.attributes<graph::LinearAttributes>();
    mapFloats(c, [&options](double x) { return options.alpha * x + options.beta; });
  });
  table.set(graph::OpType::Sigmoid, [](const KernelContext& c) {
    mapFloats(c, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
  });
  table.set(graph::OpType::Softplus, [](const KernelContext& c) {
    // log(1 + exp(x)), in a form that does not overflow for large x.
    mapFloats(
        c, [](double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); });
  });
  table.set(graph::OpType::Softsign, [](const KernelContext& c) {
    mapFloats(c, [](double x) { return x / (1.0 + std::fabs(x)); });
  });
  table.set(graph::OpType::Tanh,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::tanh(x); }); });
}

}  // namespace webnn::reference
