// quantizeLinear and dequantizeLinear on the cpu backend, with the reference's arithmetic:
// quantize = saturate(roundEven(x / scale) + zeroPoint), the quotient in float32, the rest in
// double (NaN gives 0), dequantize =
// (x - zeroPoint) * scale in double, rounded once to float32 (below 32 bits: one float32 product,
// the same value). scale and zeroPoint broadcast blockwise (graph/ops/quantization.h): element i
// uses scale element i[d] / (input[d] / scale[d]) along each dimension d, any such shape. float32
// scales and values; int4, uint4 (two a byte, low nibble first), int8, uint8, int32 and uint32
// quantized values. The input is walked in runs of one scale element (per tensor: one run; per
// axis, blocks along the last axis: runs of the block), in chunks of an even element count on
// OpenMP threads.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/cpu_op.h"
#include "core/element.h"
#include "graph/ops/quantization.h"

namespace webnn::cpu {
namespace {

using graph::OpType;

constexpr int64_t kParallelElements = int64_t{1} << 15;

bool isQuantizedStorage(MLOperandDataType type) {
  return type == MLOperandDataType::Int8 || type == MLOperandDataType::Uint8 ||
         type == MLOperandDataType::Int32 || type == MLOperandDataType::Uint32 ||
         type == MLOperandDataType::Int4 || type == MLOperandDataType::Uint4;
}

// quantizeLinear with one scale and zero point into int8 / uint8 (a QDQ model's activations):
// y = clamp(roundEven(x / s) + z), NaN to 0, the quotient in float32 as above. Values far outside
// the range are clamped before the addition matters, so float arithmetic gives the same integers.
template <class Q>
void quantizePerTensorScalar(const float* x, Q* y, int64_t count, float scale, float zero) {
  constexpr float low = static_cast<float>(std::numeric_limits<Q>::min());
  constexpr float high = static_cast<float>(std::numeric_limits<Q>::max());
  for (int64_t i = 0; i < count; ++i) {
    const float value = std::nearbyint(x[i] / scale) + zero;
    y[i] = std::isnan(value) ? Q{0} : static_cast<Q>(std::fmin(std::fmax(value, low), high));
  }
}

template <class Q>
__attribute__((target("avx512f"))) void quantizePerTensorAvx512(const float* x, Q* y, int64_t count,
                                                                float scale, float zero) {
  const __m512 s = _mm512_set1_ps(scale), z = _mm512_set1_ps(zero);
  const __m512 low = _mm512_set1_ps(static_cast<float>(std::numeric_limits<Q>::min()));
  const __m512 high = _mm512_set1_ps(static_cast<float>(std::numeric_limits<Q>::max()));
  int64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const __m512 quotient = _mm512_div_ps(_mm512_loadu_ps(x + i), s);
    __m512 value = _mm512_add_ps(
        _mm512_roundscale_ps(quotient, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), z);
    const __mmask16 isNumber = _mm512_cmp_ps_mask(value, value, _CMP_ORD_Q);
    value = _mm512_maskz_mov_ps(isNumber, _mm512_min_ps(_mm512_max_ps(value, low), high));
    const __m512i integers = _mm512_cvtps_epi32(value);
    if constexpr (std::is_signed_v<Q>) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtsepi32_epi8(integers));
    } else {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtusepi32_epi8(integers));
    }
  }
  quantizePerTensorScalar(x + i, y + i, count - i, scale, zero);
}

bool hasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f") != 0;
  return has;
}

// The input's dimensions with the scale's: dimensions of 1 dropped, neighbours merged where the
// scale covers both whole (one element for both) or both element for element. Element i of the
// input reads scale element i[d] / blocks[d] along each dimension d (row-major strides).
struct BlockwiseShape {
  std::vector<int64_t> shape, scaleShape, blocks, scaleStrides;

  BlockwiseShape(const std::vector<uint32_t>& input, const std::vector<uint32_t>& scale) {
    for (size_t d = 0; d < input.size(); ++d) {
      const int64_t size = input[d], scaleSize = scale[d];
      if (size == 1) continue;
      if (!shape.empty() && ((scaleShape.back() == 1 && scaleSize == 1) ||
                             (scaleShape.back() == shape.back() && scaleSize == size))) {
        shape.back() *= size;
        scaleShape.back() *= scaleSize;
        continue;
      }
      shape.push_back(size);
      scaleShape.push_back(scaleSize);
    }
    if (shape.empty()) {
      shape = {1};
      scaleShape = {1};
    }
    blocks.resize(shape.size());
    scaleStrides.resize(shape.size());
    int64_t stride = 1;
    for (size_t d = shape.size(); d-- > 0;) {
      blocks[d] = shape[d] / scaleShape[d];
      scaleStrides[d] = stride;
      stride *= scaleShape[d];
    }
  }

