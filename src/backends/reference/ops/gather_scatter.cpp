// Reference kernels of gather, gatherElements, gatherND, scatterElements and scatterND. Indices
// resolve through resolveIndex: negative wraps once, out-of-range clamps. Scatters apply updates
// in row-major order (the last write to a duplicated index wins).
#include <cstring>

#include "backends/reference/ops/shape_ops.h"
#include "webnn/options.h"

namespace webnn::reference {
namespace {

uint64_t product(const std::vector<uint32_t>& shape, size_t begin, size_t end) {
  uint64_t result = 1;
  for (size_t i = begin; i < end; ++i) result *= shape[i];
  return result;
}

void gather(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor indices = context.input(1);
  const Tensor out = context.output(0);
  const uint32_t axis = context.attributes<graph::GatherAttributes>().axis;
  const uint64_t outer = product(in.shape(), 0, axis);
  const uint64_t inner = product(in.shape(), axis + 1, in.rank());
  const uint32_t size = in.shape()[axis];
  const uint64_t count = indices.elementCount();
  const ElementMover mover(out.dataType());
  uint64_t index = 0;
  for (uint64_t o = 0; o < outer; ++o) {
    for (uint64_t j = 0; j < count; ++j) {
      const uint64_t source = (o * size + resolveIndex(indices, j, size)) * inner;
      mover.copy(out, index, in, source, inner);
      index += inner;
    }
  }
}

// The input offset of `position` with its `axis` coordinate replaced by indices[index].
uint64_t elementsOffset(const std::vector<uint32_t>& position, const std::vector<uint64_t>& strides,
                        const std::vector<uint32_t>& shape, uint32_t axis, const Tensor& indices,
                        uint64_t index) {
  uint64_t offset = 0;
  for (size_t d = 0; d < position.size(); ++d) {
    const uint64_t coordinate = d == axis ? resolveIndex(indices, index, shape[d]) : position[d];
    offset += coordinate * strides[d];
  }
  return offset;
}

void gatherElements(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor indices = context.input(1);
  const Tensor out = context.output(0);
  const uint32_t axis = context.attributes<graph::GatherAttributes>().axis;
  const auto inStrides = stridesOf(in.shape());
  const ElementMover mover(out.dataType());
  forEachPosition(indices.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
    mover.copy(out, index, in,
               elementsOffset(position, inStrides, in.shape(), axis, indices, index));
  });
}

// gatherND / scatterND: the offset in `data` of coordinate tuple `batch` of indices.
uint64_t ndOffset(const Tensor& indices, uint64_t batch, const std::vector<uint32_t>& shape,
                  const std::vector<uint64_t>& strides) {
  const uint32_t coordinateSize = indices.shape().back();
  uint64_t offset = 0;
  for (uint32_t j = 0; j < coordinateSize; ++j) {
    offset += resolveIndex(indices, batch * coordinateSize + j, shape[j]) * strides[j];
  }
  return offset;
}

void gatherND(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor indices = context.input(1);
  const Tensor out = context.output(0);
  const uint32_t coordinateSize = indices.shape().back();
  const uint64_t batches = product(indices.shape(), 0, indices.rank() - 1);
  const uint64_t inner = product(in.shape(), coordinateSize, in.rank());
  const auto inStrides = stridesOf(in.shape());
  const ElementMover mover(out.dataType());
  for (uint64_t b = 0; b < batches; ++b) {
    mover.copy(out, b * inner, in, ndOffset(indices, b, in.shape(), inStrides), inner);
  }
}

void scatterElements(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor indices = context.input(1);
  const Tensor updates = context.input(2);
  const Tensor out = context.output(0);
  const uint32_t axis = context.attributes<graph::ScatterAttributes>().axis;
  std::memcpy(out.data, in.data, out.byteLength());
  const auto outStrides = stridesOf(out.shape());
  const ElementMover mover(out.dataType());
  forEachPosition(indices.shape(), [&](uint64_t index, const std::vector<uint32_t>& position) {
    mover.copy(out, elementsOffset(position, outStrides, out.shape(), axis, indices, index),
               updates, index);
  });
}

void scatterND(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor indices = context.input(1);
  const Tensor updates = context.input(2);
  const Tensor out = context.output(0);
  std::memcpy(out.data, in.data, out.byteLength());
  const uint32_t coordinateSize = indices.shape().back();
  const uint64_t batches = product(indices.shape(), 0, indices.rank() - 1);
  const uint64_t inner = product(out.shape(), coordinateSize, out.rank());
  const auto outStrides = stridesOf(out.shape());
  const ElementMover mover(out.dataType());
  for (uint64_t b = 0; b < batches; ++b) {
    mover.copy(out, ndOffset(indices, b, out.shape(), outStrides), updates, b * inner, inner);
  }
}

}  // namespace

void registerGatherScatterKernels(KernelTable& table) {
  table.set(graph::OpType::Gather, gather);
  table.set(graph::OpType::GatherElements, gatherElements);
  table.set(graph::OpType::GatherND, gatherND);
  table.set(graph::OpType::ScatterElements, scatterElements);
  table.set(graph::OpType::ScatterND, scatterND);
}

}  // namespace webnn::reference
