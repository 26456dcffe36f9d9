// Helpers the quantized ops (quantized_convolution.cpp, quantized_matmul.cpp) share: the values of
// the input's scale and zero point (classic constants read at compile), a descriptor with another
// data type, and the per-channel multipliers input scale x weight scale.
#pragma once

#include <cmath>
#include <cstring>
#include <dnnl.hpp>
#include <optional>
#include <unordered_map>
#include <vector>

#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {

inline dnnl::memory::desc withDataType(const dnnl::memory::desc& desc,
                                       dnnl::memory::data_type type) {
  dnnl_memory_desc_t data = desc.data;
  data.data_type = static_cast<dnnl_data_type_t>(type);
  return dnnl::memory::desc(data);
}

// The value of a classic uint8 / int8 constant of one element.
inline int32_t integerConstant(const graph::GraphIR& ir, graph::OperandId id) {
  const auto& operand = ir.operand(id);
  const auto byte = std::to_integer<uint8_t>(operand.data->data()[0]);
  if (operand.descriptor.dataType == MLOperandDataType::Uint8) return int32_t{byte};
  if (operand.descriptor.dataType == MLOperandDataType::Int8)
    return int32_t{static_cast<int8_t>(byte)};
  throw dnnl::error(dnnl_unimplemented, "zero point type");
}

// The value of a classic float32 constant of one element.
inline float floatConstant(const graph::GraphIR& ir, graph::OperandId id) {
  float value;
  std::memcpy(&value, ir.operand(id).data->data(), sizeof value);
  return value;
}

// Whether every weight zero point is 0 (oneDNN has no weight zero points but a common one), and
// the multipliers input scale x weight scale, one per output channel (`channels`; `count` scales:
// 1 or `channels`).
inline bool weightZeroPointsAreZero(const int8_t* zeroPoints, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (zeroPoints[i] != 0) return false;
  }
  return true;
}
inline void multipliersOf(float inputScale, const float* scales, size_t count, size_t channels,
                          std::vector<float>& multipliers) {
  multipliers.resize(channels);
  for (size_t c = 0; c < channels; ++c) multipliers[c] = inputScale * scales[count == 1 ? 0 : c];
}

// The uint8 / int8 input dequantized into float32 as the reference's dequantizeLinear: (q -
// zeroPoint) x scale in double, rounded once. The difference is an integer of at most 9 bits,
// exact in float32, and its product with the scale exact in double: one float32 multiplication
// rounds it the same (a loop the compiler vectorizes).
inline void dequantizeInput(const std::byte* quantized, bool isUnsigned, uint64_t count,
                            int32_t zeroPoint, float scale, float* out) {
  if (isUnsigned) {
    const auto* values = reinterpret_cast<const uint8_t*>(quantized);
    for (uint64_t i = 0; i < count; ++i) {
      out[i] = static_cast<float>(int32_t{values[i]} - zeroPoint) * scale;
    }
  } else {
    const auto* values = reinterpret_cast<const int8_t*>(quantized);
    for (uint64_t i = 0; i < count; ++i) {
      out[i] = static_cast<float>(int32_t{values[i]} - zeroPoint) * scale;
    }
  }
}

// The post-ops that quantize a step's float32 result into its uint8 output as quantizeLinear does
// (fusion: QuantizedOutput): / scale (the float32 quotient), round half to even, + zero point; the
// uint8 destination saturates. The scale and the zero point are binary post-ops reading one float
// each (QuantizeOutputOperands, bound at execute): an element-wise linear post-op would be a
// chain's second one, which oneDNN 2.6 runs wrong. Returns the position of the division.
inline int appendQuantizeOutput(dnnl::post_ops& postOps, int rank) {
  const dnnl::memory::desc scalar(
      dnnl::memory::dims(static_cast<size_t>(rank), 1), dnnl::memory::data_type::f32,
      rank == 4 ? dnnl::memory::format_tag::abcd : dnnl::memory::format_tag::ab);
  const int position = postOps.len();
  postOps.append_binary(dnnl::algorithm::binary_div, scalar);
  postOps.append_eltwise(1.0f, dnnl::algorithm::eltwise_round, 0.0f, 0.0f);
  postOps.append_binary(dnnl::algorithm::binary_add, scalar);
  return position;
}

// Binds the scale and zero point of appendQuantizeOutput's post-ops (`values`: scale, zero point;
// alive until the primitive has run).
inline void addQuantizeOutputArguments(int position, int rank, float* values,
                                       const dnnl::engine& engine,
                                       std::unordered_map<int, dnnl::memory>& arguments) {
  const dnnl::memory::desc scalar(
      dnnl::memory::dims(static_cast<size_t>(rank), 1), dnnl::memory::data_type::f32,
      rank == 4 ? dnnl::memory::format_tag::abcd : dnnl::memory::format_tag::ab);
  arguments.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(position) | DNNL_ARG_SRC_1,
                    dnnl::memory(scalar, engine, values));
  arguments.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(position + 2) | DNNL_ARG_SRC_1,
                    dnnl::memory(scalar, engine, values + 1));
}

// Float32 values of a quantizeLinear'd result (round(x / scale) + zero point, unsaturated) to
// uint8: saturated, NaN to 0 (the comparisons are false for NaN; a loop the compiler
// vectorizes).
inline void saturateToUint8(const float* values, uint64_t count, uint8_t* out) {
  for (uint64_t i = 0; i < count; ++i) {
    float v = values[i];
    v = v > 0.0f ? v : 0.0f;
    v = v < 255.0f ? v : 255.0f;
    out[i] = static_cast<uint8_t>(static_cast<int32_t>(v));
  }
}