  // Elements [begin, end) in runs: constant(first, count, s) for a run that reads scale element
  // s throughout, varying(first, count, s) for one whose element first + k reads s + k (blocks of
  // one along the innermost dimension).
  template <class Constant, class Varying>
  void walk(int64_t begin, int64_t end, const Constant& constant, const Varying& varying) const {
    const size_t rank = shape.size();
    const int64_t inner = shape[rank - 1], block = blocks[rank - 1];
    std::vector<int64_t> coordinate(rank, 0);
    int64_t rest = begin / inner, i = begin % inner, base = 0;
    for (size_t d = rank - 1; d-- > 0;) {
      coordinate[d] = rest % shape[d];
      rest /= shape[d];
      base += coordinate[d] / blocks[d] * scaleStrides[d];
    }
    int64_t position = begin;
    while (position < end) {
      const int64_t rowEnd = std::min(end, position + (inner - i));
      if (block == 1) {
        varying(position, rowEnd - position, base + i);
      } else {
        for (int64_t first = position; first < rowEnd;) {
          const int64_t b = i / block;
          const int64_t last = std::min(rowEnd, first + (b + 1) * block - i);
          constant(first, last - first, base + b);
          i += last - first;
          first = last;
        }
      }
      position = rowEnd;
      i = 0;
      for (size_t d = rank - 1; d-- > 0;) {  // the next row
        if (++coordinate[d] < shape[d]) {
          if (coordinate[d] % blocks[d] == 0) base += scaleStrides[d];
          break;
        }
        coordinate[d] = 0;
        base -= scaleStrides[d] * (scaleShape[d] - 1);
      }
    }
  }
};

// Quantized elements of a whole-byte type Q.
template <class Q>
struct Plain {
  static constexpr double kLow = static_cast<double>(std::numeric_limits<Q>::min());
  static constexpr double kHigh = static_cast<double>(std::numeric_limits<Q>::max());
  static int64_t load(const std::byte* base, int64_t k) {
    return reinterpret_cast<const Q*>(base)[k];
  }
  static void store(std::byte* base, int64_t k, int64_t value) {
    reinterpret_cast<Q*>(base)[k] = static_cast<Q>(value);
  }
};

// Quantized elements of int4 (kSigned) or uint4: two a byte, low nibble first.
template <bool kSigned>
struct Nibbles {
  static constexpr double kLow = kSigned ? -8 : 0;
  static constexpr double kHigh = kSigned ? 7 : 15;
  static int widen(int nibble) { return kSigned ? (nibble ^ 8) - 8 : nibble; }
  static int64_t load(const std::byte* base, int64_t k) {
    const auto byte = static_cast<uint8_t>(base[k >> 1]);
    return widen((byte >> ((k & 1) * 4)) & 15);
  }
  static void store(std::byte* base, int64_t k, int64_t value) {
    auto byte = static_cast<uint8_t>(base[k >> 1]);
    const auto nibble = static_cast<uint8_t>(value & 15);
    byte = (k & 1) != 0 ? static_cast<uint8_t>((byte & 0x0f) | (nibble << 4))
                        : static_cast<uint8_t>((byte & 0xf0) | nibble);
    base[k >> 1] = static_cast<std::byte>(byte);
  }
};

// (x - zero) * scale as the reference computes it (in double, rounded once to float32). Below 32
// bits the difference is an integer of at most 9 bits, exact in float32, and its product with
// the scale is exact in double: one float32 multiplication rounds it the same, once.
template <bool kWide>
inline float dequantized(int64_t x, int64_t zero, float scale) {
  if constexpr (kWide) {
    return static_cast<float>((static_cast<double>(x) - static_cast<double>(zero)) *
                              static_cast<double>(scale));
  } else {
    return static_cast<float>(static_cast<int>(x - zero)) * scale;
  }
}

// saturate(roundEven(x / scale) + zero), the quotient in float32, the rest in double, NaN 0.
template <class Access>
inline int64_t quantized(float x, float scale, int64_t zero) {
  const double value = std::nearbyint(static_cast<double>(x / scale)) + static_cast<double>(zero);
  if (std::isnan(value)) return 0;
  return static_cast<int64_t>(std::fmin(std::fmax(value, Access::kLow), Access::kHigh));
}

