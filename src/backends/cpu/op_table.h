// The cpu backend's ops, one entry per graph::OpType: how a step of the op is created, which data
// types that implementation accepts, whether it may be handed blocked activation layouts, and the
// part it can take in fusion. The compiler (compiler.h) and the fusion pass read only this table;
// no other file chooses an implementation by op type.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>

#include "backends/cpu/cpu_op.h"
#include "graph/ir.h"

namespace webnn::cpu {

// A set of data types.
class DataTypeSet {
 public:
  constexpr DataTypeSet() = default;
  constexpr DataTypeSet(std::initializer_list<MLOperandDataType> types) {
    for (MLOperandDataType type : types) bits_ |= bit(type);
  }
  constexpr bool contains(MLOperandDataType type) const { return (bits_ & bit(type)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }

 private:
  static constexpr uint32_t bit(MLOperandDataType type) {
    return uint32_t{1} << static_cast<uint32_t>(type);
  }
  uint32_t bits_ = 0;
};

// The part an op can take in a fusion chain (fusion.h): the main op of a step whose chain becomes
// its oneDNN post-ops, or a link of such a chain (an activation, a binary op with another operand,
// batchNormalization with constant statistics).
enum class FusionRole : uint8_t { None, Anchor, PostOp };

using OpCreator = std::unique_ptr<CpuOp> (*)(const OpCompileContext&);

struct CpuOpEntry {
  // Creates the op's step; returns null when its implementation declines these attributes,
  // shapes or layouts. Null: the op has no implementation of the backend's own.
  OpCreator create = nullptr;
  // The data types the implementation accepts, as operationDataType() gives them.
  DataTypeSet dataTypes{};
  // Whether create() may be handed blocked inputs (it reads layoutOf() and declines the layouts it
  // cannot take); every other op gets plain inputs.
  bool readsBlockedLayouts = false;
  FusionRole fusion = FusionRole::None;
};

// The entry of `type` (an entry with a null `create` for an op the backend runs on the reference
// kernel only).
const CpuOpEntry& cpuOpEntry(graph::OpType type);

// The data type an op's implementation is chosen by: its first input's, but the values' for where
// and the output's for dequantizeLinear.
MLOperandDataType operationDataType(const graph::GraphIR& ir, const graph::Operation& operation);

}  // namespace webnn::cpu