// The int8 weights in their descriptor's layout (the float path dequantizes them): the graph's
// plain bytes, or, when no plain copy exists (packed on arrival, or a copy of another op's packed
// ones), the packed ones reordered back into `scratch` (`packed` packed by then).
inline const int8_t* plainInt8Weights(const DispatchTensors& tensors, graph::OperandId id,
                                      const PackedConstant* packed,
                                      const dnnl::memory::desc& plainDesc,
                                      const dnnl::engine& engine, std::vector<int8_t>& scratch) {
  if (!packed || (packed->mode() != PackedConstant::Mode::OnArrival && tensors[id].data)) {
    return tensors[id].as<const int8_t>();
  }
  scratch.resize(plainDesc.get_size());
  dnnl::memory plain(plainDesc, engine, scratch.data());
  // The weights alone (the compensation after them, if any, is not read back).
  dnnl_memory_desc_t weightsOnly = packed->packedDesc().data;
  weightsOnly.extra = dnnl_memory_extra_desc_t{};
  dnnl::memory source(dnnl::memory::desc(weightsOnly), engine, packed->memory().get_data_handle());
  dnnl::stream stream(engine);
  dnnl::reorder(source, plain).execute(stream, source, plain);
  stream.wait();
  return scratch.data();
}

// Output scales and a bias oneDNN adds before them (dst = scale x (sum + bias)) for per-channel
// multipliers and a bias added after them: `bias` becomes bias / multiplier. A multiplier below
// 1e-30 (a channel whose weights' scale is 0 or subnormal: its weights are all 0 or nearly)
// becomes 1e-30, so that the bias divides by it: the sum's share, below 2^31 x 1e-30, stays
// negligible, as it was. False when a multiplier is not finite or a bias overflows: the step
// cannot run so.
inline bool scalesCarry(std::vector<float>& multipliers, std::vector<float>& bias) {
  constexpr float kSmallest = 1e-30f;
  for (size_t c = 0; c < multipliers.size(); ++c) {
    float& m = multipliers[c];
    if (!std::isfinite(m)) return false;
    if (std::fabs(m) < kSmallest) m = kSmallest;
    bias[c] /= m;
    if (!std::isfinite(bias[c])) return false;
  }
  return true;
}

// The post-ops of an int8 step (quantized_post_ops.cpp). oneDNN 2.6 applies an int8
// convolution's output scales and bias natively (the bias before the scales: dst = scale x (sum +
// bias)), far cheaper than binary post-ops, but its convolutions take output scales only when the
// primitive is made (not at run time): the step makes its primitive when the weights' scales are
// in. So the chain's leading affine post-ops (a scalar multiply-add, a batchNormalization, a
// multiply or add by a constant per channel) fold into the multipliers (input scale x weight
// scale) and the bias, per output channel; the rest stay post-ops, a multiply-add of classic
// scalars among them turned back into one element-wise linear post-op when the rest has none
// (oneDNN 2.6 runs a second one wrong). A fused quantizeLinear's division by its scale folds into
// the multipliers when nothing stays, else into a last linear post-op (one is appended when the
// rest has none; x (1 / scale) then, not x / scale: the quotient can differ by an ulp, which moves
// the result only at a rounding boundary), else it is a binary division; then round half to even
// and the zero point (an element-wise linear when no other one is left, else a binary add).
class FoldedPostOps {
 public:
  // `outputDims`: the main op's logical output dims; `channelAxis`: the output channels' dim in
  // them; `rank`: the primitive destination's rank (the quantization's scalar operands);
  // `rowsFolded`: as postOpArgumentsOf. nullopt when the rest cannot be post-ops there.
  static std::optional<FoldedPostOps> plan(const OpCompileContext& context,
                                           const dnnl::memory::dims& outputDims,
                                           size_t channelAxis, int rank, bool rowsFolded);
  const dnnl::post_ops& postOps() const { return arguments_.postOps; }
  // Folds the leading post-ops (and a quantization into the scales) into `multipliers` and `bias`
  // (one per channel), from the constants' bytes.
  void fold(const DispatchTensors& tensors, std::vector<float>& multipliers,
            std::vector<float>& bias) const;
  // The rest's constants are in (a batchNormalization left in the rest is folded then).
  void prepare(const DispatchTensors& tensors) { arguments_.prepare(tensors); }
  // The binary post-ops' operands: the rest's, and the quantization's scale and zero point.
  void addArguments(const dnnl::engine& engine, const DispatchTensors& tensors,
                    std::unordered_map<int, dnnl::memory>& arguments) const;
  bool quantizes() const { return quantized_; }
  // The graph operands the rest's binary post-ops read.
  std::vector<graph::OperandId> operands() const {
    std::vector<graph::OperandId> result;
    for (const auto& input : arguments_.binaryInputs) {
      if (input.foldedIndex < 0) result.push_back(input.operand);
    }
    return result;
  }

 private:
  std::vector<FusedPostOp> folded_;  // the leading post-ops folded into multipliers and bias
  FusionChain rest_;                 // the rest, as post-ops
  PostOpArguments arguments_;
  bool quantized_ = false;
  bool scaleIntoMultipliers_ = false;
  int rank_ = 4;
  int divisionPosition_ = -1, zeroPosition_ = -1;
  // The quantization's scale and zero point (binary operands, alive while the op is).
  float scale_[1] = {1.0f}, zero_[1] = {0.0f};
};

}  // namespace webnn::cpu
