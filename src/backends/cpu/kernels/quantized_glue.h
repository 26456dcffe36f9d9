// The float32 glue between a QDQ model's quantized layers, quantized as the next layer reads it:
// y = saturate(roundEven(op(a, b) / scale) + zeroPoint) into uint8, with op an add, sub, mul or
// div of float32 values (a residual add, a squeeze-and-excitation multiply), the quotient in
// float32 and NaN giving 0: the values the reference gives for op then quantizeLinear. An
// AVX-512 loop (16 elements at a time, the tail masked) where the CPU has AVX-512F, a portable
// one elsewhere; OpenMP threads over rows when there are many elements.
#pragma once

#include <cstdint>

namespace webnn::cpu {

enum class GlueOp { Add, Sub, Mul, Div };

// How b broadcasts over a, both seen as [outer][blocks][spatial][block] in memory order (a
// dense, b's element for a's element (o, c, s, k) at c * block + k, the channel): b one value
// (scalar), b one per channel (perChannel: nchw is blocks = C, block = 1; nhwc is blocks = 1,
// block = C; nChw16c is blocks = C / 16, block = 16), b shaped and laid out as a (full: only
// `outer` counts, as the element count), or b of a's shape in nchw where a is nhwc (transposed:
// outer = N, spatial = H x W, block = C; b's element (n, c, s) at (n x C + c) x spatial + s).
struct GlueShape {
  enum class Broadcast { Full, Scalar, PerChannel, Transposed } broadcast = Broadcast::Full;
  int64_t outer = 1, blocks = 1, spatial = 1, block = 1;
  int64_t elements() const { return outer * blocks * spatial * block; }
};

void binaryQuantizeUint8(GlueOp op, const float* a, const float* b, const GlueShape& shape,
                         float scale, float zeroPoint, uint8_t* y);

}  // namespace webnn::cpu
