// Context: values, inputs, outputs, attributes and constants for the op mappings.
#include "onnx/context.h"

#include <algorithm>
#include <limits>

#include "core/checked_math.h"
#include "onnx/errors.h"

namespace webnn::onnx_import {

std::string Context::where() const {
  if (!node) return "the graph's outputs";
  std::string name = node->name();
  if (name.empty() && node->output_size() > 0) name = node->output(0);
  return node->op_type() + " node " + quoteName(name);
}

std::string Context::label() const {
  if (!node) return "output";
  if (!node->name().empty()) return node->name();
  return node->output_size() > 0 ? node->output(0) : node->op_type();
}

void Context::fail(const std::string& what) const {
  throwNotSupported(where() + ": " + what);
}

void Context::failData(const std::string& what) const {
  throw Error(Error::Kind::DataError, where() + ": " + what);
}

uint64_t Context::reserveKnown(const std::vector<int64_t>& shape, const std::string& what) {
  const auto count = checked::elementCount(shape);
  const auto bytes = count ? checked::mul<uint64_t>(*count, sizeof(int64_t)) : std::nullopt;
  std::string shapeText = "[";
  if (!count || !bytes || *bytes > limits.maxTensorBytes ||
      *bytes > limits.maxFoldedBytes - std::min(foldedBytes, limits.maxFoldedBytes)) {
    for (size_t i = 0; i < shape.size() && i < 16; ++i)
      shapeText += (i ? ", " : "") + std::to_string(shape[i]);
    shapeText += shape.size() > 16 ? ", ...]" : "]";
  }
  if (!count) failData(what + " has shape " + shapeText + ", whose element count overflows");
  if (!bytes || *bytes > limits.maxTensorBytes) {
    failData(what + " (shape " + shapeText + ", held at import as " + std::to_string(*count) +
             " 64-bit values) is larger than the limit of one tensor, " +
             std::to_string(limits.maxTensorBytes) + " bytes (ImportOptions::maxTensorBytes)");
  }
  if (*bytes > limits.maxFoldedBytes - std::min(foldedBytes, limits.maxFoldedBytes)) {
    failData(what + " (shape " + shapeText + ", " + std::to_string(*bytes) +
             " bytes at import) would take the values folded at import past the limit of " +
             std::to_string(limits.maxFoldedBytes) + " bytes (ImportOptions::maxFoldedBytes)");
  }
  foldedBytes += *bytes;
  return *count;
}

size_t Context::requireRank(size_t i, size_t minRank, size_t maxRank, const char* what) {
  const size_t r = rank(i);
  if (r < minRank || r > maxRank) {
    failData(std::string(what) + " (input " + std::to_string(i) + ") has rank " +
             std::to_string(r) + "; it needs " +
             (minRank == maxRank ? std::to_string(minRank)
                                 : std::to_string(minRank) + " to " + std::to_string(maxRank)));
  }
  return r;
}

Value& Context::value(const std::string& name) {
  auto it = values.find(name);
  if (it == values.end()) failData("input " + quoteName(name) + " is not defined");
  return it->second;
}

bool Context::hasInput(size_t i) const {
  return i < inputCount() && !node->input(static_cast<int>(i)).empty();
}

MLOperand Context::input(size_t i) {
  if (!hasInput(i)) failData("input " + std::to_string(i) + " is missing");
  return operand(node->input(static_cast<int>(i)));
}

MLOperand Context::operand(const std::string& name) {
  Value& v = value(name);
  if (v.operand) return *v.operand;
  // A weight of one element (the 3 and 6 of an exported hardSwish, an epsilon, a scale) is read at
  // import and becomes a classic constant: such values carry the graph's meaning, which backends
  // fold and fuse at build; streaming after build() is for the tensors that make a model big.
  if (v.weight && v.weight->byteLength <= 8 && checked::elementCount(v.shape) == uint64_t{1}) {
    reserveKnown(v.shape, "tensor " + quoteName(name));
    std::vector<std::byte> bytes(v.weight->byteLength);
    source.read(*v.weight, 0, bytes);
    v.known = decodeRaw(v.onnxType, v.shape, bytes, "tensor " + quoteName(name));
    v.weight = nullptr;
    v.operand = constant(*v.known);
    return *v.operand;
  }
  if (v.weight) {
    const auto type = webnnType(v.onnxType);
    if (!type) {
      fail("weight " + quoteName(name) + " has ONNX type " + onnxTypeName(v.onnxType) +
           ", which WebNN has no type for");
    }
    // The weight's own description: the ONNX tensor's, except where a mapping reads its bytes as
    // another type (a 4-bit MatMulNBits' B, described as uint4 before the walk).
    v.operand = constantTensor
                    ? builder.constant(constantTensor(name, v.weight->descriptor()))
                    : builder.constant(v.weight->descriptor(), MLConstantOptions{name});
    weightBytes += v.weight->byteLength;
    ++weightCount;
    return *v.operand;
  }
  const Known* k = nullptr;
  if (v.known) {
    k = &*v.known;
  } else if (v.proto) {
    reserveKnown(v.shape, "tensor " + quoteName(name));
    v.known = decodeTensor(*v.proto, nullptr, "tensor " + quoteName(name));
    k = &*v.known;
  }
  if (!k) failData("value " + quoteName(name) + " has neither an operand nor data");
  v.operand = constant(*k);
  return *v.operand;
}

const Known* Context::known(size_t i, uint64_t limitBytes) {
  if (!hasInput(i)) return nullptr;
  const std::string& name = node->input(static_cast<int>(i));
  Value& v = value(name);
  if (v.known) return &*v.known;
  if (v.proto) {
    reserveKnown(v.shape, "tensor " + quoteName(name));
    v.known = decodeTensor(*v.proto, nullptr, "tensor " + quoteName(name));
    return &*v.known;
  }
  if (v.weight && v.weight->byteLength <= limitBytes) {
    reserveKnown(v.shape, "tensor " + quoteName(name));
    std::vector<std::byte> bytes(v.weight->byteLength);
    source.read(*v.weight, 0, bytes);
    v.known = decodeRaw(v.onnxType, v.shape, bytes, "tensor " + quoteName(name));
    return &*v.known;
  }
  return nullptr;
}

const Known& Context::requireKnown(size_t i, const char* what) {
  const Known* k = known(i);
  if (k) return *k;
  const std::string missing = std::string(what) + " (input " + std::to_string(i) + ")";
  if (!hasInput(i)) fail(missing + " is required");
  const std::string& name = node->input(static_cast<int>(i));
  if (auto it = values.find(name); it != values.end() && it->second.graphInput) {
    fail(missing + " must be a constant known at import; it is the graph input " + quoteName(name) +
         " (give its value: --fix-input " + name + "=FILE.npy, ImportOptions::fixedInputs)");
  }
  if (auto it = values.find(name); it != values.end() && !it->second.fromGraphInputs.empty()) {
    const auto& from = it->second.fromGraphInputs;
    std::string list;
    for (const auto& input : from) list += (list.empty() ? "" : ", ") + quoteName(input);
    fail(missing + " must be a constant known at import; it is computed from the graph input " +
         list + " (give its value: --fix-input " + from.front() +
         "=FILE.npy, ImportOptions::fixedInputs)");
  }
  fail(missing + " must be a constant known at import (computed from shapes and constants)");
}

bool Context::isSmallKnown(size_t i) const {
  constexpr uint64_t kSmallElements = 1u << 16;
  if (!hasInput(i)) return true;
  auto it = values.find(node->input(static_cast<int>(i)));
  if (it == values.end()) return false;
  const Value& v = it->second;
  if (v.known) return v.known->size() <= kSmallElements;
  if (v.operand) return false;
  if (v.proto || v.weight) {
    const auto n = shapeElements(v.shape);
    return n && *n <= kSmallElements;
  }
  return false;
}

std::vector<uint32_t> Context::shape(size_t i) {
  if (!hasInput(i)) failData("input " + std::to_string(i) + " is missing");
  Value& v = value(node->input(static_cast<int>(i)));
  if (v.operand) return v.operand->shape();
  if (v.known) return toWebnnShape(v.known->shape, *this);
  return toWebnnShape(v.shape, *this);
}

int32_t Context::onnxType(size_t i) {
  if (!hasInput(i)) failData("input " + std::to_string(i) + " is missing");
  Value& v = value(node->input(static_cast<int>(i)));
  if (v.known) return v.known->type;
  if (v.operand && !v.onnxType) {
    switch (v.operand->dataType()) {
      case MLOperandDataType::Float32:
        return kFloat;
      case MLOperandDataType::Float16:
        return kFloat16;
      case MLOperandDataType::Int32:
        return kInt32;
      case MLOperandDataType::Uint32:
        return kUint32;
      case MLOperandDataType::Int64:
        return kInt64;
      case MLOperandDataType::Uint64:
        return kUint64;
      case MLOperandDataType::Int8:
        return kInt8;
      default:
        return kUint8;
    }
  }
  return v.onnxType;
}

MLOperandDataType Context::dataType(size_t i) {
  const auto type = webnnType(onnxType(i));
  if (!type)
    fail("input " + std::to_string(i) + " has unsupported type " + onnxTypeName(onnxType(i)));
  return *type;
}

bool Context::wantsOutput(size_t i) const {
  return i < outputCount() && !node->output(static_cast<int>(i)).empty();
}

std::vector<std::string> Context::graphInputsOfInputs() const {
  constexpr size_t kMaxNamed = 4;  // enough to tell the user what to fix
  std::vector<std::string> names;
  for (const auto& name : node->input()) {
    auto it = values.find(name);
    if (name.empty() || it == values.end()) continue;
    const Value& v = it->second;
    if (v.graphInput) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    for (const auto& from : v.fromGraphInputs) {
      if (std::find(names.begin(), names.end(), from) == names.end()) names.push_back(from);
    }
    if (names.size() >= kMaxNamed) break;
  }
  if (names.size() > kMaxNamed) names.resize(kMaxNamed);
  return names;
}

void Context::setOutput(size_t i, const MLOperand& operand) {
  if (!wantsOutput(i)) return;
  Value v;
  v.operand = operand;
  v.fromGraphInputs = graphInputsOfInputs();
  values[node->output(static_cast<int>(i))] = std::move(v);
}

void Context::setKnownOutput(size_t i, Known known) {
  // Every known value holds exactly the elements its shape has (what folding relies on).
  const auto count = checked::elementCount(known.shape);
  if (!count || *count != known.size()) {
    failData("the folded result holds " + std::to_string(known.size()) + " values for a shape of " +
             (count ? std::to_string(*count) : "too many") + " elements");
  }
  if (!wantsOutput(i)) return;
  Value v;
  v.onnxType = known.type;
  v.shape = known.shape;
  v.known = std::move(known);
  values[node->output(static_cast<int>(i))] = std::move(v);
}

const ::onnx::AttributeProto* Context::attribute(const std::string& name) const {
  for (const auto& a : node->attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

int64_t Context::attrInt(const std::string& name, int64_t fallback) const {
  const auto* a = attribute(name);
  return a ? a->i() : fallback;
}

float Context::attrFloat(const std::string& name, float fallback) const {
  const auto* a = attribute(name);
  return a ? a->f() : fallback;
}

std::string Context::attrString(const std::string& name, const std::string& fallback) const {
  const auto* a = attribute(name);
  return a ? a->s() : fallback;
}

std::optional<std::vector<int64_t>> Context::attrInts(const std::string& name) const {
  const auto* a = attribute(name);
  if (!a) return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<std::vector<float>> Context::attrFloats(const std::string& name) const {
  const auto* a = attribute(name);
  if (!a) return std::nullopt;
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

std::optional<std::vector<std::string>> Context::attrStrings(const std::string& name) const {
  const auto* a = attribute(name);
  if (!a) return std::nullopt;
  return std::vector<std::string>(a->strings().begin(), a->strings().end());
}

MLOperand Context::scalar(MLOperandDataType type, double value) {
  return builder.constant(type, value);
}

MLOperand Context::constant(const Known& known) {
  const auto type = webnnType(known.type);
  if (!type) fail("a constant of ONNX type " + onnxTypeName(known.type) + " has no WebNN type");
  const auto bytes = encode(known, *type);
  return builder.constant(MLOperandDescriptor{*type, toWebnnShape(known.shape, *this)}, bytes);
}

uint32_t Context::axis(int64_t axis, size_t rank) const {
  const auto r = static_cast<int64_t>(rank);
  if (r == 0) failData("axis " + std::to_string(axis) + " is given for a scalar, which has none");
  if (axis < -r || axis >= r) {
    failData("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return static_cast<uint32_t>(axis < 0 ? axis + r : axis);
}

std::vector<int64_t> toOnnxShape(const std::vector<uint32_t>& shape) {
  return std::vector<int64_t>(shape.begin(), shape.end());
}

std::vector<uint32_t> toWebnnShape(const std::vector<int64_t>& shape, const Context& context) {
  std::vector<uint32_t> out;
  out.reserve(shape.size());
  for (int64_t d : shape) {
    if (d < 0 || d > std::numeric_limits<uint32_t>::max()) {
      context.failData("dimension " + std::to_string(d) + " is out of range");
    }
    out.push_back(static_cast<uint32_t>(d));
  }
  return out;
}

}  // namespace webnn::onnx_import
