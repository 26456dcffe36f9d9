#include "conformance/op_options.h"

#include "conformance/tensor_data.h"

namespace webnn::conformance {

MLOperandDataType dataTypeNamed(const Json& value, const std::string& what) {
  if (!value.is_string()) throw RunnerError(what + " is not a data type name");
  auto type = parseDataType(value.get<std::string>());
  if (!type) throw RunnerError(what + ": unknown data type " + value.dump());
  return *type;
}

OptionReader::OptionReader(const OpCall& call) : call_(call), options_(call.options()) {
  if (!options_.is_object()) call.fail("options is not an object");
}

const Json* OptionReader::find(std::string_view key) {
  auto it = options_.find(key);
  if (it == options_.end()) return nullptr;
  used_.emplace(key);
  return &*it;
}

std::string OptionReader::what(std::string_view key) const {
  return call_.name() + " option " + std::string(key);
}

std::string OptionReader::stringValue(const Json& value, std::string_view key) const {
  if (!value.is_string()) throw RunnerError(what(key) + " is not a string");
  return value.get<std::string>();
}

double OptionReader::numberValue(const Json& value, std::string_view key) const {
  try {
    return parseNumber(value);
  } catch (const LoadError&) {
    throw RunnerError(what(key) + " is not a number: " + value.dump());
  }
}

void OptionReader::read(std::string_view key, std::string& out) {
  if (const Json* value = find(key)) out = stringValue(*value, key);
}

void OptionReader::read(std::string_view key, bool& out) {
  if (const Json* value = find(key)) {
    if (!value->is_boolean()) throw RunnerError(what(key) + " is not a boolean");
    out = value->get<bool>();
  }
}

void OptionReader::read(std::string_view key, double& out) {
  if (const Json* value = find(key)) out = numberValue(*value, key);
}

void OptionReader::read(std::string_view key, MLNumber& out) {
  const Json* value = find(key);
  if (!value) return;
  if (value->is_number_unsigned()) {
    out = value->get<uint64_t>();
  } else if (value->is_number_integer()) {
    out = value->get<int64_t>();
  } else {
    out = numberValue(*value, key);
  }
}

void OptionReader::read(std::string_view key, uint32_t& out) {
  if (const Json* value = find(key)) out = toU32(*value, what(key));
}

void OptionReader::read(std::string_view key, int32_t& out) {
  if (const Json* value = find(key)) {
    if (!value->is_number_integer()) throw RunnerError(what(key) + " is not an integer");
    out = value->get<int32_t>();
  }
}

void OptionReader::read(std::string_view key, std::vector<uint32_t>& out) {
  if (const Json* value = find(key)) out = toU32List(*value, what(key));
}

void OptionReader::read(std::string_view key, std::optional<std::vector<uint32_t>>& out) {
  if (const Json* value = find(key)) out = toU32List(*value, what(key));
}

void OptionReader::read(std::string_view key, std::optional<std::vector<float>>& out) {
  if (const Json* value = find(key)) {
    if (!value->is_array()) throw RunnerError(what(key) + " is not a list");
    out.emplace();
    for (const Json& item : *value) out->push_back(static_cast<float>(numberValue(item, key)));
  }
}

void OptionReader::read(std::string_view key, std::optional<MLOperand>& out) {
  if (const Json* value = find(key)) {
    if (!value->is_string()) throw RunnerError(what(key) + " is not an operand name");
    auto resolved = call_.resolve(value->get<std::string>());
    if (!resolved) throw RunnerError(what(key) + " names no operand: " + value->dump());
    out = *resolved;
  }
}

void OptionReader::read(std::string_view key, MLOperandDataType& out) {
  if (const Json* value = find(key)) out = dataTypeNamed(*value, what(key));
}

void OptionReader::finish() const {
  for (const auto& [key, value] : options_.items()) {
    if (!used_.count(key)) {
      throw RunnerError(call_.name() + ": the runner does not know option \"" + key + "\"");
    }
  }
}

}  // namespace webnn::conformance
