// Data movement on the cpu backend, kernels of our own (oneDNN has no such primitives): reshape,
// identity, transpose, slice, split, concat, expand, tile, reverse, pad, gather, gatherElements,
// gatherND, scatterElements, scatterND, triangular, where. Every data type of whole bytes (by
// element size: float32, float16, int32, int64, uint8, ...); int4/uint4 stay on the reference. Most
// ops are one strided copy: an N-d view (possibly negative or zero strides in the source) copied
// into another, with adjacent dimensions merged where both sides are contiguous, rows of memcpy
// where the innermost axis is contiguous on both sides, and a blocked 2-D transpose when the
// source's contiguous axis is not the destination's innermost one. OpenMP over the outer
// dimensions.
#include <algorithm>
#include <array>
#include <cstring>

#include "backends/cpu/cpu_op.h"
#include "core/element.h"
#include "graph/ops/shape_ops.h"

namespace webnn::cpu {
namespace {

using Dims = std::vector<int64_t>;

// Work below this many bytes runs on the calling thread.
constexpr int64_t kParallelBytes = int64_t{1} << 17;

Dims contiguousStrides(const std::vector<uint32_t>& shape) {
  Dims strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

int64_t elementCountOf(const std::vector<uint32_t>& shape) {
  int64_t count = 1;
  for (uint32_t d : shape) count *= d;
  return count;
}

// Element bytes of a type this file moves, 0 for the packed nibble types.
size_t elementBytesOf(MLOperandDataType type) {
  const uint32_t bits = bitsPerElement(type);
  return bits % 8 == 0 ? bits / 8 : 0;
}

// The element types by size (the creators accept sizes 1, 2, 4 and 8 only).
template <class F>
void visitElementSize(size_t bytes, F&& f) {
  switch (bytes) {
    case 1:
      return f(TypeTag<uint8_t>{});
    case 2:
      return f(TypeTag<uint16_t>{});
    case 4:
      return f(TypeTag<uint32_t>{});
    default:
      return f(TypeTag<uint64_t>{});
  }
}

// Copies the view `dims` of the source (element strides `source`, base offset `sourceOffset`) into
// the view of the destination with strides `destination` and base `destinationOffset`.
class StridedCopy {
 public:
  StridedCopy() = default;
  StridedCopy(Dims dims, Dims source, Dims destination, size_t elementBytes,
              int64_t sourceOffset = 0, int64_t destinationOffset = 0)
      : elementBytes_(elementBytes),
        sourceOffset_(sourceOffset),
        destinationOffset_(destinationOffset) {
    // Drop unit dimensions, then merge each dimension into its outer neighbour where both sides
    // are contiguous across them.
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == 0) empty_ = true;
      if (dims[i] == 1) continue;
      if (!dims_.empty() && source_.back() == source[i] * dims[i] &&
          destination_.back() == destination[i] * dims[i]) {
        dims_.back() *= dims[i];
        source_.back() = source[i];
        destination_.back() = destination[i];
        continue;
      }
      dims_.push_back(dims[i]);
      source_.push_back(source[i]);
      destination_.push_back(destination[i]);
    }
    if (dims_.empty()) {  // one element
      dims_ = {1};
      source_ = {1};
      destination_ = {1};
    }
    const size_t last = dims_.size() - 1;
    if (destination_[last] == 1 && source_[last] != 1) {
      for (size_t a = 0; a < last; ++a) {
        if (source_[a] == 1) transposeAxis_ = static_cast<int>(a);
      }
    }
  }

  void run(const std::byte* source, std::byte* destination) const {
    if (empty_) return;
    source += sourceOffset_ * static_cast<int64_t>(elementBytes_);
    destination += destinationOffset_ * static_cast<int64_t>(elementBytes_);
    visitElementSize(elementBytes_, [&]<class E>(TypeTag<E>) {
      const E* from = reinterpret_cast<const E*>(source);
      E* to = reinterpret_cast<E*>(destination);
      if (transposeAxis_ >= 0) {
        runTransposed(from, to);
      } else {
        runRows(from, to);
      }
    });
  }

