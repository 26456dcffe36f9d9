// quantizeLinear and dequantizeLinear on the cpu backend, with the reference's arithmetic:
// quantize = saturate(roundEven(x / scale) + zeroPoint), the quotient in float32, the rest in
// double (NaN gives 0), dequantize =
// (x - zeroPoint) * scale in double, rounded once to float32. scale and zeroPoint broadcast
// blockwise (graph/ops/quantization.h): element i uses scale element i[d] / (input[d] / scale[d])
// along each dimension d. float32 scales and values; int8, uint8, int32 and uint32 quantized
// values (int4/uint4 stay on the reference). OpenMP over rows of the innermost dimension.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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
         type == MLOperandDataType::Int32 || type == MLOperandDataType::Uint32;
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

class QuantizationOp final : public CpuOp {
 public:
  explicit QuantizationOp(const OpCompileContext& context)
      : quantize_(context.operation.type == OpType::QuantizeLinear),
        input_(context.operation.inputs[0]),
        scale_(context.operation.inputs[1]),
        zeroPoint_(context.operation.inputs[2]),
        output_(context.operation.outputs[0]),
        integerType_(context.descriptor(zeroPoint_).dataType) {
    const auto& shape = context.descriptor(input_).shape;
    const std::vector<uint32_t> scaleShape =
        graph::padToRank(context.descriptor(scale_).shape, shape.size());
    shape_.assign(shape.begin(), shape.end());
    uint64_t stride = 1;
    scaleStrides_.assign(shape.size(), 0);
    blocks_.assign(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 0;) {
      scaleStrides_[d] = static_cast<int64_t>(stride);
      stride *= scaleShape[d];
      blocks_[d] = shape[d] / scaleShape[d];
    }
    perTensor_ = stride == 1;
    elements_ = static_cast<int64_t>(context.descriptor(input_).elementCount());
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    visitDataType(integerType_, [&]<class Q>(TypeTag<Q>) {
      if constexpr (std::is_integral_v<Q> && sizeof(Q) <= 4) {
        const float* scale = tensors[scale_].as<float>();
        const Q* zeroPoint = tensors[zeroPoint_].as<Q>();
        if constexpr (sizeof(Q) == 1) {
          if (quantize_ && perTensor_) {
            quantizePerTensor(tensors[input_].as<float>(), tensors[output_].as<Q>(), scale[0],
                              static_cast<float>(zeroPoint[0]));
            return;
          }
        }
        if (quantize_) {
          run(tensors[input_].as<float>(), tensors[output_].as<Q>(), scale, zeroPoint,
              [](float x, float s, Q zero) -> Q {
                // The quotient in float32 (as the reference: x / s, then roundEven).
                const double value =
                    std::nearbyint(static_cast<double>(x / s)) + static_cast<double>(zero);
                if (std::isnan(value)) return 0;
                constexpr double low = static_cast<double>(std::numeric_limits<Q>::min());
                constexpr double high = static_cast<double>(std::numeric_limits<Q>::max());
                return static_cast<Q>(std::fmin(std::fmax(value, low), high));
              });
        } else {
          run(tensors[input_].as<Q>(), tensors[output_].as<float>(), scale, zeroPoint,
              [](Q x, float s, Q zero) -> float {
                return static_cast<float>((static_cast<double>(x) - static_cast<double>(zero)) *
                                          static_cast<double>(s));
              });
        }
      }
    });
  }
  std::string implementation() const override { return "cpu quantization kernel"; }
  std::optional<dnnl::memory::desc> outputLayout() const override { return outputLayout_; }
  void setOutputLayout(std::optional<dnnl::memory::desc> layout) {
    outputLayout_ = std::move(layout);
  }

 private:
  // Calls out[i] = f(in[i], scale[s], zeroPoint[s]) with s the blockwise scale offset of i.
  template <class From, class To, class Q, class F>
  void run(const From* in, To* out, const float* scale, const Q* zeroPoint, F f) const {
    const size_t rank = shape_.size();
    if (rank == 0) {
      out[0] = f(in[0], scale[0], zeroPoint[0]);
      return;
    }
    const int64_t inner = shape_[rank - 1];
    const int64_t innerBlock = blocks_[rank - 1];
    const int64_t innerStride = scaleStrides_[rank - 1];
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < rank; ++d) rows *= shape_[d];
#pragma omp parallel for schedule(static) if (rows > 1 && rows * inner > kParallelElements)
    for (int64_t row = 0; row < rows; ++row) {
      int64_t rest = row, base = 0;
      for (size_t d = rank - 1; d-- > 0;) {
        const int64_t coordinate = rest % shape_[d];
        rest /= shape_[d];
        base += coordinate / blocks_[d] * scaleStrides_[d];
      }
      const From* x = in + row * inner;
      To* y = out + row * inner;
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t s = base + i / innerBlock * innerStride;
        y[i] = f(x[i], scale[s], zeroPoint[s]);
      }
    }
  }

  template <class Q>
  void quantizePerTensor(const float* x, Q* y, float scale, float zero) const {
    const int64_t count = elements_;
    constexpr int64_t kChunk = int64_t{1} << 14;
    const int64_t chunks = (count + kChunk - 1) / kChunk;
    const bool avx512 = hasAvx512();
#pragma omp parallel for schedule(static) if (chunks > 1 && count > kParallelElements)
    for (int64_t c = 0; c < chunks; ++c) {
      const int64_t begin = c * kChunk, n = std::min(kChunk, count - begin);
      if (avx512) {
        quantizePerTensorAvx512(x + begin, y + begin, n, scale, zero);
      } else {
        quantizePerTensorScalar(x + begin, y + begin, n, scale, zero);
      }
    }
  }

  std::optional<dnnl::memory::desc> outputLayout_;  // the blocked input's, in 8 bits
  bool quantize_;
  bool perTensor_ = false;  // one scale and zero point for every element
  int64_t elements_ = 1;
  graph::OperandId input_, scale_, zeroPoint_, output_;
  MLOperandDataType integerType_;
  std::vector<int64_t> shape_, scaleStrides_, blocks_;
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
