// Element-wise ops oneDNN's eltwise/binary primitives do not cover (or not exactly), kernels of
// our own: float32 unary math (erf, reciprocal, sign, floor, ceil, roundEven, sin, cos, tan, log,
// softplus, softsign, hardSigmoid; transcendental functions in double, rounded once, as the
// reference does), isNaN/isInfinite, logicalNot, and broadcasting binary ops: pow, max, min
// (float32), add/sub/mul/div where oneDNN's binary declines the broadcast (float32),
// comparisons (float32 and the integer types) and logical and/or/xor (uint8). OpenMP over rows
// of the merged broadcast dimensions.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "backends/cpu/cpu_op.h"
#include "core/element.h"
#include "core/float16_convert.h"

namespace webnn::cpu {
namespace {

using graph::OpType;
using Dims = std::vector<int64_t>;

constexpr int64_t kParallelElements = int64_t{1} << 14;

// ---- unary ----

template <class In, class Out, class F>
void mapElements(const In* x, Out* y, int64_t count, F f) {
#pragma omp parallel for simd schedule(static) if (count > kParallelElements)
  for (int64_t i = 0; i < count; ++i) y[i] = f(x[i]);
}

double roundHalfEven(double x) {
  const double rounded = std::round(x);
  if (std::fabs(rounded - x) == 0.5) return 2.0 * std::round(x / 2.0);
  return rounded;
}

class UnaryOp final : public CpuOp {
 public:
  UnaryOp(const OpCompileContext& context)
      : type_(context.operation.type),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        count_(static_cast<int64_t>(context.descriptor(output_).elementCount())) {
    if (type_ == OpType::HardSigmoid) {
      const auto& a = context.operation.attributesAs<graph::HardSigmoidAttributes>();
      alpha_ = a.alpha;
      beta_ = a.beta;
    }
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const std::byte* in = tensors[input_].data;
    std::byte* out = tensors[output_].data;
    const float* x = reinterpret_cast<const float*>(in);
    float* y = reinterpret_cast<float*>(out);
    uint8_t* predicate = reinterpret_cast<uint8_t*>(out);
    const int64_t n = count_;
    auto cast = [](double v) { return static_cast<float>(v); };
    switch (type_) {
      case OpType::Erf:
        return mapElements(x, y, n, [&](float v) { return cast(std::erf(double{v})); });
      case OpType::Reciprocal:
        return mapElements(x, y, n, [&](float v) { return cast(1.0 / double{v}); });
      case OpType::Sign:
        return mapElements(x, y, n, [](float v) { return v > 0 ? 1.0f : (v < 0 ? -1.0f : 0.0f); });
      case OpType::Floor:
        return mapElements(x, y, n, [](float v) { return std::floor(v); });
      case OpType::Ceil:
        return mapElements(x, y, n, [](float v) { return std::ceil(v); });
      case OpType::RoundEven:
        return mapElements(x, y, n, [&](float v) { return cast(roundHalfEven(double{v})); });
      case OpType::Sin:
        return mapElements(x, y, n, [&](float v) { return cast(std::sin(double{v})); });
      case OpType::Cos:
        return mapElements(x, y, n, [&](float v) { return cast(std::cos(double{v})); });
      case OpType::Tan:
        return mapElements(x, y, n, [&](float v) { return cast(std::tan(double{v})); });
      case OpType::Log:
        return mapElements(x, y, n, [&](float v) { return cast(std::log(double{v})); });
      case OpType::Softplus:
        return mapElements(x, y, n, [&](float v) {
          const double d = v;
          return cast(d > 0 ? d + std::log1p(std::exp(-d)) : std::log1p(std::exp(d)));
        });
      case OpType::Softsign:
        return mapElements(x, y, n,
                           [&](float v) { return cast(double{v} / (1.0 + std::fabs(double{v}))); });
      case OpType::HardSigmoid: {
        const double alpha = alpha_, beta = beta_;
        return mapElements(x, y, n, [&](float v) {
          const double t = alpha * v + beta;
          return cast(t < 0 ? 0.0 : (t > 1 ? 1.0 : t));
        });
      }
      case OpType::IsNaN:
        return mapElements(x, predicate, n,
                           [](float v) -> uint8_t { return std::isnan(v) ? 1 : 0; });
      case OpType::IsInfinite:
        return mapElements(x, predicate, n,
                           [](float v) -> uint8_t { return std::isinf(v) ? 1 : 0; });
      case OpType::LogicalNot:
        return mapElements(reinterpret_cast<const uint8_t*>(in), predicate, n,
                           [](uint8_t v) -> uint8_t { return v == 0 ? 1 : 0; });
      default:
        return;
    }
  }
  std::string implementation() const override { return "cpu element-wise kernel"; }

