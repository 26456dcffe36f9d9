// conv2d on oneDNN's convolution primitive: float32, any groups (depthwise included), strides,
// dilations, asymmetric padding, nchw/nhwc inputs, every filter layout, an optional bias, fused
// post-ops (activations, a residual add). nchw activations in the blocked layouts the primitive
// picks (nChw16c on AVX-512), propagated to the consumers that read them. The
// weights are in the layout the primitive chose (format_tag::any): a constant filter is packed
// when its bytes are in, a filter computed by the graph is reordered at every dispatch.
#include <array>
#include <mutex>
#include <optional>

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/ops/binding_cache.h"
#include "backends/cpu/half_weights.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

// Strides (in elements) of the logical filter dimensions (o, i, h, w) in the filter's layout.
struct FilterStrides {
  memory::dim o, i, h, w;
};

FilterStrides filterStridesOf(const std::vector<uint32_t>& s, MLConv2dFilterOperandLayout layout) {
  const memory::dim s1 = s[1], s2 = s[2], s3 = s[3];
  switch (layout) {
    case MLConv2dFilterOperandLayout::Oihw:  // [O, I, H, W]
      return {s1 * s2 * s3, s2 * s3, s3, 1};
    case MLConv2dFilterOperandLayout::Hwio:  // [H, W, I, O]
      return {1, s3, s1 * s2 * s3, s2 * s3};
    case MLConv2dFilterOperandLayout::Ohwi:  // [O, H, W, I]
      return {s1 * s2 * s3, 1, s2 * s3, s3};
    case MLConv2dFilterOperandLayout::Ihwo:  // [I, H, W, O]
      return {1, s1 * s2 * s3, s2 * s3, s3};
  }
  return {};
}

class ConvolutionOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  ConvolutionOp(const OpCompileContext& context) : engine_(context.engine) {
    const graph::Operation& operation = context.operation;
    const auto& attributes = operation.attributesAs<graph::Conv2dAttributes>();
    input_ = operation.inputs[0];
    filter_ = operation.inputs[1];
    output_ = context.stepOutput();
    bias_ = attributes.bias;

    const auto& inputShape = context.descriptor(input_).shape;
    const auto& filterShape = context.descriptor(filter_).shape;
    const auto& outputShape = context.descriptor(operation.outputs[0]).shape;
    const bool nhwc = attributes.inputLayout == MLInputOperandLayout::Nhwc;
    // Logical NCHW dims; the tag says where they are in memory.
    auto nchwDims = [nhwc](const std::vector<uint32_t>& s) -> memory::dims {
      return nhwc ? memory::dims{s[0], s[3], s[1], s[2]} : memory::dims{s[0], s[1], s[2], s[3]};
    };
    const memory::dims srcDims = nchwDims(inputShape);
    const memory::dims dstDims = nchwDims(outputShape);
    const Tag activationTag = nhwc ? Tag::nhwc : Tag::nchw;
    // The input as it is (plain, or the blocked layout its producer wrote); the primitive picks
    // its own source layout (format_tag::any) and an input in another layout is reordered into
    // the workspace at execute. The output: plain, or the layout the primitive picks.
    const memory::desc* inputLayout = context.layoutOf(input_);
    inputDesc_ =
        inputLayout ? *inputLayout : memory::desc(srcDims, memory::data_type::f32, activationTag);
    const memory::desc srcDesc =
        nhwc ? inputDesc_ : memory::desc(srcDims, memory::data_type::f32, Tag::any);
    const memory::desc blockedDst =
        context.outputLayoutOr(output_, memory::desc(dstDims, memory::data_type::f32, Tag::any));
    memory::desc dstDesc = context.plainOutput || nhwc
                               ? memory::desc(dstDims, memory::data_type::f32, activationTag)
                               : blockedDst;
    // A residual summed into (FusedPostOp::Kind::Sum): the result goes in its buffer, so in its
    // layout, which the consumers must read.
    if (context.fusion) {
      for (const FusedPostOp& postOp : context.fusion->postOps) {
        if (postOp.kind != FusedPostOp::Kind::Sum) continue;
        const memory::desc* residualLayout = context.storedLayoutOf(postOp.other);
        if (residualLayout) {
          if (context.plainOutput || residualLayout->dims() != dstDims) {
            throw dnnl::error(dnnl_unimplemented, "a blocked residual, a plain output");
          }
          dstDesc = *residualLayout;
        } else {
          dstDesc = memory::desc(dstDims, memory::data_type::f32, activationTag);
        }
        summed_ = true;
      }
    }

