#include "conformance/case_loader.h"

#include <algorithm>

#include "core/checked_math.h"
#include "weights/file_reader.h"

namespace webnn::conformance {
namespace {

// What a vector file may ask for: the JSON's nesting (nlohmann's DOM is built and torn down
// recursively in places), one tensor's bytes (a fill expands to its whole shape), the file's size.
constexpr size_t kMaxJsonDepth = 256;
constexpr uint64_t kMaxTensorBytes = uint64_t{256} << 20;
constexpr uint64_t kMaxFileBytes = uint64_t{1} << 30;

// The deepest nesting of arrays and objects in `text` (strings skipped), stopping past `limit`.
size_t nestingDepth(const std::string& text, size_t limit) {
  size_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (inString) {
      if (ch == '\\')
        ++i;
      else if (ch == '"')
        inString = false;
    } else if (ch == '"') {
      inString = true;
    } else if (ch == '[' || ch == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

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
    const auto value =
        dim.is_number_unsigned() ? checked::toDimension(dim.get<uint64_t>()) : std::nullopt;
    if (!value) fail(where, "\"shape\" holds " + dim.dump() + ", not a dimension (0 to 2^32 - 1)");
    tensor.shape.push_back(*value);
  }
  const auto bytes = checked::byteLength(tensor.shape, 1);
  const auto bits = bytes ? checked::mul<uint64_t>(*bytes, bitsPerElement(tensor.dataType)) : bytes;
  if (!bits || *bits / 8 > kMaxTensorBytes) {
    fail(where, "the tensor's shape takes more than " + std::to_string(kMaxTensorBytes) +
                    " bytes (the conformance loader's limit)");
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
  // Loaded tensors are checked against kMaxTensorBytes; saturate for any other.
  return checked::elementCount(shape).value_or(UINT64_MAX);
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
  if (nestingDepth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    fail(sourceName, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  Json json;
  try {
    json = Json::parse(text);
  } catch (const nlohmann::json::exception& error) {
    // parse_error, and out_of_range for numbers beyond double's range (found by fuzzing).
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
  std::string text;
  try {
    // Non-blocking open, regular files only: a FIFO is refused rather than waited on.
    weights::OpenedFile file = weights::openFile(path.string());
    if (file.size > kMaxFileBytes) {
      fail(path.string(), "the file is larger than " + std::to_string(kMaxFileBytes) + " bytes");
    }
    text.resize(static_cast<size_t>(file.size));
    FileReader reader;
    if (const auto failure = weights::preadExact(
            reader, file.handle.get(), reinterpret_cast<std::byte*>(text.data()), text.size(), 0)) {
      fail(path.string(), "reading failed: " + weights::describeFailure(*failure));
    }
  } catch (const webnn::Error& error) {
    throw LoadError(error.message());
  }
  return parseCaseFile(text, path.string());
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
