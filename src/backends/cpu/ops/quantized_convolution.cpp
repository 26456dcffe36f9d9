// conv2d on a QDQ model's quantized operands (cpu_op.h: QuantizedOperands): the step reads the
// uint8/int8 input and the int8 filter themselves and runs on oneDNN's int8 convolution (AMX or
// VNNI where the CPU has them). The input's zero point is oneDNN's source zero point (padding
// stays 0 in the dequantized values, as in the graph); the filter is packed, with the
// compensation oneDNN keeps beside it, when its bytes are in, and stays 8-bit. The int32 sums
// become float32 through oneDNN's output scales (input scale x filter scale per channel) and its
// bias (dequantized once when it is a QDQ model's int32 one), with the chain's leading affine
// post-ops folded into both (FoldedPostOps: oneDNN takes output scales only when the primitive is
// made, so the primitive is made when the filter's scales are in), then the rest of the chain,
// then a quantizeLinear that follows into uint8 (the next layer's input) as scaling, rounding and
// zero-point post-ops on a uint8 destination.
// A padded convolution whose input has a zero point other than 0 gets from oneDNN 2.6 only its
// older int8 kernels (its brgemm and depthwise brdgmm ones take no source zero point): the step
// pads the input itself instead, into its workspace, with the zero point (the dequantized 0 the
// graph pads with), and runs the brgemm kernel without padding, the zero point's share in the
// bias (paddedInput_: PaddleOCR cls's 5x5 depthwise layers, 20-37 us each on jit_int8).
// oneDNN has no filter zero points: a filter whose zero point is not 0 (seen only when the
// constants are in) runs on a float32 convolution of the dequantized values instead, made then.
// So does, planned at compile (its buffers in the step's workspace), a convolution for which
// oneDNN has only its reference int8 implementation (a 1x1 image's squeeze-and-excitation
// layers) or that has fewer than 4 input channels (a network's first layer on RGB pixels: int8
// products need groups of 4 channels, and oneDNN's int8 kernels run it several times slower than
// its float32 one).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

#include <omp.h>

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/ops/binding_cache.h"
#include "backends/cpu/executable.h"
#include "backends/cpu/ops/quantized_operands.h"
#include "core/element.h"
#include "core/host_buffer.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using DataType = memory::data_type;

// Up to this many input bytes a padded convolution with an input zero point pads its input itself
// (paddedInput_). Measured on det's and cls's layers (Zen 5): the brgemm kernels beat the older
// ones by 5-60%, but the copy of a bigger input costs what they save (48 channels of 160x160:
// 0.33 ms on jit_int8, 0.35 on brdgmm plus the copy).
constexpr uint64_t kPaddedInputMaxBytes = 512 << 10;

// Below this many multiply-adds a quantized convolution avoids oneDNN's AMX implementations.
constexpr uint64_t kAmxMinMultiplyAdds = 32ull << 20;

bool isAmx(const dnnl::primitive_desc_base& descriptor) {
  return implementationOf(descriptor).find("amx") != std::string::npos;
}

bool isBrgemm(const dnnl::primitive_desc_base& descriptor) {
  return implementationOf(descriptor).rfind("brg", 0) == 0;
}

class QuantizedConvolutionOp final : public CpuOp {
 public:
  bool fixesThreadCount() const override { return true; }

