#include "backends/cpu/kernels/quantized_glue.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>

namespace webnn::cpu {
namespace {

constexpr int64_t kParallelElements = int64_t{1} << 15;

float apply(GlueOp op, float a, float b) {
  switch (op) {
    case GlueOp::Add:
      return a + b;
    case GlueOp::Sub:
      return a - b;
    case GlueOp::Mul:
      return a * b;
    case GlueOp::Div:
      return a / b;
  }
  return a;
}

// quantizeLinear's arithmetic: the float32 quotient rounded half to even, + zero point (an
// integer: exact), clamped to [0, 255]; NaN gives 0.
uint8_t quantize(float x, float scale, float zero) {
  const float value = std::nearbyint(x / scale) + zero;
  if (std::isnan(value)) return 0;
  return static_cast<uint8_t>(std::fmin(std::fmax(value, 0.0f), 255.0f));
}

// y[k] = quantize(op(a[k], b[bStep * k])) for k < count: b varying (bStep 1) or one value (0).
void rowPortable(GlueOp op, const float* a, const float* b, int64_t bStep, int64_t count,
                 float scale, float zero, uint8_t* y) {
  for (int64_t k = 0; k < count; ++k) y[k] = quantize(apply(op, a[k], b[bStep * k]), scale, zero);
}

template <GlueOp kOp>
__attribute__((target("avx512f,avx512bw,avx512vl"))) __m512 applyAvx512(__m512 a, __m512 b) {
  if constexpr (kOp == GlueOp::Add) return _mm512_add_ps(a, b);
  if constexpr (kOp == GlueOp::Sub) return _mm512_sub_ps(a, b);
  if constexpr (kOp == GlueOp::Mul) return _mm512_mul_ps(a, b);
  return _mm512_div_ps(a, b);
}

template <GlueOp kOp, bool kVaryingB>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void rowAvx512(const float* a, const float* b,
                                                                    int64_t count, float scale,
                                                                    float zero, uint8_t* y) {
  const __m512 s = _mm512_set1_ps(scale), z = _mm512_set1_ps(zero);
  const __m512 low = _mm512_setzero_ps(), high = _mm512_set1_ps(255.0f);
  const __m512 scalarB = _mm512_set1_ps(kVaryingB ? 0.0f : b[0]);
  for (int64_t k = 0; k < count; k += 16) {
    const __mmask16 mask =
        count - k >= 16 ? __mmask16(0xffff) : __mmask16((1u << (count - k)) - 1u);
    const __m512 x = _mm512_maskz_loadu_ps(mask, a + k);
    const __m512 other = kVaryingB ? _mm512_maskz_loadu_ps(mask, b + k) : scalarB;
    const __m512 quotient = _mm512_div_ps(applyAvx512<kOp>(x, other), s);
    __m512 value = _mm512_add_ps(
        _mm512_roundscale_ps(quotient, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), z);
    const __mmask16 isNumber = _mm512_cmp_ps_mask(value, value, _CMP_ORD_Q);
    value = _mm512_maskz_mov_ps(isNumber, _mm512_min_ps(_mm512_max_ps(value, low), high));
    _mm_mask_storeu_epi8(y + k, mask, _mm512_cvtusepi32_epi8(_mm512_cvtps_epi32(value)));
  }
}

// 16 rows of 16 floats transposed in registers (unpack, in-lane shuffles, lane shuffles).
__attribute__((target("avx512f"))) inline void transpose16x16(__m512 r[16]) {
  __m512 t[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      t[8 * i + j] = _mm512_shuffle_f32x4(r[8 * i + j], r[8 * i + 4 + j], 0x88);
      t[8 * i + 4 + j] = _mm512_shuffle_f32x4(r[8 * i + j], r[8 * i + 4 + j], 0xdd);
    }
  }
  for (int j = 0; j < 8; ++j) {
    r[j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0x88);
    r[8 + j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0xdd);
  }
}

// Transposed: positions [s0, s0 + positions) of image n, every channel; b's tiles of 16
// positions x 16 channels transposed in registers.
template <GlueOp kOp>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void transposedAvx512(
    const float* a, const float* b, int64_t n, int64_t s0, int64_t positions, int64_t channels,
    int64_t spatial, float scale, float zero, uint8_t* y) {
  const __m512 s = _mm512_set1_ps(scale), z = _mm512_set1_ps(zero);
  const __m512 low = _mm512_setzero_ps(), high = _mm512_set1_ps(255.0f);
  const __mmask16 positionMask =
      positions == 16 ? __mmask16(0xffff) : __mmask16((1u << positions) - 1u);
  for (int64_t c0 = 0; c0 < channels; c0 += 16) {
    const int64_t count = std::min<int64_t>(16, channels - c0);
    const __mmask16 mask = count == 16 ? __mmask16(0xffff) : __mmask16((1u << count) - 1u);
    __m512 r[16];
    for (int64_t c = 0; c < 16; ++c) {
      r[c] = c < count
                 ? _mm512_maskz_loadu_ps(positionMask, b + (n * channels + c0 + c) * spatial + s0)
                 : _mm512_setzero_ps();
    }
    transpose16x16(r);  // r[p]: the 16 channels at position s0 + p
    for (int64_t p = 0; p < positions; ++p) {
      const int64_t offset = (n * spatial + s0 + p) * channels + c0;
      const __m512 x = _mm512_maskz_loadu_ps(mask, a + offset);
      const __m512 quotient = _mm512_div_ps(applyAvx512<kOp>(x, r[p]), s);
      __m512 value = _mm512_add_ps(
          _mm512_roundscale_ps(quotient, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), z);
      const __mmask16 isNumber = _mm512_cmp_ps_mask(value, value, _CMP_ORD_Q);
      value = _mm512_maskz_mov_ps(isNumber, _mm512_min_ps(_mm512_max_ps(value, low), high));
      _mm_mask_storeu_epi8(y + offset, mask, _mm512_cvtusepi32_epi8(_mm512_cvtps_epi32(value)));
    }
  }
}

using Transposed = void (*)(const float*, const float*, int64_t, int64_t, int64_t, int64_t, int64_t,
                            float, float, uint8_t*);

Transposed avx512Transposed(GlueOp op) {
  switch (op) {
    case GlueOp::Add:
      return transposedAvx512<GlueOp::Add>;
    case GlueOp::Sub:
      return transposedAvx512<GlueOp::Sub>;
    case GlueOp::Mul:
      return transposedAvx512<GlueOp::Mul>;
    case GlueOp::Div:
      return transposedAvx512<GlueOp::Div>;
  }
  return nullptr;
}

bool hasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f") != 0 &&
                          __builtin_cpu_supports("avx512bw") != 0 &&
                          __builtin_cpu_supports("avx512vl") != 0;
  return has;
}

