#include "backends/cpu/blocked_layout.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "core/checked_math.h"

namespace webnn::cpu {

std::optional<BlockedScatter> BlockedScatter::create(const dnnl::memory::desc& plain,
                                                     const dnnl::memory::desc& packed) {
  const dnnl_memory_desc_t& p = plain.data;
  const dnnl_memory_desc_t& q = packed.data;
  if (p.format_kind != dnnl_blocked || q.format_kind != dnnl_blocked) return std::nullopt;
  if (p.ndims != q.ndims || p.ndims <= 0 || p.data_type != q.data_type) return std::nullopt;
  if (p.format_desc.blocking.inner_nblks != 0 || p.offset0 != 0) return std::nullopt;
  BlockedScatter scatter;
  scatter.ndims_ = q.ndims;
  scatter.elementSize_ = dnnl::memory::data_type_size(packed.data_type());
  if (scatter.elementSize_ == 0) return std::nullopt;
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

  if (!order.empty()) {
    scatter.runDim_ = order.back();
    scatter.runStep_ = scatter.outerStrides_[static_cast<size_t>(scatter.runDim_)];
    for (const InnerBlock& block : scatter.blocks_) {  // the innermost block of the run's dim wins
      if (block.dim == scatter.runDim_) {
        scatter.runStep_ = block.stride;
        scatter.runBlock_ = block.size;
      }
    }
  }

  bool identity = blocking.inner_nblks == 0 && q.offset0 == 0 &&
                  packed.get_size() == count * scatter.elementSize_;
  for (int d = 0; d < q.ndims && identity; ++d) {
    if (q.padded_dims[d] != q.dims[d] || q.padded_offsets[d] != 0) identity = false;
    if (q.dims[d] > 1 && blocking.strides[d] != p.format_desc.blocking.strides[d]) identity = false;
  }
  scatter.identity_ = identity;
  return scatter;
}

int64_t BlockedScatter::offsetOf(const int64_t* position) const {
  int64_t pos[DNNL_MAX_NDIMS];
  for (int d = 0; d < ndims_; ++d) pos[d] = position[d] + paddedOffsets_[static_cast<size_t>(d)];
  int64_t offset = offset0_;
  for (size_t k = blocks_.size(); k-- > 0;) {
    const InnerBlock& block = blocks_[k];
    offset += (pos[block.dim] % block.size) * block.stride;
    pos[block.dim] /= block.size;
  }
  for (int d = 0; d < ndims_; ++d) offset += pos[d] * outerStrides_[static_cast<size_t>(d)];
  return offset;
}

void BlockedScatter::scatterSerial(const std::byte* source, uint64_t firstElement, uint64_t count,
                                   std::byte* destination) const {
  int64_t position[DNNL_MAX_NDIMS] = {};
  for (size_t i = 0; i < plainOrder_.size(); ++i) {
    const int d = plainOrder_[i];
    position[d] = static_cast<int64_t>(firstElement / static_cast<uint64_t>(plainStrides_[i]) %
                                       static_cast<uint64_t>(dims_[static_cast<size_t>(d)]));
  }
  const uint64_t size = elementSize_;
  if (runDim_ < 0) {  // one element
    if (count > 0) std::memcpy(destination + offsetOf(position) * size, source, size);
    return;
  }
  const int64_t runExtent = dims_[static_cast<size_t>(runDim_)];
  while (count > 0) {
    int64_t& along = position[runDim_];
    uint64_t segment = std::min<uint64_t>(count, static_cast<uint64_t>(runExtent - along));
    if (runBlock_ > 0)
      segment = std::min<uint64_t>(segment, static_cast<uint64_t>(runBlock_ - along % runBlock_));
    const int64_t offset = offsetOf(position);
    std::byte* target = destination + static_cast<uint64_t>(offset) * size;
    if (runStep_ == 1) {
      std::memcpy(target, source, segment * size);
    } else if (size == 4) {
      const uint64_t step = static_cast<uint64_t>(runStep_) * 4;
      for (uint64_t i = 0; i < segment; ++i) std::memcpy(target + i * step, source + i * 4, 4);
    } else {
      const uint64_t step = static_cast<uint64_t>(runStep_) * size;
      for (uint64_t i = 0; i < segment; ++i) std::memcpy(target + i * step, source + i * size, size);
    }
    source += segment * size;
    count -= segment;
    along += static_cast<int64_t>(segment);
    if (along == runExtent) {  // carry into the outer plain dims
      along = 0;
      for (size_t i = plainOrder_.size() - 1; i-- > 0;) {
        const int d = plainOrder_[i];
        if (++position[d] < dims_[static_cast<size_t>(d)]) break;
        position[d] = 0;
      }
    }
  }
}

void BlockedScatter::scatter(const std::byte* source, uint64_t firstElement, uint64_t count,
                             std::byte* destination, int threads) const {
  // Below ~256 KiB a team costs more than it saves.
  const uint64_t minimumPiece = (256u << 10) / elementSize_;
  const int pieces =
      static_cast<int>(std::clamp<uint64_t>(count / std::max<uint64_t>(1, minimumPiece), 1,
                                            static_cast<uint64_t>(std::max(1, threads))));
  if (pieces <= 1) {
    scatterSerial(source, firstElement, count, destination);
    return;
  }
#pragma omp parallel for num_threads(pieces) schedule(static, 1)
  for (int piece = 0; piece < pieces; ++piece) {
    const uint64_t begin = count * static_cast<uint64_t>(piece) / static_cast<uint64_t>(pieces);
    const uint64_t end = count * static_cast<uint64_t>(piece + 1) / static_cast<uint64_t>(pieces);
    scatterSerial(source + begin * elementSize_, firstElement + begin, end - begin, destination);
  }
}

}  // namespace webnn::cpu