 private:
  OpType type_;
  graph::OperandId input_, output_;
  int64_t count_;
  double alpha_ = 0, beta_ = 0;
};

// ---- binary, with broadcasting ----

// The output's dimensions with unit dimensions dropped and neighbours merged where both inputs
// (and the contiguous output) are contiguous across them; input strides 0 where broadcast.
struct BroadcastPlan {
  Dims dims;
  std::array<Dims, 2> strides;
  int64_t count = 1;

  BroadcastPlan(const std::vector<uint32_t>& out, const std::vector<uint32_t>& a,
                const std::vector<uint32_t>& b) {
    std::array<Dims, 2> aligned;
    const std::vector<uint32_t>* shapes[2] = {&a, &b};
    for (size_t k = 0; k < 2; ++k) {
      const auto& shape = *shapes[k];
      aligned[k].assign(out.size(), 0);
      int64_t stride = 1;
      for (size_t i = shape.size(); i-- > 0;) {
        aligned[k][out.size() - shape.size() + i] = shape[i] == 1 ? 0 : stride;
        stride *= shape[i];
      }
    }
    for (size_t i = 0; i < out.size(); ++i) {
      count *= out[i];
      if (out[i] == 1) continue;
      bool merge = !dims.empty();
      for (size_t k = 0; k < 2 && merge; ++k) merge = strides[k].back() == aligned[k][i] * out[i];
      if (merge) {
        dims.back() *= out[i];
        for (size_t k = 0; k < 2; ++k) strides[k].back() = aligned[k][i];
        continue;
      }
      dims.push_back(out[i]);
      for (size_t k = 0; k < 2; ++k) strides[k].push_back(aligned[k][i]);
    }
    if (dims.empty()) {
      dims = {1};
      strides = {Dims{0}, Dims{0}};
    }
  }

