// convTranspose2d on oneDNN's deconvolution primitive: float32, groups, strides, dilations,
// asymmetric padding, output padding / output sizes (the extra rows and columns of the output),
// nchw/nhwc inputs, every filter layout, an optional bias (or the add of a per-channel constant
// after it: fusion.cpp). The weights are packed in the layout the primitive chose
// (format_tag::any) as ops/convolution.cpp does: a constant filter when its bytes are in, a
// computed one at every dispatch. nchw activations in the blocked layouts the primitive picks, as
// ops/convolution.cpp: on plain nchw oneDNN 2.6 runs a deconvolution as a gemm (x64:gemm:jit,
// a JIT of its own at the first dispatch), on blocked ones as its direct backward-data
// convolution.
#include <optional>

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/half_weights.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

uint64_t roundUp64(uint64_t bytes) { return (bytes + 63) / 64 * 64; }

class DeconvolutionOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  explicit DeconvolutionOp(const OpCompileContext& context) : engine_(context.engine) {
    const graph::Operation& operation = context.operation;
    const auto& attributes = operation.attributesAs<graph::ConvTranspose2dAttributes>();
    input_ = operation.inputs[0];
    filter_ = operation.inputs[1];
    output_ = context.stepOutput();
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
    // The input as it is (plain, or the blocked layout its producer wrote); the primitive picks
    // its source layout and an input in another one is reordered into the workspace at execute.
    const memory::desc* inputLayout = context.layoutOf(input_);
    inputDesc_ =
        inputLayout ? *inputLayout : memory::desc(srcDims, memory::data_type::f32, activationTag);
    const memory::desc srcDesc =
        nhwc ? inputDesc_ : memory::desc(srcDims, memory::data_type::f32, Tag::any);
    const memory::desc plainDst(dstDims, memory::data_type::f32, activationTag);
    const memory::desc blockedDst =
        context.outputLayoutOr(output_, memory::desc(dstDims, memory::data_type::f32, Tag::any));

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
    // The one post-op fusion.cpp gives a convTranspose2d: the add of a per-channel constant, its
    // bias (the constant's C values, contiguous whatever its shape of 1s).
    if (context.fusion) {
      const auto& postOps = context.fusion->postOps;
      if (bias_ || postOps.size() != 1 || postOps[0].kind != FusedPostOp::Kind::Binary ||
          postOps[0].algorithm != dnnl::algorithm::binary_add) {
        throw dnnl::error(dnnl_unimplemented, "convTranspose2d takes only a bias add");
      }
      bias_ = postOps[0].other;
    }
    if (bias_) biasDesc_ = memory::desc({outputChannels}, memory::data_type::f32, Tag::a);
    auto descWith = [&](const memory::desc& source, const memory::desc& destination) {
      return bias_ ? dnnl::deconvolution_forward::desc(kind, algorithm, source, anyWeightsDesc,
                                                       biasDesc_, destination, strides, dilations,
                                                       paddingBegin, paddingEnd)
                   : dnnl::deconvolution_forward::desc(kind, algorithm, source, anyWeightsDesc,
                                                       destination, strides, dilations,
                                                       paddingBegin, paddingEnd);
    };
    const dnnl::primitive_attr primitiveAttributes = opAttributes();
    // Blocked source and destination (the destination reordered to plain after when the
    // consumers read plain): oneDNN's direct deconvolution. Where it has none (nhwc), the plain
    // layouts it takes.
    const bool plainOutput = context.plainOutput || nhwc;
    std::optional<dnnl::deconvolution_forward::primitive_desc> chosen;
    if (!nhwc) {
      try {
        auto blocked = dnnl::deconvolution_forward::primitive_desc(
            descWith(srcDesc, blockedDst), primitiveAttributes, engine_);
        const std::string name = implementationOf(blocked);
        if (name.find("gemm") == std::string::npos && name.rfind("ref", 0) != 0) {
          chosen = blocked;
        }
      } catch (const dnnl::error&) {
        // none on blocked layouts: the plain ones below
      }
    }
    if (!chosen) {
      const memory::desc plainSrc(srcDims, memory::data_type::f32, activationTag);
      chosen = dnnl::deconvolution_forward::primitive_desc(descWith(plainSrc, plainDst),
                                                           primitiveAttributes, engine_);
    }
    primitiveDesc_ = *chosen;
    primitive_ = dnnl::deconvolution_forward(primitiveDesc_);
    srcDesc_ = primitiveDesc_.src_desc();
    dstDesc_ = primitiveDesc_.dst_desc();
    if (srcDesc_ != inputDesc_) {
      inputReorder_ =
          dnnl::reorder(dnnl::reorder::primitive_desc(engine_, inputDesc_, engine_, srcDesc_));
      reorderBytes_ = roundUp64(srcDesc_.get_size());
    }
    if (dstDesc_ != plainDst && plainOutput) {
      outputReorder_ =
          dnnl::reorder(dnnl::reorder::primitive_desc(engine_, dstDesc_, engine_, plainDst));
      plainDstDesc_ = plainDst;
      outputBytes_ = roundUp64(dstDesc_.get_size());
    }
    blockedOutput_ = !plainOutput && dstDesc_ != plainDst;
    scratchpadBytes_ = scratchpadBytes(primitiveDesc_);
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

