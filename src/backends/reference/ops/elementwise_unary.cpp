// Element-wise unary kernels. Floats compute in double and round once to the output type;
// integers are exact (abs/neg wrap like two's complement: abs(-128) is -128 for int8).
#include <cmath>
#include <cstring>

#include "backends/reference/ops/registration.h"

namespace webnn::reference {
namespace {

// Applies `floatOp` (double -> double) to float elements and `integerOp` (T -> T) to integer
// elements. Int4/Uint4 are outside every op's limits here.
template <class FloatOp, class IntegerOp>
void mapElements(const KernelContext& context, FloatOp floatOp, IntegerOp integerOp) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const uint64_t count = out.elementCount();
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      throwOperationError(context.opName() + ": int4/uint4 are not supported");
    } else {
      const T* pi = in.as<T>();
      T* po = out.as<T>();
      for (uint64_t i = 0; i < count; ++i) {
        if constexpr (kIsFloat<T>) {
          po[i] = fromDouble<T>(floatOp(toDouble(pi[i])));
        } else {
          po[i] = integerOp(pi[i]);
        }
      }
    }
  });
}

// For ops whose limits are float32/float16 only.
template <class FloatOp>
void mapFloats(const KernelContext& context, FloatOp floatOp) {
  mapElements(context, floatOp, []<class T>(T) -> T {
    throwOperationError("this op supports float32 and float16 only");
  });
}

template <class T>
T wrapNegate(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U{0} - static_cast<U>(x));
}

// Round half to even, independent of the floating-point environment.
double roundHalfToEven(double x) {
  const double rounded = std::round(x);  // halves away from zero
  if (std::fabs(rounded - x) == 0.5) return 2.0 * std::round(x / 2.0);
  return rounded;
}

// isNaN / isInfinite: float input, uint8 output.
template <class Predicate>
void predicateKernel(const KernelContext& context, Predicate predicate) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const uint64_t count = out.elementCount();
  auto* po = out.as<uint8_t>();
  for (uint64_t i = 0; i < count; ++i) po[i] = predicate(in.load(i)) ? 1 : 0;
}

}  // namespace

void registerElementwiseUnaryKernels(KernelTable& table) {
  table.set(graph::OpType::Abs, [](const KernelContext& c) {
    mapElements(
        c, [](double x) { return std::fabs(x); },
        []<class T>(T x) -> T {
          if constexpr (std::is_signed_v<T>) return x < 0 ? wrapNegate(x) : x;
          return x;
        });
  });
  table.set(graph::OpType::Neg, [](const KernelContext& c) {
    mapElements(
        c, [](double x) { return -x; }, []<class T>(T x) -> T { return wrapNegate(x); });
  });
  table.set(graph::OpType::Sign, [](const KernelContext& c) {
    // The spec: 1 if > 0, -1 if < 0, and 0 otherwise (so NaN gives 0, as its emulation does).
    mapElements(
        c, [](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); },
        []<class T>(T x) -> T {
          if constexpr (std::is_signed_v<T>) {
            if (x < 0) return static_cast<T>(-1);
          }
          return static_cast<T>(x > 0 ? 1 : 0);
        });
  });
  table.set(graph::OpType::Identity, [](const KernelContext& c) {
    const Tensor in = c.input(0);
    const Tensor out = c.output(0);
    std::memcpy(out.data, in.data, out.byteLength());
  });
  table.set(graph::OpType::Ceil,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::ceil(x); }); });
  table.set(graph::OpType::Floor,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::floor(x); }); });
  table.set(graph::OpType::RoundEven,
            [](const KernelContext& c) { mapFloats(c, roundHalfToEven); });
  table.set(graph::OpType::Cos,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::cos(x); }); });
  table.set(graph::OpType::Sin,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::sin(x); }); });
  table.set(graph::OpType::Tan,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::tan(x); }); });
  table.set(graph::OpType::Erf,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::erf(x); }); });
  table.set(graph::OpType::Exp,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::exp(x); }); });
  table.set(graph::OpType::Log,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::log(x); }); });
  table.set(graph::OpType::Sqrt,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return std::sqrt(x); }); });
  table.set(graph::OpType::Reciprocal,
            [](const KernelContext& c) { mapFloats(c, [](double x) { return 1.0 / x; }); });
  table.set(graph::OpType::IsNaN, [](const KernelContext& c) {
    predicateKernel(c, [](double x) { return std::isnan(x); });
  });
  table.set(graph::OpType::IsInfinite, [](const KernelContext& c) {
    predicateKernel(c, [](double x) { return std::isinf(x); });
  });
}

}  // namespace webnn::reference
