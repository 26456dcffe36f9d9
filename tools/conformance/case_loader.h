// Loads the WPT conformance vectors (tests/conformance/wpt/<op>.json) into plain structs.
// The format is described in tests/conformance/README.md §4.
#pragma once

#include <webnn/types.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace webnn::conformance {

// ordered_json keeps an argument entry's keys in the order they are written (README §7).
using Json = nlohmann::ordered_json;

// A malformed vector file: names the file and, where known, the case and what was wrong.
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An input or an expected output as written: `data` is an array, or a single number meaning
// "every element holds this value" (a scalar fill).
struct TensorData {
  MLOperandDataType dataType = MLOperandDataType::Float32;
  std::vector<uint32_t> shape;
  Json data;
  bool constant = false;

  MLOperandDescriptor descriptor() const { return {dataType, shape}; }
  uint64_t elementCount() const;
  bool isFill() const { return !data.is_array(); }
};

// One argument of an operator call: an entry `{key: value}` of `arguments`. An entry with
// several keys gives several arguments, in order.
struct Argument {
  std::string key;
  Json value;
};

struct OperatorCall {
  std::string name;
  std::vector<Argument> arguments;
  std::vector<std::string> outputs;  // one name, or several for split/gru/lstm/lstmCell
  bool outputsIsList = false;
};

struct Tolerance {
  enum class Kind { Ulp, Atol };
  Kind kind = Kind::Ulp;
  double value = 0;
};

struct Case {
  std::string op;  // the bucket (file stem): "relu", "multi__subgraph", ...
  std::string name;
  std::vector<std::pair<std::string, TensorData>> inputs;
  std::vector<OperatorCall> operators;
  std::vector<std::pair<std::string, TensorData>> expectedOutputs;
  Tolerance tolerance;

  const TensorData* findInput(const std::string& inputName) const;
  bool hasConstants() const;
  // "<op>/<name>": the key of known-failure lists.
  std::string id() const { return op + "/" + name; }
};

struct CaseFile {
  std::string op;
  std::vector<Case> cases;
};

// Parses one file's text; `sourceName` names it in errors. Throws LoadError.
CaseFile parseCaseFile(const std::string& text, const std::string& sourceName);
CaseFile loadCaseFile(const std::filesystem::path& path);
// Every <op>.json of `directory` (index.json excluded), sorted by op name. Throws LoadError.
std::vector<CaseFile> loadCaseDirectory(const std::filesystem::path& directory);

}  // namespace webnn::conformance
