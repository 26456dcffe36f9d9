#include "graph/op_limits.h"

#include <limits>

#include "graph/builder_state.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"

namespace webnn {

bool MLTensorLimits::supports(MLOperandDataType type) const {
  for (auto candidate : dataTypes) {
    if (candidate == type) return true;
  }
  return false;
}

namespace graph {
namespace {

std::string typeList(const std::vector<MLOperandDataType>& types) {
  std::string text;
  for (auto type : types) text += (text.empty() ? "" : ", ") + std::string(toString(type));
  return text;
}

// Data type and rank of `descriptor` against `limit`; returns the problem, or empty.
std::string violation(std::string_view operandName, const MLTensorLimits& limit,
                      const MLOperandDescriptor& descriptor) {
  if (!limit.supports(descriptor.dataType)) {
    return std::string(operandName) + " has data type " +
           std::string(toString(descriptor.dataType)) + ", which is not one of " +
           (limit.dataTypes.empty() ? std::string("(none)") : typeList(limit.dataTypes));
  }
  const auto rankValue = static_cast<uint32_t>(descriptor.shape.size());
  if (rankValue < limit.rankRange.min || rankValue > limit.rankRange.max) {
    return std::string(operandName) + " has rank " + std::to_string(rankValue) +
           ", outside the supported range [" + std::to_string(limit.rankRange.min) + ", " +
           std::to_string(limit.rankRange.max) + "]";
  }
  return {};
}

std::string backendOf(const OpLimitsTable& table) {
  return table.backendName.empty() ? std::string("this context")
                                   : "the " + table.backendName + " backend";
}

}  // namespace

const OpLimitsTable& specOpLimits() {
  static const OpLimitsTable table = [] {
    OpLimitsTable limits;
    limits.backendName = "spec";
    limits.maxTensorByteLength = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    limits.input = anyRank(types::kAll);
    limits.constant = anyRank(types::kAll);
    limits.output = anyRank(types::kAll);
    registerAllOpLimits(limits);
    return limits;
  }();
  return table;
}

MLOpSupportLimits toSupportLimits(const OpLimitsTable& table) {
  MLOpSupportLimits limits;
  limits.preferredInputLayout = table.preferredInputLayout;
  limits.maxTensorByteLength = table.maxTensorByteLength;
  limits.input = table.input;
  limits.constant = table.constant;
  limits.output = table.output;
  for (OpType type : allOpTypes()) {
    const OperandLimits* operands = table.find(type);
    if (!operands) continue;
    auto& entry = limits.ops[std::string(specName(type))];
    for (const auto& [name, limit] : *operands) entry.emplace(name, limit);
  }
  return limits;
}

OpLimitsTable fromSupportLimits(const MLOpSupportLimits& limits, std::string_view backendName) {
  OpLimitsTable table;
  table.backendName = std::string(backendName);
  table.preferredInputLayout = limits.preferredInputLayout;
  table.maxTensorByteLength = limits.maxTensorByteLength;
  table.input = limits.input;
  table.constant = limits.constant;
  table.output = limits.output;
  for (const auto& [name, operands] : limits.ops) {
    const auto type = opTypeFromSpecName(name);
    if (!type) {
      throw Error(Error::Kind::UnknownError, "the " + std::string(backendName) +
                                                 " backend reports limits for '" + name +
                                                 "', which is not an MLGraphBuilder method");
    }
    OperandLimits entry;
    for (const auto& [operand, limit] : operands) entry.emplace(operand, limit);
    table.set(*type, std::move(entry));
  }
  return table;
}

void checkOperandLimits(const OpCall& call, std::string_view operandName,
                        const MLOperandDescriptor& descriptor) {
  const OpLimitsTable& table = call.limits ? *call.limits : specOpLimits();
  const OperandLimits* operands = table.find(call.type);
  if (!operands) {
    throw Error(Error::Kind::NotSupportedError,
                opName(call.name(), call.label) + ": not supported by " + backendOf(table));
  }
  auto operand = operands->find(operandName);
  if (operand == operands->end()) {
    fail(call.name(), call.label,
         backendOf(table) + " has no limits for operand '" + std::string(operandName) +
             "' (an operand the limits table does not know is refused)");
  }
  std::string problem = violation(operandName, operand->second, descriptor);
  if (!problem.empty()) fail(call.name(), call.label, problem + " (" + backendOf(table) + ")");
  if (descriptor.byteLength() > table.maxTensorByteLength) {
    fail(call.name(), call.label,
         std::string(operandName) + " (" + toString(descriptor) + ") takes " +
             std::to_string(descriptor.byteLength()) +
             " bytes, more than the maxTensorByteLength " +
             std::to_string(table.maxTensorByteLength) + " of " + backendOf(table));
  }
}

void checkTensorLimits(const OpLimitsTable& table, std::string_view what,
                       const MLTensorLimits& limits, const MLOperandDescriptor& descriptor) {
  std::string problem = violation(what, limits, descriptor);
  if (!problem.empty()) throwTypeError(problem + " (" + backendOf(table) + ")");
  if (descriptor.byteLength() > table.maxTensorByteLength) {
    throwTypeError(std::string(what) + " (" + toString(descriptor) + ") takes " +
                   std::to_string(descriptor.byteLength()) +
                   " bytes, more than the maxTensorByteLength " +
                   std::to_string(table.maxTensorByteLength) + " of " + backendOf(table));
  }
}

}  // namespace graph
}  // namespace webnn