  // f(a, b, out) over every element, rows along the innermost merged dimension.
  template <class A, class B, class O, class F>
  void run(const A* a, const B* b, O* out, F f) const {
    if (count == 0) return;
    const size_t rank = dims.size();
    const int64_t inner = dims[rank - 1];
    const int64_t sa = strides[0][rank - 1], sb = strides[1][rank - 1];
    const int64_t rows = count / inner;
#pragma omp parallel for schedule(static) if (rows > 1 && count > kParallelElements)
    for (int64_t row = 0; row < rows; ++row) {
      int64_t rest = row, oa = 0, ob = 0;
      for (size_t i = rank - 1; i-- > 0;) {
        const int64_t coordinate = rest % dims[i];
        rest /= dims[i];
        oa += coordinate * strides[0][i];
        ob += coordinate * strides[1][i];
      }
      const A* ar = a + oa;
      const B* br = b + ob;
      O* o = out + row * inner;
      if (sa == 1 && sb == 1) {
#pragma omp simd
        for (int64_t x = 0; x < inner; ++x) o[x] = f(ar[x], br[x]);
      } else if (sa == 1 && sb == 0) {
        const B bv = br[0];
#pragma omp simd
        for (int64_t x = 0; x < inner; ++x) o[x] = f(ar[x], bv);
      } else if (sa == 0 && sb == 1) {
        const A av = ar[0];
#pragma omp simd
        for (int64_t x = 0; x < inner; ++x) o[x] = f(av, br[x]);
      } else {
        for (int64_t x = 0; x < inner; ++x) o[x] = f(ar[x * sa], br[x * sb]);
      }
    }
  }
};

template <class F>
bool visitComparableType(MLOperandDataType type, F&& f) {
  switch (type) {
    case MLOperandDataType::Float32:
      f(TypeTag<float>{});
      return true;
    case MLOperandDataType::Int32:
      f(TypeTag<int32_t>{});
      return true;
    case MLOperandDataType::Uint32:
      f(TypeTag<uint32_t>{});
      return true;
    case MLOperandDataType::Int64:
      f(TypeTag<int64_t>{});
      return true;
    case MLOperandDataType::Uint64:
      f(TypeTag<uint64_t>{});
      return true;
    case MLOperandDataType::Int8:
      f(TypeTag<int8_t>{});
      return true;
    case MLOperandDataType::Uint8:
      f(TypeTag<uint8_t>{});
      return true;
    default:
      return false;
  }
}

class BinaryKernelOp final : public CpuOp {
 public:
  explicit BinaryKernelOp(const OpCompileContext& context)
      : type_(context.operation.type),
        a_(context.operation.inputs[0]),
        b_(context.operation.inputs[1]),
        output_(context.operation.outputs[0]),
        dataType_(context.descriptor(a_).dataType),
        plan_(context.descriptor(output_).shape, context.descriptor(a_).shape,
              context.descriptor(b_).shape) {}

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const std::byte* a = tensors[a_].data;
    const std::byte* b = tensors[b_].data;
    std::byte* out = tensors[output_].data;
    uint8_t* predicate = reinterpret_cast<uint8_t*>(out);
    switch (type_) {
      case OpType::Pow: {
        const auto* x = reinterpret_cast<const float*>(a);
        const auto* y = reinterpret_cast<const float*>(b);
        auto* o = reinterpret_cast<float*>(out);
        if (tensors[b_].elementCount() == 1 && y[0] == 2.0f) {  // x * x is exact in float
          return plan_.run(x, y, o, [](float u, float) { return u * u; });
        }
        return plan_.run(x, y, o, [](float u, float v) {
          return static_cast<float>(std::pow(double{u}, double{v}));
        });
      }
      case OpType::Prelu:
        return plan_.run(reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
                         reinterpret_cast<float*>(out),
                         [](float u, float v) { return u < 0 ? v * u : u; });
      // The arithmetic oneDNN's binary declines (both operands broadcast, or the first one): one
      // correctly rounded float operation each, as the primitive computes.
      case OpType::Add:
        return plan_.run(reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
                         reinterpret_cast<float*>(out), [](float u, float v) { return u + v; });
      case OpType::Sub:
        return plan_.run(reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
                         reinterpret_cast<float*>(out), [](float u, float v) { return u - v; });
      case OpType::Mul:
        return plan_.run(reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
                         reinterpret_cast<float*>(out), [](float u, float v) { return u * v; });
      case OpType::Div:
        return plan_.run(reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
                         reinterpret_cast<float*>(out), [](float u, float v) { return u / v; });
      case OpType::Max:
        return plan_.run(reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
                         reinterpret_cast<float*>(out), [](float u, float v) {
                           if (std::isnan(u) || std::isnan(v)) {
                             return std::numeric_limits<float>::quiet_NaN();
                           }
                           return u < v ? v : u;
                         });
      case OpType::Min:
        return plan_.run(reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
                         reinterpret_cast<float*>(out), [](float u, float v) {
                           if (std::isnan(u) || std::isnan(v)) {
                             return std::numeric_limits<float>::quiet_NaN();
                           }
                           return v < u ? v : u;
                         });
      case OpType::LogicalAnd:
        return plan_.run(reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b),
                         predicate,
                         [](uint8_t u, uint8_t v) -> uint8_t { return u != 0 && v != 0; });
      case OpType::LogicalOr:
        return plan_.run(reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b),
                         predicate,
                         [](uint8_t u, uint8_t v) -> uint8_t { return u != 0 || v != 0; });
      case OpType::LogicalXor:
        return plan_.run(reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b),
                         predicate,
                         [](uint8_t u, uint8_t v) -> uint8_t { return (u != 0) != (v != 0); });
      default:
        break;
    }
    const OpType type = type_;
    visitComparableType(dataType_, [&]<class T>(TypeTag<T>) {
      const T* x = reinterpret_cast<const T*>(a);
      const T* y = reinterpret_cast<const T*>(b);
      switch (type) {
        case OpType::Equal:
          return plan_.run(x, y, predicate, [](T u, T v) -> uint8_t { return u == v; });
        case OpType::NotEqual:
          return plan_.run(x, y, predicate, [](T u, T v) -> uint8_t { return !(u == v); });
        case OpType::Greater:
          return plan_.run(x, y, predicate, [](T u, T v) -> uint8_t { return u > v; });
        case OpType::GreaterOrEqual:
          return plan_.run(x, y, predicate, [](T u, T v) -> uint8_t { return u >= v; });
        case OpType::Lesser:
          return plan_.run(x, y, predicate, [](T u, T v) -> uint8_t { return u < v; });
        case OpType::LesserOrEqual:
          return plan_.run(x, y, predicate, [](T u, T v) -> uint8_t { return u <= v; });
        default:
          return;
      }
    });
  }
  std::string implementation() const override { return "cpu element-wise kernel"; }

 private:
  OpType type_;
  graph::OperandId a_, b_, output_;
  MLOperandDataType dataType_;
  BroadcastPlan plan_;
};

