// The importer's state while it walks the graph: every ONNX value by name (a builder operand, a
// known value, or a weight not yet turned into a hollow constant), the node being mapped, and
// helpers the op mappings share (inputs, attributes, constants, errors naming the node).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "onnx/known.h"
#include "onnx/onnx_pb.h"
#include "webnn/graph_builder.h"
#include "webnn/weight_source.h"

namespace webnn::onnx_import {

struct Value {
  std::optional<MLOperand> operand;
  std::optional<Known> known;
  // A tensor whose bytes the WeightSource holds (becomes a hollow constant when used).
  const TensorInfo* weight = nullptr;
  // A tensor still in the parsed proto (not yet decoded).
  const ::onnx::TensorProto* proto = nullptr;
  int32_t onnxType = 0;
  std::vector<int64_t> shape;
  // A graph input (named in messages that ask for its value at import).
  bool graphInput = false;
  // The graph inputs an operand was computed from (the first few), for the same messages.
  std::vector<std::string> fromGraphInputs;
};

// ImportOptions' limits on what the import may hold in memory.
struct ImportLimits {
  uint64_t maxTensorBytes = UINT64_MAX;
  uint64_t maxFoldedBytes = UINT64_MAX;
};

class Context {
 public:
  Context(MLGraphBuilder& builder, int64_t opset, const WeightSource& source,
          ImportLimits limits = {})
      : builder(builder), opset(opset), source(source), limits(limits) {}

  MLGraphBuilder& builder;
  const int64_t opset;
  const WeightSource& source;
  std::unordered_map<std::string, Value> values;
  const ::onnx::NodeProto* node = nullptr;
  uint64_t weightBytes = 0;
  size_t weightCount = 0;
  const ImportLimits limits;
  // Bytes of known values held so far (8 per element), against limits.maxFoldedBytes.
  uint64_t foldedBytes = 0;
  // ImportOptions::constantTensor: the weights' constant tensors (empty: hollow constants).
  std::function<MLTensor(const std::string&, const MLOperandDescriptor&)> constantTensor;
  // Maps a subgraph's nodes into this graph (an If whose condition is known), then restores the
  // node being mapped. Set by the importer.
  std::function<void(const ::onnx::GraphProto&)> importSubgraph;

  // Every known value (folded or decoded) is reserved here before it is allocated: its element
  // count is computed with checked arithmetic and charged against the limits. Returns the count;
  // DataError naming the node, the shape and the limit otherwise.
  uint64_t reserveKnown(const std::vector<int64_t>& shape, const std::string& what = "the result");
  // The rank of input i, which must lie in [minRank, maxRank] (DataError naming the node).
  size_t requireRank(size_t i, size_t minRank, size_t maxRank, const char* what);

  // "Conv node 'name'" (or its first output when unnamed), for messages.
  std::string where() const;
  // The label given to builder calls: the node's name, else its first output.
  std::string label() const;
  [[noreturn]] void fail(const std::string& what) const;      // NotSupportedError
  [[noreturn]] void failData(const std::string& what) const;  // DataError

  // Node inputs: present when listed and non-empty.
  size_t inputCount() const { return static_cast<size_t>(node->input_size()); }
  bool hasInput(size_t i) const;
  MLOperand input(size_t i);
  // The operand for value `name` (creating hollow or classic constants on first use).
  MLOperand operand(const std::string& name);
  // The known value of input i (reading a small weight from the file when needed), or nullptr.
  const Known* known(size_t i, uint64_t limitBytes = 16u << 20);
  const Known& requireKnown(size_t i, const char* what);
  bool isSmallKnown(size_t i) const;
  std::vector<uint32_t> shape(size_t i);
  MLOperandDataType dataType(size_t i);
  size_t rank(size_t i) { return shape(i).size(); }
  int32_t onnxType(size_t i);

  // Node outputs.
  size_t outputCount() const { return static_cast<size_t>(node->output_size()); }
  bool wantsOutput(size_t i) const;
  void setOutput(size_t i, const MLOperand& operand);
  void setKnownOutput(size_t i, Known known);
  // The graph inputs the node's inputs come from (the first few), for an output's Value.
  std::vector<std::string> graphInputsOfInputs() const;

  // Attributes.
  const ::onnx::AttributeProto* attribute(const std::string& name) const;
  int64_t attrInt(const std::string& name, int64_t fallback) const;
  float attrFloat(const std::string& name, float fallback) const;
  std::string attrString(const std::string& name, const std::string& fallback) const;
  std::optional<std::vector<int64_t>> attrInts(const std::string& name) const;
  std::optional<std::vector<float>> attrFloats(const std::string& name) const;
  std::optional<std::vector<std::string>> attrStrings(const std::string& name) const;

  // Constants.
  MLOperand scalar(MLOperandDataType type, double value);
  MLOperand constant(const Known& known);

  // Axis helpers: a possibly negative ONNX axis normalized for `rank` (DataError when outside
  // [-rank, rank); a scalar has no axis).
  uint32_t axis(int64_t axis, size_t rank) const;

 private:
  Value& value(const std::string& name);
};

// Shapes.
std::vector<int64_t> toOnnxShape(const std::vector<uint32_t>& shape);
std::vector<uint32_t> toWebnnShape(const std::vector<int64_t>& shape, const Context& context);

}  // namespace webnn::onnx_import