  explicit QuantizedConvolutionOp(const OpCompileContext& context)
      : engine_(context.engine), q_(*context.fusion->quantized) {
    const graph::Operation& operation = context.operation;
    const auto& attributes = operation.attributesAs<graph::Conv2dAttributes>();
    output_ = context.stepOutput();
    bias_ = attributes.bias;
    inputScale_ = floatConstant(context.ir, q_.inputScale);
    inputZeroPoint_ = integerConstant(context.ir, q_.inputZeroPoint);

    const auto& inputShape = context.descriptor(q_.input).shape;
    const auto& filterShape = context.descriptor(q_.weights).shape;  // oihw
    const auto& outputShape = context.descriptor(operation.outputs[0]).shape;
    const memory::dims srcDims{inputShape[0], inputShape[1], inputShape[2], inputShape[3]};
    dstDims_ = {outputShape[0], outputShape[1], outputShape[2], outputShape[3]};
    const DataType inputType = context.descriptor(q_.input).dataType == MLOperandDataType::Uint8
                                   ? DataType::u8
                                   : DataType::s8;
    // The input as its producer wrote it: plain nchw, or the blocked layout of a quantized step
    // before (uint8 activations passed on in the primitives' layout).
    plainInputDesc_ = memory::desc(srcDims, inputType, Tag::nchw);
    const memory::desc* inputLayout = context.layoutOf(q_.input);
    inputDesc_ = inputLayout ? *inputLayout : plainInputDesc_;
    const memory::dim groups = attributes.groups;
    outputChannels_ = dstDims_[1];
    if (groups == 1) {
      weightsDims_ = {filterShape[0], filterShape[1], filterShape[2], filterShape[3]};
      plainWeightsDesc_ = memory::desc(weightsDims_, DataType::s8, Tag::oihw);
    } else {
      weightsDims_ = {groups, outputChannels_ / groups, filterShape[1], filterShape[2],
                      filterShape[3]};
      plainWeightsDesc_ = memory::desc(weightsDims_, DataType::s8, Tag::goihw);
    }
    strides_ = {attributes.strides[0], attributes.strides[1]};
    dilations_ = {attributes.dilations[0] - 1, attributes.dilations[1] - 1};
    paddingBegin_ = {attributes.padding[0], attributes.padding[2]};
    paddingEnd_ = {attributes.padding[1], attributes.padding[3]};
    graphPaddingBegin_ = paddingBegin_;
    graphPaddingEnd_ = paddingEnd_;

    // A quantizeLinear after the chain: the step writes uint8.
    quantizedOutput_ = context.fusion->quantizedOutput.has_value();
    const DataType dstType = quantizedOutput_ ? DataType::u8 : DataType::f32;
    // The post-ops: output scales and bias (the chain's leading affine post-ops folded in), then
    // the rest, then the quantization; the float path folds the scales into its filter. A bias
    // that is not a constant cannot be folded: the compiler's unfused path then.
    if (bias_ && !q_.bias && !context.isConstant(*bias_)) {
      throw dnnl::error(dnnl_unimplemented, "a bias that is not a constant");
    }
    auto folded = FoldedPostOps::plan(context, dstDims_, 1, 4, false);
    if (!folded) throw dnnl::error(dnnl_unimplemented, "post-op operands");
    folded_ = std::move(*folded);
    // Without padding every product reads the input: the zero point's share, -zeroPoint x the
    // sum of the channel's weights, is a constant folded into the bias (prepareInt8), and the
    // primitive needs no source zero point (oneDNN's brgemm convolutions take none: with one
    // only its older, slower kernels run).
    // (Placeholder scales: the primitive is made with the real ones in prepareConstants.)
    anyWeights_ = withDataType(
        context.weightsLayout(q_.weights, memory::desc(weightsDims_, DataType::f32, Tag::any)),
        DataType::s8);
    zeroPointInBias_ =
        inputZeroPoint_ != 0 && std::all_of(attributes.padding.begin(), attributes.padding.end(),
                                            [](uint32_t p) { return p == 0; });
    // Compiled again for one thread on the team op's filter: its zero point where the team's op
    // has one (the filter then carries oneDNN's compensation for it).
    if (anyWeights_.data.format_kind != dnnl_format_kind_any &&
        (anyWeights_.data.extra.flags & dnnl_memory_extra_flag_compensation_conv_asymmetric_src)) {
      zeroPointInBias_ = false;
    }
    setAttributes();
    srcAny_ = memory::desc(srcDims, inputType, Tag::any);
    dstAny_ = context.outputLayoutOr(output_, memory::desc(dstDims_, dstType, Tag::any));
    multiplyAdds_ =
        static_cast<uint64_t>(dstDims_[1]) * static_cast<uint64_t>(dstDims_[2] * dstDims_[3]) *
        static_cast<uint64_t>(weightsDims_.back() * weightsDims_[weightsDims_.size() - 2]) *
        static_cast<uint64_t>(srcDims[1] / groups);
    fewInputChannelsPerTap_ = filterShape[2] == 1 && filterShape[3] == 1 && filterShape[1] < 64;
    // Compiled again for one thread: first on the input's own layout (an input reorder would
    // take workspace the team's op may not have), else on the layout oneDNN picks.
    bool chosen = false;
    if (context.shareConstants && inputLayout) {
      srcAny_ = *inputLayout;
      try {
        primitiveDesc_ = selectPrimitive(attributes_);
        chosen = implementationOf(primitiveDesc_).rfind("ref", 0) != 0;
      } catch (const dnnl::error&) {
      }
      if (!chosen) srcAny_ = memory::desc(srcDims, inputType, Tag::any);
    }
    team_ = !context.shareConstants;
    if (!chosen) primitiveDesc_ = choosePrimitive(attributes_);
    if (team_ && zeroPointInBias_ && !takenByOneThread(primitiveDesc_)) {
      // oneDNN's brgemm convolutions pick a filter layout by the thread count, and an int8 filter
      // is not copied for an op of one thread: with the source zero point its older kernels run,
      // whose filter one thread takes too (the step can then run alone).
      zeroPointInBias_ = false;
      setAttributes();
      primitiveDesc_ = choosePrimitive(attributes_);
    }
    const bool padded = std::any_of(attributes.padding.begin(), attributes.padding.end(),
                                    [](uint32_t p) { return p != 0; });
    if (inputZeroPoint_ != 0 && padded && !zeroPointInBias_ && !(groups == 1 && srcDims[1] < 4) &&
        plainInputDesc_.get_size() <= kPaddedInputMaxBytes && !isBrgemmKernel(primitiveDesc_) &&
        !(anyWeights_.data.extra.flags & dnnl_memory_extra_flag_compensation_conv_asymmetric_src)) {
      padInput(srcDims, inputType);
    }
    // Only oneDNN's reference int8 convolution, or too few input channels (not a grouped one): the
    // float path, on the dequantized filter.
    const bool referenceOnly = implementationOf(primitiveDesc_).rfind("ref", 0) == 0;
    floatPathPlanned_ = referenceOnly || (groups == 1 && srcDims[1] < 4);
    if (referenceOnly && context.shareConstants && !(groups == 1 && srcDims[1] < 4)) {
      // Compiled again for one thread: oneDNN has only its reference int8 convolution with these
      // layouts (the team's op has another one): not this op (compileAloneOp tries the layouts
      // oneDNN picks for one thread, else the step stays on the team).
      throw dnnl::error(dnnl_unimplemented, "only the reference int8 convolution for one thread");
    }
    srcDesc_ = primitiveDesc_.src_desc();
    dstDesc_ = primitiveDesc_.dst_desc();
    if (floatPathPlanned_) {
      // The step writes in the layout the float32 primitive chooses (its own, not the int8 one's:
      // that one can leave oneDNN only its reference float32 convolution), the input reordered
      // to plain and dequantized.
      floatPath_ = createFloatPath(
          withDataType(context.outputLayoutOr(output_, memory::desc(dstDims_, dstType, Tag::any)),
                       DataType::f32));
      dstDesc_ = withDataType(floatPath_->primitiveDesc.dst_desc(), dstType);
      srcDesc_ = inputDesc_;  // no int8 input reorder
      floatWorkspaceBytes_ = floatPathWorkspaceBytes(*floatPath_);
    }
    const memory::desc plainDst(dstDims_, dstType, Tag::nchw);
    if (context.plainOutput && dstDesc_ != plainDst) {
      outputReorder_ =
          dnnl::reorder(dnnl::reorder::primitive_desc(engine_, dstDesc_, engine_, plainDst));
      plainDstDesc_ = plainDst;
      outputBytes_ = (dstDesc_.get_size() + 63) / 64 * 64;
    }
    blockedOutput_ = !context.plainOutput && dstDesc_ != plainDst;
    if (paddedInput_) {
      nhwcPadding_ =
          inputDesc_ == memory::desc(inputDesc_.dims(), inputDesc_.data_type(), Tag::nhwc) &&
          srcDesc_ == memory::desc(srcDesc_.dims(), srcDesc_.data_type(), Tag::nhwc);
      // Into the padded input's interior (the border is filled with the zero point first).
      interiorDesc_ = srcDesc_.submemory_desc(inputDesc_.dims(),
                                              {0, 0, graphPaddingBegin_[0], graphPaddingBegin_[1]});
      inputReorder_ =
          dnnl::reorder(dnnl::reorder::primitive_desc(engine_, inputDesc_, engine_, interiorDesc_));
      reorderBytes_ = (srcDesc_.get_size() + 63) / 64 * 64;
    } else if (srcDesc_ != inputDesc_) {
      interiorDesc_ = srcDesc_;
      inputReorder_ =
          dnnl::reorder(dnnl::reorder::primitive_desc(engine_, inputDesc_, engine_, srcDesc_));
      reorderBytes_ = (srcDesc_.get_size() + 63) / 64 * 64;
    }
    if (!floatPathPlanned_) {
      packedWeights_ =
          context.packedConstant(q_.weights, plainWeightsDesc_, primitiveDesc_.weights_desc());
    }
    bindings_.operands = {q_.input, output_};
    for (graph::OperandId operand : folded_.operands()) {
      if (!context.isConstant(operand)) bindings_.operands.push_back(operand);
    }

  }

