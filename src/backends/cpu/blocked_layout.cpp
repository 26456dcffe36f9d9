#include "backends/cpu/blocked_layout.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "core/checked_math.h"
#include "core/float16.h"
#include "core/float16_convert.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace webnn::cpu {
namespace {

// Copies `bytes` to `to`, bypassing the cache where both are whole aligned cache lines: packed
// weights are written once, long before they are read, so a streaming store saves reading each
// destination line first (the caller fences).
inline void streamCopy(std::byte* to, const std::byte* from, uint64_t bytes) {
#if defined(__SSE2__)
  if (bytes % 64 == 0 && reinterpret_cast<uintptr_t>(to) % 16 == 0) {
    for (uint64_t i = 0; i < bytes; i += 16) {
      const __m128i value = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
      _mm_stream_si128(reinterpret_cast<__m128i*>(to + i), value);
    }
    return;
  }
#endif
  std::memcpy(to, from, bytes);
}

// Widens `count` float16 values (any alignment) to float32, `stride` floats apart in `to`.
void widenRun(float* to, const std::byte* from, uint64_t count, int64_t stride) {
  if (stride == 1) {
    convertHalfToFloat(reinterpret_cast<const uint16_t*>(from), to, count);
    return;
  }
  for (uint64_t i = 0; i < count; ++i) {
    uint16_t half;
    std::memcpy(&half, from + 2 * i, sizeof half);
    to[static_cast<int64_t>(i) * stride] = halfToFloat(half);
  }
}

}  // namespace

std::optional<BlockedScatter> BlockedScatter::create(const dnnl::memory::desc& plain,
                                                     const dnnl::memory::desc& packed) {
  const dnnl_memory_desc_t& p = plain.data;
  const dnnl_memory_desc_t& q = packed.data;
  if (p.format_kind != dnnl_blocked || q.format_kind != dnnl_blocked) return std::nullopt;
  const bool widens = p.data_type == dnnl_f16 && q.data_type == dnnl_f32;
  if (p.ndims != q.ndims || p.ndims <= 0 || (p.data_type != q.data_type && !widens)) {
    return std::nullopt;
  }
  if (p.format_desc.blocking.inner_nblks != 0 || p.offset0 != 0) return std::nullopt;
  if (p.extra.flags != 0) return std::nullopt;
  BlockedScatter scatter;
  // Extra data after the elements: the compensation of int8 weights, which we write ourselves
  // once the elements are in (writeCompensation), when we know its layout.
  if (q.extra.flags != 0) {
    if (p.data_type != dnnl_s8 || q.data_type != dnnl_s8) return std::nullopt;
    for (int d = 0; d < q.ndims; ++d) {
      if (p.dims[d] != q.dims[d] || q.dims[d] <= 0) return std::nullopt;
    }
    if (!describeCompensation(q, scatter.compensation_)) return std::nullopt;
  }
  scatter.ndims_ = q.ndims;
  scatter.widens_ = widens;
  scatter.elementSize_ = dnnl::memory::data_type_size(packed.data_type());
  scatter.sourceElementSize_ = dnnl::memory::data_type_size(plain.data_type());
  if (scatter.elementSize_ == 0 || scatter.sourceElementSize_ == 0) return std::nullopt;
  uint64_t count = 1;
  for (int d = 0; d < q.ndims; ++d) {
    if (p.dims[d] != q.dims[d] || q.dims[d] <= 0) return std::nullopt;
    scatter.dims_.push_back(q.dims[d]);
    scatter.outerStrides_.push_back(q.format_desc.blocking.strides[d]);
    scatter.paddedOffsets_.push_back(q.padded_offsets[d]);
    const auto product = checked::mul<uint64_t>(count, static_cast<uint64_t>(q.dims[d]));
    if (!product) return std::nullopt;
    count = *product;
  }
  scatter.elementCount_ = count;
  scatter.offset0_ = q.offset0;

  // The plain layout must be a dense permutation of the dims of extent > 1.
  std::vector<int> order;
  for (int d = 0; d < p.ndims; ++d) {
    if (p.dims[d] > 1) order.push_back(d);
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return p.format_desc.blocking.strides[a] > p.format_desc.blocking.strides[b];
  });
  int64_t expected = 1;
  for (size_t i = order.size(); i-- > 0;) {
    if (p.format_desc.blocking.strides[order[i]] != expected) return std::nullopt;
    expected *= p.dims[order[i]];
  }
  scatter.plainOrder_ = order;
  for (int d : order) scatter.plainStrides_.push_back(p.format_desc.blocking.strides[d]);

  const auto& blocking = q.format_desc.blocking;
  scatter.blocks_.resize(static_cast<size_t>(blocking.inner_nblks));
  int64_t blockStride = 1;
  for (int k = blocking.inner_nblks; k-- > 0;) {
    if (blocking.inner_blks[k] <= 0) return std::nullopt;
    scatter.blocks_[static_cast<size_t>(k)] = {static_cast<int>(blocking.inner_idxs[k]),
                                               blocking.inner_blks[k], blockStride};
    blockStride *= blocking.inner_blks[k];
  }

  if (!order.empty()) scatter.runDim_ = order.back();
  scatter.digits_.resize(static_cast<size_t>(q.ndims));
  for (int d = 0; d < q.ndims; ++d) {
    Digits& digits = scatter.digits_[static_cast<size_t>(d)];
    digits.count = 0;
    for (size_t k = scatter.blocks_.size(); k-- > 0;) {  // innermost block first
      if (scatter.blocks_[k].dim != d) continue;
      digits.radix[digits.count] = scatter.blocks_[k].size;
      digits.stride[digits.count] = scatter.blocks_[k].stride;
      ++digits.count;
    }
    digits.radix[digits.count] = 0;  // the outer block index: unbounded
    digits.stride[digits.count] = blocking.strides[d];
    ++digits.count;
  }

  bool identity = !widens && blocking.inner_nblks == 0 && q.offset0 == 0 &&
                  packed.get_size() == count * scatter.elementSize_;
  for (int d = 0; d < q.ndims && identity; ++d) {
    if (q.padded_dims[d] != q.dims[d] || q.padded_offsets[d] != 0) identity = false;
    if (q.dims[d] > 1 && blocking.strides[d] != p.format_desc.blocking.strides[d]) identity = false;
  }
  scatter.identity_ = identity;
  return scatter;
}