// cast with the spec's (and the reference's) rules: floats round to nearest; float to integer
// truncates toward zero and saturates (NaN gives 0); integer to float rounds once through
// float32; integer to integer keeps the low bits. Every pair of types, int4/uint4 included.
class CastOp final : public CpuOp {
 public:
  explicit CastOp(const OpCompileContext& context)
      : input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        from_(context.descriptor(input_).dataType),
        to_(context.descriptor(output_).dataType),
        count_(static_cast<int64_t>(context.descriptor(output_).elementCount())) {}

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const std::byte* in = tensors[input_].data;
    std::byte* out = tensors[output_].data;
    const int64_t count = count_;
    if (from_ == MLOperandDataType::Float16 && to_ == MLOperandDataType::Float32) {
      inChunks(count, [&](int64_t begin, int64_t end) {
        convertHalfToFloat(reinterpret_cast<const uint16_t*>(in) + begin,
                           reinterpret_cast<float*>(out) + begin,
                           static_cast<uint64_t>(end - begin));
      });
      return;
    }
    if (from_ == MLOperandDataType::Float32 && to_ == MLOperandDataType::Float16) {
      inChunks(count, [&](int64_t begin, int64_t end) {
        convertFloatToHalf(reinterpret_cast<const float*>(in) + begin,
                           reinterpret_cast<uint16_t*>(out) + begin,
                           static_cast<uint64_t>(end - begin));
      });
      return;
    }
    const bool fromNibbles = from_ == MLOperandDataType::Int4 || from_ == MLOperandDataType::Uint4;
    const bool toNibbles = to_ == MLOperandDataType::Int4 || to_ == MLOperandDataType::Uint4;
    if (fromNibbles || toNibbles) {
      castNibbles(in, out, fromNibbles, toNibbles);
      return;
    }
    visitDataType(from_, [&]<class F>(TypeTag<F>) {
      visitDataType(to_, [&]<class O>(TypeTag<O>) {
        if constexpr (!std::is_same_v<F, Int4> && !std::is_same_v<F, Uint4> &&
                      !std::is_same_v<O, Int4> && !std::is_same_v<O, Uint4>) {
          const F* x = reinterpret_cast<const F*>(in);
          O* y = reinterpret_cast<O*>(out);
#pragma omp parallel for schedule(static) if (count > kParallelElements)
          for (int64_t i = 0; i < count; ++i) y[i] = convert<F, O>(x[i]);
        }
      });
    });
  }
  std::string implementation() const override {
    return "cpu cast kernel";
  }

 private:
  // Runs `convert(begin, end)` over [0, count) in one chunk per thread (one chunk when small).
  template <class Convert>
  static void inChunks(int64_t count, const Convert& convert) {
    constexpr int64_t kChunk = 1 << 16;
    const int64_t chunks = (count + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static) if (chunks > 1)
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      convert(chunk * kChunk, std::min(count, (chunk + 1) * kChunk));
    }
  }

  // A cast from or to int4/uint4 (two a byte, low nibble first). In chunks of an even element
  // count, so threads never share a byte; the high nibble of an odd count's last byte is kept.
  void castNibbles(const std::byte* in, std::byte* out, bool fromNibbles, bool toNibbles) const {
    const bool fromSigned = from_ == MLOperandDataType::Int4;
    const bool toSigned = to_ == MLOperandDataType::Int4;
    const int64_t count = count_;
    if (fromNibbles && toNibbles) {  // the low 4 bits: the same bytes
      const auto* x = reinterpret_cast<const uint8_t*>(in);
      auto* y = reinterpret_cast<uint8_t*>(out);
      inChunks(count / 2,
               [&](int64_t begin, int64_t end) { std::copy(x + begin, x + end, y + begin); });
      if (count % 2 != 0) {
        y[count / 2] = static_cast<uint8_t>((y[count / 2] & 0xf0) | (x[count / 2] & 0x0f));
      }
      return;
    }
    if (fromNibbles) {
      visitDataType(to_, [&]<class O>(TypeTag<O>) {
        if constexpr (!std::is_same_v<O, Int4> && !std::is_same_v<O, Uint4>) {
          const auto* x = reinterpret_cast<const uint8_t*>(in);
          O* y = reinterpret_cast<O*>(out);
          // Each of the 16 nibbles' values, converted once.
          std::array<O, 16> table;
          for (int nibble = 0; nibble < 16; ++nibble) {
            table[nibble] = convert<int, O>(fromSigned ? (nibble ^ 8) - 8 : nibble);
          }
          inChunks(count, [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) y[i] = table[(x[i >> 1] >> ((i & 1) * 4)) & 15];
          });
        }
      });
      return;
    }
    visitDataType(from_, [&]<class F>(TypeTag<F>) {
      if constexpr (!std::is_same_v<F, Int4> && !std::is_same_v<F, Uint4>) {
        const F* x = reinterpret_cast<const F*>(in);
        auto* y = reinterpret_cast<uint8_t*>(out);
        const auto nibble = [toSigned](F value) -> uint8_t {
          if constexpr (kIsFloat<F>) {
            // Truncated toward zero, saturated to the type's range, NaN 0 (as storeElement).
            const double v = toDouble(value);
            if (std::isnan(v)) return 0;
            const double low = toSigned ? -8.0 : 0.0, high = toSigned ? 7.0 : 15.0;
            return static_cast<uint8_t>(
                static_cast<int>(std::fmin(std::fmax(std::trunc(v), low), high)) & 15);
          } else {
            (void)toSigned;  // integers keep their low 4 bits either way
            return static_cast<uint8_t>(static_cast<uint64_t>(value) & 15);  // the low 4 bits
          }
        };
        inChunks(count, [&](int64_t begin, int64_t end) {
          int64_t i = begin;  // even
          for (; i + 1 < end; i += 2) {
            y[i >> 1] = static_cast<uint8_t>(nibble(x[i]) | (nibble(x[i + 1]) << 4));
          }
          if (i < end) y[i >> 1] = static_cast<uint8_t>((y[i >> 1] & 0xf0) | nibble(x[i]));
        });
      }
    });
  }

  template <class F, class O>
  static O convert(F value) {
    if constexpr (kIsFloat<F>) {
      return fromDouble<O>(toDouble(value));
    } else if constexpr (kIsFloat<O>) {
      return fromDouble<O>(static_cast<double>(static_cast<float>(value)));
    } else {
      return static_cast<O>(value);
    }
  }

  graph::OperandId input_, output_;
  MLOperandDataType from_, to_;
  int64_t count_;
};

}  // namespace

