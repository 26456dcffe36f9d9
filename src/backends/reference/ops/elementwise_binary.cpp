#include <cmath>
#include <limits>

#include "backends/reference/ops/registration.h"

namespace webnn::reference {
namespace {

template <class Op>
void binaryKernel(const KernelContext& context, Op op) {
  const Tensor a = context.input(0);
  const Tensor b = context.input(1);
  const Tensor out = context.output(0);
  BroadcastIterator iterator(out.shape(), {a.shape(), b.shape()});
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      throwOperationError(context.opName() + ": int4/uint4 are not supported");
    } else {
      const T* pa = a.as<T>();
      const T* pb = b.as<T>();
      T* po = out.as<T>();
      iterator.forEach([&](uint64_t index, const std::vector<uint64_t>& offsets) {
        if constexpr (kIsFloat<T>) {
          po[index] = fromDouble<T>(op(toDouble(pa[offsets[0]]), toDouble(pb[offsets[1]])));
        } else {
          po[index] = op(pa[offsets[0]], pb[offsets[1]]);
        }
      });
    }
  });
}

// Integer arithmetic wraps (computed in the unsigned type); division by zero gives 0.
template <class T>
T wrapAdd(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
}
template <class T>
T wrapSub(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
}
template <class T>
T wrapMul(T x, T y) {
  using U = std::make_unsigned_t<T>;
  using Wide = std::conditional_t<sizeof(U) < sizeof(unsigned), unsigned, U>;
  return static_cast<T>(static_cast<Wide>(static_cast<U>(x)) *
                        static_cast<Wide>(static_cast<U>(y)));
}

// Exact integer power: wraps like repeated multiplication. A negative exponent gives 1 / base^n
// truncated toward zero (0 unless base is 1 or -1; 0 to a negative power gives 0, as x / 0 does).
template <class T>
T integerPow(T base, T exponent) {
  if constexpr (std::is_signed_v<T>) {
    if (exponent < 0) {
      if (base == 1) return 1;
      if (base == -1) return exponent % 2 == 0 ? 1 : -1;
      return 0;
    }
  }
  T result = 1;
  while (exponent != 0) {
    if (exponent & 1) result = wrapMul(result, base);
    base = wrapMul(base, base);
    exponent = static_cast<T>(exponent >> 1);
  }
  return result;
}

}  // namespace

void registerElementwiseBinaryKernels(KernelTable& table) {
  table.set(graph::OpType::Add, [](const KernelContext& c) {
    binaryKernel(c, []<class V>(V x, V y) -> V {
      if constexpr (std::is_floating_point_v<V>)
        return x + y;
      else
        return wrapAdd(x, y);
    });
  });
  table.set(graph::OpType::Sub, [](const KernelContext& c) {
    binaryKernel(c, []<class V>(V x, V y) -> V {
      if constexpr (std::is_floating_point_v<V>)
        return x - y;
      else
        return wrapSub(x, y);
    });
  });
  table.set(graph::OpType::Mul, [](const KernelContext& c) {
    binaryKernel(c, []<class V>(V x, V y) -> V {
      if constexpr (std::is_floating_point_v<V>)
        return x * y;
      else
        return wrapMul(x, y);
    });
  });
  table.set(graph::OpType::Div, [](const KernelContext& c) {
    binaryKernel(c, []<class V>(V x, V y) -> V {
      if constexpr (std::is_floating_point_v<V>) {
        return x / y;
      } else {
        if (y == 0) return 0;
        if constexpr (std::is_signed_v<V>) {
          if (x == std::numeric_limits<V>::lowest() && y == -1) return x;
        }
        return static_cast<V>(x / y);
      }
    });
  });
  table.set(graph::OpType::Max, [](const KernelContext& c) {
    binaryKernel(c, []<class V>(V x, V y) -> V {
      if constexpr (std::is_floating_point_v<V>) {
        if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<V>::quiet_NaN();
      }
      return x < y ? y : x;
    });
  });
  table.set(graph::OpType::Min, [](const KernelContext& c) {
    binaryKernel(c, []<class V>(V x, V y) -> V {
      if constexpr (std::is_floating_point_v<V>) {  // NaN wins on either side
        if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<V>::quiet_NaN();
      }
      return y < x ? y : x;
    });
  });
  table.set(graph::OpType::Pow, [](const KernelContext& c) {
    binaryKernel(c, []<class V>(V x, V y) -> V {
      if constexpr (std::is_floating_point_v<V>) {
        return std::pow(x, y);
      } else {
        return integerPow(x, y);
      }
    });
  });
}

}  // namespace webnn::reference
