// Reference kernels of the data movement ops: reshape, transpose, concat, split, slice, expand,
// pad, tile, reverse, triangular. Every data type, by element bytes (int4/uint4 by nibble).
#include "backends/reference/ops/shape_ops.h"

#include <cstring>

#include "graph/ops/shape_ops.h"

namespace webnn::reference {
namespace {

void reshape(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  std::memcpy(out.data, in.data, out.byteLength());
}

void expand(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const ElementMover mover(out.dataType());
  BroadcastIterator iterator(out.shape(), {in.shape()});
  iterator.forEach([&](uint64_t index, const std::vector<uint64_t>& offsets) {
    mover.copy(out, index, in, offsets[0]);
  });
}

void transpose(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const auto& permutation = context.attributes<graph::TransposeAttributes>().permutation;
  const auto inStrides = stridesOf(in.shape());
  std::vector<uint64_t> strides(permutation.size());  // input stride of each output axis
  for (size_t i = 0; i < permutation.size(); ++i) strides[i] = inStrides[permutation[i]];
  const ElementMover mover(out.dataType());
  forEachPosition(out.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
    uint64_t offset = 0;
    for (size_t i = 0; i < position.size(); ++i) offset += position[i] * strides[i];
    mover.copy(out, index, in, offset);
  });
}

void concat(const KernelContext& context) {
  const Tensor out = context.output(0);
  const uint32_t axis = context.attributes<graph::ConcatAttributes>().axis;
  const auto outStrides = stridesOf(out.shape());
  const ElementMover mover(out.dataType());
  uint64_t axisOffset = 0;
  for (size_t i = 0; i < context.inputCount(); ++i) {
    const Tensor in = context.input(i);
    forEachPosition(in.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
      uint64_t offset = axisOffset * outStrides[axis];
      for (size_t d = 0; d < position.size(); ++d) offset += position[d] * outStrides[d];
      mover.copy(out, offset, in, index);
    });
    axisOffset += in.shape()[axis];
  }
}

void split(const KernelContext& context) {
  const Tensor in = context.input(0);
  const uint32_t axis = context.attributes<graph::SplitAttributes>().axis;
  const auto inStrides = stridesOf(in.shape());
  const ElementMover mover(in.dataType());
  uint64_t axisOffset = 0;
  for (size_t i = 0; i < context.outputCount(); ++i) {
    const Tensor out = context.output(i);
    forEachPosition(out.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
      uint64_t offset = axisOffset * inStrides[axis];
      for (size_t d = 0; d < position.size(); ++d) offset += position[d] * inStrides[d];
      mover.copy(out, index, in, offset);
    });
    axisOffset += out.shape()[axis];
  }
}

void slice(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const auto& attributes = context.attributes<graph::SliceAttributes>();
  const auto inStrides = stridesOf(in.shape());
  const ElementMover mover(out.dataType());
  forEachPosition(out.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
    uint64_t offset = 0;
    for (size_t d = 0; d < position.size(); ++d) {
      offset +=
          (attributes.starts[d] + uint64_t{position[d]} * attributes.strides[d]) * inStrides[d];
    }
    mover.copy(out, index, in, offset);
  });
}

void pad(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const auto& attributes = context.attributes<graph::PadAttributes>();
  const auto inStrides = stridesOf(in.shape());
  const ElementMover mover(out.dataType());
  forEachPosition(out.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
    uint64_t offset = 0;
    for (size_t d = 0; d < position.size(); ++d) {
      const int64_t source = graph::padSourceCoordinate(
          int64_t{position[d]} - attributes.beginningPadding[d], in.shape()[d], attributes.mode);
      if (source < 0) {
        mover.fill(out, index, attributes.value);
        return;
      }
      offset += static_cast<uint64_t>(source) * inStrides[d];
    }
    mover.copy(out, index, in, offset);
  });
}

void tile(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const auto inStrides = stridesOf(in.shape());
  const ElementMover mover(out.dataType());
  forEachPosition(out.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
    uint64_t offset = 0;
    for (size_t d = 0; d < position.size(); ++d) {
      offset += (position[d] % in.shape()[d]) * inStrides[d];
    }
    mover.copy(out, index, in, offset);
  });
}

void reverse(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  std::vector<bool> reversed(in.rank(), false);
  for (uint32_t axis : context.attributes<graph::ReverseAttributes>().axes) reversed[axis] = true;
  const auto inStrides = stridesOf(in.shape());
  const ElementMover mover(out.dataType());
  forEachPosition(out.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
    uint64_t offset = 0;
    for (size_t d = 0; d < position.size(); ++d) {
      const uint64_t coordinate = reversed[d] ? in.shape()[d] - 1 - position[d] : position[d];
      offset += coordinate * inStrides[d];
    }
    mover.copy(out, index, in, offset);
  });
}

// Keeps the elements on and above (upper) or on and below (lower) the diagonal of the last two
// dimensions, shifted by `diagonal` columns; zeroes the others.
void triangular(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const auto& options = context.attributes<graph::TriangularAttributes>();
  const size_t rank = out.rank();
  const ElementMover mover(out.dataType());
  forEachPosition(out.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
    const int64_t shift = int64_t{position[rank - 1]} - int64_t{position[rank - 2]};
    const bool keep = options.upper ? shift >= options.diagonal : shift <= options.diagonal;
    if (keep) {
      mover.copy(out, index, in, index);
    } else {
      mover.fill(out, index, 0.0);
    }
  });
}

}  // namespace

void registerShapeOpsKernels(KernelTable& table) {
  table.set(graph::OpType::Reshape, reshape);
  table.set(graph::OpType::Expand, expand);
  table.set(graph::OpType::Transpose, transpose);
  table.set(graph::OpType::Concat, concat);
  table.set(graph::OpType::Split, split);
  table.set(graph::OpType::Slice, slice);
  table.set(graph::OpType::Pad, pad);
  table.set(graph::OpType::Tile, tile);
  table.set(graph::OpType::Reverse, reverse);
  table.set(graph::OpType::Triangular, triangular);
}

}  // namespace webnn::reference
