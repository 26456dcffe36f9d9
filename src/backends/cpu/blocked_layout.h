// Where each element of a constant goes in a oneDNN blocked layout, computed from the packed
// memory descriptor's blocking description (dnnl_memory_desc_t::format_desc.blocking: outer
// strides, inner blocks), so that any byte range of the constant in its descriptor's layout can be
// scattered straight into the packed buffer. A byte range of a row-major tensor is not a box, and
// oneDNN's submemory descriptors of blocked layouts need block-aligned offsets, hence our own
// scatter rather than a submemory reorder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <dnnl.hpp>
#include <optional>
#include <vector>

namespace webnn::cpu {

class BlockedScatter {
 public:
  // `plain`: the constant's bytes as the primitive sees them in the descriptor's layout (a strided
  // descriptor that is a dense permutation of the logical dims, e.g. a conv filter in hwio order or
  // a transposed gemm B). `packed`: the layout the primitive chose. Null when `packed` is not a
  // plain blocked format (format_kind != blocked), when the dims or data types differ, when
  // `plain` is not dense, or when `packed` carries extra data we cannot reproduce. The extra data
  // we do reproduce: oneDNN 2.6's compensation of int8 weights (s8s8 and asymmetric source, int32
  // per (group,) output channel after the weights, scale_adjust 1), written by
  // writeCompensation() once every element is in.
  static std::optional<BlockedScatter> create(const dnnl::memory::desc& plain,
                                              const dnnl::memory::desc& packed);

  // Whether the packed layout is the plain one, byte for byte (oneDNN chose the descriptor's
  // layout: the constant needs no packing at all).
  bool identity() const { return identity_; }
  uint64_t elementSize() const { return elementSize_; }              // in the packed layout
  uint64_t sourceElementSize() const { return sourceElementSize_; }  // in the plain one
  bool widens() const { return widens_; }
  uint64_t elementCount() const { return elementCount_; }

  // Copies elements [firstElement, firstElement + count) of the plain layout (their linear
  // order), which `source` holds, to their places in `destination` (the packed buffer), on up to
  // `threads` OpenMP threads. Distinct source elements go to distinct destination elements, so
  // scatters of disjoint ranges may run concurrently. Padding of the packed layout is not touched.
  void scatter(const std::byte* source, uint64_t firstElement, uint64_t count,
               std::byte* destination, int threads) const;

  // Whether the packed layout carries compensation after the elements (int8 weights for a source
  // zero point, or s8 sources): scatter() leaves it alone, writeCompensation() computes it.
  bool hasCompensation() const { return compensation_.s8s8 || compensation_.asymmetric; }
  // Every element of `packed` (the packed buffer, its padding zero) is in: writes the
  // compensation as oneDNN 2.6's weights reorder does (simple_reorder.hpp conv_req_comp,
  // jit_uni_reorder's reduce_compensation): after the padded weights rounded up to 4 bytes, int32
  // per compensated index (the dims of the mask, padded, row-major): the s8s8 values
  // 128 * -sum, then (at s8s8 bytes further when both) the asymmetric-source ones -sum, each sum
  // over the other dims of the packed weights. On up to `threads` OpenMP threads.
  void writeCompensation(std::byte* packed, int threads) const;

 private:
  BlockedScatter() = default;
  // Scatters one contiguous piece of a range on the calling thread.
  void scatterSerial(const std::byte* source, uint64_t firstElement, uint64_t count,
                     std::byte* destination) const;
  // Element by element along the plain layout, a segment (one packed step) at a time.
  void walk(const std::byte* source, uint64_t firstElement, uint64_t count,
            std::byte* destination) const;
  // Copies (or widens) `count` elements from `from` to `to`, `stride` packed elements apart.
  void copyRun(std::byte* to, const std::byte* from, uint64_t count, int64_t stride,
               bool streaming) const;
  // `rows` whole rows of the innermost plain dim from `firstElement` (a row start), column
  // segment by column segment.
  void tiled(const std::byte* source, uint64_t firstElement, uint64_t rows,
             std::byte* destination) const;
  struct InnerBlock {
    int dim;
    int64_t size;
    int64_t stride;  // in elements, inside the block area
  };
  // A logical coordinate of dim d, as the packed layout splits it: mixed-radix digits, innermost
  // first (one per inner block of d, then the outer block index, whose radix is unbounded), each
  // with its packed stride. Walking the plain layout then updates the packed offset with adds.
  static constexpr int kMaxDigits = DNNL_MAX_NDIMS + 1;
  struct Digits {
    int count = 1;
    int64_t radix[kMaxDigits] = {};
    int64_t stride[kMaxDigits] = {};
  };
  struct Walker;
  int ndims_ = 0;
  std::vector<int64_t> dims_;           // logical dims
  std::vector<int64_t> outerStrides_;   // packed strides of the outer (block index) coordinates
  std::vector<int64_t> paddedOffsets_;  // packed padded_offsets
  std::vector<InnerBlock> blocks_;      // innermost last
  std::vector<Digits> digits_;          // per dim
  int64_t offset0_ = 0;
  // The plain layout: dims of extent > 1, outermost first, with their plain strides.
  std::vector<int> plainOrder_;
  std::vector<int64_t> plainStrides_;
  // The innermost plain dim (-1 for a one-element constant).
  int runDim_ = -1;
  uint64_t elementSize_ = 0;
  uint64_t sourceElementSize_ = 0;
  uint64_t elementCount_ = 0;
  bool identity_ = false;
  bool widens_ = false;  // float16 source elements, float32 packed ones

  // The packed layout as nested axes (each dim's outer block index and inner blocks, extent > 1),
  // outermost first: where each of its elements is, and which compensation index it adds to.
  struct Axis {
    int64_t count;
    int64_t stride;       // packed elements
    int64_t channelStep;  // compensation entries (0: a reduced dim)
  };
  struct Compensation {
    bool s8s8 = false;
    bool asymmetric = false;
    int64_t entries = 0;      // int32 values per kind
    uint64_t s8s8Offset = 0;  // bytes
    uint64_t asymmetricOffset = 0;
    std::vector<Axis> axes;
  };
  Compensation compensation_;
  static bool describeCompensation(const dnnl_memory_desc_t& packed, Compensation& out);
  void sumAxes(const int8_t* packed, size_t level, int64_t offset, int64_t channel,
               int64_t* sums) const;
};

}  // namespace webnn::cpu