  void prepareConstants(const DispatchTensors& tensors) override {
    bindings_.clear();
    const auto* zeroPoints = static_cast<const int8_t*>(dataOf(tensors, q_.weightsZeroPoint));
    const auto* scales = static_cast<const float*>(dataOf(tensors, q_.weightsScale));
    const size_t count = tensors[q_.weightsScale].elementCount();
    const auto channels = static_cast<size_t>(outputChannels_);
    multipliersOf(inputScale_, scales, count, channels, multipliers_);
    if (q_.bias) {  // a dequantized int32 bias: computed once
      const auto* values = static_cast<const int32_t*>(dataOf(tensors, q_.bias->values));
      const auto* biasScales = static_cast<const float*>(dataOf(tensors, q_.bias->scale));
      const auto* biasZeros = static_cast<const int32_t*>(dataOf(tensors, q_.bias->zeroPoint));
      const bool perChannelScale = tensors[q_.bias->scale].elementCount() > 1;
      const bool perChannelZero = tensors[q_.bias->zeroPoint].elementCount() > 1;
      biasValues_.resize(channels);
      for (size_t c = 0; c < channels; ++c) {
        biasValues_[c] =
            static_cast<float>((static_cast<double>(values[c]) -
                                static_cast<double>(biasZeros[perChannelZero ? c : 0])) *
                               static_cast<double>(biasScales[perChannelScale ? c : 0]));
      }
    }
    if (packedWeights_) packedWeights_->pack(dataOf(tensors, q_.weights));
    if (!floatPathPlanned_ && weightZeroPointsAreZero(zeroPoints, count) &&
        prepareInt8(tensors)) {
      floatPath_.reset();
      return;
    }
    if (!floatPath_) floatPath_ = createFloatPath(withDataType(dstDesc_, DataType::f32));
    fillFloatPath(tensors, zeroPoints, scales, count);
  }

  uint64_t workspaceBytes() const override {
    return reorderBytes_ + outputBytes_ +
           (floatPathPlanned_ ? floatWorkspaceBytes_ : scratchpadBytes(primitiveDesc_));
  }
  std::optional<memory::desc> outputLayout() const override {
    return blockedOutput_ ? std::optional(dstDesc_) : std::nullopt;
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeInWorkspace(stream, tensors, nullptr);
  }