  // The workspace: the reordered input, the blocked result (when reordered to plain after), the
  // primitive's scratchpad, the widened filter (float16 weights).
  uint64_t workspaceBytes() const override {
    return reorderBytes_ + outputBytes_ + scratchpadBytes_ +
           (halfWeights_ ? halfWeights_->workspaceBytes() : 0);
  }
  std::optional<memory::desc> outputLayout() const override {
    return blockedOutput_ ? std::optional(dstDesc_) : std::nullopt;
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeInWorkspace(stream, tensors, nullptr);
  }

  void executeInWorkspace(dnnl::stream& stream, const DispatchTensors& tensors,
                          std::byte* workspace) override {
    auto at = [workspace](uint64_t offset) { return workspace ? workspace + offset : nullptr; };
    memory source(inputDesc_, engine_, dataOf(tensors, input_));
    if (inputReorder_) {
      memory reordered = workspace ? memory(srcDesc_, engine_, workspace) : memory(srcDesc_, engine_);
      inputReorder_->execute(stream, source, reordered);
      source = reordered;
    }
    memory weights;
    if (halfWeights_) {
      weights = halfWeights_->widen(engine_,
                                    at(reorderBytes_ + outputBytes_ + scratchpadBytes_));
    } else if (packedWeights_) {
      weights = packedWeights_->memory();
    } else {  // a filter computed by the graph: reorder it for this dispatch
      memory plain(plainWeightsDesc_, engine_, dataOf(tensors, filter_));
      weights = memory(primitiveDesc_.weights_desc(), engine_);
      dnnl::reorder(plain, weights).execute(stream, plain, weights);
    }
    // The destination: the output, or the workspace when the output is reordered to plain after.
    memory destination;
    if (outputReorder_) {
      destination = workspace ? memory(dstDesc_, engine_, workspace + reorderBytes_)
                              : memory(dstDesc_, engine_);
    } else {
      destination = memory(dstDesc_, engine_, dataOf(tensors, output_));
    }
    std::unordered_map<int, memory> arguments{
        {DNNL_ARG_SRC, source}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, destination}};
    if (bias_) {
      arguments.emplace(DNNL_ARG_BIAS, memory(biasDesc_, engine_, dataOf(tensors, *bias_)));
    }
    executeWithScratchpad(primitive_, primitiveDesc_, stream, std::move(arguments),
                          at(reorderBytes_ + outputBytes_));
    if (outputReorder_) {
      memory plain(plainDstDesc_, engine_, dataOf(tensors, output_));
      outputReorder_->execute(stream, destination, plain);
    }
  }

  std::string implementation() const override {
    return implementationOf(primitiveDesc_) + (outputReorder_ ? " + reorder to plain" : "") +
           (halfWeights_ ? " (float16 weights)" : "");
  }

 private:
  dnnl::engine engine_;
  graph::OperandId input_ = 0, filter_ = 0, output_ = 0;
  std::optional<graph::OperandId> bias_;
  memory::desc inputDesc_, srcDesc_, dstDesc_, biasDesc_, plainWeightsDesc_, plainDstDesc_;
  std::optional<dnnl::reorder> inputReorder_;   // the input's layout -> the primitive's
  std::optional<dnnl::reorder> outputReorder_;  // blocked result -> plain output
  uint64_t reorderBytes_ = 0, outputBytes_ = 0, scratchpadBytes_ = 0;
  bool blockedOutput_ = false;
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
  const auto& attributes = operation.attributesAs<graph::ConvTranspose2dAttributes>();
  if (context.layoutOf(operation.inputs[0]) &&
      attributes.inputLayout == MLInputOperandLayout::Nhwc) {
    return nullptr;
  }
  // Only the input may be blocked: the filter and bias are read plain.
  for (size_t i = 1; i < operation.inputs.size(); ++i) {
    if (context.layoutOf(operation.inputs[i])) return nullptr;
  }
  return std::make_unique<DeconvolutionOp>(context);
}

}  // namespace webnn::cpu