 private:
  // Rows along the innermost axis; the outer positions split across threads.
  template <class E>
  void runRows(const E* from, E* to) const {
    const size_t rank = dims_.size();
    const int64_t inner = dims_[rank - 1];
    const int64_t sourceStep = source_[rank - 1], destinationStep = destination_[rank - 1];
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) rows *= dims_[i];
    const bool parallel =
        rows > 1 && rows * inner * static_cast<int64_t>(sizeof(E)) > kParallelBytes;
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t row = 0; row < rows; ++row) {
      int64_t rest = row, sourceAt = 0, destinationAt = 0;
      for (size_t i = rank - 1; i-- > 0;) {
        const int64_t coordinate = rest % dims_[i];
        rest /= dims_[i];
        sourceAt += coordinate * source_[i];
        destinationAt += coordinate * destination_[i];
      }
      const E* s = from + sourceAt;
      E* d = to + destinationAt;
      if (sourceStep == 1 && destinationStep == 1) {
        std::memcpy(d, s, static_cast<size_t>(inner) * sizeof(E));
      } else if (destinationStep == 1) {
        for (int64_t x = 0; x < inner; ++x) d[x] = s[x * sourceStep];
      } else {
        for (int64_t x = 0; x < inner; ++x) d[x * destinationStep] = s[x * sourceStep];
      }
    }
  }

  // The destination's innermost axis (b) is strided in the source, and axis a is contiguous in
  // the source: copy tiles of a x b so that both sides stay in cache.
  template <class E>
  void runTransposed(const E* from, E* to) const {
    constexpr int64_t kTile = 32;
    const size_t rank = dims_.size();
    const size_t a = static_cast<size_t>(transposeAxis_), b = rank - 1;
    const int64_t sizeA = dims_[a], sizeB = dims_[b];
    const int64_t sourceB = source_[b], destinationA = destination_[a];
    int64_t outer = 1;
    for (size_t i = 0; i < b; ++i) {
      if (i != a) outer *= dims_[i];
    }
    const int64_t tilesA = (sizeA + kTile - 1) / kTile, tilesB = (sizeB + kTile - 1) / kTile;
    const int64_t tasks = outer * tilesA * tilesB;
    const bool parallel =
        tasks > 1 && outer * sizeA * sizeB * static_cast<int64_t>(sizeof(E)) > kParallelBytes;
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t task = 0; task < tasks; ++task) {
      const int64_t tileB = task % tilesB;
      const int64_t tileA = (task / tilesB) % tilesA;
      int64_t rest = task / (tilesB * tilesA), sourceAt = 0, destinationAt = 0;
      for (size_t i = b; i-- > 0;) {
        if (i == a) continue;
        const int64_t coordinate = rest % dims_[i];
        rest /= dims_[i];
        sourceAt += coordinate * source_[i];
        destinationAt += coordinate * destination_[i];
      }
      const int64_t a0 = tileA * kTile, a1 = std::min(sizeA, a0 + kTile);
      const int64_t b0 = tileB * kTile, b1 = std::min(sizeB, b0 + kTile);
      const E* s = from + sourceAt;
      E* d = to + destinationAt;
      for (int64_t i = a0; i < a1; ++i) {
        const E* sa = s + i;  // source stride of axis a is 1
        E* da = d + i * destinationA;
        for (int64_t j = b0; j < b1; ++j) da[j] = sa[j * sourceB];
      }
    }
  }

  size_t elementBytes_ = 1;
  int64_t sourceOffset_ = 0, destinationOffset_ = 0;
  Dims dims_, source_, destination_;
  bool empty_ = false;
  int transposeAxis_ = -1;
};

// A parallel memcpy.
void copyBytes(std::byte* to, const std::byte* from, int64_t bytes) {
  constexpr int64_t kChunk = int64_t{1} << 17;
  const int64_t chunks = (bytes + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    const int64_t begin = chunk * kChunk;
    std::memcpy(to + begin, from + begin, static_cast<size_t>(std::min(kChunk, bytes - begin)));
  }
}

// Ops that are one or more strided copies from input i to output o.
class CopiesOp final : public CpuOp {
 public:
  struct Copy {
    graph::OperandId from, to;
    StridedCopy copy;
  };
  CopiesOp(std::string name, std::vector<Copy> copies)
      : name_(std::move(name)), copies_(std::move(copies)) {}

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    for (const Copy& c : copies_) c.copy.run(tensors[c.from].data, tensors[c.to].data);
  }
  std::string implementation() const override { return name_; }

 private:
  std::string name_;
  std::vector<Copy> copies_;
};

class MemcpyOp final : public CpuOp {
 public:
  MemcpyOp(graph::OperandId from, graph::OperandId to, int64_t bytes)
      : from_(from), to_(to), bytes_(bytes) {}
  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    if (tensors[from_].data != tensors[to_].data) {
      copyBytes(tensors[to_].data, tensors[from_].data, bytes_);
    }
  }
  std::string implementation() const override { return "cpu copy kernel"; }

 private:
  graph::OperandId from_, to_;
  int64_t bytes_;
};

