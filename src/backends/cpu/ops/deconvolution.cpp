// convTranspose2d on oneDNN's deconvolution primitive: float32, groups, strides, dilations,
// asymmetric padding, output padding / output sizes (the extra rows and columns of the output),
// nchw/nhwc inputs, every filter layout, an optional bias. The weights are packed in the layout
// the primitive chose (format_tag::any) as ops/convolution.cpp does: a constant filter when its
// bytes are in, a computed one at every dispatch.
//
// Activations stay plain (oneDNN 2.6 then runs it as a gemm, x64:gemm:jit). Measured on
// PaddleOCR det 640 (Zen 5, 2026-12-03), its two 2x2 stride-2 convTranspose2d: 7.0-7.6 ms as
// gemm; blocked (nChw16c, oneDNN's direct backward-data kernel) about the same without a bias,
// and 27.7 ms with the following bias add taken as the primitive's bias (the 24 -> 1 channel one
// pads its output to 16 channels, and oneDNN adds a deconvolution's bias in a pass of its own);
// the bias add taken on gemm, 10.4 ms against 7.0 plus two add steps; other post-ops (the
// batchNormalization and relu after) run in oneDNN's reference loop: 448 ms.
#include <optional>

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/half_weights.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

class DeconvolutionOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  explicit DeconvolutionOp(const OpCompileContext& context) : engine_(context.engine) {
    const graph::Operation& operation = context.operation;
    const auto& attributes = operation.attributesAs<graph::ConvTranspose2dAttributes>();
    input_ = operation.inputs[0];
    filter_ = operation.inputs[1];
    output_ = operation.outputs[0];
    bias_ = attributes.bias;

    const auto& inputShape = context.descriptor(input_).shape;
    const auto& s = context.descriptor(filter_).shape;
    const auto& outputShape = context.descriptor(output_).shape;
    const bool nhwc = attributes.inputLayout == MLInputOperandLayout::Nhwc;
    auto nchwDims = [nhwc](const std::vector<uint32_t>& d) -> memory::dims {
      return nhwc ? memory::dims{d[0], d[3], d[1], d[2]} : memory::dims{d[0], d[1], d[2], d[3]};
    };
    const memory::dims srcDims = nchwDims(inputShape);
    const memory::dims dstDims = nchwDims(outputShape);
    const Tag activationTag = nhwc ? Tag::nhwc : Tag::nchw;
    srcDesc_ = memory::desc(srcDims, memory::data_type::f32, activationTag);
    dstDesc_ = memory::desc(dstDims, memory::data_type::f32, activationTag);

    // Strides of the filter's logical (i: input channel, o: output channel in its group, h, w).
    const memory::dim s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    memory::dim strideI = 0, strideO = 0, strideH = 0, strideW = 0, kernelH = 0, kernelW = 0;
    switch (attributes.filterLayout) {
      case MLConvTranspose2dFilterOperandLayout::Iohw:
        strideI = s1 * s2 * s3, strideO = s2 * s3, strideH = s3, strideW = 1;
        kernelH = s2, kernelW = s3;
        break;
      case MLConvTranspose2dFilterOperandLayout::Hwoi:
        strideI = 1, strideO = s3, strideH = s1 * s2 * s3, strideW = s2 * s3;
        kernelH = s0, kernelW = s1;
        break;
      case MLConvTranspose2dFilterOperandLayout::Ohwi:
        strideI = 1, strideO = s1 * s2 * s3, strideH = s2 * s3, strideW = s3;
        kernelH = s1, kernelW = s2;
        break;
    }
    const memory::dim groups = attributes.groups;
    const memory::dim outputChannels = dstDims[1];
    const memory::dim inputPerGroup = srcDims[1] / groups;
    const memory::dim outputPerGroup = outputChannels / groups;
    memory::dims weightsDims, weightsStrides;
    if (groups == 1) {
      weightsDims = {outputChannels, inputPerGroup, kernelH, kernelW};
      weightsStrides = {strideO, strideI, strideH, strideW};
    } else {
      weightsDims = {groups, outputPerGroup, inputPerGroup, kernelH, kernelW};
      weightsStrides = {inputPerGroup * strideI, strideO, strideI, strideH, strideW};
    }
    plainWeightsDesc_ = memory::desc(weightsDims, memory::data_type::f32, weightsStrides);
    const memory::desc anyWeightsDesc =
        context.weightsLayout(filter_, memory::desc(weightsDims, memory::data_type::f32, Tag::any),
                              &plainWeightsDesc_);

