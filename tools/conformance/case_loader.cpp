#include "conformance/case_loader.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace webnn::conformance {
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw LoadError(where + ": " + what);
}

const Json& member(const Json& object, const char* key, const std::string& where) {
  if (!object.is_object()) fail(where, "expected an object");
  auto it = object.find(key);
  if (it == object.end()) fail(where, std::string("missing \"") + key + "\"");
  return *it;
}

TensorData parseTensor(const Json& json, const std::string& where) {
  TensorData tensor;
  const Json& type = member(json, "dataType", where);
  if (!type.is_string()) fail(where, "\"dataType\" is not a string");
  auto parsed = parseDataType(type.get<std::string>());
  if (!parsed) fail(where, "unknown dataType \"" + type.get<std::string>() + "\"");
  tensor.dataType = *parsed;
  const Json& shape = member(json, "shape", where);
  if (!shape.is_array()) fail(where, "\"shape\" is not an array");
  for (const Json& dim : shape) {
    if (!dim.is_number_unsigned()) fail(where, "\"shape\" holds " + dim.dump());
    tensor.shape.push_back(dim.get<uint32_t>());
  }
  tensor.data = member(json, "data", where);
  if (!tensor.data.is_array() && !tensor.data.is_number() && !tensor.data.is_string()) {
    fail(where, "\"data\" is neither an array nor a number");
  }
  if (tensor.data.is_array() && tensor.data.size() != tensor.elementCount()) {
    fail(where, "\"data\" holds " + std::to_string(tensor.data.size()) + " values for " +
                    std::to_string(tensor.elementCount()) + " elements");
  }
  if (auto it = json.find("constant"); it != json.end()) {
    if (!it->is_boolean()) fail(where, "\"constant\" is not a boolean");
    tensor.constant = it->get<bool>();
  }
  return tensor;
}

std::vector<std::pair<std::string, TensorData>> parseTensors(const Json& json,
                                                             const std::string& where) {
  if (!json.is_object()) fail(where, "expected an object of tensors");
  std::vector<std::pair<std::string, TensorData>> tensors;
  for (const auto& [name, value] : json.items()) {
    tensors.emplace_back(name, parseTensor(value, where + " \"" + name + "\""));
  }
  return tensors;
}

OperatorCall parseOperator(const Json& json, const std::string& where) {
  OperatorCall call;
  const Json& name = member(json, "name", where);
  if (!name.is_string()) fail(where, "operator \"name\" is not a string");
  call.name = name.get<std::string>();
  const Json& arguments = member(json, "arguments", where);
  if (!arguments.is_array()) fail(where, "\"arguments\" is not an array");
  for (const Json& entry : arguments) {
    if (!entry.is_object())
      fail(where, call.name + " argument " + entry.dump() + " is not an object");
    for (const auto& [key, value] : entry.items()) call.arguments.push_back({key, value});
  }
  const Json& outputs = member(json, "outputs", where);
  if (outputs.is_string()) {
    call.outputs.push_back(outputs.get<std::string>());
  } else if (outputs.is_array()) {
    call.outputsIsList = true;
    for (const Json& output : outputs) {
      if (!output.is_string()) fail(where, "\"outputs\" holds " + output.dump());
      call.outputs.push_back(output.get<std::string>());
    }
  } else {
    fail(where, "\"outputs\" is neither a string nor an array");
  }
  return call;
}

Case parseCase(const Json& json, const std::string& op, const std::string& where) {
  Case c;
  c.op = op;
  const Json& name = member(json, "name", where);
  if (!name.is_string()) fail(where, "case \"name\" is not a string");
  c.name = name.get<std::string>();
  const std::string here = where + " case \"" + c.name + "\"";
  c.inputs = parseTensors(member(json, "inputs", here), here + " inputs");
  const Json& operators = member(json, "operators", here);
  if (!operators.is_array() || operators.empty()) fail(here, "\"operators\" is not a list");
  for (const Json& op_json : operators) c.operators.push_back(parseOperator(op_json, here));
  c.expectedOutputs =
      parseTensors(member(json, "expectedOutputs", here), here + " expectedOutputs");
  if (c.expectedOutputs.empty()) fail(here, "no expectedOutputs");
  const Json& tolerance = member(json, "tolerance", here);
  const Json& kind = member(tolerance, "kind", here + " tolerance");
  const Json& value = member(tolerance, "value", here + " tolerance");
  if (kind == "ulp") {
    c.tolerance.kind = Tolerance::Kind::Ulp;
  } else if (kind == "atol") {
    c.tolerance.kind = Tolerance::Kind::Atol;
  } else {
    fail(here, "unknown tolerance kind " + kind.dump());
  }
  if (!value.is_number()) fail(here, "tolerance value is not a number");
  c.tolerance.value = value.get<double>();
  return c;
}

}  // namespace

uint64_t TensorData::elementCount() const {
  uint64_t count = 1;
  for (uint32_t dim : shape) count *= dim;
  return count;
}

const TensorData* Case::findInput(const std::string& inputName) const {
  for (const auto& [name, tensor] : inputs) {
    if (name == inputName) return &tensor;
  }
  return nullptr;
}

bool Case::hasConstants() const {
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const auto& input) { return input.second.constant; });
}

CaseFile parseCaseFile(const std::string& text, const std::string& sourceName) {
  Json json;
  try {
    json = Json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    fail(sourceName, std::string("invalid JSON: ") + error.what());
  }
  CaseFile file;
  const Json& op = member(json, "op", sourceName);
  if (!op.is_string()) fail(sourceName, "\"op\" is not a string");
  file.op = op.get<std::string>();
  const Json& cases = member(json, "cases", sourceName);
  if (!cases.is_array()) fail(sourceName, "\"cases\" is not a list");
  for (const Json& c : cases) file.cases.push_back(parseCase(c, file.op, sourceName));
  return file;
}

CaseFile loadCaseFile(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw LoadError(path.string() + ": cannot open");
  std::ostringstream text;
  text << stream.rdbuf();
  return parseCaseFile(text.str(), path.string());
}

std::vector<CaseFile> loadCaseDirectory(const std::filesystem::path& directory) {
  if (!std::filesystem::is_directory(directory)) {
    throw LoadError(directory.string() + ": not a directory");
  }
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".json" && entry.path().filename() != "index.json") {
      paths.push_back(entry.path());
    }
  }
  if (paths.empty()) throw LoadError(directory.string() + ": no vector files (*.json)");
  std::vector<CaseFile> files;
  for (const auto& path : paths) files.push_back(loadCaseFile(path));
  std::sort(files.begin(), files.end(),
            [](const CaseFile& a, const CaseFile& b) { return a.op < b.op; });
  return files;
}

}  // namespace webnn::conformance