// pad: each output axis maps its coordinates to a source coordinate or -1 (the constant). The maps
// are tabled at compile for axes of at most kMaxTabledPadAxis positions; a longer axis computes
// each mapping where it is used, so no compile-time allocation grows with an untrusted shape.
constexpr int64_t kMaxTabledPadAxis = int64_t{1} << 16;

class PadOp final : public CpuOp {
 public:
  PadOp(const OpCompileContext& context, size_t elementBytes)
      : input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        elementBytes_(elementBytes) {
    const auto& attributes = context.operation.attributesAs<graph::PadAttributes>();
    const auto& in = context.descriptor(input_).shape;
    const auto& out = context.descriptor(output_).shape;
    outShape_.assign(out.begin(), out.end());
    inShape_.assign(in.begin(), in.end());
    inStrides_ = contiguousStrides(in);
    mode_ = attributes.mode;
    beginning_.assign(attributes.beginningPadding.begin(), attributes.beginningPadding.end());
    maps_.resize(out.size());
    for (size_t d = 0; d < out.size(); ++d) {
      if (out[d] > kMaxTabledPadAxis) continue;
      for (int64_t x = 0; x < out[d]; ++x) maps_[d].push_back(computedSourceOf(d, x));
    }
    value_.resize(elementBytes);
    storeNumber(context.descriptor(output_).dataType, value_.data(), 0, attributes.value);
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    visitElementSize(elementBytes_, [&]<class E>(TypeTag<E>) {
      const E* from = reinterpret_cast<const E*>(tensors[input_].data);
      E* to = reinterpret_cast<E*>(tensors[output_].data);
      E value;
      std::memcpy(&value, value_.data(), sizeof(E));
      if (outShape_.empty()) {
        to[0] = from[0];
        return;
      }
      const size_t rank = outShape_.size();
      const int64_t inner = outShape_[rank - 1];
      const int64_t innerStride = inStrides_[rank - 1];
      int64_t rows = 1;
      for (size_t i = 0; i + 1 < rank; ++i) rows *= outShape_[i];
      const bool parallel =
          rows > 1 && rows * inner * static_cast<int64_t>(sizeof(E)) > kParallelBytes;
#pragma omp parallel for schedule(static) if (parallel)
      for (int64_t row = 0; row < rows; ++row) {
        int64_t rest = row, sourceAt = 0;
        bool constant = false;
        for (size_t i = rank - 1; i-- > 0;) {
          const int64_t coordinate = rest % outShape_[i];
          rest /= outShape_[i];
          const int64_t s = sourceOf(i, coordinate);
          if (s < 0) constant = true;
          sourceAt += s * inStrides_[i];
        }
        E* d = to + row * inner;
        if (constant) {
          std::fill(d, d + inner, value);
          continue;
        }
        const E* s = from + sourceAt;
        for (int64_t x = 0; x < inner; ++x) {
          const int64_t m = sourceOf(rank - 1, x);
          d[x] = m < 0 ? value : s[m * innerStride];
        }
      }
    });
  }
  std::string implementation() const override {
    return "cpu pad kernel";
  }

 private:
  // The source coordinate of output coordinate x on axis d, or -1 for the constant.
  int64_t sourceOf(size_t d, int64_t x) const {
    return maps_[d].empty() ? computedSourceOf(d, x) : maps_[d][static_cast<size_t>(x)];
  }
  int64_t computedSourceOf(size_t d, int64_t x) const {
    return graph::padSourceCoordinate(x - static_cast<int64_t>(beginning_[d]), inShape_[d], mode_);
  }

  graph::OperandId input_, output_;
  size_t elementBytes_;
  Dims outShape_, inShape_, inStrides_;
  MLPaddingMode mode_ = MLPaddingMode::Constant;
  std::vector<uint32_t> beginning_;
  std::vector<std::vector<int64_t>> maps_;  // empty for an axis too long to table
  std::vector<std::byte> value_;
};