    const memory::dims strides{attributes.strides[0], attributes.strides[1]};
    const memory::dims dilations{attributes.dilations[0] - 1, attributes.dilations[1] - 1};
    const memory::dims paddingBegin{attributes.padding[0], attributes.padding[2]};
    // The output's extra rows/columns (output padding, or output sizes beyond the minimum) are a
    // smaller end padding: oneDNN checks the shapes exactly.
    auto endPadding = [&](int axis) -> memory::dim {
      const memory::dim in = srcDims[2 + axis], out = dstDims[2 + axis];
      const memory::dim kernel = axis == 0 ? kernelH : kernelW;
      const memory::dim range = (kernel - 1) * attributes.dilations[axis] + 1;
      return (in - 1) * attributes.strides[axis] + range - paddingBegin[axis] - out;
    };
    const memory::dims paddingEnd{endPadding(0), endPadding(1)};
    const auto kind = dnnl::prop_kind::forward_inference;
    const auto algorithm = dnnl::algorithm::deconvolution_direct;
    std::optional<dnnl::deconvolution_forward::desc> desc;
    if (bias_) {
      biasDesc_ = memory::desc({outputChannels}, memory::data_type::f32, Tag::a);
      desc.emplace(kind, algorithm, srcDesc_, anyWeightsDesc, biasDesc_, dstDesc_, strides,
                   dilations, paddingBegin, paddingEnd);
    } else {
      desc.emplace(kind, algorithm, srcDesc_, anyWeightsDesc, dstDesc_, strides, dilations,
                   paddingBegin, paddingEnd);
    }
    primitiveDesc_ = dnnl::deconvolution_forward::primitive_desc(*desc, opAttributes(), engine_);
    primitive_ = dnnl::deconvolution_forward(primitiveDesc_);
    halfWeights_ = HalfPackedWeights::create(context, filter_, plainWeightsDesc_,
                                             primitiveDesc_.weights_desc());
    if (!halfWeights_ && context.isConstant(filter_)) {
      packedWeights_ =
          context.packedConstant(filter_, plainWeightsDesc_, primitiveDesc_.weights_desc());
    }
  }

  void prepareConstants(const DispatchTensors& tensors) override {
    if (packedWeights_) packedWeights_->pack(dataOf(tensors, filter_));
    if (halfWeights_) halfWeights_->prepare(dataOf(tensors, filter_));
  }

  // The workspace: the widened filter (float16 weights), then the primitive's scratchpad.
  uint64_t workspaceBytes() const override {
    return (halfWeights_ ? halfWeights_->workspaceBytes() : 0) + scratchpadBytes(primitiveDesc_);
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeInWorkspace(stream, tensors, nullptr);
  }

  void executeInWorkspace(dnnl::stream& stream, const DispatchTensors& tensors,
                          std::byte* workspace) override {
    const uint64_t halfBytes = halfWeights_ ? halfWeights_->workspaceBytes() : 0;
    memory weights;
    if (halfWeights_) {
      weights = halfWeights_->widen(engine_, workspace);
    } else if (packedWeights_) {
      weights = packedWeights_->memory();
    } else {
      memory plain(plainWeightsDesc_, engine_, dataOf(tensors, filter_));
      weights = memory(primitiveDesc_.weights_desc(), engine_);
      dnnl::reorder(plain, weights).execute(stream, plain, weights);
    }
    std::unordered_map<int, memory> arguments{
        {DNNL_ARG_SRC, memory(srcDesc_, engine_, dataOf(tensors, input_))},
        {DNNL_ARG_WEIGHTS, weights},
        {DNNL_ARG_DST, memory(dstDesc_, engine_, dataOf(tensors, output_))}};
    if (bias_) {
      arguments.emplace(DNNL_ARG_BIAS, memory(biasDesc_, engine_, dataOf(tensors, *bias_)));
    }
    executeWithScratchpad(primitive_, primitiveDesc_, stream, std::move(arguments),
                          workspace ? workspace + halfBytes : nullptr);
  }

  std::string implementation() const override {
    return implementationOf(primitiveDesc_) + (halfWeights_ ? " (float16 weights)" : "");
  }

 private:
  dnnl::engine engine_;
  graph::OperandId input_ = 0, filter_ = 0, output_ = 0;
  std::optional<graph::OperandId> bias_;
  memory::desc srcDesc_, dstDesc_, biasDesc_, plainWeightsDesc_;
  dnnl::deconvolution_forward::primitive_desc primitiveDesc_;
  dnnl::deconvolution_forward primitive_;
  std::shared_ptr<PackedConstant> packedWeights_;
  std::unique_ptr<HalfPackedWeights> halfWeights_;  // a float16 model's filter, kept 16-bit
};

}  // namespace

std::unique_ptr<CpuOp> createDeconvolutionOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  for (graph::OperandId id : operation.inputs) {
    const auto& descriptor = context.descriptor(id);
    if (descriptor.dataType != MLOperandDataType::Float32) return nullptr;
    if (descriptor.elementCount() == 0) return nullptr;
  }
  if (context.descriptor(operation.outputs[0]).elementCount() == 0) return nullptr;
  return std::make_unique<DeconvolutionOp>(context);
}

}  // namespace webnn::cpu
