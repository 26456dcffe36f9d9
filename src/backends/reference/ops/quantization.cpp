// quantizeLinear: output = saturate(roundEven(input / scale) + zeroPoint): the quotient rounded to
// float32, then to an integer in double, saturated to the output type's range (NaN: 0).
// dequantizeLinear: output = (input - zeroPoint) * scale, computed in double, rounded once.
// scale and zeroPoint are blockwise broadcast: element i of the input uses element
// i[d] / (input[d] / scale[d]) along every dimension d.
#include <cmath>
#include <limits>

#include "backends/reference/ops/registration.h"
#include "graph/ops/quantization.h"

namespace webnn::reference {
namespace {

// Walks the input in row-major order and tracks the offset of the matching scale element.
class BlockwiseIterator {
 public:
  BlockwiseIterator(const std::vector<uint32_t>& shape, const std::vector<uint32_t>& scaleShape)
      : shape_(shape), position_(shape.size(), 0), strides_(stridesOf(scaleShape)) {
    for (size_t d = 0; d < shape.size(); ++d) blocks_.push_back(shape[d] / scaleShape[d]);
    withinBlock_.assign(shape.size(), 0);
  }
  template <class F>
  void forEach(uint64_t count, F&& f) {
    for (uint64_t index = 0; index < count; ++index) {
      f(index, offset_);
      advance();
    }
  }

 private:
  void advance() {
    for (size_t d = shape_.size(); d-- > 0;) {
      if (++position_[d] < shape_[d]) {
        if (++withinBlock_[d] == blocks_[d]) {
          withinBlock_[d] = 0;
          offset_ += strides_[d];
        }
        return;
      }
      position_[d] = 0;
      withinBlock_[d] = 0;
      offset_ -= strides_[d] * (shape_[d] / blocks_[d] - 1);
    }
  }
  std::vector<uint32_t> shape_;
  std::vector<uint32_t> position_;
  std::vector<uint32_t> withinBlock_;
  std::vector<uint32_t> blocks_;
  std::vector<uint64_t> strides_;
  uint64_t offset_ = 0;
};

struct Range {
  double low;
  double high;
};

// The range of a quantized data type.
Range rangeOf(MLOperandDataType type) {
  switch (type) {
    case MLOperandDataType::Int4:
      return {-8, 7};
    case MLOperandDataType::Uint4:
      return {0, 15};
    case MLOperandDataType::Int8:
      return {-128, 127};
    case MLOperandDataType::Uint8:
      return {0, 255};
    case MLOperandDataType::Int32:
      return {-2147483648.0, 2147483647.0};
    case MLOperandDataType::Uint32:
      return {0, 4294967295.0};
    default:
      throwOperationError("quantizeLinear: unsupported output data type");
  }
}

void quantizeLinear(const KernelContext& context) {
  const Tensor input = context.input(0);
  const Tensor scale = context.input(1);
  const Tensor zeroPoint = context.input(2);
  const Tensor out = context.output(0);
  const Range range = rangeOf(out.dataType());
  BlockwiseIterator iterator(input.shape(), graph::padToRank(scale.shape(), input.rank()));
  iterator.forEach(out.elementCount(), [&](uint64_t index, uint64_t offset) {
    // The quotient in float32 for float32 and float16 inputs alike, as ONNX Runtime, the cpu
    // backend (which widens float16) and the GPU backends divide, then rounded half to even: a
    // double quotient just below a tie (25.4999991 for 0.5 / float(5 / 255)) would round the
    // other way, and a float16 quotient rounds 0.25 / half(0.1) = 2.5006 to the tie 2.5.
    const double quotient =
        static_cast<double>(static_cast<float>(input.load(index) / scale.load(offset)));
    const double scaled = std::nearbyint(quotient);  // ties to even
    const double value =
        scaled + static_cast<double>(loadInteger(zeroPoint.dataType(), zeroPoint.data, offset));
    const int64_t result =
        std::isnan(value)
            ? 0
            : static_cast<int64_t>(std::fmin(std::fmax(value, range.low), range.high));
    storeInteger(out.dataType(), out.data, index, result);
  });
}

void dequantizeLinear(const KernelContext& context) {
  const Tensor input = context.input(0);
  const Tensor scale = context.input(1);
  const Tensor zeroPoint = context.input(2);
  const Tensor out = context.output(0);
  BlockwiseIterator iterator(input.shape(), graph::padToRank(scale.shape(), input.rank()));
  iterator.forEach(out.elementCount(), [&](uint64_t index, uint64_t offset) {
    const auto x = static_cast<double>(loadInteger(input.dataType(), input.data, index));
    const auto zero =
        static_cast<double>(loadInteger(zeroPoint.dataType(), zeroPoint.data, offset));
    out.store(index, (x - zero) * scale.load(offset));
  });
}

}  // namespace

void registerQuantizationKernels(KernelTable& table) {
  table.set(graph::OpType::QuantizeLinear, quantizeLinear);
  table.set(graph::OpType::DequantizeLinear, dequantizeLinear);
}

}  // namespace webnn::reference
