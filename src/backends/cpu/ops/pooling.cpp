// averagePool2d and maxPool2d on oneDNN's pooling primitive, float32, nchw or nhwc, with
// strides, dilations, asymmetric padding and either rounding type (the end padding is what makes
// oneDNN's output size the graph's). Average pooling excludes the padding, as the spec says.
// l2Pool2d, which oneDNN has no algorithm for, is a loop of ours (plain nchw or nhwc): the square
// root of the window's sum of squares, summed in double and rounded once as the reference does;
// window elements outside the input (padding) are skipped. Output rows are shared out over the
// threads.
#include <cmath>

#include "backends/cpu/cpu_op.h"
#include "graph/ops/conv2d.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

class PoolingOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  PoolingOp(const OpCompileContext& context, dnnl::algorithm kind, const memory::dims& srcDims,
            const memory::dims& dstDims, Tag tag, const memory::dims& paddingEnd)
      : engine_(context.engine),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        srcDesc_(srcDims, memory::data_type::f32, tag),
        dstDesc_(dstDims, memory::data_type::f32, tag) {
    // A blocked input (nchw only): the output in the layout the primitive picks for it.
    if (const memory::desc* layout = context.layoutOf(input_)) {
      srcDesc_ = *layout;
      dstDesc_ = memory::desc(dstDims, memory::data_type::f32, Tag::any);
      blocked_ = true;
    }
    const auto& attributes = context.operation.attributesAs<graph::Pool2dAttributes>();
    const dnnl::pooling_v2_forward::desc desc(
        dnnl::prop_kind::forward_inference, kind, srcDesc_, dstDesc_,
        {attributes.strides[0], attributes.strides[1]},
        {attributes.windowDimensions[0], attributes.windowDimensions[1]},
        {attributes.dilations[0] - 1, attributes.dilations[1] - 1},
        {attributes.padding[0], attributes.padding[2]}, paddingEnd);
    primitiveDesc_ = dnnl::pooling_v2_forward::primitive_desc(desc, opAttributes(), engine_);
    primitive_ = makePrimitive<dnnl::pooling_v2_forward>(primitiveDesc_);
    if (blocked_) dstDesc_ = primitiveDesc_.dst_desc();
  }

  std::optional<memory::desc> outputLayout() const override {
    return blocked_ ? std::optional(dstDesc_) : std::nullopt;
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeWithScratchpad(primitive_, primitiveDesc_, stream,
                          {{DNNL_ARG_SRC, memory(srcDesc_, engine_, dataOf(tensors, input_))},
                           {DNNL_ARG_DST, memory(dstDesc_, engine_, dataOf(tensors, output_))}});
  }

  std::string implementation() const override { return implementationOf(primitiveDesc_); }

 private:
  dnnl::engine engine_;
  graph::OperandId input_, output_;
  memory::desc srcDesc_, dstDesc_;
  bool blocked_ = false;
  dnnl::pooling_v2_forward::primitive_desc primitiveDesc_;
  DeferredPrimitive primitive_;  // made beside the compile (deferred_primitive.h)
};

