// matmul on a QDQ model's quantized operands (cpu_op.h: QuantizedOperands): A uint8/int8
// [..., M, K] with one scale and zero point, B an int8 constant [K, N] with one scale or one per
// column. A's batch runs as rows of one [rows, K] x [K, N] product on oneDNN's int8 matmul (AMX or
// VNNI where the CPU has them), A's zero point as oneDNN's source zero point, B packed 8-bit when
// its bytes are in; the int32 sums become float32 through oneDNN's output scales (A's scale x B's
// scale per column) and bias, with the chain's leading affine post-ops (a bias add) folded into
// both (FoldedPostOps; the primitive is made when B's scales are in: oneDNN's int8 matmul runs
// run-time output scales only on its slow gemm), then the rest of the chain (an activation),
// then a quantizeLinear that follows into uint8 (the next layer's input) as scaling, rounding and
// zero-point post-ops on a uint8 destination.
// A B zero point other than 0 (seen only when the constants are in): a float32 matmul of the
// dequantized values, made then; so does a matmul for which oneDNN has only its reference int8
// implementation.
#include <array>
#include <mutex>
#include <optional>
#include <vector>

#include "backends/cpu/cpu_constant_slot.h"
#include "backends/cpu/cpu_op.h"
#include "backends/cpu/ops/binding_cache.h"
#include "backends/cpu/ops/quantized_operands.h"
#include "core/host_buffer.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using DataType = memory::data_type;

class QuantizedMatmulOp final : public CpuOp {
 public:
  bool fixesThreadCount() const override { return true; }

  explicit QuantizedMatmulOp(const OpCompileContext& context)
      : engine_(context.engine), q_(*context.fusion->quantized) {
    output_ = context.stepOutput();
    inputScale_ = floatConstant(context.ir, q_.inputScale);
    inputZeroPoint_ = integerConstant(context.ir, q_.inputZeroPoint);
    const auto& aShape = context.descriptor(q_.input).shape;
    const auto& bShape = context.descriptor(q_.weights).shape;
    const memory::dim depth = bShape[0];
    columns_ = bShape[1];
    memory::dim rows = 1;
    for (size_t d = 0; d + 1 < aShape.size(); ++d) rows *= aShape[d];
    const DataType inputType = context.descriptor(q_.input).dataType == MLOperandDataType::Uint8
                                   ? DataType::u8
                                   : DataType::s8;
    inputDesc_ = memory::desc({rows, depth}, inputType, Tag::ab);
    plainWeightsDesc_ = memory::desc({depth, columns_}, DataType::s8, Tag::ab);

    // The float path's post-ops: x (A's scale x B's scale) per column, then the chain's (A's
    // batch folded into rows: their operands broadcast over all of them or none), then a
    // quantizeLinear's division, rounding and zero point.
    dnnl::post_ops own;
    own.append_binary(dnnl::algorithm::binary_mul,
                      memory::desc({1, columns_}, DataType::f32, Tag::ab));
    const bool rowsFolded = aShape.size() > 2;
    const memory::dims outputDims = dimsOf(context.descriptor(context.operation.outputs[0]).shape);
    auto postOps = postOpArgumentsOf(context, outputDims, own, rowsFolded);
    if (!postOps) throw dnnl::error(dnnl_unimplemented, "post-op operands");
    postOps_ = std::move(*postOps);
    // A quantizeLinear after the chain: the step writes uint8.
    DataType dstType = DataType::f32;
    if (const auto& output = context.fusion->quantizedOutput) {
      outputQuantization_[0] = floatConstant(context.ir, output->scale);
      outputQuantization_[1] = static_cast<float>(integerConstant(context.ir, output->zeroPoint));
      divisionPosition_ = appendQuantizeOutput(postOps_.postOps, 2);
      dstType = DataType::u8;
    }
    dstDesc_ = memory::desc({rows, columns_}, dstType, Tag::ab);
    // The int8 primitive's: output scales and bias (the chain's leading bias add folded in), then
    // the rest; placeholder scales until B's are in (prepareConstants).
    auto folded = FoldedPostOps::plan(context, outputDims, outputDims.size() - 1, 2, rowsFolded);
    if (!folded) throw dnnl::error(dnnl_unimplemented, "post-op operands");
    folded_ = std::move(*folded);
    attributes_ = opAttributes();
    attributes_.set_post_ops(folded_.postOps());
    if (inputZeroPoint_ != 0) attributes_.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
    attributes_.set_output_scales(kPerColumn,
                                  std::vector<float>(static_cast<size_t>(columns_), 1.0f));
    anyWeights_ = withDataType(
        context.weightsLayout(q_.weights, memory::desc({depth, columns_}, DataType::f32, Tag::any)),
        DataType::s8);
    primitiveDesc_ = dnnl::matmul::primitive_desc(
        dnnl::matmul::desc(inputDesc_, anyWeights_, biasDesc(), dstDesc_), attributes_, engine_);
    // Only oneDNN's reference int8 matmul: the float path, on the dequantized B.
    referenceOnly_ = implementationOf(primitiveDesc_).rfind("ref", 0) == 0;
    bindings_.operands = {q_.input, output_};
    for (graph::OperandId operand : folded_.operands()) {
      if (!context.isConstant(operand)) bindings_.operands.push_back(operand);
    }
    if (!referenceOnly_) {
      packedWeights_ =
          context.packedConstant(q_.weights, plainWeightsDesc_, primitiveDesc_.weights_desc());
    } else if (context.shareConstants && context.constants) {
      // Compiled again for one thread with only the reference int8 matmul where the team's op
      // runs int8: B is read back from the team's packed one (it may have no plain copy).
      if (const auto layout = context.constants->placedLayout(q_.weights)) {
        packedWeights_ = context.packedConstant(q_.weights, plainWeightsDesc_, *layout);
      }
    }
  }