bool BlockedScatter::describeCompensation(const dnnl_memory_desc_t& q, Compensation& out) {
  const uint64_t s8s8 = dnnl_memory_extra_flag_compensation_conv_s8s8;
  const uint64_t asymmetric = dnnl_memory_extra_flag_compensation_conv_asymmetric_src;
  const uint64_t scaleAdjust = dnnl_memory_extra_flag_scale_adjust;
  const uint64_t flags = q.extra.flags;
  if ((flags & ~(s8s8 | asymmetric | scaleAdjust)) != 0) return false;
  // A scale_adjust other than 1 scales the weights themselves (s8s8 without VNNI): the reorder's
  // bytes are not the file's.
  if ((flags & scaleAdjust) != 0 && q.extra.scale_adjust != 1.0f) return false;
  out.s8s8 = (flags & s8s8) != 0;
  out.asymmetric = (flags & asymmetric) != 0;
  if (!out.s8s8 && !out.asymmetric) return true;  // nothing after the elements
  // oneDNN indexes both kinds by the s8s8 mask when both are there (reduce_compensation).
  const int mask = out.s8s8 ? q.extra.compensation_mask : q.extra.asymm_compensation_mask;
  if (out.s8s8 && out.asymmetric && q.extra.asymm_compensation_mask != mask) return false;
  // (Group,) output channel of a convolution filter; the columns of a matmul B.
  if (!(mask == 1 || mask == 3 || (mask == 2 && q.ndims == 2)) || mask >= (1 << q.ndims)) {
    return false;
  }
  if (q.offset0 != 0) return false;
  const auto& blocking = q.format_desc.blocking;
  // Compensation index strides: the masked dims, padded, row-major.
  int64_t channelStride[DNNL_MAX_NDIMS] = {};
  int64_t entries = 1;
  for (int d = q.ndims; d-- > 0;) {
    if (q.padded_offsets[d] != 0 || q.padded_dims[d] < q.dims[d]) return false;
    if ((mask & (1 << d)) == 0) continue;
    channelStride[d] = entries;
    entries *= q.padded_dims[d];
  }
  int64_t blockProduct[DNNL_MAX_NDIMS];
  for (int d = 0; d < q.ndims; ++d) blockProduct[d] = 1;
  std::vector<Axis> axes;
  int64_t blockStride = 1;
  for (int k = blocking.inner_nblks; k-- > 0;) {  // innermost block first
    const int d = static_cast<int>(blocking.inner_idxs[k]);
    const int64_t size = blocking.inner_blks[k];
    if (d < 0 || d >= q.ndims || size <= 0) return false;
    axes.push_back({size, blockStride, channelStride[d] * blockProduct[d]});
    blockProduct[d] *= size;
    blockStride *= size;
  }
  for (int d = 0; d < q.ndims; ++d) {
    if (q.padded_dims[d] % blockProduct[d] != 0) return false;
    axes.push_back({q.padded_dims[d] / blockProduct[d], blocking.strides[d],
                    channelStride[d] * blockProduct[d]});
  }
  std::erase_if(axes, [](const Axis& axis) { return axis.count == 1; });
  std::stable_sort(axes.begin(), axes.end(),
                   [](const Axis& a, const Axis& b) { return a.stride > b.stride; });
  int64_t last = 0;  // the last packed element
  for (const Axis& axis : axes) {
    if (axis.stride <= 0) return false;
    last += (axis.count - 1) * axis.stride;
  }
  // oneDNN's size(): the elements rounded up to 4 bytes, then additional_buffer_size(), which
  // counts the int32 entries three times over (once per extra flag it knows, each sized by the
  // first flag set), whichever kinds are there.
  const uint64_t dataBytes = (static_cast<uint64_t>(last) + 1 + 3) / 4 * 4;
  const uint64_t entryBytes = static_cast<uint64_t>(entries) * sizeof(int32_t);
  if (dnnl_memory_desc_get_size(&q) != dataBytes + 3 * entryBytes) return false;
  out.entries = entries;
  out.s8s8Offset = dataBytes;
  out.asymmetricOffset = dataBytes + (out.s8s8 ? entryBytes : 0);
  out.axes = std::move(axes);
  return true;
}