// gather along one axis: blocks of the inner dimensions, one per (outer, index).
class GatherOp final : public CpuOp {
 public:
  GatherOp(const OpCompileContext& context, size_t elementBytes)
      : input_(context.operation.inputs[0]),
        indices_(context.operation.inputs[1]),
        output_(context.operation.outputs[0]),
        elementBytes_(elementBytes) {
    const uint32_t axis = context.operation.attributesAs<graph::GatherAttributes>().axis;
    const auto& in = context.descriptor(input_).shape;
    for (uint32_t i = 0; i < axis; ++i) outer_ *= in[i];
    for (size_t i = axis + 1; i < in.size(); ++i) inner_ *= in[i];
    size_ = in[axis];
    count_ = static_cast<int64_t>(context.descriptor(indices_).elementCount());
    indicesType_ = context.descriptor(indices_).dataType;
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const std::byte* from = tensors[input_].data;
    const std::byte* indices = tensors[indices_].data;
    std::byte* to = tensors[output_].data;
    const int64_t block = inner_ * static_cast<int64_t>(elementBytes_);
    const int64_t tasks = outer_ * count_;
    const bool parallel = tasks > 1 && tasks * block > kParallelBytes;
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t task = 0; task < tasks; ++task) {
      const int64_t o = task / count_, j = task % count_;
      int64_t index = loadInteger(indicesType_, indices, static_cast<uint64_t>(j));
      if (index < 0) index += size_;
      index = std::clamp<int64_t>(index, 0, size_ - 1);
      std::memcpy(to + task * block, from + (o * size_ + index) * block,
                  static_cast<size_t>(block));
    }
  }
  std::string implementation() const override {
    return "cpu gather kernel";
  }

 private:
  graph::OperandId input_, indices_, output_;
  size_t elementBytes_;
  int64_t outer_ = 1, inner_ = 1, size_ = 1, count_ = 0;
  MLOperandDataType indicesType_ = MLOperandDataType::Int32;
};

int64_t resolveIndex(MLOperandDataType type, const std::byte* indices, int64_t i, int64_t size) {
  int64_t index = loadInteger(type, indices, static_cast<uint64_t>(i));
  if (index < 0) index += size;
  return std::clamp<int64_t>(index, 0, size - 1);
}

// gatherElements: output[p] = input[p with its `axis` coordinate replaced by indices[p]]; rows
// along the last axis of the indices.
class GatherElementsOp final : public CpuOp {
 public:
  GatherElementsOp(const OpCompileContext& context, size_t elementBytes)
      : input_(context.operation.inputs[0]),
        indices_(context.operation.inputs[1]),
        output_(context.operation.outputs[0]),
        elementBytes_(elementBytes),
        axis_(context.operation.attributesAs<graph::GatherAttributes>().axis),
        indicesType_(context.descriptor(indices_).dataType) {
    const auto& in = context.descriptor(input_).shape;
    const auto& shape = context.descriptor(indices_).shape;
    shape_.assign(shape.begin(), shape.end());
    inStrides_ = contiguousStrides(in);
    axisSize_ = in[axis_];
    count_ = elementCountOf(shape);
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const std::byte* indices = tensors[indices_].data;
    visitElementSize(elementBytes_, [&]<class E>(TypeTag<E>) {
      const E* from = reinterpret_cast<const E*>(tensors[input_].data);
      E* to = reinterpret_cast<E*>(tensors[output_].data);
      const size_t rank = shape_.size();
      const int64_t inner = shape_[rank - 1];
      const int64_t rows = count_ / inner;
      const bool parallel = rows > 1 && count_ * static_cast<int64_t>(sizeof(E)) > kParallelBytes;
#pragma omp parallel for schedule(static) if (parallel)
      for (int64_t row = 0; row < rows; ++row) {
        int64_t rest = row, base = 0;
        for (size_t d = rank - 1; d-- > 0;) {
          const int64_t coordinate = rest % shape_[d];
          rest /= shape_[d];
          if (d != axis_) base += coordinate * inStrides_[d];
        }
        for (int64_t x = 0; x < inner; ++x) {
          const int64_t i = row * inner + x;
          const int64_t index = resolveIndex(indicesType_, indices, i, axisSize_);
          const int64_t offset = axis_ == rank - 1 ? base + index * inStrides_[axis_]
                                                   : base + x + index * inStrides_[axis_];
          to[i] = from[offset];
        }
      }
    });
  }
  std::string implementation() const override {
    return "cpu gatherElements kernel";
  }

 private:
  graph::OperandId input_, indices_, output_;
  size_t elementBytes_;
  size_t axis_;
  MLOperandDataType indicesType_;
  Dims shape_, inStrides_;
  int64_t axisSize_ = 1, count_ = 0;
};

