// quantizeLinear and dequantizeLinear on the cpu backend, with the reference's arithmetic:
// quantize = saturate(roundEven(x / scale) + zeroPoint), the quotient in float32, the rest in
// double (NaN gives 0), dequantize =
// (x - zeroPoint) * scale in double, rounded once to float32. scale and zeroPoint broadcast
// blockwise (graph/ops/quantization.h): element i uses scale element i[d] / (input[d] / scale[d])
// along each dimension d. float32 scales and values; int8, uint8, int32 and uint32 quantized
// values (int4/uint4 stay on the reference). OpenMP over rows of the innermost dimension.
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
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    visitDataType(integerType_, [&]<class Q>(TypeTag<Q>) {
      if constexpr (std::is_integral_v<Q> && sizeof(Q) <= 4) {
        const float* scale = tensors[scale_].as<float>();
        const Q* zeroPoint = tensors[zeroPoint_].as<Q>();
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

  bool quantize_;
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
  return std::make_unique<QuantizationOp>(context);
}

}  // namespace webnn::cpu
