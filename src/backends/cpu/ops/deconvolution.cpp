// convTranspose2d. A stride equal to the kernel without padding (non-overlapping patches) runs on
// a kernel of ours (PatchDeconvolutionOp below); everything else on oneDNN's deconvolution
// primitive: float32, groups, strides, dilations, asymmetric padding, output padding / output
// sizes (the extra rows and columns of the output), nchw/nhwc inputs, every filter layout, an
// optional bias. The weights are packed in the layout
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
#include <algorithm>
#include <optional>

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/half_weights.h"
#include "backends/cpu/kernels/patch_deconvolution.h"

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
    primitive_ = makePrimitive<dnnl::deconvolution_forward>(primitiveDesc_);
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
  DeferredPrimitive primitive_;  // made beside the compile (deferred_primitive.h)
  std::shared_ptr<PackedConstant> packedWeights_;
  std::unique_ptr<HalfPackedWeights> halfWeights_;  // a float16 model's filter, kept 16-bit
};

// A stride that equals the kernel, no padding, dilation, groups or extra output: every input
// pixel writes its own patch (kernels/patch_deconvolution.h). oneDNN 2.6 runs these as a gemm whose
// packing buffers it allocates at every call (two 5 MB buffers a dispatch on det, faulted in each
// time) and whose kernels it generates at the first call. Measured on PaddleOCR det 640 (Zen 5,
// 2026-12-05), its two 2x2 stride-2 ones: 5.2 ms a dispatch and 42.8 ms in the first one as gemm.
class PatchDeconvolutionOp final : public CpuOp {
 public:
  PatchDeconvolutionOp(const OpCompileContext& context, PatchDeconvolutionShape shape,
                       const memory::desc& plainWeights)
      : engine_(context.engine), shape_(shape) {
    const graph::Operation& operation = context.operation;
    input_ = operation.inputs[0];
    filter_ = operation.inputs[1];
    output_ = operation.outputs[0];
    bias_ = operation.attributesAs<graph::ConvTranspose2dAttributes>().bias;
    // A constant filter is kept as [o][kh][kw][i]: each tap's channel sums read contiguous.
    const memory::dim o = shape.outputChannels, i = shape.inputChannels, h = shape.kernelHeight,
                      w = shape.kernelWidth;
    const memory::desc packed({o, i, h, w}, memory::data_type::f32, {h * w * i, 1, w * i, i});
    halfWeights_ = HalfPackedWeights::create(context, filter_, plainWeights, packed);
    if (!halfWeights_ && context.isConstant(filter_)) {
      packedWeights_ = context.packedConstant(filter_, plainWeights, packed);
    }
    if (halfWeights_ || packedWeights_) {
      shape_.strideO = h * w * i, shape_.strideI = 1, shape_.strideH = w * i, shape_.strideW = i;
    }
  }

  void prepareConstants(const DispatchTensors& tensors) override {
    if (packedWeights_) packedWeights_->pack(dataOf(tensors, filter_));
    if (halfWeights_) halfWeights_->prepare(dataOf(tensors, filter_));
  }

  uint64_t workspaceBytes() const override {
    return halfWeights_ ? halfWeights_->workspaceBytes() : 0;
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeInWorkspace(stream, tensors, nullptr);
  }

  void executeInWorkspace(dnnl::stream&, const DispatchTensors& tensors,
                          std::byte* workspace) override {
    const float* weights = nullptr;
    memory widened;
    if (halfWeights_) {
      widened = halfWeights_->widen(engine_, workspace);
      weights = static_cast<const float*>(widened.get_data_handle());
    } else if (packedWeights_) {
      weights = static_cast<const float*>(packedWeights_->memory().get_data_handle());
    } else {
      weights = tensors[filter_].as<float>();
    }
    patchDeconvolution(shape_, tensors[input_].as<float>(), weights,
                       bias_ ? tensors[*bias_].as<float>() : nullptr, tensors[output_].as<float>());
  }

  std::string implementation() const override {
    return std::string("cpu patch convTranspose2d kernel") +
           (halfWeights_ ? " (float16 weights)" : "");
  }