using Row = void (*)(const float*, const float*, int64_t, float, float, uint8_t*);

template <bool kVaryingB>
Row avx512Row(GlueOp op) {
  switch (op) {
    case GlueOp::Add:
      return rowAvx512<GlueOp::Add, kVaryingB>;
    case GlueOp::Sub:
      return rowAvx512<GlueOp::Sub, kVaryingB>;
    case GlueOp::Mul:
      return rowAvx512<GlueOp::Mul, kVaryingB>;
    case GlueOp::Div:
      return rowAvx512<GlueOp::Div, kVaryingB>;
  }
  return nullptr;
}

}  // namespace

void binaryQuantizeUint8(GlueOp op, const float* a, const float* b, const GlueShape& shape,
                         float scale, float zeroPoint, uint8_t* y) {
  const bool avx512 = hasAvx512();
  const Row varying = avx512 ? avx512Row<true>(op) : nullptr;
  const Row uniform = avx512 ? avx512Row<false>(op) : nullptr;
  // row(a, b, varying b?, count, y)
  auto row = [&](const float* x, const float* other, bool varyingB, int64_t count, uint8_t* out) {
    if (avx512) {
      (varyingB ? varying : uniform)(x, other, count, scale, zeroPoint, out);
    } else {
      rowPortable(op, x, other, varyingB ? 1 : 0, count, scale, zeroPoint, out);
    }
  };
  const int64_t elements = shape.elements();
  using Broadcast = GlueShape::Broadcast;
  if (shape.broadcast == Broadcast::Transposed) {
    // Tiles of 16 positions x 16 channels: b's tile transposed into a buffer, then rows of a.
    constexpr int64_t kTile = 16;
    const int64_t channels = shape.block, spatial = shape.spatial;
    const int64_t spatialTiles = (spatial + kTile - 1) / kTile;
    const int64_t tiles = shape.outer * spatialTiles;
    const Transposed transposed = avx512 ? avx512Transposed(op) : nullptr;
#pragma omp parallel for schedule(static) if (tiles > 1 && elements > kParallelElements)
    for (int64_t t = 0; t < tiles; ++t) {
      const int64_t n = t / spatialTiles, s0 = (t % spatialTiles) * kTile;
      const int64_t positions = std::min(kTile, spatial - s0);
      if (transposed) {
        transposed(a, b, n, s0, positions, channels, spatial, scale, zeroPoint, y);
        continue;
      }
      alignas(64) float tile[kTile][kTile];
      for (int64_t c0 = 0; c0 < channels; c0 += kTile) {
        const int64_t count = std::min(kTile, channels - c0);
        for (int64_t c = 0; c < count; ++c) {
          const float* column = b + (n * channels + c0 + c) * spatial + s0;
          for (int64_t p = 0; p < positions; ++p) tile[p][c] = column[p];
        }
        for (int64_t p = 0; p < positions; ++p) {
          const int64_t offset = (n * spatial + s0 + p) * channels + c0;
          row(a + offset, tile[p], true, count, y + offset);
        }
      }
    }
    return;
  }
  if (shape.broadcast != Broadcast::PerChannel) {
    // One flat run, in chunks.
    constexpr int64_t kChunk = int64_t{1} << 14;
    const int64_t chunks = (elements + kChunk - 1) / kChunk;
    const bool full = shape.broadcast == Broadcast::Full;
#pragma omp parallel for schedule(static) if (chunks > 1 && elements > kParallelElements)
    for (int64_t c = 0; c < chunks; ++c) {
      const int64_t begin = c * kChunk, count = std::min(elements, begin + kChunk) - begin;
      row(a + begin, full ? b + begin : b, full, count, y + begin);
    }
    return;
  }
  // Per channel: rows of `block` elements (b varying along them) or, with blocks of one, rows of
  // `spatial` elements of one channel (b one value along them).
  const int64_t rows = shape.outer * shape.blocks * (shape.block == 1 ? 1 : shape.spatial);
  const int64_t length = shape.block == 1 ? shape.spatial : shape.block;
#pragma omp parallel for schedule(static) if (rows > 1 && elements > kParallelElements)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t offset = r * length;
    if (shape.block == 1) {  // r = (outer, channel)
      row(a + offset, b + r % shape.blocks, false, length, y + offset);
    } else {  // r = (outer, block, spatial)
      const int64_t blockIndex = (r / shape.spatial) % shape.blocks;
      row(a + offset, b + blockIndex * shape.block, true, length, y + offset);
    }
  }
}

}  // namespace webnn::cpu