// gatherND: a block of the trailing input dimensions per coordinate tuple of the indices.
class GatherNDOp final : public CpuOp {
 public:
  GatherNDOp(const OpCompileContext& context, size_t elementBytes)
      : input_(context.operation.inputs[0]),
        indices_(context.operation.inputs[1]),
        output_(context.operation.outputs[0]),
        elementBytes_(elementBytes),
        indicesType_(context.descriptor(indices_).dataType) {
    const auto& in = context.descriptor(input_).shape;
    const auto& indices = context.descriptor(indices_).shape;
    tupleSize_ = indices.back();
    for (size_t i = 0; i + 1 < indices.size(); ++i) batches_ *= indices[i];
    for (size_t i = static_cast<size_t>(tupleSize_); i < in.size(); ++i) inner_ *= in[i];
    shape_.assign(in.begin(), in.end());
    inStrides_ = contiguousStrides(in);
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const std::byte* from = tensors[input_].data;
    const std::byte* indices = tensors[indices_].data;
    std::byte* to = tensors[output_].data;
    const int64_t block = inner_ * static_cast<int64_t>(elementBytes_);
    const int64_t bytes = static_cast<int64_t>(elementBytes_);
    const bool parallel = batches_ > 1 && batches_ * block > kParallelBytes;
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t b = 0; b < batches_; ++b) {
      int64_t offset = 0;
      for (int64_t j = 0; j < tupleSize_; ++j) {
        const auto d = static_cast<size_t>(j);
        offset +=
            resolveIndex(indicesType_, indices, b * tupleSize_ + j, shape_[d]) * inStrides_[d];
      }
      std::memcpy(to + b * block, from + offset * bytes, static_cast<size_t>(block));
    }
  }
  std::string implementation() const override {
    return "cpu gatherND kernel";
  }

 private:
  graph::OperandId input_, indices_, output_;
  size_t elementBytes_;
  MLOperandDataType indicesType_;
  int64_t tupleSize_ = 0, batches_ = 1, inner_ = 1;
  Dims shape_, inStrides_;
};

// scatterElements / scatterND: the input copied, then the updates written in row-major order
// (one thread: the last write to a duplicated index wins, as in the reference).
class ScatterOp final : public CpuOp {
 public:
  ScatterOp(const OpCompileContext& context, size_t elementBytes)
      : nd_(context.operation.type == graph::OpType::ScatterND),
        input_(context.operation.inputs[0]),
        indices_(context.operation.inputs[1]),
        updates_(context.operation.inputs[2]),
        output_(context.operation.outputs[0]),
        elementBytes_(elementBytes),
        indicesType_(context.descriptor(indices_).dataType),
        bytes_(static_cast<int64_t>(context.descriptor(output_).byteLength())) {
    const auto& out = context.descriptor(output_).shape;
    const auto& indices = context.descriptor(indices_).shape;
    outShape_.assign(out.begin(), out.end());
    outStrides_ = contiguousStrides(out);
    indicesShape_.assign(indices.begin(), indices.end());
    count_ = elementCountOf(indices);
    if (nd_) {
      tupleSize_ = indices.back();
      for (size_t i = 0; i + 1 < indices.size(); ++i) batches_ *= indices[i];
      for (size_t i = static_cast<size_t>(tupleSize_); i < out.size(); ++i) inner_ *= out[i];
    } else {
      axis_ = context.operation.attributesAs<graph::ScatterAttributes>().axis;
    }
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    std::byte* to = tensors[output_].data;
    if (tensors[input_].data != to) copyBytes(to, tensors[input_].data, bytes_);
    const std::byte* indices = tensors[indices_].data;
    const std::byte* updates = tensors[updates_].data;
    const auto bytes = static_cast<int64_t>(elementBytes_);
    if (nd_) {
      const int64_t block = inner_ * bytes;
      for (int64_t b = 0; b < batches_; ++b) {
        int64_t offset = 0;
        for (int64_t j = 0; j < tupleSize_; ++j) {
          const auto d = static_cast<size_t>(j);
          offset += resolveIndex(indicesType_, indices, b * tupleSize_ + j, outShape_[d]) *
                    outStrides_[d];
        }
        std::memcpy(to + offset * bytes, updates + b * block, static_cast<size_t>(block));
      }
      return;
    }
    const size_t rank = indicesShape_.size();
    const int64_t count = count_;
    for (int64_t i = 0; i < count; ++i) {
      int64_t rest = i, offset = 0;
      for (size_t d = rank; d-- > 0;) {
        const int64_t coordinate = rest % indicesShape_[d];
        rest /= indicesShape_[d];
        const int64_t at =
            d == axis_ ? resolveIndex(indicesType_, indices, i, outShape_[d]) : coordinate;
        offset += at * outStrides_[d];
      }
      std::memcpy(to + offset * bytes, updates + i * bytes, elementBytes_);
    }
  }
  std::string implementation() const override {
    return nd_ ? "cpu scatterND kernel" : "cpu scatterElements kernel";
  }