  void prepareConstants(const DispatchTensors& tensors) override {
    bindings_.clear();
    const auto* zeroPoints = static_cast<const int8_t*>(dataOf(tensors, q_.weightsZeroPoint));
    const auto* scales = static_cast<const float*>(dataOf(tensors, q_.weightsScale));
    const size_t count = tensors[q_.weightsScale].elementCount();
    multipliersOf(inputScale_, scales, count, static_cast<size_t>(columns_), multipliers_);
    postOps_.prepare(tensors);
    if (packedWeights_) packedWeights_->pack(dataOf(tensors, q_.weights));
    if (!referenceOnly_ && weightZeroPointsAreZero(zeroPoints, count) && prepareInt8(tensors)) {
      floatPath_.reset();
      return;
    }
    prepareFloatPath(tensors, zeroPoints, scales, count);
  }

  uint64_t workspaceBytes() const override { return scratchpadBytes(primitiveDesc_); }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeInWorkspace(stream, tensors, nullptr);
  }

  void executeInWorkspace(dnnl::stream& stream, const DispatchTensors& tensors,
                          std::byte* workspace) override {
    std::unordered_map<int, memory> arguments{
        {DNNL_ARG_DST, memory(dstDesc_, engine_, dataOf(tensors, output_))}};
    float outputQuantization[2] = {outputQuantization_[0], outputQuantization_[1]};
    if (floatPath_) {
      memory multipliers({{1, columns_}, DataType::f32, Tag::ab}, engine_, multipliers_.data());
      arguments.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, multipliers);
      if (divisionPosition_ >= 0) {
        addQuantizeOutputArguments(divisionPosition_, 2, outputQuantization, engine_, arguments);
      }
      addPostOpArguments(postOps_, engine_, tensors, arguments);
      const uint64_t elements = inputDesc_.get_size();
      std::vector<float> input(elements);
      dequantizeInput(static_cast<const std::byte*>(dataOf(tensors, q_.input)),
                      inputDesc_.data_type() == DataType::u8, elements, inputZeroPoint_,
                      inputScale_, input.data());
      arguments.emplace(DNNL_ARG_SRC,
                        memory(withDataType(inputDesc_, DataType::f32), engine_, input.data()));
      arguments.emplace(DNNL_ARG_WEIGHTS, floatPath_->weights);
      // A uint8 destination: the float32 result, saturated after.
      std::vector<float> result;
      auto* destination = static_cast<uint8_t*>(dataOf(tensors, output_));
      if (divisionPosition_ >= 0) {
        result.resize(dstDesc_.get_size());
        arguments.insert_or_assign(
            DNNL_ARG_DST, memory(withDataType(dstDesc_, DataType::f32), engine_, result.data()));
      }
      std::vector<std::byte> scratchpad(scratchpadBytes(floatPath_->primitiveDesc));
      executeWithScratchpad(floatPath_->primitive, floatPath_->primitiveDesc, stream,
                            std::move(arguments), scratchpad.data());
      if (divisionPosition_ >= 0) saturateToUint8(result.data(), result.size(), destination);
      return;
    }
    if (!primitive_) throw dnnl::error(dnnl_runtime_error, "the constants are not in");
    const bool scratchpad = primitiveDesc_.scratchpad_desc().get_size() > 0;
    if ((workspace || !scratchpad) && bindings_.usable()) {
      // On the memory objects bound to these pointers (binding_cache.h).
      const auto bound = bindings_.get(
          tensors, workspace, [&](const Key& key) { return bind(tensors, workspace, key); });
      primitive_->execute(stream, bound->arguments);
      return;
    }
    folded_.addArguments(engine_, tensors, arguments);
    arguments.emplace(DNNL_ARG_BIAS, memory(biasDesc(), engine_, int8Bias_.data()));
    arguments.emplace(DNNL_ARG_SRC, memory(inputDesc_, engine_, dataOf(tensors, q_.input)));
    arguments.emplace(DNNL_ARG_WEIGHTS, packedWeights_->memory());
    if (inputZeroPoint_ != 0) {
      arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC,
                        memory({{1}, DataType::s32, Tag::a}, engine_, &inputZeroPoint_));
    }
    executeWithScratchpad(*primitive_, primitiveDesc_, stream, std::move(arguments), workspace);
  }

  std::string implementation() const override {
    if (floatPath_) return implementationOf(floatPath_->primitiveDesc) + " (dequantized B)";
    return implementationOf(primitiveDesc_) + " (int8)";
  }

 private:
  // The memory objects of a dispatch of the int8 primitive whose pointers are `key` (the
  // workspace, then bindings_.operands's): made once, reused while the pointers hold, forgotten by
  // prepareConstants() (quantized_convolution.cpp's Bound).
  using Key = BindingKey;
  struct Bound {
    Key key{};
    std::unordered_map<int, memory> arguments;
  };

  std::shared_ptr<const Bound> bind(const DispatchTensors& tensors, std::byte* workspace,
                                    const Key& key) const {
    auto bound = std::make_shared<Bound>();
    bound->key = key;
    auto& arguments = bound->arguments;
    arguments = {{DNNL_ARG_SRC, memory(inputDesc_, engine_, dataOf(tensors, q_.input))},
                 {DNNL_ARG_WEIGHTS, packedWeights_->memory()},
                 {DNNL_ARG_DST, memory(dstDesc_, engine_, dataOf(tensors, output_))},
                 {DNNL_ARG_BIAS, memory(biasDesc(), engine_, const_cast<float*>(int8Bias_.data()))}};
    if (inputZeroPoint_ != 0) {
      arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC,
                        memory({{1}, DataType::s32, Tag::a}, engine_,
                               const_cast<int32_t*>(&inputZeroPoint_)));
    }
    folded_.addArguments(engine_, tensors, arguments);
    if (primitiveDesc_.scratchpad_desc().get_size() > 0) {
      arguments.emplace(DNNL_ARG_SCRATCHPAD,
                        memory(primitiveDesc_.scratchpad_desc(), engine_, workspace));
    }
    return bound;
  }

  static constexpr int kPerColumn = 1 << 1;  // output scales along the destination's columns

  memory::desc biasDesc() const { return memory::desc({1, columns_}, DataType::f32, Tag::ab); }

  // The int8 primitive with B's scales in: the output scales are the multipliers (A's scale x B's
  // scale) with the chain's leading affine post-ops folded in, the bias divided by them (oneDNN
  // adds the bias before scaling: scalesCarry). The primitive is the one chosen at compile (same
  // implementation, same packed B). False when it cannot be: the float path then.
  bool prepareInt8(const DispatchTensors& tensors) {
    std::vector<float> scales = multipliers_;
    std::vector<float> bias(scales.size(), 0.0f);
    folded_.fold(tensors, scales, bias);
    if (!scalesCarry(scales, bias)) return false;
    if (!primitive_ || scales != outputScales_) {
      dnnl::primitive_attr attributes = attributes_;
      attributes.set_output_scales(kPerColumn, scales);
      try {
        dnnl::matmul::primitive_desc descriptor(
            dnnl::matmul::desc(inputDesc_, anyWeights_, biasDesc(), dstDesc_), attributes,
            engine_);
        if (implementationOf(descriptor) != implementationOf(primitiveDesc_) ||
            descriptor.weights_desc() != primitiveDesc_.weights_desc() ||
            descriptor.scratchpad_desc().get_size() > primitiveDesc_.scratchpad_desc().get_size()) {
          return false;
        }
        primitive_ = dnnl::matmul(descriptor);
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

  // A B zero point other than 0: a float32 matmul of the dequantized A and B with the same
  // post-ops (the multiply by 1: B carries its scale). Its scratchpad and dequantized A are
  // allocated per dispatch: this path is rare, and concurrent dispatches must not share them.
  struct FloatPath {
    dnnl::matmul::primitive_desc primitiveDesc;
    dnnl::matmul primitive;
    HostBuffer storage;
    memory weights;
  };

  void prepareFloatPath(const DispatchTensors& tensors, const int8_t* zeroPoints,
                        const float* scales, size_t count) {
    auto path = std::make_unique<FloatPath>();
    dnnl::primitive_attr attributes = opAttributes();
    attributes.set_post_ops(postOps_.postOps);
    const memory::dims bDims = plainWeightsDesc_.dims();
    path->primitiveDesc = dnnl::matmul::primitive_desc(
        dnnl::matmul::desc(withDataType(inputDesc_, DataType::f32),
                           memory::desc(bDims, DataType::f32, Tag::any),
                           withDataType(dstDesc_, DataType::f32)),
        attributes, engine_);
    path->primitive = dnnl::matmul(path->primitiveDesc);
    std::vector<int8_t> unpacked;
    const int8_t* weights = plainInt8Weights(tensors, q_.weights, packedWeights_.get(),
                                             plainWeightsDesc_, engine_, unpacked);
    const auto columns = static_cast<uint64_t>(columns_);
    std::vector<float> plain(static_cast<size_t>(bDims[0] * bDims[1]));
    for (uint64_t i = 0; i < plain.size(); ++i) {
      const size_t column = count == 1 ? 0 : static_cast<size_t>(i % columns);
      plain[i] = static_cast<float>(
          (static_cast<double>(weights[i]) - static_cast<double>(zeroPoints[column])) *
          static_cast<double>(scales[column]));
    }
    path->storage = HostBuffer(path->primitiveDesc.weights_desc().get_size());
    path->weights = memory(path->primitiveDesc.weights_desc(), engine_, path->storage.data());
    memory plainWeights(withDataType(plainWeightsDesc_, DataType::f32), engine_, plain.data());
    dnnl::stream stream(engine_);
    dnnl::reorder(plainWeights, path->weights).execute(stream, plainWeights, path->weights);
    stream.wait();
    multipliers_.assign(static_cast<size_t>(columns_), 1.0f);
    floatPath_ = std::move(path);
  }

  dnnl::engine engine_;
  QuantizedOperands q_;
  graph::OperandId output_ = 0;
  float inputScale_ = 1.0f;
  int32_t inputZeroPoint_ = 0;
  float outputQuantization_[2] = {1.0f, 0.0f};  // a fused quantizeLinear's scale, zero point
  int divisionPosition_ = -1;   // its division post-op, or -1 (a float32 destination)
  bool referenceOnly_ = false;  // oneDNN offers only its reference int8 implementation
  memory::dim columns_ = 0;
  memory::desc inputDesc_, plainWeightsDesc_, dstDesc_;
  dnnl::primitive_attr attributes_;
  memory::desc anyWeights_;
  PostOpArguments postOps_;
  dnnl::matmul::primitive_desc primitiveDesc_;
  std::optional<dnnl::matmul> primitive_;  // made when B's scales are in
  FoldedPostOps folded_;                   // the int8 primitive's post-ops
  std::vector<float> outputScales_, int8Bias_;
  BindingCache<Bound> bindings_;
  std::shared_ptr<PackedConstant> packedWeights_;
  std::vector<float> multipliers_;  // A's scale x B's scale, per column
  std::unique_ptr<FloatPath> floatPath_;
};

}  // namespace

std::unique_ptr<CpuOp> createQuantizedMatmulOp(const OpCompileContext& context) {
  if (!context.fusion || !context.fusion->quantized) return nullptr;
  if (context.views && (context.views->a || context.views->b || context.views->output)) {
    return nullptr;
  }
  if (context.descriptor(context.operation.outputs[0]).elementCount() == 0) return nullptr;
  return std::make_unique<QuantizedMatmulOp>(context);
}

}  // namespace webnn::cpu
