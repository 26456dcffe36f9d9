// Per-op data type and rank limits. The spec's table (specOpLimits) is filled by each op file's
// registration function, called from one place (ops/registration.cpp). A backend reports the
// subset it supports as MLOpSupportLimits; a context turns that into an OpLimitsTable once, and
// every builder call checks its operands against it: a TypeError at the builder call, as the spec
// says, for a data type or rank the context's backend lacks. Lookups fail closed: an op or an
// operand name the table does not hold is an error, never a silent pass.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/ir.h"
#include "webnn/op_support_limits.h"

namespace webnn::graph {

using OperandLimits = std::map<std::string, MLTensorLimits, std::less<>>;

class OpLimitsTable {
 public:
  void set(OpType type, OperandLimits limits) { ops_[index(type)] = std::move(limits); }
  void erase(OpType type) { ops_[index(type)].reset(); }
  // Null when the table does not support `type`.
  const OperandLimits* find(OpType type) const {
    const auto& entry = ops_[index(type)];
    return entry ? &*entry : nullptr;
  }
  OperandLimits* find(OpType type) {
    auto& entry = ops_[index(type)];
    return entry ? &*entry : nullptr;
  }

  std::string backendName;  // names the table in errors ("the reference backend")
  uint64_t maxTensorByteLength = 0;
  MLTensorLimits input;
  MLTensorLimits constant;
  MLTensorLimits output;
  MLInputOperandLayout preferredInputLayout = MLInputOperandLayout::Nchw;

 private:
  static size_t index(OpType type) { return static_cast<size_t>(type); }
  std::array<std::optional<OperandLimits>, kOpTypeCount> ops_{};
};

// The spec's limits for every op (what validation accepts at most). Built once, on first use, by
// registerAllOpLimits.
const OpLimitsTable& specOpLimits();

// The public view of a table, and back. fromSupportLimits throws (naming it) on an op name that
// is not a builder method.
MLOpSupportLimits toSupportLimits(const OpLimitsTable& table);
OpLimitsTable fromSupportLimits(const MLOpSupportLimits& limits, std::string_view backendName);

// One builder call being validated: the op, its label, and the limits of the context it builds on.
struct OpCall {
  OpType type{};
  std::string_view label;
  const OpLimitsTable* limits = nullptr;

  std::string_view name() const { return specName(type); }
};

// Throws TypeError naming the op (by label), the operand and what is outside the limits.
// NotSupportedError when the context's backend does not support the op at all; TypeError when the
// table has no entry for `operandName` (fail closed).
void checkOperandLimits(const OpCall& call, std::string_view operandName,
                        const MLOperandDescriptor& descriptor);
// Checks a graph input, constant or output descriptor against the table's input/constant/output
// limits and its maxTensorByteLength.
void checkTensorLimits(const OpLimitsTable& table, std::string_view what,
                       const MLTensorLimits& limits, const MLOperandDescriptor& descriptor);

// Common data type sets.
namespace types {
using T = MLOperandDataType;
inline const std::vector<T> kFloat = {T::Float32, T::Float16};
inline const std::vector<T> kFloatAndInt32 = {T::Float32, T::Float16, T::Int32};
inline const std::vector<T> kSignedNumeric = {T::Float32, T::Float16, T::Int32, T::Int64, T::Int8};
inline const std::vector<T> kNumeric = {T::Float32, T::Float16, T::Int32, T::Uint32,
                                        T::Int64,   T::Uint64,  T::Int8,  T::Uint8};
inline const std::vector<T> kAll = {T::Float32, T::Float16, T::Int32, T::Uint32, T::Int64,
                                    T::Uint64,  T::Int8,    T::Uint8, T::Int4,   T::Uint4};
inline const std::vector<T> kIndices = {T::Int32, T::Uint32, T::Int64};
inline const std::vector<T> kUint8 = {T::Uint8};
}  // namespace types

// The largest rank any operand may have.
inline constexpr uint32_t kMaxRank = 8;
// The most outputs one split may have (a count of 2^32 - 1 on a dimension that large is
// divisible, and would make that many operands before anything else is checked).
inline constexpr uint32_t kMaxSplitOutputs = 65536;
inline MLTensorLimits anyRank(std::vector<MLOperandDataType> dataTypes) {
  return {std::move(dataTypes), {0, kMaxRank}};
}
inline MLTensorLimits rank(std::vector<MLOperandDataType> dataTypes, uint32_t min, uint32_t max) {
  return {std::move(dataTypes), {min, max}};
}

}  // namespace webnn::graph