  void executeInWorkspace(dnnl::stream& stream, const DispatchTensors& tensors,
                          std::byte* workspace) override {
    // The int8 primitive on the memory objects bound to these pointers (with its workspace, or
    // without one when it needs none: PaddleOCR cls's 1x1 convolutions made their 5-6 memory
    // objects at every dispatch).
    if (!floatPath_ && primitive_ && bindings_.usable() &&
        (workspace || runsWithoutWorkspace())) {
      const auto bound = bindings_.get(
          tensors, workspace, [&](const Key& key) { return bind(tensors, workspace, key); });
      if (nhwcPadding_) {
        copyIntoPadding(static_cast<const std::byte*>(dataOf(tensors, q_.input)), workspace);
      } else {
        if (paddedInput_) fillPadding(workspace);
        if (inputReorder_) inputReorder_->execute(stream, bound->inputReorder);
      }
      primitive_->execute(stream, bound->arguments);
      if (outputReorder_) outputReorder_->execute(stream, bound->outputReorder);
      return;
    }
    memory destination;
    if (outputReorder_) {
      destination = workspace ? memory(dstDesc_, engine_, workspace + reorderBytes_)
                              : memory(dstDesc_, engine_);
    } else {
      destination = memory(dstDesc_, engine_, dataOf(tensors, output_));
    }
    std::unordered_map<int, memory> arguments{{DNNL_ARG_DST, destination}};
    if (floatPath_) {
      folded_.addArguments(engine_, tensors, arguments);
      arguments.emplace(DNNL_ARG_BIAS, memory(biasDesc(), engine_, floatPath_->bias.data()));
      runFloatPath(
          stream, tensors, std::move(arguments),
          workspace && floatPathPlanned_ ? workspace + reorderBytes_ + outputBytes_ : nullptr);
    } else {
      if (!primitive_) throw dnnl::error(dnnl_runtime_error, "the constants are not in");
      folded_.addArguments(engine_, tensors, arguments);
      arguments.emplace(DNNL_ARG_BIAS, memory(biasDesc(), engine_, int8Bias_.data()));
      memory source(inputDesc_, engine_, dataOf(tensors, q_.input));
      if (inputReorder_) {
        memory reordered =
            workspace ? memory(srcDesc_, engine_, workspace) : memory(srcDesc_, engine_);
        auto* padded = static_cast<std::byte*>(reordered.get_data_handle());
        if (nhwcPadding_) {
          copyIntoPadding(static_cast<const std::byte*>(dataOf(tensors, q_.input)), padded);
        } else {
          if (paddedInput_) fillPadding(padded);
          memory interior(interiorDesc_, engine_, padded);
          inputReorder_->execute(stream, source, interior);
        }
        source = reordered;
      }
      arguments.emplace(DNNL_ARG_SRC, source);
      arguments.emplace(DNNL_ARG_WEIGHTS, packedWeights_->memory());
      if (primitiveZeroPoint_ != 0) {
        arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC,
                          memory({{1}, DataType::s32, Tag::a}, engine_, &primitiveZeroPoint_));
      }
      executeWithScratchpad(*primitive_, primitiveDesc_, stream, std::move(arguments),
                            workspace ? workspace + reorderBytes_ + outputBytes_ : nullptr);
    }
    if (outputReorder_) {
      memory plain(plainDstDesc_, engine_, dataOf(tensors, output_));
      outputReorder_->execute(stream, destination, plain);
    }
  }

  std::string implementation() const override {
    if (floatPath_) {
      return implementationOf(floatPath_->primitiveDesc) + " (dequantized filter)" +
             (outputReorder_ ? " + reorder to plain" : "");
    }
    return implementationOf(primitiveDesc_) + " (int8)" +
           (paddedInput_ ? " on the input padded with its zero point" : "") +
           (outputReorder_ ? " + reorder to plain" : "");
  }

 private:
  // The memory objects of a dispatch of the int8 primitive whose pointers are `key` (the
  // workspace, then bindings_.operands's: the input, the output, the post-op operands that are not
  // constants): made once and reused while the pointers hold; prepareConstants() forgets them
  // (the primitive, the packed filter or the bias may have moved). Each dnnl::memory costs about
  // a microsecond to make and free, and the step makes 5 to 9 (as ops/convolution.cpp).
  using Key = BindingKey;
  struct Bound {
    Key key{};
    std::unordered_map<int, memory> arguments, inputReorder, outputReorder;
  };

  // Whether the int8 primitive runs without a workspace: no reorder of its input or output, no
  // padding copy, no scratchpad.
  bool runsWithoutWorkspace() const {
    return !inputReorder_ && !outputReorder_ && !nhwcPadding_ && !paddedInput_ &&
           scratchpadBytes(primitiveDesc_) == 0;
  }

  std::shared_ptr<const Bound> bind(const DispatchTensors& tensors, std::byte* workspace,
                                    const Key& key) const {
    auto bound = std::make_shared<Bound>();
    bound->key = key;
    memory source(inputDesc_, engine_, dataOf(tensors, q_.input));
    if (inputReorder_) {
      memory reordered(srcDesc_, engine_, workspace);
      bound->inputReorder = {{DNNL_ARG_FROM, source},
                             {DNNL_ARG_TO, memory(interiorDesc_, engine_, workspace)}};
      source = reordered;
    }
    memory destination(
        dstDesc_, engine_,
        outputReorder_ ? static_cast<void*>(workspace + reorderBytes_) : dataOf(tensors, output_));
    if (outputReorder_) {
      memory plain(plainDstDesc_, engine_, dataOf(tensors, output_));
      bound->outputReorder = {{DNNL_ARG_FROM, destination}, {DNNL_ARG_TO, plain}};
    }
    auto& arguments = bound->arguments;
    arguments = {{DNNL_ARG_SRC, source},
                 {DNNL_ARG_WEIGHTS, packedWeights_->memory()},
                 {DNNL_ARG_DST, destination},
                 {DNNL_ARG_BIAS, memory(biasDesc(), engine_, const_cast<float*>(int8Bias_.data()))}};
    if (primitiveZeroPoint_ != 0) {
      arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC,
                        memory({{1}, DataType::s32, Tag::a}, engine_,
                               const_cast<int32_t*>(&primitiveZeroPoint_)));
    }
    folded_.addArguments(engine_, tensors, arguments);
    if (primitiveDesc_.scratchpad_desc().get_size() > 0) {
      arguments.emplace(DNNL_ARG_SCRATCHPAD, memory(primitiveDesc_.scratchpad_desc(), engine_,
                                                    workspace + reorderBytes_ + outputBytes_));
    }
    return bound;
  }

  static constexpr int kPerChannel = 1 << 1;  // output scales along the destination's channels

  dnnl::convolution_forward::desc descriptorOf(const memory::desc& src, const memory::desc& weights,
                                               const memory::desc& dst) const {
    return dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                           dnnl::algorithm::convolution_direct, src, weights, dst,
                                           strides_, dilations_, paddingBegin_, paddingEnd_);
  }
  dnnl::convolution_forward::desc descriptorOf(const memory::desc& src, const memory::desc& weights,
                                               const memory::desc& bias,
                                               const memory::desc& dst) const {
    return dnnl::convolution_forward::desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, weights,
        bias, dst, strides_, dilations_, paddingBegin_, paddingEnd_);
  }

  // oneDNN's brgemm kernels (convolutions and depthwise brdgmm): those take no source zero point.
  static bool isBrgemmKernel(const dnnl::primitive_desc_base& descriptor) {
    const std::string implementation = implementationOf(descriptor);
    return implementation.rfind("brg", 0) == 0 || implementation.rfind("brdgmm", 0) == 0;
  }

  // The padded input (paddedInput_): the int8 primitive on the input padded by the step, without
  // padding of its own, the zero point in the bias; kept when oneDNN then runs a brgemm kernel.
  void padInput(const memory::dims& srcDims, DataType inputType) {
    const memory::dims paddedDims{srcDims[0], srcDims[1],
                                  srcDims[2] + graphPaddingBegin_[0] + graphPaddingEnd_[0],
                                  srcDims[3] + graphPaddingBegin_[1] + graphPaddingEnd_[1]};
    const memory::desc unpaddedAny = srcAny_;
    paddingBegin_ = paddingEnd_ = {0, 0};
    zeroPointInBias_ = true;
    setAttributes();
    srcAny_ = memory::desc(paddedDims, inputType, Tag::any);
    try {
      auto candidate = choosePrimitive(attributes_);
      if (isBrgemmKernel(candidate)) {
        primitiveDesc_ = candidate;
        paddedInput_ = true;
        return;
      }
    } catch (const dnnl::error&) {
    }
    paddingBegin_ = graphPaddingBegin_;
    paddingEnd_ = graphPaddingEnd_;
    zeroPointInBias_ = false;
    setAttributes();
    srcAny_ = unpaddedAny;
  }

  // The padded input's bytes, all of them the zero point (the interior is written after).
  void fillPadding(std::byte* padded) const {
    const auto value = static_cast<unsigned char>(inputZeroPoint_ & 0xFF);
    std::memset(padded, value, srcDesc_.get_size());
  }

  // Both layouts nhwc (nhwcPadding_): the input's rows copied into the padded ones, the border
  // written with the zero point, each byte once (a oneDNN reorder into the interior and a fill of
  // the whole buffer took about 5 us a step on cls's small images).
  void copyIntoPadding(const std::byte* input, std::byte* padded) const {
    const auto value = static_cast<int>(inputZeroPoint_ & 0xFF);
    const auto dims = inputDesc_.dims();
    const auto channels = static_cast<size_t>(dims[1]);
    const auto height = static_cast<size_t>(dims[2]), width = static_cast<size_t>(dims[3]);
    const auto top = static_cast<size_t>(graphPaddingBegin_[0]);
    const auto left = static_cast<size_t>(graphPaddingBegin_[1]);
    const auto right = static_cast<size_t>(graphPaddingEnd_[1]);
    const auto paddedHeight = static_cast<size_t>(srcDesc_.dims()[2]);
    const size_t rowBytes = (left + width + right) * channels;
    for (size_t image = 0; image < static_cast<size_t>(dims[0]); ++image) {
      for (size_t row = 0; row < paddedHeight; ++row, padded += rowBytes) {
        if (row < top || row >= top + height) {
          std::memset(padded, value, rowBytes);
          continue;
        }
        std::memset(padded, value, left * channels);
        std::memcpy(padded + left * channels, input, width * channels);
        std::memset(padded + (left + width) * channels, value, right * channels);
        input += width * channels;
      }
    }
  }
  memory::desc biasDesc() const { return memory::desc({outputChannels_}, DataType::f32, Tag::a); }

  // Whether a primitive for one thread (the step compiled again to run alone: compileAloneOp)
  // takes `chosen`'s layouts, its packed filter's above all: int8 filters are not copied for it,
  // and oneDNN's brgemm convolutions pick a filter layout by the thread count.
  bool takenByOneThread(const dnnl::convolution_forward::primitive_desc& chosen) const {
    if (omp_get_max_threads() <= 1) return true;
    ThreadCountScope one(1);
    // As compileAloneOp makes it: the team's filter and destination layouts, the input's own
    // layout or the one oneDNN picks.
    for (const memory::desc& source : {inputDesc_, srcAny_}) {
      try {
        const dnnl::convolution_forward::primitive_desc alone(
            descriptorOf(source, chosen.weights_desc(), biasDesc(), chosen.dst_desc()),
            attributes_, engine_);
        if (implementationOf(alone).rfind("ref", 0) != 0) return true;
      } catch (const dnnl::error&) {
      }
    }
    return false;
  }

  // `chosen`, or the first implementation after it whose layouts one thread takes too (the step
  // runs alone when that is faster; a step without an op for one thread waits for the team).
  dnnl::convolution_forward::primitive_desc shareableWithOneThread(
      const dnnl::convolution_forward::primitive_desc& chosen) const {
    if (takenByOneThread(chosen)) return chosen;
    dnnl::convolution_forward::primitive_desc other = chosen;
    while (other.next_impl()) {
      if (implementationOf(other).rfind("ref", 0) == 0) break;
      if (takenByOneThread(other)) return other;
    }
    return chosen;
  }

  // The int8 primitive's attributes: the folded post-ops, the source zero point unless it is in
  // the bias, placeholder output scales (one per channel).
  void setAttributes() {
    primitiveZeroPoint_ = zeroPointInBias_ ? 0 : inputZeroPoint_;
    attributes_ = opAttributes();
    attributes_.set_post_ops(folded_.postOps());
    if (primitiveZeroPoint_ != 0) {
      attributes_.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
    }
    attributes_.set_output_scales(kPerChannel,
                                  std::vector<float>(static_cast<size_t>(outputChannels_), 1.0f));
  }

  // The int8 convolution with `attributes`: selectPrimitive's, for the team one that one thread
  // takes too.
  dnnl::convolution_forward::primitive_desc choosePrimitive(
      const dnnl::primitive_attr& attributes) const {
    const auto chosen = selectPrimitive(attributes);
    return team_ ? shareableWithOneThread(chosen) : chosen;
  }

  // The int8 convolution with `attributes`, the layouts its implementation picks.
  dnnl::convolution_forward::primitive_desc selectPrimitive(
      const dnnl::primitive_attr& attributes) const {
    const auto descriptor = descriptorOf(srcAny_, anyWeights_, biasDesc(), dstAny_);
    dnnl::convolution_forward::primitive_desc chosen(descriptor, attributes, engine_);
    // oneDNN 2.6's AMX int8 convolutions lose to its VNNI ones on small convolutions (their
    // per-call tile setup): a 1x1 of 128 channels on 28x28 ran in 0.4 ms on AMX, 0.2 on VNNI;
    // 512 channels on 14x14 (51 M multiply-adds) the same; a 3x3 of 64 channels on 56x56
    // (116 M) 0.6 against 1.1. Below kAmxMinMultiplyAdds the step takes the first implementation
    // that is not AMX, when there is one; so does a 1x1 convolution of fewer than 64 input
    // channels (a group's), whose products fill an AMX tile's 64 bytes of depth partly: 16 -> 32
    // channels on 320x320 ran in 1.5 ms on AMX, 1.2 on VNNI; 48 -> 48 on 160x160 0.56 and 0.54;
    // 96 -> 96 on 80x80 the same on both.
    if ((multiplyAdds_ < kAmxMinMultiplyAdds || fewInputChannelsPerTap_) && isAmx(chosen)) {
      while (isAmx(chosen) && chosen.next_impl()) {
      }
      if (isAmx(chosen) || implementationOf(chosen).rfind("ref", 0) == 0) {
        chosen = dnnl::convolution_forward::primitive_desc(descriptor, attributes, engine_);
      }
    }
    // A 1x1 image (a squeeze-and-excitation layer): not a brgemm convolution, whose packed
    // filter's layout depends on the thread count there (the step compiled again for one thread
    // could not share it, and would stay on the team); the first implementation after them.
    if (dstAny_.dims()[2] * dstAny_.dims()[3] == 1 && isBrgemm(chosen)) {
      dnnl::convolution_forward::primitive_desc other = chosen;
      while ((isBrgemm(other) || isAmx(other)) && other.next_impl()) {
      }
      if (!isBrgemm(other) && !isAmx(other) && implementationOf(other).rfind("ref", 0) != 0) {
        chosen = other;
      }
    }
    return chosen;
  }

  // The int8 primitive with the filter's scales in: the output scales are the multipliers (input
  // scale x filter scale) with the chain's leading affine post-ops folded in, the bias divided by
  // them (oneDNN adds the bias before scaling: scalesCarry). The primitive is the one chosen at
  // compile (same layouts, same implementation). False when it cannot be (a multiplier that is
  // not finite, a bias that overflows, no such implementation): the float path then.
  bool prepareInt8(const DispatchTensors& tensors) {
    const auto channels = static_cast<size_t>(outputChannels_);
    std::vector<float> scales = multipliers_;
    std::vector<float> bias(channels, 0.0f);
    if (q_.bias) {
      bias = biasValues_;
    } else if (bias_) {
      const float* values = tensors[*bias_].as<float>();
      bias.assign(values, values + channels);
    }
    folded_.fold(tensors, scales, bias);
    if (!scalesCarry(scales, bias)) return false;
    if (zeroPointInBias_) {
      // The bias is added to the int32 sums before the scales: - zeroPoint x the weights' sum.
      std::vector<int8_t> unpacked;
      const int8_t* filter = plainInt8Weights(tensors, q_.weights, packedWeights_.get(),
                                              plainWeightsDesc_, engine_, unpacked);
      const uint64_t perChannel = plainWeightsDesc_.get_size() / channels;
      for (size_t c = 0; c < channels; ++c) {
        int64_t sum = 0;
        for (uint64_t i = 0; i < perChannel; ++i) sum += filter[c * perChannel + i];
        bias[c] = static_cast<float>(static_cast<double>(bias[c]) -
                                     static_cast<double>(inputZeroPoint_) * static_cast<double>(sum));
      }
    }
    if (!primitive_ || scales != outputScales_) {
      dnnl::primitive_attr attributes = attributes_;
      attributes.set_output_scales(kPerChannel, scales);
      try {
        // The implementation chosen at compile, with its layouts (the first one that matches).
        const std::string implementation = implementationOf(primitiveDesc_);
        dnnl::convolution_forward::primitive_desc descriptor(
            descriptorOf(srcAny_, anyWeights_, biasDesc(), dstAny_), attributes, engine_);
        auto matches = [&] {
          return implementationOf(descriptor) == implementation &&
                 descriptor.src_desc() == primitiveDesc_.src_desc() &&
                 descriptor.weights_desc() == primitiveDesc_.weights_desc() &&
                 descriptor.dst_desc() == primitiveDesc_.dst_desc();
        };
        while (!matches() && descriptor.next_impl()) {
        }
        if (!matches() ||
            descriptor.scratchpad_desc().get_size() > primitiveDesc_.scratchpad_desc().get_size()) {
          return false;
        }
        primitive_ = dnnl::convolution_forward(descriptor);
        primitiveDesc_ = descriptor;
      } catch (const dnnl::error&) {
        return false;
      }
      outputScales_ = std::move(scales);
    }
    folded_.prepare(tensors);
    int8Bias_ = std::move(bias);
    return true;
  }

  // The float path: a float32 convolution of the dequantized input and filter, with the same
  // destination layout and post-ops (the scale multiply by 1: the filter carries its scale). Its
  // buffers (the input in plain nchw and dequantized, a float32 result for a uint8 destination,
  // the scratchpad) are in the step's workspace when it is planned at compile; otherwise (a
  // filter zero point seen when the constants arrive: rare, QDQ filters are symmetric) allocated
  // per dispatch, so that concurrent dispatches never share them.
  struct FloatPath {
    dnnl::convolution_forward::primitive_desc primitiveDesc;
    dnnl::convolution_forward primitive;
    memory::desc srcDesc;
    HostBuffer filter;  // dequantized, the folded multipliers in
    memory weights;
    std::vector<float> bias;  // the folded bias
  };

  // `destination`: the float32 result's layout (format_tag::any: the primitive's choice).
  std::unique_ptr<FloatPath> createFloatPath(const memory::desc& destination) const {
    auto path = std::make_unique<FloatPath>();
    dnnl::primitive_attr attributes = opAttributes();
    attributes.set_post_ops(folded_.postOps());
    path->srcDesc = memory::desc(inputDesc_.dims(), DataType::f32, Tag::nchw);
    path->primitiveDesc = dnnl::convolution_forward::primitive_desc(
        dnnl::convolution_forward::desc(
            dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, path->srcDesc,
            memory::desc(weightsDims_, DataType::f32, Tag::any), biasDesc(), destination, strides_,
            dilations_, graphPaddingBegin_, graphPaddingEnd_),
        attributes, engine_);
    path->primitive = dnnl::convolution_forward(path->primitiveDesc);
    return path;
  }

  static uint64_t rounded(uint64_t bytes) { return (bytes + 63) / 64 * 64; }
  // The float path's buffers in a workspace: the plain quantized input (when the producer's layout
  // is blocked), the dequantized input, the float32 result (a uint8 destination), the scratchpad.
  uint64_t plainInputBytes() const {
    return inputDesc_ != plainInputDesc_ ? rounded(plainInputDesc_.get_size()) : 0;
  }
  uint64_t dequantizedInputBytes() const {
    return rounded(plainInputDesc_.get_size() * sizeof(float));
  }
  uint64_t floatResultBytes() const {
    return quantizedOutput_ ? rounded(dstDesc_.get_size() * sizeof(float)) : 0;
  }
  uint64_t floatPathWorkspaceBytes(const FloatPath& path) const {
    return plainInputBytes() + dequantizedInputBytes() + floatResultBytes() +
           scratchpadBytes(path.primitiveDesc);
  }

  void fillFloatPath(const DispatchTensors& tensors, const int8_t* zeroPoints, const float* scales,
                     size_t count) {
    FloatPath* path = floatPath_.get();
    // The dequantized filter, plain, then in the primitive's layout.
    std::vector<int8_t> unpacked;
    const int8_t* filter = plainInt8Weights(tensors, q_.weights, packedWeights_.get(),
                                            plainWeightsDesc_, engine_, unpacked);
    // The chain's leading affine post-ops (and a quantization's 1 / scale when nothing else
    // follows) fold into the filter's output channels and the bias: the input is dequantized, so
    // the multipliers start at 1.
    const auto channels = static_cast<size_t>(outputChannels_);
    std::vector<float> multipliers(channels, 1.0f);
    path->bias.assign(channels, 0.0f);
    if (q_.bias) {
      path->bias = biasValues_;
    } else if (bias_) {
      const float* values = tensors[*bias_].as<float>();
      path->bias.assign(values, values + channels);
    }
    folded_.fold(tensors, multipliers, path->bias);
    folded_.prepare(tensors);
    const uint64_t elements = plainWeightsDesc_.get_size();
    const uint64_t perChannel = elements / static_cast<uint64_t>(outputChannels_);
    std::vector<float> plain(elements);
    for (uint64_t i = 0; i < elements; ++i) {
      const auto channel = static_cast<size_t>(i / perChannel);
      const size_t scaleIndex = count == 1 ? 0 : channel;
      plain[i] = static_cast<float>(
                     (static_cast<double>(filter[i]) - static_cast<double>(zeroPoints[scaleIndex])) *
                     static_cast<double>(scales[scaleIndex])) *
                 multipliers[channel];
    }
    path->filter = HostBuffer(path->primitiveDesc.weights_desc().get_size());
    path->weights = memory(path->primitiveDesc.weights_desc(), engine_, path->filter.data());
    memory plainWeights(withDataType(plainWeightsDesc_, DataType::f32), engine_, plain.data());
    dnnl::stream stream(engine_);
    dnnl::reorder(plainWeights, path->weights).execute(stream, plainWeights, path->weights);
    stream.wait();
  }

  // `workspace`: floatPathWorkspaceBytes() for the buffers, or null (allocated here).
  void runFloatPath(dnnl::stream& stream, const DispatchTensors& tensors,
                    std::unordered_map<int, memory> arguments, std::byte* workspace) const {
    std::vector<std::byte> allocated;
    if (!workspace) {
      allocated.resize(floatPathWorkspaceBytes(*floatPath_) + 64);
      workspace = allocated.data() + (64 - reinterpret_cast<uintptr_t>(allocated.data()) % 64) % 64;
    }
    std::byte* plain = workspace;
    auto* input = reinterpret_cast<float*>(plain + plainInputBytes());
    auto* result =
        reinterpret_cast<float*>(reinterpret_cast<std::byte*>(input) + dequantizedInputBytes());
    std::byte* scratchpad = reinterpret_cast<std::byte*>(result) + floatResultBytes();
    // The quantized input in plain nchw (reordered from a blocked producer's layout), dequantized.
    const auto* quantized = static_cast<const std::byte*>(dataOf(tensors, q_.input));
    if (inputDesc_ != plainInputDesc_) {
      memory blocked(inputDesc_, engine_, const_cast<std::byte*>(quantized));
      memory destination(plainInputDesc_, engine_, plain);
      dnnl::reorder(blocked, destination).execute(stream, blocked, destination);
      stream.wait();
      quantized = plain;
    }
    const uint64_t elements = plainInputDesc_.get_size();
    dequantizeInput(quantized, plainInputDesc_.data_type() == DataType::u8, elements,
                    inputZeroPoint_, inputScale_, input);
    arguments.emplace(DNNL_ARG_SRC, memory(floatPath_->srcDesc, engine_, input));
    arguments.emplace(DNNL_ARG_WEIGHTS, floatPath_->weights);
    // A uint8 destination: the float32 result in the same layout, saturated after.
    auto* destination = static_cast<uint8_t*>(arguments.at(DNNL_ARG_DST).get_data_handle());
    if (quantizedOutput_) {
      arguments.insert_or_assign(DNNL_ARG_DST,
                                 memory(withDataType(dstDesc_, DataType::f32), engine_, result));
    }
    executeWithScratchpad(floatPath_->primitive, floatPath_->primitiveDesc, stream,
                          std::move(arguments), scratchpad);
    if (quantizedOutput_) saturateToUint8(result, dstDesc_.get_size(), destination);
  }

  dnnl::engine engine_;
  QuantizedOperands q_;
  graph::OperandId output_ = 0;
  std::optional<graph::OperandId> bias_;
  float inputScale_ = 1.0f;
  int32_t inputZeroPoint_ = 0;
  // The int8 primitive's source zero point: the input's, or 0 when it is folded into the bias
  // (zeroPointInBias_: a convolution without padding).
  int32_t primitiveZeroPoint_ = 0;
  bool zeroPointInBias_ = false;
  // The int8 primitive reads the input padded by the step with its zero point (padInput), and
  // pads nothing itself (paddingBegin_ / paddingEnd_ 0; the graph's are graphPadding*).
  bool paddedInput_ = false;
  bool nhwcPadding_ = false;      // the input and its padded copy both nhwc: copyIntoPadding
  bool quantizedOutput_ = false;  // a fused quantizeLinear: a uint8 destination
  // The float path chosen at compile (oneDNN offers only its reference int8 implementation, or
  // fewer than 4 input channels), its workspace bytes.
  bool floatPathPlanned_ = false;
  uint64_t floatWorkspaceBytes_ = 0;
  memory::dim outputChannels_ = 0;
  memory::dims dstDims_, weightsDims_, strides_, dilations_, paddingBegin_, paddingEnd_;
  memory::dims graphPaddingBegin_, graphPaddingEnd_;
  memory::desc inputDesc_, plainInputDesc_, srcDesc_, dstDesc_, plainDstDesc_, plainWeightsDesc_;
  memory::desc interiorDesc_;  // where the input reorder writes: srcDesc_, or its padded interior
  dnnl::primitive_attr attributes_;
  memory::desc srcAny_, anyWeights_, dstAny_;  // what the int8 primitive is chosen on
  uint64_t multiplyAdds_ = 0;
  bool fewInputChannelsPerTap_ = false;  // a 1x1 filter of fewer than 64 input channels
  bool team_ = true;  // the team's op (not one compiled again for one thread)
  dnnl::convolution_forward::primitive_desc primitiveDesc_;
  std::optional<dnnl::convolution_forward> primitive_;  // made when the filter's scales are in
  FoldedPostOps folded_;                                // the int8 primitive's post-ops
  std::vector<float> outputScales_, int8Bias_;          // its output scales, its bias
  BindingCache<Bound> bindings_;
  std::optional<dnnl::reorder> inputReorder_, outputReorder_;
  uint64_t reorderBytes_ = 0, outputBytes_ = 0;
  bool blockedOutput_ = false;
  std::shared_ptr<PackedConstant> packedWeights_;
  std::vector<float> multipliers_;  // input scale x filter scale, per output channel
  std::vector<float> biasValues_;   // a dequantized int32 bias (QuantizedOperands::bias)
  std::unique_ptr<FloatPath> floatPath_;
};

}  // namespace

std::unique_ptr<CpuOp> createQuantizedConvolutionOp(const OpCompileContext& context) {
  if (!context.fusion || !context.fusion->quantized) return nullptr;
  if (context.descriptor(context.operation.outputs[0]).elementCount() == 0) return nullptr;
  return std::make_unique<QuantizedConvolutionOp>(context);
}

}  // namespace webnn::cpu
