// What an op file makes of one operation: compute steps, each a shader with its parameter block
// and the operands it binds (bindings 1.. in order; binding 0 is the parameter block). Op files
// are pure (no Vulkan calls): the compiled graph turns steps into pipelines and descriptor sets.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "graph/ir.h"
#include "graph/op_limits.h"

namespace webnn::vulkan {

// The most operands one step binds (bindings 1..kMaxBindings).
inline constexpr uint32_t kMaxBindings = 6;
// The most dimensions a shader indexes (graph::kMaxRank).
inline constexpr uint32_t kShaderRank = 8;

struct Step {
  std::string_view shader;
  std::vector<uint32_t> params;
  std::vector<graph::OperandId> bindings;
  // Workgroups; a zero skips the step (empty output). x may exceed the device's limit on a 1-D
  // step (recorded as several dispatches); y and z may not.
  std::array<uint32_t, 3> groups{0, 0, 0};
  uint32_t groupSize = 64;  // invocations per workgroup along x (flatIndex's stride)
  // The shader's float operands are float16 (float_io.glsl's specialization constant kFloat16).
  bool float16 = false;
  // Bytes of the graph's scratch buffer (OpContext::scratch()) the step uses: device memory an
  // op's steps share (state carried from step to step), not kept from one op to the next.
  uint64_t scratchBytes = 0;
};

struct OpContext {
  const graph::GraphIR& ir;
  const graph::Operation& operation;

  const MLOperandDescriptor& descriptor(graph::OperandId id) const { return ir.descriptor(id); }
  const std::vector<uint32_t>& shape(graph::OperandId id) const { return ir.descriptor(id).shape; }
  graph::OperandId input(size_t i) const { return operation.inputs.at(i); }
  graph::OperandId output(size_t i = 0) const { return operation.outputs.at(i); }
  // The id a step binds for the graph's scratch buffer (one past the IR's operands); the step
  // says how many bytes it uses in Step::scratchBytes.
  graph::OperandId scratch() const { return static_cast<graph::OperandId>(ir.operands.size()); }
  // Bits per element of operand `id` (the element-generic shaders' `bits` parameter).
  uint32_t bits(graph::OperandId id) const { return bitsPerElement(descriptor(id).dataType); }
  uint32_t outputBits() const { return bits(output()); }
  // Whether the (first) output is float16: the op's float shader runs specialized for it.
  bool float16() const { return descriptor(output()).dataType == MLOperandDataType::Float16; }
};

using OpCompiler = void (*)(const OpContext& context, std::vector<Step>& steps);

// Which data types an op's operands may have on this backend: `types` for every operand, except
// those `overrides` names.
struct OpEntry {
  OpCompiler compile = nullptr;
  std::vector<MLOperandDataType> types;
  std::vector<std::pair<std::string, std::vector<MLOperandDataType>>> overrides;
};

class OpTable {
 public:
  void set(graph::OpType type, OpEntry entry) { entries_[static_cast<size_t>(type)] = entry; }
  const OpEntry* find(graph::OpType type) const {
    const OpEntry& entry = entries_[static_cast<size_t>(type)];
    return entry.compile ? &entry : nullptr;
  }

 private:
  std::array<OpEntry, graph::kOpTypeCount> entries_{};
};

// Every op the backend has (ops/*.cpp register theirs; ops/registration.cpp calls them all).
const OpTable& vulkanOps();
void registerElementwiseOps(OpTable& table);
void registerMatmulOps(OpTable& table);
void registerConvolutionOps(OpTable& table);
void registerPoolingOps(OpTable& table);
void registerSoftmaxOps(OpTable& table);
void registerReductionOps(OpTable& table);
void registerNormalizationOps(OpTable& table);
void registerShapeOps(OpTable& table);
void registerGatherOps(OpTable& table);
void registerWhereOps(OpTable& table);
void registerCastOps(OpTable& table);
void registerResample2dOps(OpTable& table);
void registerConvTranspose2dOps(OpTable& table);
void registerComparisonOps(OpTable& table);
void registerArgMinMaxOps(OpTable& table);
void registerCumulativeSumOps(OpTable& table);
void registerScatterOps(OpTable& table);
void registerRearrangeOps(OpTable& table);
void registerQuantizationOps(OpTable& table);
void registerRecurrentOps(OpTable& table);

// Helpers of the op files.
// Element count of `shape` as uint32 (the shaders index with 32 bits); throws NotSupportedError
// naming `what` when it does not fit.
uint32_t elementCount(std::span<const uint32_t> shape, std::string_view what);
// Row-major strides of `shape` (in elements).
std::vector<uint32_t> contiguousStrides(std::span<const uint32_t> shape);
// Strides of an input of `shape` read at the coordinates of `outputShape` (numpy broadcasting:
// right-aligned, 0 where the input's extent is 1 or missing).
std::vector<uint32_t> broadcastStrides(std::span<const uint32_t> shape,
                                       std::span<const uint32_t> outputShape);
// Appends `values` padded with `fill` to kShaderRank words.
void appendPadded(std::vector<uint32_t>& params, std::span<const uint32_t> values,
                  uint32_t fill = 0);
uint32_t floatBits(double value);
// A step over `count` invocations of a 64-wide 1-D shader.
Step elementwiseStep(std::string_view shader, uint32_t count, std::vector<uint32_t> params,
                     std::vector<graph::OperandId> bindings);

// The data types a shader reads and writes through elements.glsl: every type.
extern const std::vector<MLOperandDataType> kElementTypes;
// elements.glsl's (and, up to 7, cast.comp's) code of a data type: 0 float32, 1 float16,
// 2 int32, 3 uint32, 4 int64, 5 uint64, 6 int8, 7 uint8, 8 int4, 9 uint4.
uint32_t shaderTypeCode(MLOperandDataType type);
// The shader type code of an index operand (gather's and scatter's input 1).
inline uint32_t indexTypeOf(const OpContext& context) {
  return shaderTypeCode(context.descriptor(context.input(1)).dataType);
}
// A step of a shader built on write_elements.glsl: `count` output elements of `bits` bits
// (bitsPerElement), its parameters {count, bits} followed by `params`; one invocation per
// element of 32 or 64 bits, per output word of narrower ones.
Step elementsStep(std::string_view shader, uint32_t count, uint32_t bits,
                  std::vector<uint32_t> params, std::vector<graph::OperandId> bindings);

}  // namespace webnn::vulkan