void BlockedScatter::sumAxes(const int8_t* packed, size_t level, int64_t offset, int64_t channel,
                             int64_t* sums) const {
  const Axis& axis = compensation_.axes[level];
  if (level + 1 < compensation_.axes.size()) {
    for (int64_t i = 0; i < axis.count; ++i) {
      sumAxes(packed, level + 1, offset + i * axis.stride, channel + i * axis.channelStep, sums);
    }
    return;
  }
  const int8_t* values = packed + offset;
  if (axis.channelStep == 0) {
    int64_t sum = 0;
    for (int64_t i = 0; i < axis.count; ++i) sum += values[i * axis.stride];
    sums[channel] += sum;
  } else {
    for (int64_t i = 0; i < axis.count; ++i) {
      sums[channel + i * axis.channelStep] += values[i * axis.stride];
    }
  }
}

void BlockedScatter::writeCompensation(std::byte* packed, int threads) const {
  if (!hasCompensation()) return;
  const auto* weights = reinterpret_cast<const int8_t*>(packed);
  const auto& axes = compensation_.axes;
  const int64_t entries = compensation_.entries;
  const int64_t outer = axes.empty() ? 1 : axes[0].count;
  // Below ~256 K elements a team costs more than it saves.
  const int teams = static_cast<int>(
      std::clamp<int64_t>(std::min<int64_t>(outer, static_cast<int64_t>(elementCount_ >> 18)), 1,
                          std::max(1, threads)));
  // Per team partial sums (the padding is zero: it adds nothing), then the totals.
  std::vector<int64_t> partial(static_cast<size_t>(teams) * static_cast<size_t>(entries), 0);
#pragma omp parallel for num_threads(teams) schedule(static, 1) if (teams > 1)
  for (int team = 0; team < teams; ++team) {
    int64_t* sums = partial.data() + static_cast<size_t>(team) * static_cast<size_t>(entries);
    if (axes.empty()) {
      sums[0] += weights[0];
      continue;
    }
    const int64_t begin = outer * team / teams;
    const int64_t end = outer * (team + 1) / teams;
    const Axis& axis = axes[0];
    for (int64_t i = begin; i < end; ++i) {
      if (axes.size() == 1) {
        sums[i * axis.channelStep] += weights[i * axis.stride];
      } else {
        sumAxes(weights, 1, i * axis.stride, i * axis.channelStep, sums);
      }
    }
  }
  for (int64_t e = 0; e < entries; ++e) {
    int64_t total = 0;
    for (int team = 0; team < teams; ++team) {
      total += partial[static_cast<size_t>(team) * static_cast<size_t>(entries) +
                       static_cast<size_t>(e)];
    }
    // int32 as oneDNN keeps them (a sum that overflows wraps as its int32 arithmetic does).
    const auto negated = static_cast<int32_t>(static_cast<uint32_t>(-total));
    if (compensation_.s8s8) {
      const auto value = static_cast<int32_t>(static_cast<uint32_t>(negated) * 128u);
      std::memcpy(packed + compensation_.s8s8Offset + static_cast<uint64_t>(e) * 4, &value, 4);
    }
    if (compensation_.asymmetric) {
      std::memcpy(packed + compensation_.asymmetricOffset + static_cast<uint64_t>(e) * 4, &negated,
                  4);
    }
  }
}

