// add, sub, mul, div on oneDNN's binary primitive, float32, with broadcasting. oneDNN
// broadcasts only its second source, so the first must have the output's shape; for the
// commutative ops the operands are swapped when only the second one has it; otherwise (both
// broadcast, or sub/div's first) the broadcasting kernel of elementwise_extra.cpp runs them. max
// and min stay on the reference kernels: oneDNN's do not propagate NaN, the spec's do.
// A quantizeLinear into uint8 after them (a QDQ model's residual add or squeeze-and-excitation
// multiply before the next quantized layer: fusion.cpp) is part of the step: the division by its
// scale, round half to even and its zero point are post-ops on a uint8 destination, as the
// reference computes them (the float32 quotient).
#include <optional>

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/kernels/quantized_glue.h"
#include "backends/cpu/ops/quantized_operands.h"

namespace webnn::cpu {
namespace {

using dnnl::algorithm;
using dnnl::memory;

struct BinaryFunction {
  algorithm kind;
  bool commutative;
};

std::optional<BinaryFunction> binaryFunctionOf(graph::OpType type) {
  using graph::OpType;
  switch (type) {
    case OpType::Add:
      return BinaryFunction{algorithm::binary_add, true};
    case OpType::Sub:
      return BinaryFunction{algorithm::binary_sub, false};
    case OpType::Mul:
      return BinaryFunction{algorithm::binary_mul, true};
    case OpType::Div:
      return BinaryFunction{algorithm::binary_div, false};
    default:
      return std::nullopt;
  }
}

// The shape as oneDNN dims of rank `rank` (leading 1s), at least one dimension.
memory::dims broadcastDims(const std::vector<uint32_t>& shape, size_t rank) {
  memory::dims dims(rank - shape.size(), 1);
  for (uint32_t d : shape) dims.push_back(d);
  return dims;
}

// The layout a binary step reads `id` in: its blocked one, or null (plain) when that layout puts
// every element where the plain one does: a per-channel vector [1, C, 1, ...] blocked on C alone
// (a squeeze-and-excitation gate a convolution wrote in nChw16c: element c at c/16 * 16 + c % 16,
// the padding after). Read so, it broadcasts over a blocked first operand without a reorder.
const memory::desc* readLayoutOf(const OpCompileContext& context, graph::OperandId id) {
  const memory::desc* layout = context.layoutOf(id);
  if (!layout) return nullptr;
  const dnnl_memory_desc_t& c = layout->data;
  if (c.format_kind != dnnl_blocked || c.ndims < 2 || c.dims[0] != 1) return layout;
  for (int d = 2; d < c.ndims; ++d) {
    if (c.dims[d] != 1) return layout;
  }
  const auto& blocking = c.format_desc.blocking;
  if (blocking.inner_nblks > 1) return layout;
  if (blocking.inner_nblks == 1 &&
      (blocking.inner_idxs[0] != 1 || blocking.strides[1] != blocking.inner_blks[0])) {
    return layout;
  }
  if (blocking.inner_nblks == 0 && blocking.strides[1] != 1) return layout;
  if (c.offset0 != 0) return layout;
  return nullptr;
}

class BinaryOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  BinaryOp(const OpCompileContext& context, algorithm kind, graph::OperandId first,
           graph::OperandId second)
      : engine_(context.engine),
        first_(first),
        second_(second),
        output_(context.stepOutput()) {
    const auto& outputShape = context.descriptor(context.operation.outputs[0]).shape;
    const size_t rank = std::max<size_t>(outputShape.size(), 1);
    const memory::desc* firstLayout = context.layoutOf(first);
    const memory::desc* secondLayout = readLayoutOf(context, second);
    outputDesc_ = firstLayout ? *firstLayout : plainFloat32Desc(broadcastDims(outputShape, rank));
    secondDesc_ = secondLayout
                      ? *secondLayout
                      : plainFloat32Desc(broadcastDims(context.descriptor(second).shape, rank));
    blocked_ = firstLayout != nullptr;
    dstDesc_ = outputDesc_;
    dnnl::primitive_attr attributes = opAttributes();
    if (const auto& output = context.fusion ? context.fusion->quantizedOutput : std::nullopt) {
      // quantizeLinear: / scale, round half to even, + zero point, on a uint8 destination.
      quantization_[0] = floatConstant(context.ir, output->scale);
      quantization_[1] = static_cast<float>(integerConstant(context.ir, output->zeroPoint));
      scalarDesc_ = memory::desc(memory::dims(rank, 1), memory::data_type::f32,
                                 memory::dims(rank, 1));
      dnnl::post_ops postOps;
      postOps.append_binary(algorithm::binary_div, scalarDesc_);
      postOps.append_eltwise(1.0f, algorithm::eltwise_round, 0.0f, 0.0f);
      if (quantization_[1] != 0.0f) {
        postOps.append_eltwise(1.0f, algorithm::eltwise_linear, 1.0f, quantization_[1]);
      }
      attributes.set_post_ops(postOps);
      dstDesc_ = withDataType(outputDesc_, memory::data_type::u8);
      quantized_ = true;
    } else if (context.fusion) {  // an add of a whole tensor after it
      auto postOps = postOpArgumentsOf(context, outputDesc_.dims());
      if (!postOps) throw dnnl::error(dnnl_unimplemented, "post-op operands");
      postOps_ = std::move(*postOps);
      attributes.set_post_ops(postOps_.postOps);
    }
    const dnnl::binary::desc desc(kind, outputDesc_, secondDesc_, dstDesc_);
    primitiveDesc_ = dnnl::binary::primitive_desc(desc, attributes, engine_);
    primitive_ = makePrimitive<dnnl::binary>(primitiveDesc_);
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    std::unordered_map<int, memory> arguments{
        {DNNL_ARG_SRC_0, memory(outputDesc_, engine_, dataOf(tensors, first_))},
        {DNNL_ARG_SRC_1, memory(secondDesc_, engine_, dataOf(tensors, second_))},
        {DNNL_ARG_DST, memory(dstDesc_, engine_, dataOf(tensors, output_))}};
    if (quantized_) {
      arguments.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                        memory(scalarDesc_, engine_, quantization_));
    }
    addPostOpArguments(postOps_, engine_, tensors, arguments);
    executeWithScratchpad(primitive_, primitiveDesc_, stream, std::move(arguments));
  }

