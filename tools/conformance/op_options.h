// Reads a vector's `options` entry into the API's option structs, member by member as the op
// schema (webnn/op_schema.h) names them. Unknown keys and values of the wrong kind throw
// RunnerError, so nothing a vector asks for is silently dropped.
#pragma once

#include <webnn/op_schema.h>
#include <webnn/webnn.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/op_table.h"

namespace webnn::conformance {

// A data type named by its spec string ("int32"); throws RunnerError for other strings.
MLOperandDataType dataTypeNamed(const Json& value, const std::string& what);

// Hands out the members of an options object and checks at the end that each was used.
class OptionReader {
 public:
  explicit OptionReader(const OpCall& call);

  void read(std::string_view key, std::string& out);  // label
  void read(std::string_view key, bool& out);
  void read(std::string_view key, double& out);
  void read(std::string_view key, MLNumber& out);  // JSON integers kept exact
  void read(std::string_view key, uint32_t& out);
  void read(std::string_view key, int32_t& out);
  void read(std::string_view key, std::vector<uint32_t>& out);
  void read(std::string_view key, std::optional<std::vector<uint32_t>>& out);
  void read(std::string_view key, std::optional<std::vector<float>>& out);
  void read(std::string_view key, std::optional<MLOperand>& out);
  void read(std::string_view key, MLOperandDataType& out);
  template <schema::SpecEnum E>
  void read(std::string_view key, E& out) {
    if (const Json* value = find(key)) out = enumValue<E>(*value, key);
  }
  template <schema::SpecEnum E>
  void read(std::string_view key, std::optional<std::vector<E>>& out) {
    if (const Json* value = find(key)) {
      if (!value->is_array()) throw RunnerError(what(key) + " is not a list");
      out.emplace();
      for (const Json& item : *value) out->push_back(enumValue<E>(item, key));
    }
  }
  // Throws for every member nobody asked for.
  void finish() const;

 private:
  const Json* find(std::string_view key);
  std::string what(std::string_view key) const;
  std::string stringValue(const Json& value, std::string_view key) const;
  double numberValue(const Json& value, std::string_view key) const;
  template <schema::SpecEnum E>
  E enumValue(const Json& value, std::string_view key) const {
    const std::string text = stringValue(value, key);
    const auto parsed = schema::fromSpecString<E>(text);
    if (!parsed) throw RunnerError(what(key) + ": unknown value \"" + text + "\"");
    return *parsed;
  }

  const OpCall& call_;
  const Json& options_;
  std::set<std::string, std::less<>> used_;
};

// The options dictionary of `call`, every member the schema names read from its `options`.
template <schema::OptionsDictionary Options>
Options readOptions(const OpCall& call) {
  Options options;
  OptionReader reader(call);
  schema::forEachMember(options,
                        [&](std::string_view key, auto& member) { reader.read(key, member); });
  if constexpr (std::is_same_v<Options, MLPool2dOptions>) {
    reader.read("outputShapeRounding", options.roundingType);  // the spec's older name
  }
  reader.finish();
  return options;
}

}  // namespace webnn::conformance