// One walk over the plain layout: the logical coordinates, their digits in the packed layout, and
// the packed offset they make.
struct BlockedScatter::Walker {
  const BlockedScatter& layout;
  int64_t coordinate[DNNL_MAX_NDIMS] = {};
  int64_t digit[DNNL_MAX_NDIMS][kMaxDigits] = {};
  int64_t offset = 0;

  Walker(const BlockedScatter& scatter, uint64_t firstElement) : layout(scatter) {
    offset = layout.offset0_;
    for (size_t i = 0; i < layout.plainOrder_.size(); ++i) {
      const int d = layout.plainOrder_[i];
      coordinate[d] =
          static_cast<int64_t>(firstElement / static_cast<uint64_t>(layout.plainStrides_[i]) %
                               static_cast<uint64_t>(layout.dims_[static_cast<size_t>(d)]));
    }
    for (int d = 0; d < layout.ndims_; ++d) setDigits(d, coordinate[d]);
  }

  // Sets the digits of dim d for coordinate `value`, and adds them to the offset.
  void setDigits(int d, int64_t value) {
    const Digits& digits = layout.digits_[static_cast<size_t>(d)];
    value += layout.paddedOffsets_[static_cast<size_t>(d)];
    for (int j = 0; j < digits.count; ++j) {
      const bool last = j + 1 == digits.count;
      digit[d][j] = last ? value : value % digits.radix[j];
      if (!last) value /= digits.radix[j];
      offset += digit[d][j] * digits.stride[j];
    }
  }
  void clearDigits(int d) {
    const Digits& digits = layout.digits_[static_cast<size_t>(d)];
    for (int j = 0; j < digits.count; ++j) offset -= digit[d][j] * digits.stride[j];
  }

  // Elements of dim d that can be walked from here with one step (within its innermost digit).
  int64_t stepRoom(int d) const {
    const Digits& digits = layout.digits_[static_cast<size_t>(d)];
    int64_t room = layout.dims_[static_cast<size_t>(d)] - coordinate[d];
    if (digits.count > 1) room = std::min(room, digits.radix[0] - digit[d][0]);
    return room;
  }
  int64_t step(int d) const { return layout.digits_[static_cast<size_t>(d)].stride[0]; }

  // Moves dim d on by n (n <= stepRoom(d)), carrying into its digits and into the outer plain
  // dims when it wraps.
  void advance(int d, int64_t n) {
    const Digits& digits = layout.digits_[static_cast<size_t>(d)];
    coordinate[d] += n;
    digit[d][0] += n;
    offset += n * digits.stride[0];
    for (int j = 0; j + 1 < digits.count && digit[d][j] == digits.radix[j]; ++j) {
      offset -= digits.radix[j] * digits.stride[j];
      digit[d][j] = 0;
      ++digit[d][j + 1];
      offset += digits.stride[j + 1];
    }
    if (coordinate[d] < layout.dims_[static_cast<size_t>(d)]) return;
    clearDigits(d);
    coordinate[d] = 0;
    setDigits(d, 0);
    // The next outer plain dim (if any) moves on by one.
    const auto& order = layout.plainOrder_;
    for (size_t i = order.size(); i-- > 0;) {
      if (order[i] != d) continue;
      if (i > 0) advance(order[i - 1], 1);
      break;
    }
  }
};

void BlockedScatter::scatterSerial(const std::byte* source, uint64_t firstElement, uint64_t count,
                                   std::byte* destination) const {
  // Whole rows (runs of the innermost plain dim) with contiguous segments: copy them column
  // segment by column segment, so that the writes walk each packed block in order (rows of one
  // block are neighbours there) instead of jumping between blocks at every segment.
  if (runDim_ >= 0 && plainOrder_.size() >= 2 &&
      digits_[static_cast<size_t>(runDim_)].stride[0] == 1) {
    const uint64_t rowLength = static_cast<uint64_t>(dims_[static_cast<size_t>(runDim_)]);
    const uint64_t head = std::min(count, (rowLength - firstElement % rowLength) % rowLength);
    const uint64_t rows = (count - head) / rowLength;
    if (rows >= 2) {
      walk(source, firstElement, head, destination);
      tiled(source + head * sourceElementSize_, firstElement + head, rows, destination);
      const uint64_t done = head + rows * rowLength;
      walk(source + done * sourceElementSize_, firstElement + done, count - done, destination);
      return;
    }
  }
  walk(source, firstElement, count, destination);
}