  std::string implementation() const override { return implementationOf(primitiveDesc_); }
  std::optional<memory::desc> outputLayout() const override {
    return blocked_ ? std::optional(dstDesc_) : std::nullopt;
  }

 private:
  dnnl::engine engine_;
  graph::OperandId first_, second_, output_;
  memory::desc outputDesc_, secondDesc_, dstDesc_, scalarDesc_;
  bool blocked_ = false;
  bool quantized_ = false;        // a quantizeLinear's uint8 destination
  float quantization_[2] = {1.0f, 0.0f};  // its scale (a binary post-op's operand), zero point
  PostOpArguments postOps_;  // an add of a whole tensor after it
  dnnl::binary::primitive_desc primitiveDesc_;
  DeferredPrimitive primitive_;  // made beside the compile (deferred_primitive.h)
};

// Where the layouts allow it, the binary op and its quantizeLinear on a loop of ours
// (kernels/quantized_glue.h): one pass, no oneDNN post-ops (its binary primitive runs them
// slower than the operation itself on a squeeze-and-excitation multiply).
class QuantizedGlueOp final : public CpuOp {
 public:
  QuantizedGlueOp(const OpCompileContext& context, GlueOp op, graph::OperandId first,
                  graph::OperandId second, const GlueShape& shape,
                  std::optional<memory::desc> outputLayout)
      : op_(op),
        first_(first),
        second_(second),
        output_(context.stepOutput()),
        shape_(shape),
        outputLayout_(std::move(outputLayout)) {
    const QuantizedOutput& output = *context.fusion->quantizedOutput;
    scale_ = floatConstant(context.ir, output.scale);
    zero_ = static_cast<float>(integerConstant(context.ir, output.zeroPoint));
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    binaryQuantizeUint8(op_, tensors[first_].as<float>(), tensors[second_].as<float>(), shape_,
                        scale_, zero_, static_cast<uint8_t*>(dataOf(tensors, output_)));
  }
  std::string implementation() const override { return "cpu quantized glue kernel"; }
  std::optional<memory::desc> outputLayout() const override { return outputLayout_; }

