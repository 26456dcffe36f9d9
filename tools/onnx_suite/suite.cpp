#include <webnn/webnn.h>

#ifdef WEBNN_HAVE_ONNX
#include "onnx_suite/suite.h"

#include <webnn/onnx.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "onnx/onnx_pb.h"
#include "onnx_suite/tensor_file.h"

namespace webnn::onnx_suite {
namespace {

namespace fs = std::filesystem;

// Model files above this size are not parsed for the scope check (the importer still runs).
constexpr uintmax_t kMaxScopeModelBytes = uintmax_t{256} << 20;

// "input_12.pb" -> 12; -1 for other names.
int fileIndex(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0 || name.size() <= prefix.size() + 3) return -1;
  if (name.compare(name.size() - 3, 3, ".pb") != 0) return -1;
  const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 3);
  if (digits.empty() || digits.size() > 6 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stoi(digits);
}

// The files prefix_N.pb of `folder`, in the order of N (gaps are a DataError).
std::vector<std::string> numberedFiles(const fs::path& folder, const std::string& prefix) {
  std::map<int, std::string> byIndex;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const int index = fileIndex(entry.path().filename().string(), prefix);
    if (index >= 0) byIndex[index] = entry.path().string();
  }
  std::vector<std::string> files;
  for (const auto& [index, file] : byIndex) {
    if (index != static_cast<int>(files.size())) {
      throw Error(Error::Kind::DataError, folder.string() + ": " + prefix +
                                              std::to_string(files.size()) + ".pb is missing");
    }
    files.push_back(file);
  }
  return files;
}