    // The filter: [O, I/groups, H, W] logically, grouped as [G, O/G, I/G, H, W].
    const memory::dim groups = attributes.groups;
    const memory::dim outputChannels = dstDims[1];
    const memory::dim inputChannelsPerGroup = srcDims[1] / groups;
    const FilterStrides strides = filterStridesOf(filterShape, attributes.filterLayout);
    memory::dim kernelHeight = 0, kernelWidth = 0;
    switch (attributes.filterLayout) {
      case MLConv2dFilterOperandLayout::Oihw:
        kernelHeight = filterShape[2], kernelWidth = filterShape[3];
        break;
      case MLConv2dFilterOperandLayout::Hwio:
        kernelHeight = filterShape[0], kernelWidth = filterShape[1];
        break;
      case MLConv2dFilterOperandLayout::Ohwi:
      case MLConv2dFilterOperandLayout::Ihwo:
        kernelHeight = filterShape[1], kernelWidth = filterShape[2];
        break;
    }
    memory::dims weightsDims;
    memory::dims weightsStrides;
    if (groups == 1) {
      weightsDims = {outputChannels, inputChannelsPerGroup, kernelHeight, kernelWidth};
      weightsStrides = {strides.o, strides.i, strides.h, strides.w};
    } else {
      const memory::dim perGroup = outputChannels / groups;
      weightsDims = {groups, perGroup, inputChannelsPerGroup, kernelHeight, kernelWidth};
      weightsStrides = {perGroup * strides.o, strides.o, strides.i, strides.h, strides.w};
    }
    plainWeightsDesc_ = memory::desc(weightsDims, memory::data_type::f32, weightsStrides);
    const memory::desc anyWeightsDesc = context.weightsLayout(
        filter_, memory::desc(weightsDims, memory::data_type::f32, Tag::any), &plainWeightsDesc_);

