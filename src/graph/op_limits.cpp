#include "graph/op_limits.h"

#include <mutex>

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
std::map<std::string, OperandLimits>& table() {
  static std::map<std::string, OperandLimits> limits;
  return limits;
}
std::mutex& tableMutex() {
  static std::mutex mutex;
  return mutex;
}

std::string typeList(const std::vector<MLOperandDataType>& types) {
  std::string text;
  for (auto type : types) text += (text.empty() ? "" : ", ") + std::string(toString(type));
  return text;
}
}  // namespace

bool registerOpLimits(std::string type, OperandLimits limits) {
  std::lock_guard lock(tableMutex());
  table()[std::move(type)] = std::move(limits);
  return true;
}

const std::map<std::string, OperandLimits>& allOpLimits() { return table(); }

void checkOperandLimits(std::string_view type, std::string_view label,
                        std::string_view operandName, const MLOperandDescriptor& descriptor) {
  const auto& limits = table();
  auto op = limits.find(std::string(type));
  if (op == limits.end()) return;
  auto operand = op->second.find(std::string(operandName));
  if (operand == op->second.end()) return;
  const MLTensorLimits& limit = operand->second;
  if (!limit.supports(descriptor.dataType)) {
    fail(type, label,
         std::string(operandName) + " has data type " + std::string(toString(descriptor.dataType)) +
             ", which is not one of " + typeList(limit.dataTypes));
  }
  const auto rankValue = static_cast<uint32_t>(descriptor.shape.size());
  if (rankValue < limit.rankRange.min || rankValue > limit.rankRange.max) {
    fail(type, label,
         std::string(operandName) + " has rank " + std::to_string(rankValue) +
             ", outside the supported range [" + std::to_string(limit.rankRange.min) + ", " +
             std::to_string(limit.rankRange.max) + "]");
  }
}

}  // namespace graph
}  // namespace webnn