std::vector<fs::path> dataSets(const fs::path& caseFolder) {
  std::vector<fs::path> sets;
  for (const auto& entry : fs::directory_iterator(caseFolder)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0)
      sets.push_back(entry.path());
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

struct ModelFacts {
  bool parsed = false;
  std::vector<std::string> inputs;      // graph inputs that are not initializers, in order
  std::set<std::string> dynamicInputs;  // those with a dimension that is not a fixed value
  std::set<std::string> opTypes;        // "Op", or "domain:Op" outside the default domain
  bool webnnTypes = true;  // every graph input and output of a type WebNN has (bool as uint8)
};

bool hasWebnnType(const ::onnx::ValueInfoProto& value) {
  using P = ::onnx::TensorProto;
  if (!value.type().has_tensor_type()) return false;
  switch (value.type().tensor_type().elem_type()) {
    case P::FLOAT:
    case P::FLOAT16:
    case P::INT32:
    case P::UINT32:
    case P::INT64:
    case P::UINT64:
    case P::INT8:
    case P::UINT8:
    case P::BOOL:
      return true;
    default:
      return false;
  }
}

ModelFacts modelFacts(const std::string& modelPath) {
  ModelFacts facts;
  std::error_code error;
  const uintmax_t size = fs::file_size(modelPath, error);
  if (error || size > kMaxScopeModelBytes) return facts;
  std::ifstream in(modelPath, std::ios::binary);
  ::onnx::ModelProto model;
  if (!in || !model.ParseFromIstream(&in)) return facts;
  facts.parsed = true;
  std::set<std::string> initializers;
  for (const auto& t : model.graph().initializer()) initializers.insert(t.name());
  for (const auto& input : model.graph().input()) {
    if (initializers.count(input.name())) continue;
    facts.inputs.push_back(input.name());
    facts.webnnTypes = facts.webnnTypes && hasWebnnType(input);
    const auto& type = input.type().tensor_type();
    bool dynamic = !type.has_shape();
    for (const auto& dim : type.shape().dim()) dynamic = dynamic || !dim.has_dim_value();
    if (dynamic) facts.dynamicInputs.insert(input.name());
  }
  for (const auto& output : model.graph().output())
    facts.webnnTypes = facts.webnnTypes && hasWebnnType(output);
  for (const auto& node : model.graph().node()) {
    const bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    facts.opTypes.insert(defaultDomain ? node.op_type() : node.domain() + ":" + node.op_type());
  }
  return facts;
}

// The error as the expected-results file records it: "<ErrorName>: <message>" on one line, the
// case's own paths written relative to the case.
std::string reasonOf(std::string_view errorName, std::string message, const std::string& folder) {
  for (const std::string& prefix : {folder + "/", folder}) {
    for (size_t at; (at = message.find(prefix)) != std::string::npos;)
      message.erase(at, prefix.size());
  }
  std::replace(message.begin(), message.end(), '\n', ' ');
  return std::string(errorName) + ": " + message;
}

MLTensor writeInput(MLContext& context, const MLOperandDescriptor& descriptor,
                    const TensorFile& file, const std::string& name) {
  if (!file.supported) {
    throw Error(Error::Kind::DataError, "input '" + name + "' has " + file.unsupportedReason);
  }
  if (file.value.dataType != descriptor.dataType || file.value.shape != descriptor.shape) {
    throw Error(Error::Kind::DataError,
                "input '" + name + "' is " +
                    webnn::toString(MLOperandDescriptor{file.value.dataType, file.value.shape}) +
                    " in the test data but " + webnn::toString(descriptor) + " in the graph");
  }
  MLTensor tensor = context.createTensor({descriptor, false, true});
  context.writeTensor(tensor, file.value.bytes);
  return tensor;
}

// The graph input a refusal asks a value for ("... (give its value: --fix-input NAME=FILE.npy"),
// or empty.
std::string inputToFix(const std::string& message) {
  // "... (give its value: --fix-input NAME=FILE.npy, ..."
  const std::string marker = "(give its value: --fix-input ";
  const size_t at = message.find(marker);
  if (at == std::string::npos) return {};
  const size_t begin = at + marker.size();
  const size_t end = message.find("=FILE.npy", begin);
  return end == std::string::npos ? std::string() : message.substr(begin, end - begin);
}

// Input `name`'s value when every data set gives it the same one.
std::optional<onnx::ImportOptions::FixedInput> sameValueInEverySet(
    const std::vector<fs::path>& sets, const std::vector<std::string>& inputs,
    const std::string& name) {
  const auto index =
      static_cast<size_t>(std::find(inputs.begin(), inputs.end(), name) - inputs.begin());
  if (index >= inputs.size() || sets.empty()) return std::nullopt;
  std::optional<onnx::ImportOptions::FixedInput> value;
  try {
    for (const auto& set : sets) {
      const auto files = numberedFiles(set, "input_");
      if (index >= files.size()) return std::nullopt;
      const TensorFile file = readTensorFile(files[index]);
      if (!file.supported) return std::nullopt;
      onnx::ImportOptions::FixedInput fixed{{file.value.dataType, file.value.shape},
                                            file.value.bytes};
      if (value && (value->descriptor != fixed.descriptor || value->bytes != fixed.bytes))
        return std::nullopt;
      value = std::move(fixed);
    }
  } catch (const Error&) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::vector<std::string> findCases(const std::string& path) {
  std::error_code error;
  if (fs::is_regular_file(fs::path(path) / "model.onnx", error)) return {path};
  std::vector<std::string> cases;
  if (fs::is_directory(path, error)) {
    for (const auto& entry : fs::directory_iterator(path)) {
      if (entry.is_directory() && fs::is_regular_file(entry.path() / "model.onnx", error))
        cases.push_back(entry.path().string());
    }
  }
  if (cases.empty()) {
    throw Error(Error::Kind::DataError,
                path + ": no ONNX test case (a folder holding model.onnx) is there");
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

std::set<std::string> readOpList(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(Error::Kind::DataError, path + ": cannot read the op list");
  std::set<std::string> ops;
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string op;
    while (words >> op) ops.insert(op);
  }
  return ops;
}

CaseOutcome runCase(const std::string& caseFolder, const SuiteOptions& options) {
  CaseOutcome outcome;
  outcome.name = fs::path(caseFolder).filename().string();
  const std::string modelPath = (fs::path(caseFolder) / "model.onnx").string();
  const ModelFacts facts = modelFacts(modelPath);
  outcome.inScope = facts.parsed && facts.dynamicInputs.empty() && facts.webnnTypes &&
                    !options.scopeOps.empty() &&
                    std::all_of(facts.opTypes.begin(), facts.opTypes.end(),
                                [&](const std::string& op) { return options.scopeOps.count(op); });
  auto fail = [&](CaseStatus status, std::string reason) {
    outcome.status = status;
    outcome.reason = std::move(reason);
    return outcome;
  };
  // The first data set's inputs give dynamic dimensions their values (as ONNX Runtime runs such
  // a model); read before the import only for that, so a case whose files are not tensors (a
  // sequence, an optional) is refused by the importer for what its model uses.
  std::vector<fs::path> sets;
  std::vector<TensorFile> firstInputs;
  try {
    sets = dataSets(caseFolder);
    if (!sets.empty() && !facts.dynamicInputs.empty()) {
      for (const auto& file : numberedFiles(sets[0], "input_"))
        firstInputs.push_back(readTensorFile(file));
    }
  } catch (const Error&) {
    firstInputs.clear();
  }

  // The graph, weightless, then its weights: an error here is a refusal. A refusal that asks for
  // a graph input's value at import (a shape, axes, k given as an input) is retried with that
  // input fixed (ImportOptions::fixedInputs, as `webnn run --fix-input` does) when every data set
  // gives it the same value; the graph then serves those values only, as ONNX Runtime's WebNN
  // provider needs such inputs to be initializers.
  MLContextOptions contextOptions;
  contextOptions.backend = options.backend;
  MLContext context;
  onnx::ImportedModel model;
  MLGraph graph;
  onnx::ImportOptions importOptions;
  // Dynamic dimensions take the first data set's shapes (as ONNX Runtime runs such a model).
  for (size_t i = 0; i < facts.inputs.size() && i < firstInputs.size(); ++i) {
    if (facts.dynamicInputs.count(facts.inputs[i]) && firstInputs[i].supported)
      importOptions.inputShapes[facts.inputs[i]] = firstInputs[i].value.shape;
  }
  for (;;) {
    try {
      context = createContext(contextOptions);
      MLGraphBuilder builder(context);
      model = onnx::importModel(modelPath, builder, importOptions);
      graph = builder.build(model.outputOperands);
      break;
    } catch (const Error& e) {
      const std::string input = inputToFix(e.message());
      const auto value = input.empty() || importOptions.fixedInputs.count(input)
                             ? std::nullopt
                             : sameValueInEverySet(sets, facts.inputs, input);
      if (!value) return fail(CaseStatus::Refused, reasonOf(e.name(), e.message(), caseFolder));
      importOptions.fixedInputs[input] = *value;
      importOptions.inputShapes.erase(input);
      outcome.fixedInputs.push_back(input);
    }
  }

  try {
    graph.loadConstants(*model.weights);
    if (sets.empty()) throw Error(Error::Kind::DataError, "the case has no test_data_set_N folder");
    for (size_t s = 0; s < sets.size(); ++s) {
      const std::string setName = sets[s].filename().string();
      std::vector<TensorFile> inputs, outputs;
      try {
        for (const auto& file : numberedFiles(sets[s], "input_"))
          inputs.push_back(readTensorFile(file));
        for (const auto& file : numberedFiles(sets[s], "output_"))
          outputs.push_back(readTensorFile(file));
      } catch (const Error& e) {
        throw Error(e.kind(), "test data: " + e.message());
      }
      const size_t declared = facts.parsed ? facts.inputs.size() : model.inputs.size();
      if (inputs.size() != declared) {
        throw Error(Error::Kind::DataError, setName + " has " + std::to_string(inputs.size()) +
                                                " inputs, the model " + std::to_string(declared));
      }
      if (outputs.size() != model.outputs.size()) {
        throw Error(Error::Kind::DataError, setName + " has " + std::to_string(outputs.size()) +
                                                " outputs, the graph " +
                                                std::to_string(model.outputs.size()));
      }
      MLNamedTensors in, out;
      const auto graphInputs = graph.inputDescriptors();
      for (size_t i = 0; i < model.inputs.size(); ++i) {
        const auto& [name, descriptor] = model.inputs[i];
        // The data set's files follow the model's inputs (fixed ones included); an input no
        // output depends on is not an input of the WebNN graph.
        size_t file = i;
        if (facts.parsed) {
          file = static_cast<size_t>(std::find(facts.inputs.begin(), facts.inputs.end(), name) -
                                     facts.inputs.begin());
        }
        if (graphInputs.count(name) && file < inputs.size())
          in[name] = writeInput(context, descriptor, inputs[file], name);
      }
      for (const auto& [name, descriptor] : model.outputs)
        out[name] = context.createTensor({descriptor, true, false});
      context.dispatch(graph, in, out);
      for (size_t o = 0; o < model.outputs.size(); ++o) {
        const auto& [name, descriptor] = model.outputs[o];
        const TensorFile& expected = outputs[o];
        if (!expected.supported) {
          return fail(CaseStatus::Wrong, setName + " output '" + name + "': expected a tensor of " +
                                             expected.unsupportedReason);
        }
        TensorValue actual{descriptor.dataType, descriptor.shape, context.readTensor(out[name])};
        const std::string difference = compareAllClose(actual, expected.value, options.tolerance);
        if (!difference.empty()) {
          return fail(CaseStatus::Wrong, setName + " output '" + name + "': " + difference);
        }
      }
    }
  } catch (const Error& e) {
    return fail(CaseStatus::Failed, reasonOf(e.name(), e.message(), caseFolder));
  } catch (const std::exception& e) {
    return fail(CaseStatus::Failed, reasonOf("exception", e.what(), caseFolder));
  }
  outcome.status = CaseStatus::Pass;
  return outcome;
}

}  // namespace webnn::onnx_suite
#endif  // WEBNN_HAVE_ONNX
