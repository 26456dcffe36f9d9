// A float32-activation x block-quantized-weight matrix product for the cpu backend: C = A x W^T
// [+ bias], where W (N x K) holds 4-bit or 8-bit integers with one scale and one zero point per
// block of `blockSize` consecutive elements of a row: W(n, k) = (q(n, k) - zeroPoint(n, b)) *
// scale(n, b), b = k / blockSize. This is the layout of 4-bit LLM weights (ONNX Runtime's
// MatMulNBits, GGUF Q4_0/Q8_0, WebNN's dequantizeLinear of int4/uint4 with block scales): each
// output column's K weights are consecutive. The weights are read as they are stored (two 4-bit
// elements per byte, low nibble first) and widened in registers, block by block, so a batch-1
// product reads 4 bits per weight: the bytes read decide its speed.
#pragma once

#include <cstdint>

namespace webnn::cpu {

// Element `index` of packed integers (4 bits: low nibble first; 8 bits: one byte each), signed or
// not: the weights' and zero points' storage, read by the kernels' portable loops.
inline int32_t packedElementAt(const uint8_t* values, uint64_t index, uint32_t bits,
                               bool isSigned) {
  if (bits == 8) {
    return isSigned ? static_cast<int32_t>(static_cast<int8_t>(values[index]))
                    : static_cast<int32_t>(values[index]);
  }
  const uint32_t nibble = (values[index / 2] >> ((index % 2) * 4)) & 0xF;
  return isSigned ? static_cast<int32_t>(nibble ^ 8) - 8 : static_cast<int32_t>(nibble);
}

struct BlockQuantizedWeights {
  const uint8_t* values = nullptr;  // N x K elements, row-major, packed (4 bits: low nibble first)
  const float* scales = nullptr;    // N x (K / blockSize) float32, or
  const uint16_t* halfScales = nullptr;  // the same as float16 bits (as GGUF's q4_0 stores them)
  const uint8_t* zeroPoints = nullptr;   // N x (K / blockSize) elements, packed like `values`, or
  int32_t uniformZeroPoint = 0;          // every block's zero point, when zeroPoints is null
  uint64_t n = 0, k = 0, blockSize = 0;
  uint32_t bits = 4;  // 4 or 8
  bool isSigned = false;
  uint64_t blocksPerRow() const { return k / blockSize; }
  // Block `index`'s scale (row-major over N x blocks) as float32.
  float scaleAt(uint64_t index) const;
  // Block `index`'s zero point.
  int32_t zeroPointAt(uint64_t index) const;
};

// How many columns of an n-column product a thread claims at a time among `threads`: 256 (the
// first kPrefetchBytes of each chunk's weights are read without the kernel's prefetch, so fewer,
// larger chunks read faster: the decoder's 28 products 4.4-4.9 -> 4.1-4.2 ms on two Zen 5 threads,
// int8 activations 3.5-3.6 -> 2.9-3.1), fewer (down to 64, in whole groups of 8) when that would
// leave a thread without two chunks.
uint64_t blockQuantizedColumnsPerChunk(uint64_t n, int threads);

// Whether the AVX-512 kernel takes these weights (4 bits: blockSize a multiple of 32; 8 bits: of
// 16) on this CPU (avx512f); otherwise the portable loop runs them (correct, slow).
bool blockQuantizedGemmIsFast(const BlockQuantizedWeights& weights);

// Whether blockQuantizedGemm runs m rows on its many-row path (a prompt's tokens at once): the
// weights dequantized to float32 once per 128 rows, in registers-sized panels, and multiplied on
// half_gemm's float32 micro-kernel; otherwise tiles of 4 x 4 that widen each weight for 4 rows.
bool blockQuantizedGemmUsesPanels(uint64_t m, const BlockQuantizedWeights& weights);

// C (m x n, float32, row stride ldc) = A (m x k, float32, row stride lda) x W^T [+ bias (n
// float32, may be null)]. Requires k a multiple of blockSize (and even for 4 bits). Runs on
// OpenMP threads (at most omp_get_max_threads()), split over the columns.
void blockQuantizedGemm(uint64_t m, const float* a, uint64_t lda,
                        const BlockQuantizedWeights& weights, const float* bias, float* c,
                        uint64_t ldc);

// The portable loop (exposed for tests): same contract, one thread.
void blockQuantizedGemmPortable(uint64_t m, const float* a, uint64_t lda,
                                const BlockQuantizedWeights& weights, const float* bias, float* c,
                                uint64_t ldc);

// The same product with A quantized to int8 (block_quantized_gemm_int8.cpp): each row of A in
// blocks of 32 along K, a block's scale its largest magnitude / 127 and each value rounded to the
// nearest integer (llama.cpp's q8_0 activations for its q4_0 products; ONNX Runtime's MatMulNBits
// with accuracy_level 4), then exact integer dot products per block, times the two scales. The
// result differs from blockQuantizedGemm's by the activations' rounding (about 1e-2 relative on a
// decoder); it reads the same weights with fewer operations (VNNI's byte dot products).
// Takes 4-bit weights whose blockSize and K are multiples of 32.
bool blockQuantizedGemmInt8ActivationsTakes(const BlockQuantizedWeights& weights);
// Whether the AVX-512 VNNI kernel runs them (K also a multiple of 64); otherwise the portable loop
// (correct, slow).
bool blockQuantizedGemmInt8ActivationsIsFast(const BlockQuantizedWeights& weights);
void blockQuantizedGemmInt8Activations(uint64_t m, const float* a, uint64_t lda,
                                       const BlockQuantizedWeights& weights, const float* bias,
                                       float* c, uint64_t ldc);
// The portable loop (exposed for tests): same contract, one thread.
void blockQuantizedGemmInt8ActivationsPortable(uint64_t m, const float* a, uint64_t lda,
                                               const BlockQuantizedWeights& weights,
                                               const float* bias, float* c, uint64_t ldc);

}  // namespace webnn::cpu