 private:
  bool nd_;
  graph::OperandId input_, indices_, updates_, output_;
  size_t elementBytes_;
  MLOperandDataType indicesType_;
  int64_t bytes_;
  Dims outShape_, outStrides_, indicesShape_;
  int64_t tupleSize_ = 0, batches_ = 1, inner_ = 1, count_ = 0;
  size_t axis_ = 0;
};

// triangular: the elements on and above (upper) or on and below (lower) the diagonal of the last
// two dimensions, shifted by `diagonal` columns; zeroes elsewhere.
class TriangularOp final : public CpuOp {
 public:
  TriangularOp(const OpCompileContext& context, size_t elementBytes)
      : input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        elementBytes_(elementBytes) {
    const auto& attributes = context.operation.attributesAs<graph::TriangularAttributes>();
    upper_ = attributes.upper;
    diagonal_ = attributes.diagonal;
    const auto& shape = context.descriptor(input_).shape;
    columns_ = shape[shape.size() - 1];
    height_ = shape[shape.size() - 2];
    rows_ = elementCountOf(shape) / columns_;
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    visitElementSize(elementBytes_, [&]<class E>(TypeTag<E>) {
      const E* from = reinterpret_cast<const E*>(tensors[input_].data);
      E* to = reinterpret_cast<E*>(tensors[output_].data);
      const int64_t columns = columns_;
      const bool parallel =
          rows_ > 1 && rows_ * columns * static_cast<int64_t>(sizeof(E)) > kParallelBytes;
#pragma omp parallel for schedule(static) if (parallel)
      for (int64_t row = 0; row < rows_; ++row) {
        const int64_t r = row % height_;
        const E* s = from + row * columns;
        E* d = to + row * columns;
        for (int64_t c = 0; c < columns; ++c) {
          const int64_t shift = c - r;
          const bool keep = upper_ ? shift >= diagonal_ : shift <= diagonal_;
          d[c] = keep ? s[c] : E{0};
        }
      }
    });
  }
  std::string implementation() const override {
    return "cpu triangular kernel";
  }

 private:
  graph::OperandId input_, output_;
  size_t elementBytes_;
  bool upper_ = true;
  int64_t diagonal_ = 0, columns_ = 1, height_ = 1, rows_ = 0;
};

// where: three-way broadcasting over merged dimensions, rows along the innermost one.
class WhereOp final : public CpuOp {
 public:
  WhereOp(const OpCompileContext& context, size_t elementBytes)
      : condition_(context.operation.inputs[0]),
        true_(context.operation.inputs[1]),
        false_(context.operation.inputs[2]),
        output_(context.operation.outputs[0]),
        elementBytes_(elementBytes) {
    const auto& out = context.descriptor(output_).shape;
    std::vector<Dims> strides;
    for (graph::OperandId id : {condition_, true_, false_}) {
      const auto& shape = context.descriptor(id).shape;
      const Dims own = contiguousStrides(shape);
      Dims aligned(out.size(), 0);
      const size_t offset = out.size() - shape.size();
      for (size_t i = 0; i < shape.size(); ++i) aligned[offset + i] = shape[i] == 1 ? 0 : own[i];
      strides.push_back(std::move(aligned));
    }
    const Dims outStrides = contiguousStrides(out);
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i] == 1) continue;
      bool merge = !dims_.empty() && outStrides_.back() == outStrides[i] * out[i];
      for (size_t k = 0; k < 3 && merge; ++k) {
        merge = strides_[k].back() == strides[k][i] * out[i];
      }
      if (merge) {
        dims_.back() *= out[i];
        outStrides_.back() = outStrides[i];
        for (size_t k = 0; k < 3; ++k) strides_[k].back() = strides[k][i];
        continue;
      }
      dims_.push_back(out[i]);
      outStrides_.push_back(outStrides[i]);
      for (size_t k = 0; k < 3; ++k) strides_[k].push_back(strides[k][i]);
    }
    if (dims_.empty()) {
      dims_ = {1};
      outStrides_ = {1};
      for (auto& s : strides_) s = {0};
    }
    count_ = elementCountOf(out);
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    if (count_ == 0) return;
    visitElementSize(elementBytes_, [&]<class E>(TypeTag<E>) {
      const uint8_t* c = reinterpret_cast<const uint8_t*>(tensors[condition_].data);
      const E* t = reinterpret_cast<const E*>(tensors[true_].data);
      const E* f = reinterpret_cast<const E*>(tensors[false_].data);
      E* o = reinterpret_cast<E*>(tensors[output_].data);
      const size_t rank = dims_.size();
      const int64_t inner = dims_[rank - 1];
      const int64_t sc = strides_[0][rank - 1], st = strides_[1][rank - 1],
                    sf = strides_[2][rank - 1];
      const int64_t rows = count_ / inner;
      const bool parallel = rows > 1 && count_ * static_cast<int64_t>(sizeof(E)) > kParallelBytes;
#pragma omp parallel for schedule(static) if (parallel)
      for (int64_t row = 0; row < rows; ++row) {
        int64_t rest = row, ac = 0, at = 0, af = 0;
        for (size_t i = rank - 1; i-- > 0;) {
          const int64_t coordinate = rest % dims_[i];
          rest /= dims_[i];
          ac += coordinate * strides_[0][i];
          at += coordinate * strides_[1][i];
          af += coordinate * strides_[2][i];
        }
        E* d = o + row * inner;
        const uint8_t* cr = c + ac;
        const E* tr = t + at;
        const E* fr = f + af;
        if (sc == 1 && st == 1 && sf == 1) {
          for (int64_t x = 0; x < inner; ++x) d[x] = cr[x] != 0 ? tr[x] : fr[x];
        } else {
          for (int64_t x = 0; x < inner; ++x) d[x] = cr[x * sc] != 0 ? tr[x * st] : fr[x * sf];
        }
      }
    });
  }
  std::string implementation() const override {
    return "cpu where kernel";
  }

 private:
  graph::OperandId condition_, true_, false_, output_;
  size_t elementBytes_;
  Dims dims_, outStrides_;
  std::array<Dims, 3> strides_;
  int64_t count_ = 0;
};