class L2PoolOp final : public CpuOp {
 public:
  explicit L2PoolOp(const OpCompileContext& context)
      : input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        attributes_(context.operation.attributesAs<graph::Pool2dAttributes>()),
        in_(graph::spatialShapeOf(context.descriptor(input_).shape, attributes_.layout)),
        out_(graph::spatialShapeOf(context.descriptor(output_).shape, attributes_.layout)) {}

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* input = tensors[input_].as<float>();
    float* output = tensors[output_].as<float>();
    const bool nhwc = attributes_.layout == MLInputOperandLayout::Nhwc;
    const int64_t rows = static_cast<int64_t>(out_.batches * out_.channels * out_.height);
#pragma omp parallel for schedule(static) if (rows * out_.width > 4096)
    for (int64_t row = 0; row < rows; ++row) {
      const uint64_t oh = static_cast<uint64_t>(row) % out_.height;
      const uint64_t c = static_cast<uint64_t>(row) / out_.height % out_.channels;
      const uint64_t n = static_cast<uint64_t>(row) / out_.height / out_.channels;
      for (uint64_t ow = 0; ow < out_.width; ++ow) {
        double sum = 0.0;
        for (uint64_t kh = 0; kh < attributes_.windowDimensions[0]; ++kh) {
          const int64_t h =
              static_cast<int64_t>(oh * attributes_.strides[0] + kh * attributes_.dilations[0]) -
              attributes_.padding[0];
          if (h < 0 || h >= static_cast<int64_t>(in_.height)) continue;
          for (uint64_t kw = 0; kw < attributes_.windowDimensions[1]; ++kw) {
            const int64_t w =
                static_cast<int64_t>(ow * attributes_.strides[1] + kw * attributes_.dilations[1]) -
                attributes_.padding[2];
            if (w < 0 || w >= static_cast<int64_t>(in_.width)) continue;
            const double x =
                input[offset(in_, nhwc, n, c, static_cast<uint64_t>(h), static_cast<uint64_t>(w))];
            sum += x * x;
          }
        }
        output[offset(out_, nhwc, n, c, oh, ow)] = static_cast<float>(std::sqrt(sum));
      }
    }
  }

  std::string implementation() const override {
    return "cpu l2Pool2d kernel";
  }

 private:
  static uint64_t offset(const graph::SpatialShape& s, bool nhwc, uint64_t n, uint64_t c,
                         uint64_t h, uint64_t w) {
    return nhwc ? ((n * s.height + h) * s.width + w) * s.channels + c
                : ((n * s.channels + c) * s.height + h) * s.width + w;
  }

  graph::OperandId input_, output_;
  graph::Pool2dAttributes attributes_;
  graph::SpatialShape in_, out_;
};

}  // namespace

std::unique_ptr<CpuOp> createPoolingOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  if (operation.type == graph::OpType::L2Pool2d) {
    // Plain float32 only (a blocked input gets its plain copy: the table entry reads none).
    if (context.descriptor(operation.inputs[0]).dataType != MLOperandDataType::Float32 ||
        context.layoutOf(operation.inputs[0])) {
      return nullptr;
    }
    return std::make_unique<L2PoolOp>(context);
  }
  dnnl::algorithm kind;
  if (operation.type == graph::OpType::AveragePool2d) {
    kind = dnnl::algorithm::pooling_avg_exclude_padding;
  } else if (operation.type == graph::OpType::MaxPool2d) {
    kind = dnnl::algorithm::pooling_max;
  } else {
    return nullptr;
  }
  const auto& input = context.descriptor(operation.inputs[0]);
  const auto& output = context.descriptor(operation.outputs[0]);
  if (input.dataType != MLOperandDataType::Float32 || output.elementCount() == 0) return nullptr;
  const auto& attributes = operation.attributesAs<graph::Pool2dAttributes>();
  const bool nhwc = attributes.layout == MLInputOperandLayout::Nhwc;
  if (context.layoutOf(operation.inputs[0]) && (nhwc || context.plainOutput)) return nullptr;
  auto nchwDims = [nhwc](const std::vector<uint32_t>& s) -> memory::dims {
    return nhwc ? memory::dims{s[0], s[3], s[1], s[2]} : memory::dims{s[0], s[1], s[2], s[3]};
  };
  const memory::dims srcDims = nchwDims(input.shape);
  const memory::dims dstDims = nchwDims(output.shape);
  // The end padding that gives the graph's output size: (out - 1) stride + window extent = in +
  // begin + end.
  memory::dims paddingEnd(2);
  for (size_t axis = 0; axis < 2; ++axis) {
    const memory::dim extent = (static_cast<memory::dim>(attributes.windowDimensions[axis]) - 1) *
                                   attributes.dilations[axis] +
                               1;
    paddingEnd[axis] = (dstDims[2 + axis] - 1) * attributes.strides[axis] + extent -
                       srcDims[2 + axis] - attributes.padding[axis * 2];
    if (paddingEnd[axis] < 0) return nullptr;
  }
  return std::make_unique<PoolingOp>(context, kind, srcDims, dstDims, nhwc ? Tag::nhwc : Tag::nchw,
                                     paddingEnd);
}

}  // namespace webnn::cpu
