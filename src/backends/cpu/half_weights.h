// A float16 model's convolution filter kept 16-bit (widen_float16.h): a hollow constant whose
// bytes arrive as float16 is packed on arrival into the layout the primitive chose for float32
// (format_tag::any), but with float16 elements, so it takes half the memory of the widened filter.
// At every dispatch the packed filter is widened, element for element (the blocked order does not
// depend on the element type, padding included), into the step's workspace, where the float32
// primitive reads it. The scratch is one filter at a time: the arena reuses it across steps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <dnnl.hpp>
#include <memory>
#include <vector>

#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {

class HalfPackedWeights {
 public:
  // The filter `id` of the op being compiled, kept as float16 in the layout of `packedFloat`
  // (the primitive's float32 weights descriptor); `plain`: its float32 values in the descriptor's
  // layout. Null unless `id` is a hollow constant whose bytes arrive as float16, read by this op
  // only and not a graph output (so that the graph packs it on arrival).
  static std::unique_ptr<HalfPackedWeights> create(const OpCompileContext& context,
                                                   graph::OperandId id,
                                                   const dnnl::memory::desc& plain,
                                                   const dnnl::memory::desc& packedFloat);

  // prepareConstants(): nothing to pack at dispatch (the slot scattered the bytes), but the
  // packed constant checks that the graph placed it.
  void prepare(void* plainBytes) { half_->pack(plainBytes); }
  // The workspace the widened filter takes (64-byte aligned size).
  uint64_t workspaceBytes() const { return (packedFloat_.get_size() + 63) / 64 * 64; }
  // Widens the packed float16 filter into `workspace` (null: a buffer of the memory's own) and
  // returns it as the primitive's float32 weights.
  dnnl::memory widen(const dnnl::engine& engine, std::byte* workspace) const;
  // Widens it into `to` (workspaceBytes(), in the primitive's float32 layout), for a memory
  // object the caller keeps.
  void widenInto(std::byte* to) const;
  const dnnl::memory::desc& widenedDesc() const { return packedFloat_; }

 private:
  HalfPackedWeights(std::shared_ptr<PackedConstant> half, dnnl::memory::desc packedFloat)
      : half_(std::move(half)), packedFloat_(std::move(packedFloat)) {}
  std::shared_ptr<PackedConstant> half_;
  dnnl::memory::desc packedFloat_;
};

// Which float16 filters of `ir` stay 16-bit (per operand; `arrivesAsFloat16` as CpuConstants
// takes it). Widening a filter at every dispatch costs a fixed price per filter (the call, the
// oneDNN memory object the primitive reads it through) plus one pass over its bytes; PaddleOCR
// cls, 1.1 ms of 53 small convolutions, lost 5% of its time to it. So filters are widened once,
// on arrival, smallest first (the most fixed prices per byte), while the bytes that adds (a
// widened filter takes twice its float16 bytes) stay within kHalfFiltersWidenedBytes + 5% of the
// graph's float16 weights: a graph whose filters fit in that budget (cls: 0.24 MiB) keeps none
// 16-bit and runs as its float32 form does; a larger one keeps its largest filters 16-bit (their
// widening is mostly the pass over the bytes), and its weights stay within 1.05 x its float16
// weights + kHalfFiltersWidenedBytes, a constant. How often a dispatch uses a filter's weights
// does not matter: widening costs the same absolute time whatever the convolution costs.
// A filter's bytes are counted as packed, with its channels padded as far as oneDNN's blocked
// float32 layouts pad them on AVX-512 (output channels, or a depthwise filter's groups, to 64;
// input channels to 16): the budget holds whatever layout a primitive picks.
constexpr uint64_t kHalfFiltersWidenedBytes = 1ull << 20;
constexpr uint64_t kHalfFilterOuterBlock = 64, kHalfFilterInnerBlock = 16;
std::vector<bool> float16FiltersKept(const graph::GraphIR& ir,
                                     const std::vector<bool>& arrivesAsFloat16);
// The elements of a filter of `elements` weights with its channels padded to those blocks;
// `elements` when the channels do not divide it.
uint64_t paddedFilterElements(uint64_t elements, uint64_t inputChannels, uint64_t outputChannels,
                              uint64_t groups);

// `desc` with float16 elements in the same layout (dims, blocking, padding).
dnnl::memory::desc withHalfElements(const dnnl::memory::desc& desc);

}  // namespace webnn::cpu