 private:
  GlueOp op_;
  graph::OperandId first_, second_, output_;
  GlueShape shape_;
  std::optional<memory::desc> outputLayout_;
  float scale_ = 1.0f, zero_ = 0.0f;
};

// Whether `desc` is dense: no padding, no offset, its bytes exactly its elements.
bool isDense(const memory::desc& desc) {
  const dnnl_memory_desc_t& d = desc.data;
  if (d.format_kind != dnnl_blocked || d.offset0 != 0) return false;
  uint64_t elements = 1;
  for (int i = 0; i < d.ndims; ++i) {
    if (d.padded_dims[i] != d.dims[i]) return false;
    elements *= static_cast<uint64_t>(d.dims[i]);
  }
  return desc.get_size() == elements * sizeof(float);
}

// The loop's view of `first` (in `firstLayout`, or plain) and `second` (in `secondLayout`, or
// plain with `secondDims`, the output's rank), when it has one.
std::optional<GlueShape> glueShapeOf(const memory::desc& first, const memory::desc* firstLayout,
                                     const memory::desc* secondLayout,
                                     const memory::dims& secondDims) {
  using Broadcast = GlueShape::Broadcast;
  if (!isDense(first)) return std::nullopt;
  const memory::dims dims = first.dims();
  GlueShape shape;
  shape.outer = 1;
  for (memory::dim d : dims) shape.outer *= d;
  if (secondLayout) {  // blocked alike: element for element
    if (*secondLayout != first) return std::nullopt;
    return shape;
  }
  int64_t secondElements = 1;
  for (memory::dim d : secondDims) secondElements *= d;
  if (secondElements == 1) {
    shape.broadcast = Broadcast::Scalar;
    return shape;
  }
  if (secondDims == dims && !firstLayout) return shape;  // both plain
  const dnnl_blocking_desc_t& blocking = first.data.format_desc.blocking;
  const auto* strides = blocking.strides;
  // A blocked first operand in nhwc (a quantized step's float32 result).
  const bool nhwc = firstLayout && dims.size() == 4 && blocking.inner_nblks == 0 &&
                    strides[1] == 1 && strides[3] == dims[1] && strides[2] == dims[3] * dims[1] &&
                    strides[0] == dims[2] * dims[3] * dims[1];
  if (secondDims == dims) {  // the second one plain: nchw
    if (!nhwc) return std::nullopt;
    shape.broadcast = Broadcast::Transposed;
    shape.outer = dims[0], shape.blocks = 1, shape.spatial = dims[2] * dims[3],
    shape.block = dims[1];
    return shape;
  }
  // One varying dimension of the second operand: a channel.
  size_t axis = dims.size();
  for (size_t d = 0; d < dims.size(); ++d) {
    if (secondDims[d] == 1) continue;
    if (secondDims[d] != dims[d] || axis != dims.size()) return std::nullopt;
    axis = d;
  }
  if (axis == dims.size()) return std::nullopt;
  shape.broadcast = Broadcast::PerChannel;
  int64_t before = 1, after = 1;
  for (size_t d = 0; d < axis; ++d) before *= dims[d];
  for (size_t d = axis + 1; d < dims.size(); ++d) after *= dims[d];
  if (!firstLayout) {  // plain row-major: [before][channels][after]
    shape.outer = before, shape.blocks = dims[axis], shape.spatial = after, shape.block = 1;
    return shape;
  }
  // Blocked over 4 dimensions with the channels on dimension 1: nhwc, or nChw16c-like.
  if (dims.size() != 4 || axis != 1) return std::nullopt;
  const memory::dim channels = dims[1], spatial = dims[2] * dims[3];
  if (nhwc) {
    shape.outer = dims[0], shape.blocks = 1, shape.spatial = spatial, shape.block = channels;
    return shape;
  }
  if (blocking.inner_nblks == 1 && blocking.inner_idxs[0] == 1) {
    const memory::dim block = blocking.inner_blks[0];
    if (channels % block == 0 && strides[3] == block && strides[2] == dims[3] * block &&
        strides[1] == spatial * block && strides[0] == channels * spatial) {
      shape.outer = dims[0], shape.blocks = channels / block, shape.spatial = spatial,
      shape.block = block;
      return shape;
    }
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<CpuOp> createBinaryOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  const auto function = binaryFunctionOf(operation.type);
  if (!function) return nullptr;
  graph::OperandId a = operation.inputs[0], b = operation.inputs[1];
  const auto& output = context.descriptor(operation.outputs[0]);
  for (graph::OperandId id : {a, b, operation.outputs[0]}) {
    if (context.descriptor(id).dataType != MLOperandDataType::Float32) return nullptr;
  }
  if (output.elementCount() == 0) return nullptr;
  // The fused operations a binary step takes: a quantizeLinear after it (`glue`), or an add of a
  // whole tensor (a binary post-op: fusion.cpp).
  const FusionChain* chain = context.fusion;
  const bool plainChain = chain && !chain->quantized && !chain->blockQuantized;
  const bool glue = plainChain && chain->quantizedOutput && chain->postOps.empty();
  const bool addAfter = plainChain && !chain->quantizedOutput && chain->postOps.size() == 1 &&
                        chain->postOps[0].kind == FusedPostOp::Kind::Binary &&
                        chain->postOps[0].algorithm == algorithm::binary_add;
  if (chain && !glue && !addAfter) return nullptr;
  if (context.descriptor(a).shape != output.shape) {
    // Both operands broadcast, or the first one of sub/div: our broadcasting kernel
    // (elementwise_extra.cpp), on plain inputs.
    if (!function->commutative || context.descriptor(b).shape != output.shape) {
      return chain ? nullptr : createElementwiseKernelOp(context);
    }
    std::swap(a, b);
  }
  // A blocked first operand gives a blocked output; the second may be blocked only alike (same
  // shape, same layout). oneDNN's reference binary for mixed layouts is slow: plain then.
  // Fused with a quantizeLinear: a blocked operand first when the other one is plain (the loop
  // of ours reads it transposed).
  if (chain && function->commutative && !context.layoutOf(a) && readLayoutOf(context, b) &&
      context.descriptor(b).shape == output.shape) {
    std::swap(a, b);
  }
  const memory::desc* firstLayout = context.layoutOf(a);
  const memory::desc* secondLayout = readLayoutOf(context, b);
  if (firstLayout && context.plainOutput) return nullptr;
  if (secondLayout && (!firstLayout || *secondLayout != *firstLayout)) return nullptr;
  if (glue && (!firstLayout || !context.plainOutput)) {
    // Binary and quantizeLinear on a loop of ours when the layouts let it.
    const auto& outputShape = output.shape;
    const size_t rank = std::max<size_t>(outputShape.size(), 1);
    const memory::desc first =
        firstLayout ? *firstLayout : plainFloat32Desc(broadcastDims(outputShape, rank));
    if (auto shape = glueShapeOf(first, firstLayout, secondLayout,
                                 broadcastDims(context.descriptor(b).shape, rank))) {
      const GlueOp glue = operation.type == graph::OpType::Add   ? GlueOp::Add
                          : operation.type == graph::OpType::Sub ? GlueOp::Sub
                          : operation.type == graph::OpType::Mul ? GlueOp::Mul
                                                                 : GlueOp::Div;
      std::optional<memory::desc> layout;
      if (firstLayout) layout = withDataType(*firstLayout, memory::data_type::u8);
      return std::make_unique<QuantizedGlueOp>(context, glue, a, b, *shape, layout);
    }
  }
  auto op = std::make_unique<BinaryOp>(context, function->kind, a, b);
  if ((firstLayout || addAfter) && op->implementation().rfind("ref", 0) == 0) return nullptr;
  return op;
}

}  // namespace webnn::cpu