// A run of 4-bit elements [first, first + count) with one scale and zero point, a byte (two
// elements) at a time.
template <bool kSigned>
void dequantizeNibbleRun(const std::byte* x, float* y, int64_t first, int64_t count, int zero,
                         float scale) {
  using N = Nibbles<kSigned>;
  int64_t k = first;
  const int64_t end = first + count;
  if ((k & 1) != 0 && k < end) {
    y[k] = dequantized<false>(N::load(x, k), zero, scale);
    ++k;
  }
  const int64_t pairs = (end - k) / 2;
  const auto* bytes = reinterpret_cast<const uint8_t*>(x) + k / 2;
  float* out = y + k;
  for (int64_t j = 0; j < pairs; ++j) {
    const int low = N::widen(bytes[j] & 15), high = N::widen(bytes[j] >> 4);
    out[2 * j] = static_cast<float>(low - zero) * scale;
    out[2 * j + 1] = static_cast<float>(high - zero) * scale;
  }
  k += 2 * pairs;
  if (k < end) y[k] = dequantized<false>(N::load(x, k), zero, scale);
}

class QuantizationOp final : public CpuOp {
 public:
  explicit QuantizationOp(const OpCompileContext& context)
      : quantize_(context.operation.type == OpType::QuantizeLinear),
        input_(context.operation.inputs[0]),
        scale_(context.operation.inputs[1]),
        zeroPoint_(context.operation.inputs[2]),
        output_(context.operation.outputs[0]),
        integerType_(context.descriptor(zeroPoint_).dataType),
        shape_(context.descriptor(input_).shape,
               graph::padToRank(context.descriptor(scale_).shape,
                                context.descriptor(input_).shape.size())) {
    perTensor_ = context.descriptor(scale_).elementCount() == 1;
    elements_ = static_cast<int64_t>(context.descriptor(input_).elementCount());
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    switch (integerType_) {
      case MLOperandDataType::Int8:
        return execute<Plain<int8_t>>(tensors);
      case MLOperandDataType::Uint8:
        return execute<Plain<uint8_t>>(tensors);
      case MLOperandDataType::Int32:
        return execute<Plain<int32_t>>(tensors);
      case MLOperandDataType::Uint32:
        return execute<Plain<uint32_t>>(tensors);
      case MLOperandDataType::Int4:
        return execute<Nibbles<true>>(tensors);
      case MLOperandDataType::Uint4:
        return execute<Nibbles<false>>(tensors);
      default:
        return;
    }
  }
  std::string implementation() const override { return "cpu quantization kernel"; }
  std::optional<dnnl::memory::desc> outputLayout() const override { return outputLayout_; }
  void setOutputLayout(std::optional<dnnl::memory::desc> layout) {
    outputLayout_ = std::move(layout);
  }

 private:
  template <class Access>
  void execute(const DispatchTensors& tensors) const {
    const float* scale = tensors[scale_].as<float>();
    const std::byte* zeroPoint = tensors[zeroPoint_].data;
    if (quantize_) {
      const float* x = tensors[input_].as<float>();
      std::byte* y = tensors[output_].data;
      if constexpr (std::is_same_v<Access, Plain<int8_t>> ||
                    std::is_same_v<Access, Plain<uint8_t>>) {
        if (perTensor_) {
          using Q = std::conditional_t<std::is_same_v<Access, Plain<int8_t>>, int8_t, uint8_t>;
          quantizePerTensor(x, reinterpret_cast<Q*>(y), scale[0],
                            static_cast<float>(Access::load(zeroPoint, 0)));
          return;
        }
      }
      inChunks([&](int64_t begin, int64_t end) {
        shape_.walk(
            begin, end,
            [&](int64_t first, int64_t count, int64_t s) {
              const float sc = scale[s];
              const int64_t zero = Access::load(zeroPoint, s);
              for (int64_t k = first; k < first + count; ++k) {
                Access::store(y, k, quantized<Access>(x[k], sc, zero));
              }
            },
            [&](int64_t first, int64_t count, int64_t s) {
              for (int64_t k = 0; k < count; ++k) {
                Access::store(
                    y, first + k,
                    quantized<Access>(x[first + k], scale[s + k], Access::load(zeroPoint, s + k)));
              }
            });
      });
      return;
    }
    const std::byte* x = tensors[input_].data;
    float* y = tensors[output_].as<float>();
    constexpr bool kWide = Access::kHigh - Access::kLow > 255;
    inChunks([&](int64_t begin, int64_t end) {
      shape_.walk(
          begin, end,
          [&](int64_t first, int64_t count, int64_t s) {
            const float sc = scale[s];
            if constexpr (std::is_same_v<Access, Nibbles<true>> ||
                          std::is_same_v<Access, Nibbles<false>>) {
              dequantizeNibbleRun<std::is_same_v<Access, Nibbles<true>>>(
                  x, y, first, count, static_cast<int>(Access::load(zeroPoint, s)), sc);
            } else {
              const int64_t zero = Access::load(zeroPoint, s);
              for (int64_t k = first; k < first + count; ++k) {
                y[k] = dequantized<kWide>(Access::load(x, k), zero, sc);
              }
            }
          },
          [&](int64_t first, int64_t count, int64_t s) {
            for (int64_t k = 0; k < count; ++k) {
              y[first + k] = dequantized<kWide>(Access::load(x, first + k),
                                                Access::load(zeroPoint, s + k), scale[s + k]);
            }
          });
    });
  }

