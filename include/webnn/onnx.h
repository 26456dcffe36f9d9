// The ONNX importer: turns an ONNX model into MLGraphBuilder calls. Every weight (initializer, or
// large Constant node tensor) becomes a hollow constant labelled with its ONNX name; the returned
// WeightSource streams its bytes from the model file (embedded raw_data) or from its external data
// file, so that MLGraph::loadConstants copies each weight byte once. Available when the library
// was built with libonnx (WEBNN_HAVE_ONNX).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "webnn/export.h"
#include "webnn/graph_builder.h"
#include "webnn/operand.h"
#include "webnn/types.h"
#include "webnn/weight_source.h"

namespace webnn::onnx {

struct ImportOptions {
  // The full shape of a graph input, by input name (fixes its dynamic dimensions).
  std::map<std::string, std::vector<uint32_t>> inputShapes{};
  // Values of symbolic dimensions (an input's dim_param), by name.
  std::map<std::string, uint32_t> dimensions{};
  // Graph inputs given their value at import (`webnn run --fix-input`): each becomes a constant
  // of the graph, no longer an input, so what depends on it alone folds (a shape, axes, an If's
  // condition, a sample rate). The descriptor must match the input's type and fixed dimensions;
  // `bytes` holds its elements (little-endian, bool as uint8).
  struct FixedInput {
    MLOperandDescriptor descriptor{};
    std::vector<std::byte> bytes{};
  };
  std::map<std::string, FixedInput> fixedInputs{};
  // Weights read from constant tensors rather than the graph's own hollow constants: called with
  // each weight's name and descriptor, it returns the tensor the graph reads (a new one,
  // MLContext::createConstantTensor(descriptor, {name}), or the one an earlier import of the same
  // model made, so that graphs of several input shapes read one copy: `webnn run --shapes`). Fill
  // them once, e.g. MLContext::loadConstants(tensors, *imported.weights).
  std::function<MLTensor(const std::string& name, const MLOperandDescriptor& descriptor)>
      constantTensor{};
  // Where every byte of the model and its external data is read (tests inject faults).
  std::shared_ptr<FileReader> reader{};

  // Limits on what an untrusted model may make the importer allocate, checked before anything
  // is allocated; exceeding one throws DataError naming the tensor and the limit.
  // Bytes of one tensor: a weight, a graph input, or a value folded at import.
  uint64_t maxTensorBytes = uint64_t{16} << 30;
  // Bytes of every value folded at import together (held as 64-bit numbers: 8 bytes an element).
  uint64_t maxFoldedBytes = uint64_t{256} << 20;
  // Bytes of all the weights the model declares (initializers and Constant tensors in files).
  uint64_t maxWeightBytes = uint64_t{1} << 40;
};

struct ImportedModel {
  // Graph inputs and outputs, in the model's order, with their (fixed) descriptors.
  std::vector<std::pair<std::string, MLOperandDescriptor>> inputs{};
  std::vector<std::pair<std::string, MLOperandDescriptor>> outputs{};
  // What MLGraphBuilder::build() takes.
  MLNamedOperands outputOperands{};
  // The bytes of every hollow constant, by label.
  std::unique_ptr<WeightSource> weights{};
  // Bytes of the weights the graph uses (hollow constants), and how many there are.
  uint64_t weightBytes = 0;
  size_t weightCount = 0;
  // Nodes mapped to builder calls, and nodes folded to constants at import.
  size_t nodeCount = 0;
  size_t foldedNodeCount = 0;
  int64_t opsetVersion = 0;
  std::string producer{};
};

// What a model asks of the runtime, read from its structure alone (no weight byte, nothing
// built): for a caller to choose its context's options before it imports the model.
struct ModelSummary {
  int64_t opsetVersion = 0;
  std::string producer{};
  // com.microsoft MatMulNBits nodes (in the graph and its subgraphs), and how many of them set
  // accuracy_level 4: int8 compute allowed, where ONNX Runtime multiplies int8-quantized
  // activations with the 4-bit weights.
  size_t blockQuantizedMatMuls = 0;
  size_t int8AccuracyMatMuls = 0;
  // Every MatMulNBits node allows int8 activations (MLContextOptions::
  // blockQuantizedInt8Activations computes them so, as ONNX Runtime does for such a model).
  bool allowsInt8Activations() const {
    return blockQuantizedMatMuls > 0 && int8AccuracyMatMuls == blockQuantizedMatMuls;
  }
};

// Parses `path` as importModel does (DataError for a malformed file) and summarizes it.
WEBNN_EXPORT ModelSummary summarizeModel(const std::string& path,
                                         const ImportOptions& options = {});

// Parses `path`, checks that every op and attribute is supported (one NotSupportedError listing
// every unsupported op type with its count otherwise, before any weight byte is read), then calls
// `builder` for every node. Throws webnn::Error: DataError for malformed or inconsistent files
// (truncated protobuf, data outside its file, size mismatches, cycles, missing inputs),
// NotSupportedError for what the importer cannot map, TypeError for unknown dimensions.
WEBNN_EXPORT ImportedModel importModel(const std::string& path, MLGraphBuilder& builder,
                                       const ImportOptions& options = {});

}  // namespace webnn::onnx
