// convTranspose2d whose stride equals its kernel, without padding, dilation or groups: every input
// pixel writes a kernelH x kernelW patch of its own, and no two patches overlap (the 2x2 stride-2
// upsampling of segmentation heads, PaddleOCR det's two among them). Then the output is a matrix
// product per pixel, and nothing is accumulated across pixels:
//   output[n, o, ih * KH + kh, iw * KW + kw] = bias[o] + sum_i input[n, i, ih, iw] * w(o, i, kh,
//   kw)
// nchw float32; w read through strides, so any filter layout works (a constant is packed once as
// [o][kh][kw][i], the channel sums contiguous). OpenMP over (n, o, ih) rows.
#pragma once

#include <cstdint>

namespace webnn::cpu {

struct PatchDeconvolutionShape {
  int64_t batches = 0, inputChannels = 0, inputHeight = 0, inputWidth = 0;
  int64_t outputChannels = 0, kernelHeight = 0, kernelWidth = 0;
  // Element strides of w(o, i, kh, kw).
  int64_t strideO = 0, strideI = 0, strideH = 0, strideW = 0;
};

// `bias` may be null. `input` and `output` are nchw, dense.
void patchDeconvolution(const PatchDeconvolutionShape& shape, const float* input,
                        const float* weights, const float* bias, float* output);

}  // namespace webnn::cpu
