// Helpers the quantized ops (quantized_convolution.cpp, quantized_matmul.cpp) share: the values of
// the input's scale and zero point (classic constants read at compile), a descriptor with another
// data type, and the per-channel multipliers input scale x weight scale.
#pragma once

#include <cstring>
#include <dnnl.hpp>
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

// The uint8 / int8 input dequantized into float32: (q - zeroPoint) x scale in double, rounded once
// (the reference's dequantizeLinear).
inline void dequantizeInput(const std::byte* quantized, bool isUnsigned, uint64_t count,
                            int32_t zeroPoint, float scale, float* out) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t byte = std::to_integer<uint8_t>(quantized[i]);
    const int32_t value = isUnsigned ? int32_t{byte} : int32_t{static_cast<int8_t>(byte)};
    out[i] =
        static_cast<float>(static_cast<double>(value - zeroPoint) * static_cast<double>(scale));
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
// uint8: saturated, NaN to 0.
inline void saturateToUint8(const float* values, uint64_t count, uint8_t* out) {
  for (uint64_t i = 0; i < count; ++i) {
    const float v = values[i];
    out[i] =
        v != v ? uint8_t{0} : static_cast<uint8_t>(v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v));
  }
}

// The int8 weights in their descriptor's layout (the float path dequantizes them): the graph's
// plain bytes, or, when the weights were packed on arrival and no plain copy exists, the packed
// ones reordered back into `scratch`.
inline const int8_t* plainInt8Weights(const DispatchTensors& tensors, graph::OperandId id,
                                      const PackedConstant* packed,
                                      const dnnl::memory::desc& plainDesc,
                                      const dnnl::engine& engine, std::vector<int8_t>& scratch) {
  if (!packed || packed->mode() != PackedConstant::Mode::OnArrival) {
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

}  // namespace webnn::cpu