Dims dimsFrom(const std::vector<uint32_t>& shape) {
  return Dims(shape.begin(), shape.end());
}

}  // namespace

std::unique_ptr<CpuOp> createDataMovementOp(const OpCompileContext& context) {
  using graph::OpType;
  const graph::Operation& operation = context.operation;
  const auto& in = context.descriptor(operation.inputs[0]);
  const auto& out = context.descriptor(operation.outputs[0]);
  const size_t bytes = elementBytesOf(operation.type == OpType::Where
                                          ? context.descriptor(operation.inputs[1]).dataType
                                          : in.dataType);
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return nullptr;
  const graph::OperandId input = operation.inputs[0], output = operation.outputs[0];
  std::vector<CopiesOp::Copy> copies;
  switch (operation.type) {
    case OpType::Reshape:
    case OpType::Identity:
      if (in.dataType != out.dataType) return nullptr;
      return std::make_unique<MemcpyOp>(input, output, static_cast<int64_t>(out.byteLength()));
    case OpType::Transpose: {
      const auto& permutation = operation.attributesAs<graph::TransposeAttributes>().permutation;
      const Dims inStrides = contiguousStrides(in.shape);
      Dims source(permutation.size());
      for (size_t i = 0; i < permutation.size(); ++i) source[i] = inStrides[permutation[i]];
      copies.push_back(
          {input, output,
           StridedCopy(dimsFrom(out.shape), source, contiguousStrides(out.shape), bytes)});
      return std::make_unique<CopiesOp>("cpu transpose kernel", std::move(copies));
    }
    case OpType::Slice: {
      const auto& attributes = operation.attributesAs<graph::SliceAttributes>();
      const Dims inStrides = contiguousStrides(in.shape);
      Dims source(in.shape.size());
      int64_t offset = 0;
      for (size_t d = 0; d < in.shape.size(); ++d) {
        source[d] = inStrides[d] * attributes.strides[d];
        offset += int64_t{attributes.starts[d]} * inStrides[d];
      }
      copies.push_back({input, output,
                        StridedCopy(dimsFrom(out.shape), source, contiguousStrides(out.shape),
                                    bytes, offset, 0)});
      return std::make_unique<CopiesOp>("cpu slice kernel", std::move(copies));
    }
    case OpType::Split: {
      const uint32_t axis = operation.attributesAs<graph::SplitAttributes>().axis;
      const Dims inStrides = contiguousStrides(in.shape);
      int64_t axisOffset = 0;
      for (graph::OperandId piece : operation.outputs) {
        const auto& shape = context.descriptor(piece).shape;
        copies.push_back({input, piece,
                          StridedCopy(dimsFrom(shape), inStrides, contiguousStrides(shape), bytes,
                                      axisOffset * inStrides[axis], 0)});
        axisOffset += shape[axis];
      }
      return std::make_unique<CopiesOp>("cpu split kernel", std::move(copies));
    }
    case OpType::Concat: {
      const uint32_t axis = operation.attributesAs<graph::ConcatAttributes>().axis;
      const Dims outStrides = contiguousStrides(out.shape);
      int64_t axisOffset = 0;
      for (graph::OperandId piece : operation.inputs) {
        const auto& shape = context.descriptor(piece).shape;
        copies.push_back({piece, output,
                          StridedCopy(dimsFrom(shape), contiguousStrides(shape), outStrides, bytes,
                                      0, axisOffset * outStrides[axis])});
        axisOffset += shape[axis];
      }
      return std::make_unique<CopiesOp>("cpu concat kernel", std::move(copies));
    }
    case OpType::Expand: {
      const Dims own = contiguousStrides(in.shape);
      Dims source(out.shape.size(), 0);
      const size_t offset = out.shape.size() - in.shape.size();
      for (size_t i = 0; i < in.shape.size(); ++i) {
        source[offset + i] = in.shape[i] == 1 ? 0 : own[i];
      }
      copies.push_back(
          {input, output,
           StridedCopy(dimsFrom(out.shape), source, contiguousStrides(out.shape), bytes)});
      return std::make_unique<CopiesOp>("cpu expand kernel", std::move(copies));
    }
    case OpType::Tile: {
      // out[d] = repetitions[d] x in[d]: the view [r0, s0, r1, s1, ...] of the output reads the
      // input with stride 0 along each r.
      const Dims inStrides = contiguousStrides(in.shape);
      const Dims outStrides = contiguousStrides(out.shape);
      Dims dims, source, destination;
      for (size_t d = 0; d < in.shape.size(); ++d) {
        const int64_t size = in.shape[d];
        dims.push_back(size == 0 ? 0 : out.shape[d] / size);
        source.push_back(0);
        destination.push_back(size * outStrides[d]);
        dims.push_back(size);
        source.push_back(inStrides[d]);
        destination.push_back(outStrides[d]);
      }
      copies.push_back({input, output, StridedCopy(dims, source, destination, bytes)});
      return std::make_unique<CopiesOp>("cpu tile kernel", std::move(copies));
    }
    case OpType::Reverse: {
      Dims source = contiguousStrides(in.shape);
      int64_t offset = 0;
      for (uint32_t axis : operation.attributesAs<graph::ReverseAttributes>().axes) {
        if (in.shape[axis] == 0) continue;
        offset += (int64_t{in.shape[axis]} - 1) * source[axis];
        source[axis] = -source[axis];
      }
      copies.push_back({input, output,
                        StridedCopy(dimsFrom(out.shape), source, contiguousStrides(out.shape),
                                    bytes, offset, 0)});
      return std::make_unique<CopiesOp>("cpu reverse kernel", std::move(copies));
    }
    case OpType::Pad:
      if (out.elementCount() == 0) return nullptr;
      if (in.elementCount() == 0 &&
          operation.attributesAs<graph::PadAttributes>().mode != MLPaddingMode::Constant) {
        return nullptr;
      }
      return std::make_unique<PadOp>(context, bytes);
    case OpType::Gather:
      if (in.elementCount() == 0) return nullptr;
      return std::make_unique<GatherOp>(context, bytes);
    case OpType::GatherElements:
      if (in.elementCount() == 0 || out.elementCount() == 0 || out.shape.empty()) return nullptr;
      return std::make_unique<GatherElementsOp>(context, bytes);
    case OpType::GatherND:
      if (in.elementCount() == 0 || out.elementCount() == 0) return nullptr;
      return std::make_unique<GatherNDOp>(context, bytes);
    case OpType::ScatterElements:
    case OpType::ScatterND:
      if (out.elementCount() == 0 || in.shape.empty()) return nullptr;
      return std::make_unique<ScatterOp>(context, bytes);
    case OpType::Triangular:
      if (in.shape.size() < 2 || in.elementCount() == 0) return nullptr;
      return std::make_unique<TriangularOp>(context, bytes);
    case OpType::Where:
      if (context.descriptor(operation.inputs[0]).dataType != MLOperandDataType::Uint8) {
        return nullptr;
      }
      return std::make_unique<WhereOp>(context, bytes);
    default:
      return nullptr;
  }
}

}  // namespace webnn::cpu