void BlockedScatter::tiled(const std::byte* source, uint64_t firstElement, uint64_t rows,
                           std::byte* destination) const {
  const int d = runDim_;
  const uint64_t rowLength = static_cast<uint64_t>(dims_[static_cast<size_t>(d)]);
  const uint64_t size = elementSize_;
  struct Segment {
    uint64_t start, length;
    int64_t offset;  // from the row's offset
  };
  std::vector<Segment> segments;
  {
    Walker walker(*this, firstElement);
    const int64_t base = walker.offset;
    for (uint64_t start = 0; start < rowLength;) {
      const auto length = static_cast<uint64_t>(walker.stepRoom(d));
      segments.push_back({start, length, walker.offset - base});
      start += length;
      if (start < rowLength) walker.advance(d, static_cast<int64_t>(length));
    }
  }
  // Packed offsets add up per dim: a row's offset is that of its first element.
  std::vector<int64_t> rowOffsets(rows);
  {
    Walker walker(*this, firstElement);
    const int outer = plainOrder_[plainOrder_.size() - 2];
    for (uint64_t r = 0; r < rows; ++r) {
      rowOffsets[r] = walker.offset;
      if (r + 1 < rows) walker.advance(outer, 1);
    }
  }
  const uint64_t sourceSize = sourceElementSize_;
  for (const Segment& segment : segments) {
    const std::byte* from = source + segment.start * sourceSize;
    for (uint64_t r = 0; r < rows; ++r) {
      std::byte* to = destination + static_cast<uint64_t>(rowOffsets[r] + segment.offset) * size;
      copyRun(to, from + r * rowLength * sourceSize, segment.length, 1, true);
    }
  }
#if defined(__SSE2__)
  _mm_sfence();  // the streaming stores are visible before the commit returns
#endif
}

void BlockedScatter::copyRun(std::byte* to, const std::byte* from, uint64_t count, int64_t stride,
                             bool streaming) const {
  if (widens_) {
    widenRun(reinterpret_cast<float*>(to), from, count, stride);
    return;
  }
  const uint64_t size = elementSize_;
  if (stride == 1) {
    if (streaming) {
      streamCopy(to, from, count * size);
    } else {
      std::memcpy(to, from, count * size);
    }
  } else if (size == 4) {
    const uint64_t step = static_cast<uint64_t>(stride) * 4;
    for (uint64_t i = 0; i < count; ++i) std::memcpy(to + i * step, from + i * 4, 4);
  } else {
    const uint64_t step = static_cast<uint64_t>(stride) * size;
    for (uint64_t i = 0; i < count; ++i) std::memcpy(to + i * step, from + i * size, size);
  }
}

void BlockedScatter::walk(const std::byte* source, uint64_t firstElement, uint64_t count,
                          std::byte* destination) const {
  if (count == 0) return;
  Walker walker(*this, firstElement);
  const uint64_t size = elementSize_;
  if (runDim_ < 0) {  // one element
    copyRun(destination + walker.offset * static_cast<int64_t>(size), source, 1, 1, false);
    return;
  }
  const int d = runDim_;
  const int64_t step = walker.step(d);
  while (count > 0) {
    const uint64_t segment = std::min<uint64_t>(count, static_cast<uint64_t>(walker.stepRoom(d)));
    std::byte* target = destination + static_cast<uint64_t>(walker.offset) * size;
    copyRun(target, source, segment, step, false);
    source += segment * sourceElementSize_;
    count -= segment;
    walker.advance(d, static_cast<int64_t>(segment));
  }
}

void BlockedScatter::scatter(const std::byte* source, uint64_t firstElement, uint64_t count,
                             std::byte* destination, int threads) const {
  // Below ~256 KiB a team costs more than it saves.
  const uint64_t minimumPiece = (256u << 10) / elementSize_;
  const int pieces = static_cast<int>(std::clamp<uint64_t>(
      count / std::max<uint64_t>(1, minimumPiece), 1, static_cast<uint64_t>(std::max(1, threads))));
  if (pieces <= 1) {
    scatterSerial(source, firstElement, count, destination);
    return;
  }
#pragma omp parallel for num_threads(pieces) schedule(static, 1)
  for (int piece = 0; piece < pieces; ++piece) {
    const uint64_t begin = count * static_cast<uint64_t>(piece) / static_cast<uint64_t>(pieces);
    const uint64_t end = count * static_cast<uint64_t>(piece + 1) / static_cast<uint64_t>(pieces);
    scatterSerial(source + begin * sourceElementSize_, firstElement + begin, end - begin,
                  destination);
  }
}

}  // namespace webnn::cpu
