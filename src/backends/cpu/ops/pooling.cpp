// averagePool2d and maxPool2d on oneDNN's pooling primitive, float32, nchw or nhwc, with
// strides, dilations, asymmetric padding and either rounding type (the end padding is what makes
// oneDNN's output size the graph's). Average pooling excludes the padding, as the spec says.
// l2Pool2d has no oneDNN algorithm: it runs on the reference kernel.
#include "backends/cpu/cpu_op.h"

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
    primitive_ = dnnl::pooling_v2_forward(primitiveDesc_);
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
  dnnl::pooling_v2_forward primitive_;
};

}  // namespace

std::unique_ptr<CpuOp> createPoolingOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
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
