// Per-op data type and rank limits: one table, used both by validation (TypeError at the builder
// call) and by MLContext::opSupportLimits(), so that what a user reads is what builds.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "webnn/op_support_limits.h"

namespace webnn::graph {

using OperandLimits = std::map<std::string, MLTensorLimits>;

// Registers the limits of op `type` (operand name -> limits). Call once per op, from the op's file.
bool registerOpLimits(std::string type, OperandLimits limits);
const std::map<std::string, OperandLimits>& allOpLimits();

// Throws TypeError naming the op (by label), the operand and what is outside the limits.
void checkOperandLimits(std::string_view type, std::string_view label,
                        std::string_view operandName, const MLOperandDescriptor& descriptor);

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
inline MLTensorLimits anyRank(std::vector<MLOperandDataType> dataTypes) {
  return {std::move(dataTypes), {0, kMaxRank}};
}
inline MLTensorLimits rank(std::vector<MLOperandDataType> dataTypes, uint32_t min, uint32_t max) {
  return {std::move(dataTypes), {min, max}};
}

}  // namespace webnn::graph