  // Runs f(begin, end) over the elements in chunks (of an even count: threads never share a byte
  // of 4-bit elements), in parallel when there are many.
  template <class F>
  void inChunks(const F& f) const {
    constexpr int64_t kChunk = int64_t{1} << 14;
    const int64_t count = elements_;
    const int64_t chunks = (count + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static) if (chunks > 1 && count > kParallelElements)
    for (int64_t c = 0; c < chunks; ++c) f(c * kChunk, std::min(count, (c + 1) * kChunk));
  }

  template <class Q>
  void quantizePerTensor(const float* x, Q* y, float scale, float zero) const {
    const bool avx512 = hasAvx512();
    inChunks([&](int64_t begin, int64_t end) {
      if (avx512) {
        quantizePerTensorAvx512(x + begin, y + begin, end - begin, scale, zero);
      } else {
        quantizePerTensorScalar(x + begin, y + begin, end - begin, scale, zero);
      }
    });
  }

  std::optional<dnnl::memory::desc> outputLayout_;  // the blocked input's, in 8 bits
  bool quantize_;
  bool perTensor_ = false;  // one scale and zero point for every element
  int64_t elements_ = 1;
  graph::OperandId input_, scale_, zeroPoint_, output_;
  MLOperandDataType integerType_;
  BlockwiseShape shape_;
};

}  // namespace

std::unique_ptr<CpuOp> createQuantizationOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  const auto& input = context.descriptor(operation.inputs[0]);
  const auto& scale = context.descriptor(operation.inputs[1]);
  const auto& zeroPoint = context.descriptor(operation.inputs[2]);
  const auto& output = context.descriptor(operation.outputs[0]);
  if (output.elementCount() == 0 || scale.dataType != MLOperandDataType::Float32 ||
      !isQuantizedStorage(zeroPoint.dataType)) {
    return nullptr;
  }
  const MLOperandDataType floatSide =
      operation.type == OpType::QuantizeLinear ? input.dataType : output.dataType;
  if (floatSide != MLOperandDataType::Float32) return nullptr;
  // A blocked input (a quantized step's float32 result in its primitive's layout): quantized per
  // tensor into 8 bits, element for element in that layout when it has no padding, for a
  // consumer that reads it so (the next quantized conv2d); else the compiler hands it plain.
  std::optional<dnnl::memory::desc> layout;
  if (const dnnl::memory::desc* blocked = context.layoutOf(operation.inputs[0])) {
    const dnnl_memory_desc_t& d = blocked->data;
    bool unpadded = d.format_kind == dnnl_blocked && d.offset0 == 0;
    for (int i = 0; unpadded && i < d.ndims; ++i) unpadded = d.padded_dims[i] == d.dims[i];
    if (operation.type != OpType::QuantizeLinear || context.plainOutput || !unpadded ||
        scale.elementCount() != 1 ||
        (zeroPoint.dataType != MLOperandDataType::Uint8 &&
         zeroPoint.dataType != MLOperandDataType::Int8)) {
      return nullptr;
    }
    dnnl_memory_desc_t quantized = d;
    quantized.data_type = zeroPoint.dataType == MLOperandDataType::Uint8 ? dnnl_u8 : dnnl_s8;
    layout = dnnl::memory::desc(quantized);
  }
  auto op = std::make_unique<QuantizationOp>(context);
  op->setOutputLayout(layout);
  return op;
}

}  // namespace webnn::cpu
