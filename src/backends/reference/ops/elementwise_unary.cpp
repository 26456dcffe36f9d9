#include <cmath>

#include "backends/reference/kernel.h"

namespace webnn::reference {
namespace {

// Applies f to every element; floats go through double and round once.
template <class F>
void unaryKernel(const KernelContext& context, F f) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const uint64_t count = out.elementCount();
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      throwOperationError(context.operation().type + ": int4/uint4 are not supported");
    } else {
      const T* pi = in.as<T>();
      T* po = out.as<T>();
      for (uint64_t i = 0; i < count; ++i) {
        if constexpr (kIsFloat<T>) {
          po[i] = fromDouble<T>(f(toDouble(pi[i])));
        } else {
          po[i] = static_cast<T>(f(pi[i]));
        }
      }
    }
  });
}

WEBNN_REFERENCE_KERNELS {
  registerKernel("relu", [](const KernelContext& c) {
    unaryKernel(c, []<class V>(V x) -> V { return x > V(0) ? x : V(0); });
  });
}

}  // namespace
}  // namespace webnn::reference