    const memory::dims convolutionStrides{attributes.strides[0], attributes.strides[1]};
    const memory::dims dilations{attributes.dilations[0] - 1, attributes.dilations[1] - 1};
    const memory::dims paddingBegin{attributes.padding[0], attributes.padding[2]};
    const memory::dims paddingEnd{attributes.padding[1], attributes.padding[3]};
    const auto kind = dnnl::prop_kind::forward_inference;
    const auto algorithm = dnnl::algorithm::convolution_direct;
    const memory::desc biasDesc({outputChannels}, memory::data_type::f32, Tag::a);
    if (bias_) biasDesc_ = biasDesc;
    auto descWith = [&](const memory::desc& destination) {
      return bias_ ? dnnl::convolution_forward::desc(kind, algorithm, srcDesc, anyWeightsDesc,
                                                     biasDesc, destination, convolutionStrides,
                                                     dilations, paddingBegin, paddingEnd)
                   : dnnl::convolution_forward::desc(kind, algorithm, srcDesc, anyWeightsDesc,
                                                     destination, convolutionStrides, dilations,
                                                     paddingBegin, paddingEnd);
    };
    dnnl::primitive_attr attributesWithPostOps = opAttributes();
    if (context.fusion) {
      if (nhwc) throw dnnl::error(dnnl_unimplemented, "post-ops on an nhwc convolution");
      auto postOps = postOpArgumentsOf(context, dstDims);
      if (!postOps) throw dnnl::error(dnnl_unimplemented, "post-op operands");
      postOps_ = std::move(*postOps);
      attributesWithPostOps.set_post_ops(postOps_.postOps);
    }
    primitiveDesc_ = dnnl::convolution_forward::primitive_desc(descWith(dstDesc),
                                                               attributesWithPostOps, engine_);
    // A plain nchw destination mostly gets oneDNN's gemm convolution, several times slower than
    // its direct ones: compute in the layout the primitive picks, then reorder to plain.
    if (summed_) {
      // In place, or not at all: no reorder after; and a gemm or reference convolution (what
      // oneDNN picks when its direct ones refuse these layouts) would cost more than the add.
      const std::string name = implementationOf(primitiveDesc_);
      if (name.find("gemm") != std::string::npos || name.rfind("ref", 0) == 0) {
        throw dnnl::error(dnnl_unimplemented, "no direct convolution summing into the residual");
      }
    } else if (context.plainOutput && !nhwc &&
               implementationOf(primitiveDesc_).find("gemm") != std::string::npos) {
      try {
        auto blocked = dnnl::convolution_forward::primitive_desc(descWith(blockedDst),
                                                                 attributesWithPostOps, engine_);
        const std::string name = implementationOf(blocked);
        if (name.find("gemm") == std::string::npos && name.rfind("ref", 0) != 0 &&
            blocked.dst_desc() != dstDesc) {
          outputReorder_ = dnnl::reorder(
              dnnl::reorder::primitive_desc(engine_, blocked.dst_desc(), engine_, dstDesc));
          plainDstDesc_ = dstDesc;
          primitiveDesc_ = blocked;
        }
      } catch (const dnnl::error&) {
        // no direct convolution with these post-ops: keep the gemm one
      }
    }
    primitive_ = makePrimitive<dnnl::convolution_forward>(primitiveDesc_);
    srcDesc_ = primitiveDesc_.src_desc();
    dstDesc_ = primitiveDesc_.dst_desc();
    blockedOutput_ = !context.plainOutput && !nhwc;
    if (outputReorder_) outputBytes_ = (dstDesc_.get_size() + 63) / 64 * 64;
    if (srcDesc_ != inputDesc_) {
      inputReorder_ =
          dnnl::reorder(dnnl::reorder::primitive_desc(engine_, inputDesc_, engine_, srcDesc_));
      reorderBytes_ = (srcDesc_.get_size() + 63) / 64 * 64;
    }
    scratchpadBytes_ = scratchpadBytes(primitiveDesc_);
    bindings_.operands = {input_, output_};
    if (bias_ && !context.isConstant(*bias_)) bindings_.operands.push_back(*bias_);
    for (const auto& input : postOps_.binaryInputs) {
      if (input.foldedIndex < 0 && !context.isConstant(input.operand)) {
        bindings_.operands.push_back(input.operand);
      }
    }
    halfWeights_ = HalfPackedWeights::create(context, filter_, plainWeightsDesc_,
                                             primitiveDesc_.weights_desc());
    if (halfWeights_) {
      halfWeightsBytes_ = halfWeights_->workspaceBytes();
    } else if (context.isConstant(filter_)) {
      packedWeights_ =
          context.packedConstant(filter_, plainWeightsDesc_, primitiveDesc_.weights_desc());
    }
  }

  void prepareConstants(const DispatchTensors& tensors) override {
    if (packedWeights_) packedWeights_->pack(dataOf(tensors, filter_));
    if (halfWeights_) halfWeights_->prepare(dataOf(tensors, filter_));
    postOps_.prepare(tensors);
    // The constants' bytes may have moved: bind again.
    bindings_.clear();
  }

  // The workspace: the reordered input, the blocked result (when reordered to plain after), the
  // primitive's scratchpad, the widened filter (float16 weights).
  uint64_t workspaceBytes() const override {
    return reorderBytes_ + outputBytes_ + scratchpadBytes_ + halfWeightsBytes_;
  }
  std::optional<memory::desc> outputLayout() const override {
    return blockedOutput_ ? std::optional(dstDesc_) : std::nullopt;
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeInWorkspace(stream, tensors, nullptr);
  }

  void executeInWorkspace(dnnl::stream& stream, const DispatchTensors& tensors,
                          std::byte* workspace) override {
    // A filter computed by the graph is reordered into a memory of its own at every dispatch.
    if (!workspace || (!halfWeights_ && !packedWeights_)) {
      executeUnbound(stream, tensors, workspace);
      return;
    }
    if (!bindings_.usable()) {
      executeUnbound(stream, tensors, workspace);
      return;
    }
    const auto bound = bindings_.get(
        tensors, workspace, [&](const Key& key) { return bind(tensors, workspace, key); });
    if (inputReorder_) inputReorder_->execute(stream, bound->inputReorder);
    if (halfWeights_) halfWeights_->widenInto(bound->widened);
    primitive_.execute(stream, bound->arguments);
    if (outputReorder_) outputReorder_->execute(stream, bound->outputReorder);
  }

  std::string implementation() const override {
    return implementationOf(primitiveDesc_) + (outputReorder_ ? " + reorder to plain" : "") +
           (halfWeights_ ? " (float16 weights)" : "");
  }

 private:
  // The memory objects of a dispatch whose pointers are `key` (the workspace, then the
  // bindings_.operands's: the input, the output, a bias or post-op operand that is not a constant):
  // made once and reused while the pointers hold (an arena of the graph's pool, the same graph
  // inputs and outputs) and the constants stay where they are (prepareConstants() forgets them).
  // Each dnnl::memory costs about a microsecond to make and free (a 64-byte-aligned allocation of
  // about 1 KiB), and a convolution with its post-ops makes 5 to 8 of them: PaddleOCR cls (53
  // convolutions) spent 0.15 of its 1.1 ms so.
  using Key = BindingKey;
  struct Bound {
    Key key{};
    std::unordered_map<int, memory> arguments, inputReorder, outputReorder;
    std::byte* widened = nullptr;  // where the float16 filter is widened
  };

  std::shared_ptr<const Bound> bind(const DispatchTensors& tensors, std::byte* workspace,
                                    const Key& key) const {
    auto bound = std::make_shared<Bound>();
    bound->key = key;
    memory source(inputDesc_, engine_, dataOf(tensors, input_));
    if (inputReorder_) {
      memory reordered(srcDesc_, engine_, workspace);
      bound->inputReorder = {{DNNL_ARG_FROM, source}, {DNNL_ARG_TO, reordered}};
      source = reordered;
    }
    memory weights;
    if (halfWeights_) {
      bound->widened = workspace + reorderBytes_ + outputBytes_ + scratchpadBytes_;
      weights = memory(halfWeights_->widenedDesc(), engine_, bound->widened);
    } else {
      weights = packedWeights_->memory();
    }
    memory destination(
        dstDesc_, engine_,
        outputReorder_ ? static_cast<void*>(workspace + reorderBytes_) : dataOf(tensors, output_));
    if (outputReorder_) {
      memory plain(plainDstDesc_, engine_, dataOf(tensors, output_));
      bound->outputReorder = {{DNNL_ARG_FROM, destination}, {DNNL_ARG_TO, plain}};
    }
    auto& arguments = bound->arguments;
    arguments = {{DNNL_ARG_SRC, source}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, destination}};
    if (bias_) {
      arguments.emplace(DNNL_ARG_BIAS, memory(biasDesc_, engine_, dataOf(tensors, *bias_)));
    }
    addPostOpArguments(postOps_, engine_, tensors, arguments);
    if (scratchpadBytes_ > 0) {
      arguments.emplace(DNNL_ARG_SCRATCHPAD, memory(primitiveDesc_.scratchpad_desc(), engine_,
                                                    workspace + reorderBytes_ + outputBytes_));
    }
    return bound;
  }

  // Every memory made for this dispatch alone (a filter computed by the graph, or no workspace).
  void executeUnbound(dnnl::stream& stream, const DispatchTensors& tensors, std::byte* workspace) {
    memory source(inputDesc_, engine_, dataOf(tensors, input_));
    if (inputReorder_) {
      memory reordered =
          workspace ? memory(srcDesc_, engine_, workspace) : memory(srcDesc_, engine_);
      inputReorder_->execute(stream, source, reordered);
      source = reordered;
    }
    memory weights;
    if (halfWeights_) {
      weights = halfWeights_->widen(
          engine_,
          workspace ? workspace + reorderBytes_ + outputBytes_ + scratchpadBytes_ : nullptr);
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
    if (bias_)
      arguments.emplace(DNNL_ARG_BIAS, memory(biasDesc_, engine_, dataOf(tensors, *bias_)));
    addPostOpArguments(postOps_, engine_, tensors, arguments);
    executeWithScratchpad(primitive_, primitiveDesc_, stream, std::move(arguments),
                          workspace ? workspace + reorderBytes_ + outputBytes_ : nullptr);
    if (outputReorder_) {
      memory plain(plainDstDesc_, engine_, dataOf(tensors, output_));
      outputReorder_->execute(stream, destination, plain);
    }
  }

  dnnl::engine engine_;
  graph::OperandId input_ = 0, filter_ = 0, output_ = 0;
  std::optional<graph::OperandId> bias_;
  memory::desc inputDesc_, srcDesc_, dstDesc_, biasDesc_, plainWeightsDesc_;
  std::optional<dnnl::reorder> inputReorder_;
  uint64_t reorderBytes_ = 0;
  std::optional<dnnl::reorder> outputReorder_;  // blocked result -> plain output
  memory::desc plainDstDesc_;
  uint64_t outputBytes_ = 0;
  bool blockedOutput_ = false;
  bool summed_ = false;  // the destination holds a residual the result is added to
  PostOpArguments postOps_;
  dnnl::convolution_forward::primitive_desc primitiveDesc_;
  DeferredPrimitive primitive_;  // made beside the compile (deferred_primitive.h)
  std::shared_ptr<PackedConstant> packedWeights_;
  std::unique_ptr<HalfPackedWeights> halfWeights_;  // a float16 model's filter, kept 16-bit
  uint64_t halfWeightsBytes_ = 0;
  uint64_t scratchpadBytes_ = 0;
  // The last two sets of bound memories (two dispatches at once on two arenas each keep theirs).
  BindingCache<Bound> bindings_;
};

}  // namespace

std::unique_ptr<CpuOp> createConvolutionOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  if (context.fusion && context.fusion->quantized) return createQuantizedConvolutionOp(context);
  for (graph::OperandId id : operation.inputs) {
    const auto& descriptor = context.descriptor(id);
    if (descriptor.dataType != MLOperandDataType::Float32) return nullptr;
    if (descriptor.elementCount() == 0) return nullptr;
  }
  if (context.descriptor(operation.outputs[0]).elementCount() == 0) return nullptr;
  const auto& attributes = operation.attributesAs<graph::Conv2dAttributes>();
  if (context.layoutOf(operation.inputs[0]) &&
      attributes.inputLayout == MLInputOperandLayout::Nhwc) {
    return nullptr;
  }
  // Only the input may be blocked: the filter and bias are read plain.
  for (size_t i = 1; i < operation.inputs.size(); ++i) {
    if (context.layoutOf(operation.inputs[i])) return nullptr;
  }
  return std::make_unique<ConvolutionOp>(context);
}

}  // namespace webnn::cpu