std::unique_ptr<CpuOp> createElementwiseKernelOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  const auto& output = context.descriptor(operation.outputs[0]);
  if (output.elementCount() == 0) return nullptr;
  const MLOperandDataType type = context.descriptor(operation.inputs[0]).dataType;
  const bool float32 = type == MLOperandDataType::Float32;
  switch (operation.type) {
    case OpType::Erf:
    case OpType::Reciprocal:
    case OpType::Sign:
    case OpType::Floor:
    case OpType::Ceil:
    case OpType::RoundEven:
    case OpType::Sin:
    case OpType::Cos:
    case OpType::Tan:
    case OpType::Log:
    case OpType::Softplus:
    case OpType::Softsign:
    case OpType::HardSigmoid:
    case OpType::IsNaN:
    case OpType::IsInfinite:
      if (!float32) return nullptr;
      return std::make_unique<UnaryOp>(context);
    case OpType::LogicalNot:
      if (type != MLOperandDataType::Uint8) return nullptr;
      return std::make_unique<UnaryOp>(context);
    case OpType::Cast:
      return std::make_unique<CastOp>(context);
    case OpType::Pow:
    case OpType::Prelu:
    case OpType::Max:
    case OpType::Min:
    case OpType::Add:  // (through createBinaryOp, where oneDNN's binary declines the shapes)
    case OpType::Sub:
    case OpType::Mul:
    case OpType::Div:
      if (!float32 || context.descriptor(operation.inputs[1]).dataType != type) return nullptr;
      // Plain inputs only: the kernel walks them in row-major order.
      if (context.layoutOf(operation.inputs[0]) || context.layoutOf(operation.inputs[1])) {
        return nullptr;
      }
      return std::make_unique<BinaryKernelOp>(context);
    case OpType::LogicalAnd:
    case OpType::LogicalOr:
    case OpType::LogicalXor:
      if (type != MLOperandDataType::Uint8) return nullptr;
      return std::make_unique<BinaryKernelOp>(context);
    case OpType::Equal:
    case OpType::NotEqual:
    case OpType::Greater:
    case OpType::GreaterOrEqual:
    case OpType::Lesser:
    case OpType::LesserOrEqual: {
      bool comparable = false;
      visitComparableType(type, [&](auto) { comparable = true; });
      if (!comparable) return nullptr;
      return std::make_unique<BinaryKernelOp>(context);
    }
    default:
      return nullptr;
  }
}

}  // namespace webnn::cpu