 private:
  dnnl::engine engine_;
  PatchDeconvolutionShape shape_;
  graph::OperandId input_ = 0, filter_ = 0, output_ = 0;
  std::optional<graph::OperandId> bias_;
  std::shared_ptr<PackedConstant> packedWeights_;
  std::unique_ptr<HalfPackedWeights> halfWeights_;
};

// The patch kernel's case (nchw, plain input, nothing fused), with the filter's plain layout.
std::unique_ptr<CpuOp> createPatchDeconvolutionOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  const auto& a = operation.attributesAs<graph::ConvTranspose2dAttributes>();
  if (a.inputLayout != MLInputOperandLayout::Nchw || a.groups != 1) return nullptr;
  if (context.fusion || context.layoutOf(operation.inputs[0])) return nullptr;
  if (a.filterLayout != MLConvTranspose2dFilterOperandLayout::Iohw) return nullptr;
  const auto& in = context.descriptor(operation.inputs[0]).shape;
  const auto& f = context.descriptor(operation.inputs[1]).shape;  // [i, o, h, w]
  const auto& out = context.descriptor(operation.outputs[0]).shape;
  const int64_t kernelH = f[2], kernelW = f[3];
  const bool patches =
      a.strides[0] == kernelH && a.strides[1] == kernelW && a.dilations[0] == 1 &&
      a.dilations[1] == 1 &&
      std::all_of(a.padding.begin(), a.padding.end(), [](uint32_t p) { return p == 0; }) &&
      int64_t{out[2]} == int64_t{in[2]} * kernelH && int64_t{out[3]} == int64_t{in[3]} * kernelW &&
      out[1] == f[1];
  if (!patches) return nullptr;
  // Where it wins: few channels over wide rows (segmentation heads). With many channels oneDNN's
  // gemm packs the product better than per-row register tiles (measured, 2x2 stride 2: 24 -> 24
  // channels at 160x160 6.1 against 14.8 ms, 16 -> 16 at 320x320 9.0 against 23.1; 32 -> 32 at
  // 80x80 the same; 64 -> 64 at 80x80 8.7 against 7.3, 512 -> 512 at 16x16 30 against 4.3), and
  // rows narrower than a vector waste most of its lanes (48 channels at 20x20: 0.27 against 0.11).
  constexpr int64_t kMaxChannels = 32, kMinWidth = 16;
  if (int64_t{in[1]} > kMaxChannels || int64_t{f[1]} > kMaxChannels || int64_t{in[3]} < kMinWidth) {
    return nullptr;
  }
  PatchDeconvolutionShape shape;
  shape.batches = in[0], shape.inputChannels = in[1], shape.inputHeight = in[2];
  shape.inputWidth = in[3], shape.outputChannels = f[1];
  shape.kernelHeight = kernelH, shape.kernelWidth = kernelW;
  // iohw: w(o, i, kh, kw) at i * (O H W) + o * (H W) + kh * W + kw.
  shape.strideI = int64_t{f[1]} * kernelH * kernelW, shape.strideO = kernelH * kernelW;
  shape.strideH = kernelW, shape.strideW = 1;
  const memory::desc plain({shape.outputChannels, shape.inputChannels, kernelH, kernelW},
                           memory::data_type::f32,
                           {shape.strideO, shape.strideI, shape.strideH, shape.strideW});
  return std::make_unique<PatchDeconvolutionOp>(context, shape, plain);
}

}  // namespace

std::unique_ptr<CpuOp> createDeconvolutionOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  for (graph::OperandId id : operation.inputs) {
    const auto& descriptor = context.descriptor(id);
    if (descriptor.dataType != MLOperandDataType::Float32) return nullptr;
    if (descriptor.elementCount() == 0) return nullptr;
  }
  if (context.descriptor(operation.outputs[0]).elementCount() == 0) return nullptr;
  if (auto patch = createPatchDeconvolutionOp(context)) return patch;
  return std::make_unique<DeconvolutionOp>(context);
}

}  // namespace webnn::cpu
