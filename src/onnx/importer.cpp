// importModel: file -> stripped ModelProto -> checks -> WeightSource -> builder calls.
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <queue>
#include <set>

#include "core/checked_math.h"
#include "onnx/context.h"
#include "onnx/errors.h"
#include "onnx/model_source.h"
#include "onnx/ops.h"
#include "onnx/wire.h"
#include "webnn/onnx.h"

namespace webnn::onnx {
namespace {

using namespace webnn::onnx_import;

// Data fields longer than this are left out of the parsed copy and read from the file.
constexpr uint64_t kStripAbove = 256;

// Parses the model through bounded pread windows (a file that shrinks meanwhile gives DataError);
// returns the file's size as opened.
::onnx::ModelProto parseModel(const std::string& path, StrippedModel& stripped, FileReader& reader,
                              uint64_t& fileSize) {
  weights::OpenedFile file = weights::openFile(path);
  if (file.size == 0) throwDataError(path, "the file is empty");
  fileSize = file.size;
  {
    ModelBytes bytes(file.handle.get(), file.size, reader, path);
    stripped = stripModel(bytes, path, kStripAbove);
  }
  ::onnx::ModelProto model;
  if (!model.ParseFromString(stripped.bytes)) {
    throwDataError(path, "not a valid ONNX ModelProto (protobuf parsing failed)");
  }
  stripped.bytes.clear();
  stripped.bytes.shrink_to_fit();
  return model;
}

int64_t defaultOpset(const ::onnx::ModelProto& model, const std::string& path) {
  for (const auto& o : model.opset_import()) {
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  }
  if (model.opset_import_size() == 0) return 1;
  // Only other domains (ai.onnx.ml, training): their ops are what is unsupported (checkSupport
  // names them); a node of the default domain without its version is a malformed model.
  for (const auto& node : model.graph().node()) {
    if (node.domain().empty() || node.domain() == "ai.onnx") {
      throwDataError(path, node.op_type() + " node " + quoteName(node.name()) +
                               " is in the default ONNX domain, which the model imports no " +
                               "version of");
    }
  }
  return 0;
}

// Every unsupported op type and attribute, with counts, in one error.
void checkSupport(const ::onnx::GraphProto& graph, int64_t opset, const std::string& path) {
  std::map<std::string, size_t> ops;
  std::map<std::string, size_t> attributes;
  const auto& table = opTable();
  const auto& folds = foldTable();
  for (const auto& node : graph.node()) {
    const bool defaultDomain = isDefaultDomain(node);
    const std::string type = opKey(node);
    const auto it = table.find(type);
    if (it == table.end()) {
      if (!defaultDomain || !folds.count(node.op_type())) ++ops[type];
      continue;
    }
    if (it->second.check) {
      const std::string reason = it->second.check(node, opset);
      if (!reason.empty()) ++attributes[type + " (" + reason + ")"];
    }
  }
  if (graph.sparse_initializer_size() > 0) {
    attributes["sparse initializers"] += static_cast<size_t>(graph.sparse_initializer_size());
  }
  if (ops.empty() && attributes.empty()) return;
  std::string message = path + ": the model uses what the ONNX importer does not support:";
  if (!ops.empty()) {
    message += " ops";
    for (const auto& [name, count] : ops)
      message += " " + name + " (x" + std::to_string(count) + "),";
    message.pop_back();
    message += ";";
  }
  if (!attributes.empty()) {
    message += " attributes";
    for (const auto& [name, count] : attributes)
      message += " " + name + " x" + std::to_string(count) + ",";
    message.pop_back();
    message += ";";
  }
  message.pop_back();
  throwNotSupported(message);
}

std::string directoryOf(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string("./") : path.substr(0, slash + 1);
}

uint64_t fileSizeOf(const std::string& path, std::map<std::string, uint64_t>& cache) {
  auto it = cache.find(path);
  if (it != cache.end()) return it->second;
  const uint64_t size = weights::openFile(path, O_NOFOLLOW).size;
  cache[path] = size;
  return size;
}

std::string realPath(const std::string& path, const std::string& model, const std::string& what) {
  char resolved[PATH_MAX];
  if (!::realpath(path.c_str(), resolved)) {
    throwOperationError(model + ": " + what + ": cannot resolve " + quoteName(path) + ": " +
                        std::strerror(errno));
  }
  return resolved;
}

// The file an external-data location names, resolved (symlinks followed, then checked): it must
// lie inside the model's folder. NUL characters, absolute paths and ".." are refused outright;
// the resolved path is opened with O_NOFOLLOW.
std::string externalDataFile(const std::string& modelPath, const std::string& location,
                             const std::string& tensorName) {
  const std::string what =
      "tensor " + quoteName(tensorName) + ": external data location " + quoteName(location);
  if (location.empty())
    throwDataError(modelPath, "tensor " + quoteName(tensorName) + " has no external data location");
  if (location.find('\0') != std::string::npos)
    throwDataError(modelPath, what + " holds a NUL character");
  if (location.front() == '/' || location.find("..") != std::string::npos)
    throwDataError(modelPath, what + " leaves the model's folder");
  const std::string folder = realPath(directoryOf(modelPath), modelPath, what);
  const std::string file = realPath(directoryOf(modelPath) + location, modelPath, what);
  const std::string prefix = folder == "/" ? folder : folder + "/";
  if (file.compare(0, prefix.size(), prefix) != 0) {
    throwDataError(modelPath, what + " resolves to " + quoteName(file) +
                                  ", outside the model's folder " + quoteName(folder));
  }
  return file;
}

// The weight entry of `tensor` named `name`, from its recorded range or its external data.
std::optional<WeightEntry> weightEntry(const ::onnx::TensorProto& tensor, const std::string& name,
                                       const DataRange* range, const std::string& path,
                                       std::map<std::string, uint64_t>& sizes) {
  WeightEntry entry;
  entry.info.name = name;
  const int32_t type = tensor.data_type();
  entry.info.fileDataType = onnxTypeName(type);
  for (int64_t d : tensor.dims()) {
    const auto dimension = checked::toDimension(d);
    if (!dimension) {
      throwDataError(path, "tensor " + quoteName(name) + " has dimension " + std::to_string(d) +
                               " (WebNN dimensions are 0 to 4294967295)");
    }
    entry.info.shape.push_back(*dimension);
  }
  if (const auto webnn = webnnType(type)) {
    entry.info.dataType = *webnn;
  } else {
    entry.info.supported = false;
    entry.info.unsupportedReason = "tensor " + quoteName(name) + " has ONNX type " +
                                   onnxTypeName(type) + ", which WebNN has no type for";
  }
  const auto elements =
      shapeElements(std::vector<int64_t>(tensor.dims().begin(), tensor.dims().end()));
  const size_t elementSize = onnxElementSize(type);
  uint64_t expected = 0;
  if (!elements || (elementSize && __builtin_mul_overflow(*elements, elementSize, &expected))) {
    throwDataError(path, "tensor " + quoteName(name) + " is too large");
  }
  if (tensor.data_location() == ::onnx::TensorProto::EXTERNAL) {
    std::string location;
    uint64_t offset = 0;
    std::optional<uint64_t> length;
    for (const auto& kv : tensor.external_data()) {
      if (kv.key() == "location") {
        location = kv.value();
      } else if (kv.key() == "offset" || kv.key() == "length") {
        const auto number = checked::parseInteger<uint64_t>(kv.value());
        if (!number) {
          throwDataError(path, "tensor " + quoteName(name) + ": external data " + kv.key() +
                                   " is not a decimal number of 64 bits: " + quoteName(kv.value()));
        }
        (kv.key() == "offset" ? offset : length.emplace()) = *number;
      }
    }
    entry.file = externalDataFile(path, location, name);
    entry.fileSize = fileSizeOf(entry.file, sizes);
    entry.info.byteOffset = offset;
    entry.info.byteLength = length.value_or(expected);
  } else if (range) {
    if (range->fromFloatData && type != kFloat) {
      throwDataError(
          path, "tensor " + quoteName(name) + " has float_data but type " + onnxTypeName(type));
    }
    entry.file = path;
    entry.fileSize = sizes.at(path);
    entry.info.byteOffset = range->offset;
    entry.info.byteLength = range->length;
  } else {
    return std::nullopt;  // typed data fields in the proto: decoded at import
  }
  if (elementSize && entry.info.byteLength != expected) {
    throwDataError(path, "tensor " + quoteName(name) + " (" + onnxTypeName(type) + " " +
                             weights::shapeToString(entry.info.shape) + ") should hold " +
                             std::to_string(expected) + " bytes but holds " +
                             std::to_string(entry.info.byteLength));
  }
  return entry;
}

// ImportOptions' limits on the weights, before any file is opened or byte read.
void checkWeightLimits(const std::vector<WeightEntry>& entries, const ImportOptions& options,
                       const std::string& path) {
  uint64_t total = 0;
  for (const auto& entry : entries) {
    const uint64_t bytes = entry.info.byteLength;
    if (bytes > options.maxTensorBytes) {
      throwDataError(path, "weight " + quoteName(entry.info.name) + " is " + std::to_string(bytes) +
                               " bytes, above the limit of one tensor (" +
                               std::to_string(options.maxTensorBytes) +
                               " bytes, ImportOptions::maxTensorBytes)");
    }
    total = checked::add(total, bytes).value_or(UINT64_MAX);
    if (total > options.maxWeightBytes) {
      throwDataError(path, "the weights take more than the limit of " +
                               std::to_string(options.maxWeightBytes) +
                               " bytes (ImportOptions::maxWeightBytes), reached at weight " +
                               quoteName(entry.info.name));
    }
  }
}

std::vector<uint32_t> inputShape(const ::onnx::ValueInfoProto& input, const ImportOptions& options,
                                 std::vector<std::string>& unknown, const std::string& path) {
  if (auto it = options.inputShapes.find(input.name()); it != options.inputShapes.end()) {
    // A given shape fills the model's dynamic dimensions; it may not contradict a fixed one.
    const auto& type = input.type().tensor_type();
    if (type.has_shape()) {
      const auto& dims = type.shape().dim();
      const auto text = weights::shapeToString(it->second);
      if (static_cast<size_t>(dims.size()) != it->second.size()) {
        throwTypeError(path + ": input " + quoteName(input.name()) + " has rank " +
                       std::to_string(dims.size()) + " in the model, but the shape given is " +
                       text);
      }
      for (int d = 0; d < dims.size(); ++d) {
        if (dims[d].has_dim_value() && dims[d].dim_value() != it->second[static_cast<size_t>(d)]) {
          throwTypeError(path + ": input " + quoteName(input.name()) + " dimension " +
                         std::to_string(d) + " is " + std::to_string(dims[d].dim_value()) +
                         " in the model, but the shape given is " + text);
        }
      }
    }
    return it->second;
  }
  std::vector<uint32_t> shape;
  const auto& type = input.type().tensor_type();
  for (const auto& dim : type.shape().dim()) {
    if (dim.has_dim_value() && dim.dim_value() >= 0) {
      const auto dimension = checked::toDimension(dim.dim_value());
      if (!dimension) {
        throwDataError(path, "input " + quoteName(input.name()) + " dimension " +
                                 std::to_string(shape.size()) + " is " +
                                 std::to_string(dim.dim_value()) +
                                 ", above WebNN's largest dimension (4294967295)");
      }
      shape.push_back(*dimension);
    } else if (auto d = options.dimensions.find(dim.dim_param()); d != options.dimensions.end()) {
      shape.push_back(d->second);
    } else {
      unknown.push_back(quoteName(input.name()) + " dimension " + std::to_string(shape.size()) +
                        (dim.dim_param().empty() ? "" : " (" + quoteName(dim.dim_param()) + ")"));
      shape.push_back(1);
    }
  }
  return shape;
}

// Nodes in an order where every input is defined first; DataError on missing inputs or cycles.
std::vector<int> topologicalOrder(const ::onnx::GraphProto& graph,
                                  const std::set<std::string>& defined, const std::string& path) {
  std::map<std::string, int> producer;
  for (int i = 0; i < graph.node_size(); ++i) {
    for (const auto& out : graph.node(i).output()) {
      if (out.empty()) continue;
      if (defined.count(out) || !producer.emplace(out, i).second) {
        throwDataError(path, "value " + quoteName(out) + " is defined more than once");
      }
    }
  }
  std::vector<int> waiting(static_cast<size_t>(graph.node_size()), 0);
  std::vector<std::vector<int>> users(static_cast<size_t>(graph.node_size()));
  for (int i = 0; i < graph.node_size(); ++i) {
    for (const auto& in : graph.node(i).input()) {
      if (in.empty() || defined.count(in)) continue;
      auto it = producer.find(in);
      if (it == producer.end()) {
        throwDataError(path, graph.node(i).op_type() + " node " + quoteName(graph.node(i).name()) +
                                 ": input " + quoteName(in) +
                                 " is not defined by any node, input or initializer");
      }
      ++waiting[static_cast<size_t>(i)];
      users[static_cast<size_t>(it->second)].push_back(i);
    }
  }
  std::vector<int> order;
  std::queue<int> ready;
  for (int i = 0; i < graph.node_size(); ++i) {
    if (waiting[static_cast<size_t>(i)] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    const int i = ready.front();
    ready.pop();
    order.push_back(i);
    for (int u : users[static_cast<size_t>(i)]) {
      if (--waiting[static_cast<size_t>(u)] == 0) ready.push(u);
    }
  }
  if (order.size() != static_cast<size_t>(graph.node_size())) {
    for (int i = 0; i < graph.node_size(); ++i) {
      if (waiting[static_cast<size_t>(i)] > 0) {
        throwDataError(path, "the graph has a cycle through " + graph.node(i).op_type() + " node " +
                                 quoteName(graph.node(i).name()));
      }
    }
  }
  return order;
}

// A graph input given its value at import: a known value (folded where it is used), checked
// against the input's declared type and fixed dimensions.
Value fixedInputValue(const ::onnx::ValueInfoProto& input, const ImportOptions::FixedInput& fixed,
                      Context& c, const ImportOptions& options, const std::string& path) {
  const int32_t type = input.type().tensor_type().elem_type();
  const std::string what = "--fix-input " + quoteName(input.name());
  const auto webnn = webnnType(type);
  if (!webnn) {
    throwNotSupported(path + ": " + what + ": the input has ONNX type " + onnxTypeName(type) +
                      ", which WebNN has no type for");
  }
  if (fixed.descriptor.dataType != *webnn) {
    throwTypeError(path + ": " + what + ": the input is " + onnxTypeName(type) + " but the value " +
                   "given is " + std::string(toString(fixed.descriptor.dataType)));
  }
  ImportOptions shapeOnly;
  shapeOnly.inputShapes[input.name()] = fixed.descriptor.shape;
  std::vector<std::string> unknown;
  const auto shape = inputShape(input, shapeOnly, unknown, path);  // throws on a contradiction
  const auto bytes = checked::byteLength(shape, bitsPerElement(*webnn) / 8);
  if (!bytes || *bytes > options.maxTensorBytes) {
    throwDataError(path, what + " (" + weights::shapeToString(shape) +
                             ") is larger than the limit of one tensor");
  }
  if (fixed.bytes.size() != *bytes) {
    throwDataError(path, what + ": " + toString(fixed.descriptor) + " takes " +
                             std::to_string(*bytes) + " bytes, but " +
                             std::to_string(fixed.bytes.size()) + " are given");
  }
  Value v;
  v.onnxType = type;
  v.shape = toOnnxShape(shape);
  c.reserveKnown(v.shape, what);
  v.known = decodeRaw(type, v.shape, fixed.bytes, what);
  return v;
}

// Maps one node: a Constant becomes a known value or a hollow weight, a node whose inputs are
// all small known values is folded, any other goes through the op table.
void importNode(Context& c, const ::onnx::NodeProto& node, ImportedModel& result) {
  const auto& table = opTable();
  const auto& folds = foldTable();
  c.node = &node;
  if (node.op_type() == "Constant" && node.output_size() > 0) {
    if (const TensorInfo* w = result.weights->find(node.output(0))) {
      const auto* a = findAttribute(node, "value");
      Value v;
      v.weight = w;
      v.onnxType = a->t().data_type();
      v.shape.assign(a->t().dims().begin(), a->t().dims().end());
      c.values[node.output(0)] = std::move(v);
      ++result.foldedNodeCount;
      return;
    }
    if (const auto* a = findAttribute(node, "value")) {
      Value v;
      v.proto = &a->t();
      v.onnxType = a->t().data_type();
      v.shape.assign(a->t().dims().begin(), a->t().dims().end());
      c.values[node.output(0)] = std::move(v);
      ++result.foldedNodeCount;
      return;
    }
  }
  const bool defaultDomain = isDefaultDomain(node);
  auto fold = folds.find(node.op_type());
  bool foldable = defaultDomain && fold != folds.end();
  for (size_t i = 0; foldable && i < c.inputCount(); ++i) foldable = c.isSmallKnown(i);
  if (foldable && c.inputCount() > 0) {
    fold->second(c);
    ++result.foldedNodeCount;
    return;
  }
  auto it = table.find(opKey(node));
  if (it == table.end()) {
    if (!defaultDomain || fold == folds.end())  // (in a subgraph: not checked before)
      c.fail("the ONNX importer does not support this op");
    // Only foldable: name a graph input among its inputs, which fixing would make known.
    for (size_t i = 0; i < c.inputCount(); ++i) {
      if (!c.isSmallKnown(i)) c.requireKnown(i, ("input " + std::to_string(i)).c_str());
    }
    c.fail("its inputs must be constants known at import");
  }
  if (it->second.check) {
    const std::string reason = it->second.check(node, c.opset);
    if (!reason.empty()) c.fail(reason + " is not supported");
  }
  try {
    it->second.convert(c);
  } catch (const Error& e) {
    if (e.message().find(c.where()) != std::string::npos) throw;
    throw Error(e.kind(), c.where() + ": " + e.message());
  }
  ++result.nodeCount;
}

// A 4-bit MatMulNBits reads its B as uint4 [N, n_blocks, block_size], the same bytes as the file's
// uint8 [N, n_blocks, blob_size] (matMulNBitsPackedWeight). Where every use of a weight is as B of
// such nodes of the main graph, agreeing on that view and on its byte length, its entry is
// described so: it stays a hollow constant, streamed (or mapped) from the file like any other.
// A weight used otherwise as well keeps its ONNX description (the mapping then reads it at import).
void describePackedWeights(const ::onnx::GraphProto& graph, std::vector<WeightEntry>& entries) {
  std::map<std::string, const ::onnx::TensorProto*> tensors;
  for (const auto& t : graph.initializer()) tensors[t.name()] = &t;
  for (const auto& node : graph.node()) {
    if (node.op_type() != "Constant" || node.output_size() < 1 || !isDefaultDomain(node)) continue;
    if (const auto* a = findAttribute(node, "value")) tensors[node.output(0)] = &a->t();
  }
  // Names read by anything else: other inputs, subgraphs (at any depth), the graph's outputs.
  std::set<std::string> otherUses;
  std::function<void(const ::onnx::GraphProto&, bool)> walk = [&](const ::onnx::GraphProto& g,
                                                                  bool top) {
    for (const auto& node : g.node()) {
      const bool nBits = top && opKey(node) == "com.microsoft:MatMulNBits";
      for (int i = 0; i < node.input_size(); ++i) {
        if (!(nBits && i == 1)) otherUses.insert(node.input(i));
      }
      for (const auto& a : node.attribute()) {
        if (a.has_g()) walk(a.g(), false);
        for (const auto& sub : a.graphs()) walk(sub, false);
      }
    }
    for (const auto& output : g.output()) otherUses.insert(output.name());
  };
  walk(graph, true);
  std::map<std::string, std::optional<MLOperandDescriptor>> views;  // nullopt: no common view
  for (const auto& node : graph.node()) {
    if (opKey(node) != "com.microsoft:MatMulNBits" || node.input_size() < 2) continue;
    const std::string& name = node.input(1);
    auto t = tensors.find(name);
    if (name.empty() || otherUses.count(name) || t == tensors.end()) continue;
    const auto view = matMulNBitsPackedWeight(
        node, t->second->data_type(),
        std::vector<int64_t>(t->second->dims().begin(), t->second->dims().end()));
    auto [it, added] = views.emplace(name, view);
    if (!added && it->second != view) it->second = std::nullopt;
  }
  for (auto& entry : entries) {
    auto it = views.find(entry.info.name);
    if (it == views.end() || !it->second || !entry.info.supported) continue;
    if (it->second->byteLength() != entry.info.byteLength) continue;
    entry.info.dataType = it->second->dataType;
    entry.info.shape = it->second->shape;
  }
}

}  // namespace

namespace {

// "producer_name producer_version".
std::string producerOf(const ::onnx::ModelProto& model) {
  return model.producer_name() +
         (model.producer_version().empty() ? "" : " " + model.producer_version());
}

// Counts the MatMulNBits nodes of `graph` and of its nodes' subgraphs, and those that set
// accuracy_level 4.
void countBlockQuantizedMatMuls(const ::onnx::GraphProto& graph, ModelSummary& summary) {
  for (const auto& node : graph.node()) {
    if (node.op_type() == "MatMulNBits" && node.domain() == "com.microsoft") {
      ++summary.blockQuantizedMatMuls;
      for (const auto& attribute : node.attribute()) {
        if (attribute.name() == "accuracy_level" && attribute.i() == 4) {
          ++summary.int8AccuracyMatMuls;
        }
      }
    }
    for (const auto& attribute : node.attribute()) {
      if (attribute.has_g()) countBlockQuantizedMatMuls(attribute.g(), summary);
      for (const auto& subgraph : attribute.graphs()) countBlockQuantizedMatMuls(subgraph, summary);
    }
  }
}

}  // namespace

ModelSummary summarizeModel(const std::string& path, const ImportOptions& options) {
  StrippedModel stripped;
  const auto reader = options.reader ? options.reader : std::make_shared<FileReader>();
  uint64_t modelSize = 0;
  const ::onnx::ModelProto model = parseModel(path, stripped, *reader, modelSize);
  ModelSummary summary;
  summary.opsetVersion = defaultOpset(model, path);
  summary.producer = producerOf(model);
  countBlockQuantizedMatMuls(model.graph(), summary);
  return summary;
}

ImportedModel importModel(const std::string& path, MLGraphBuilder& builder,
                          const ImportOptions& options) {
  StrippedModel stripped;
  const auto reader = options.reader ? options.reader : std::make_shared<FileReader>();
  uint64_t modelSize = 0;
  const ::onnx::ModelProto model = parseModel(path, stripped, *reader, modelSize);
  const ::onnx::GraphProto& graph = model.graph();
  const int64_t opset = defaultOpset(model, path);
  checkSupport(graph, opset, path);

  // Weights: initializers and Constant-node tensors whose bytes lie in a file.
  std::map<std::string, uint64_t> sizes;
  sizes[path] = modelSize;
  std::vector<WeightEntry> entries;
  std::set<std::string> initializerNames;
  for (int i = 0; i < graph.initializer_size(); ++i) {
    const auto& t = graph.initializer(i);
    if (t.name().empty()) throwDataError(path, "initializer " + std::to_string(i) + " has no name");
    initializerNames.insert(t.name());
    auto it = stripped.initializers.find(i);
    if (auto entry = weightEntry(
            t, t.name(), it == stripped.initializers.end() ? nullptr : &it->second, path, sizes)) {
      entries.push_back(std::move(*entry));
    }
  }
  for (int n = 0; n < graph.node_size(); ++n) {
    const auto& node = graph.node(n);
    if (node.op_type() != "Constant" || node.output_size() < 1 ||
        !(node.domain().empty() || node.domain() == "ai.onnx"))
      continue;
    for (int a = 0; a < node.attribute_size(); ++a) {
      if (node.attribute(a).name() != "value") continue;
      auto it = stripped.attributeTensors.find({n, a});
      if (auto entry = weightEntry(node.attribute(a).t(), node.output(0),
                                   it == stripped.attributeTensors.end() ? nullptr : &it->second,
                                   path, sizes)) {
        entries.push_back(std::move(*entry));
      }
    }
  }
  describePackedWeights(graph, entries);
  checkWeightLimits(entries, options, path);
  ImportedModel result;
  result.weights = makeModelWeightSource(path, std::move(entries), reader);
  result.opsetVersion = opset;
  result.producer = producerOf(model);

  Context c(builder, opset, *result.weights, {options.maxTensorBytes, options.maxFoldedBytes});
  c.constantTensor = options.constantTensor;
  std::set<std::string> defined;
  for (int i = 0; i < graph.initializer_size(); ++i) {
    const auto& t = graph.initializer(i);
    Value v;
    v.onnxType = t.data_type();
    v.shape.assign(t.dims().begin(), t.dims().end());
    v.weight = result.weights->find(t.name());
    if (!v.weight) v.proto = &t;
    c.values[t.name()] = std::move(v);
    defined.insert(t.name());
  }
  std::vector<std::string> unknown;
  std::set<std::string> fixedUsed;
  for (const auto& input : graph.input()) {
    if (initializerNames.count(input.name())) continue;
    const int32_t type = input.type().tensor_type().elem_type();
    if (auto fixed = options.fixedInputs.find(input.name()); fixed != options.fixedInputs.end()) {
      c.values[input.name()] = fixedInputValue(input, fixed->second, c, options, path);
      defined.insert(input.name());
      fixedUsed.insert(input.name());
      continue;
    }
    const auto webnn = webnnType(type);
    if (!webnn)
      throwNotSupported(path + ": input " + quoteName(input.name()) + " has type " +
                        onnxTypeName(type));
    const auto shape = inputShape(input, options, unknown, path);
    const auto inputBytes = checked::byteLength(shape, bitsPerElement(*webnn) / 8);
    if (!inputBytes || *inputBytes > options.maxTensorBytes) {
      throwDataError(path, "input " + quoteName(input.name()) + " (" +
                               weights::shapeToString(shape) + ") is larger than the limit of " +
                               std::to_string(options.maxTensorBytes) +
                               " bytes of one tensor (ImportOptions::maxTensorBytes)");
    }
    if (std::find(shape.begin(), shape.end(), 0u) != shape.end()) {
      throwNotSupported(path + ": input " + quoteName(input.name()) + " " +
                        weights::shapeToString(shape) +
                        " is empty, which a WebNN operand cannot be; it is the graph input " +
                        quoteName(input.name()) + " (give its value: --fix-input " + input.name() +
                        "=FILE.npy, ImportOptions::fixedInputs)");
    }
    Value v;
    v.onnxType = type;
    v.graphInput = true;
    v.operand = builder.input(input.name(), {*webnn, shape});
    result.inputs.emplace_back(input.name(), v.operand->descriptor());
    c.values[input.name()] = std::move(v);
    defined.insert(input.name());
  }
  for (const auto& [name, fixed] : options.fixedInputs) {
    if (!fixedUsed.count(name)) {
      throwTypeError(path + ": --fix-input " + quoteName(name) + ": the model has no input " +
                     "of that name");
    }
  }
  if (!unknown.empty()) {
    std::string list;
    for (const auto& u : unknown) list += (list.empty() ? "" : ", ") + u;
    throwTypeError(
        path + ": dynamic dimensions need values (--dim NAME=VALUE or an input shape): " + list);
  }

  // Maps `g`'s nodes in dependency order: the model's graph, and an If's branch (ONNX names are
  // unique across a model and its subgraphs, so a branch's values join the same table).
  std::function<void(const ::onnx::GraphProto&)> importGraph;
  importGraph = [&](const ::onnx::GraphProto& g) {
    std::set<std::string> known;
    for (const auto& [name, value] : c.values) known.insert(name);
    if (&g != &graph) {
      for (const auto& t : g.initializer()) {
        Value v;
        v.onnxType = t.data_type();
        v.shape.assign(t.dims().begin(), t.dims().end());
        v.proto = &t;
        c.values[t.name()] = std::move(v);
        known.insert(t.name());
      }
    }
    for (int index : topologicalOrder(g, known, path)) importNode(c, g.node(index), result);
  };
  c.importSubgraph = [&](const ::onnx::GraphProto& g) {
    const ::onnx::NodeProto* outer = c.node;
    importGraph(g);
    c.node = outer;
  };
  importGraph(graph);

  for (const auto& output : graph.output()) {
    c.node = nullptr;
    if (!c.values.count(output.name()))
      throwDataError(path, "output " + quoteName(output.name()) + " is not computed by the graph");
    // A WebNN graph's outputs are results of operations: an output that is a constant (folded
    // at import: Shape, Size, Constant) or a graph input (Identity) goes through identity.
    MLOperand operand = c.operand(output.name());
    const bool isInput =
        std::any_of(result.inputs.begin(), result.inputs.end(),
                    [&](const auto& in) { return c.values.at(in.first).operand == operand; });
    if (operand.isConstant() || isInput) {
      operand = builder.identity(operand, {"output " + output.name()});
    }
    result.outputOperands[output.name()] = operand;
    result.outputs.emplace_back(output.name(), operand.descriptor());
  }
  result.weightBytes = c.weightBytes;
  result.weightCount = c.weightCount;
  return result;
}

}  // namespace webnn::onnx
