// cast, following the spec's table:
// - float to float: nearest representable value (+/-Infinity when out of range);
// - float to integer: truncated toward zero; out of range (implementation-defined) saturates to
//   the target's range, NaN gives 0;
// - integer to float: nearest representable value, rounded once (int64/uint64 convert directly);
// - integer to integer: the lowest N bits, two's complement (int64/uint64 exact, no double).
#include "backends/reference/ops/registration.h"

namespace webnn::reference {
namespace {

// The integer element `index` as the nearest float32 value (exactly representable in double).
double integerToFloat(MLOperandDataType type, const std::byte* base, uint64_t index) {
  const int64_t value = loadInteger(type, base, index);
  if (type == MLOperandDataType::Uint64) {
    return static_cast<double>(static_cast<float>(static_cast<uint64_t>(value)));
  }
  return static_cast<double>(static_cast<float>(value));
}

void cast(const KernelContext& context) {
  const Tensor input = context.input(0);
  const Tensor out = context.output(0);
  const MLOperandDataType from = input.dataType();
  const MLOperandDataType to = out.dataType();
  const uint64_t count = out.elementCount();
  if (isFloatingPoint(from)) {
    // storeElement rounds to nearest for floats, truncates and saturates for integers.
    for (uint64_t i = 0; i < count; ++i) out.store(i, input.load(i));
  } else if (isFloatingPoint(to)) {
    // Rounded once to float32; float16 then rounds that float32, which is exact below 2^24 and
    // overflows to Infinity above 65504 either way.
    for (uint64_t i = 0; i < count; ++i) out.store(i, integerToFloat(from, input.data, i));
  } else {
    for (uint64_t i = 0; i < count; ++i) {
      storeInteger(to, out.data, i, loadInteger(from, input.data, i));
    }
  }
}

}  // namespace

void registerCastKernels(KernelTable& table) {
  table.set(graph::OpType::Cast, cast);
}

}  // namespace webnn::reference
