#include "backends/cpu/fusion.h"

#include "backends/cpu/op_table.h"
#include "graph/ops/quantization.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace webnn::cpu {
namespace {

constexpr size_t kMaxPostOps = 8;

bool isFloat32(const graph::GraphIR& ir, graph::OperandId id) {
  return ir.descriptor(id).dataType == MLOperandDataType::Float32;
}

bool isAnchor(const graph::GraphIR& ir, const graph::Operation& operation) {
  if (cpuOpEntry(operation.type).fusion != FusionRole::Anchor) return false;
  for (graph::OperandId id : operation.inputs) {
    if (!isFloat32(ir, id)) return false;
  }
  return isFloat32(ir, operation.outputs[0]);
}

bool isConstant(const graph::GraphIR& ir, graph::OperandId id) {
  const auto kind = ir.operand(id).kind;
  return kind == graph::OperandKind::Constant || kind == graph::OperandKind::HollowConstant;
}

// The value of a classic float32 constant of one element (any shape of 1s).
std::optional<double> scalarConstant(const graph::GraphIR& ir, graph::OperandId id) {
  const detail::OperandNode& operand = ir.operand(id);
  if (operand.kind != graph::OperandKind::Constant || !operand.data) return std::nullopt;
  if (operand.descriptor.dataType != MLOperandDataType::Float32) return std::nullopt;
  if (operand.descriptor.elementCount() != 1 || operand.data->size() != 4) return std::nullopt;
  float value;
  std::memcpy(&value, operand.data->data(), 4);
  return value;
}

// The post-op of `next` reading `value`, if it can be one.
std::optional<std::vector<FusedPostOp>> postOpsOf(const graph::GraphIR& ir,
                                                  const graph::Operation& next,
                                                  graph::OperandId value) {
  using graph::OpType;
  if (cpuOpEntry(next.type).fusion != FusionRole::PostOp) return std::nullopt;
  if (next.outputs.size() != 1 || !isFloat32(ir, next.outputs[0])) return std::nullopt;
  if (ir.descriptor(next.outputs[0]).shape != ir.descriptor(value).shape) return std::nullopt;
  if (next.inputs.size() == 1) {
    std::vector<FusedPostOp> postOps;
    for (const EltwiseFunction& function : eltwiseFunctionsOf(next, true)) {
      postOps.push_back({.kind = FusedPostOp::Kind::Eltwise,
                         .algorithm = function.kind,
                         .alpha = function.alpha,
                         .beta = function.beta});
    }
    if (postOps.empty()) return std::nullopt;
    return postOps;
  }
  if (next.inputs.size() != 2) return std::nullopt;
  dnnl::algorithm algorithm;
  bool commutative = false;
  switch (next.type) {
    case OpType::Add:
      algorithm = dnnl::algorithm::binary_add, commutative = true;
      break;
    case OpType::Mul:
      algorithm = dnnl::algorithm::binary_mul, commutative = true;
      break;
    case OpType::Sub:
      algorithm = dnnl::algorithm::binary_sub;
      break;
    case OpType::Div:
      algorithm = dnnl::algorithm::binary_div;
      break;
    default:
      return std::nullopt;
  }
  graph::OperandId other;
  if (next.inputs[0] == value && next.inputs[1] != value) {
    other = next.inputs[1];
  } else if (commutative && next.inputs[1] == value && next.inputs[0] != value) {
    other = next.inputs[0];
  } else {
    return std::nullopt;
  }
  if (!isFloat32(ir, other)) return std::nullopt;
  // A classic scalar constant multiplied or added: an element-wise linear post-op (no operand
  // to read, and no binary post-op, which keeps a strided destination open to the matmul).
  if (const auto scalar = scalarConstant(ir, other);
      scalar && (next.type == OpType::Mul || next.type == OpType::Add)) {
    const bool multiply = next.type == OpType::Mul;
    return std::vector<FusedPostOp>{{.kind = FusedPostOp::Kind::Eltwise,
                                     .algorithm = dnnl::algorithm::eltwise_linear,
                                     .alpha = multiply ? static_cast<float>(*scalar) : 1.0f,
                                     .beta = multiply ? 0.0f : static_cast<float>(*scalar),
                                     .other = other,
                                     .binaryForm = algorithm}};
  }
  return std::vector<FusedPostOp>{
      {.kind = FusedPostOp::Kind::Binary, .algorithm = algorithm, .other = other}};
}

bool isScalar(const graph::GraphIR& ir, graph::OperandId id, double expected) {
  const auto value = scalarConstant(ir, id);
  return value && std::abs(*value - expected) <= 1e-6 * std::abs(expected);
}

// The only consumer of `id` when it has one and is not a graph output.
const graph::Operation* soleConsumer(const graph::GraphIR& ir, graph::OperandId id,
                                     std::vector<uint32_t>& operations) {
  if (ir.isGraphOutput(id)) return nullptr;
  const auto consumers = ir.consumersOf(id);
  if (consumers.size() != 1) return nullptr;
  operations.push_back(consumers[0]);
  return &ir.operations[consumers[0]];
}

// The operand of binary `operation` that is not `value`, when the other one is.
std::optional<graph::OperandId> otherInput(const graph::Operation& operation,
                                           graph::OperandId value) {
  if (operation.inputs.size() != 2) return std::nullopt;
  if (operation.inputs[0] == value && operation.inputs[1] != value) return operation.inputs[1];
  if (operation.inputs[1] == value && operation.inputs[0] != value) return operation.inputs[0];
  return std::nullopt;
}

// hardSwish written out, as exporters do: x * clamp(x + 3, 0, 6) / 6 (the division before or
// after the product, or a multiplication by 1/6). Returns the operations and the result.
std::optional<std::pair<std::vector<uint32_t>, graph::OperandId>> hardSwishPattern(
    const graph::GraphIR& ir, graph::OperandId x) {
  using graph::OpType;
  if (ir.isGraphOutput(x)) return std::nullopt;
  const auto consumers = ir.consumersOf(x);
  if (consumers.size() != 2) return std::nullopt;
  auto isSixth = [&](const graph::Operation& operation, graph::OperandId value) {
    const auto other = otherInput(operation, value);
    if (!other) return false;
    if (operation.type == OpType::Div)
      return operation.inputs[0] == value && isScalar(ir, *other, 6);
    return operation.type == OpType::Mul && isScalar(ir, *other, 1.0 / 6.0);
  };
  for (int first = 0; first < 2; ++first) {
    std::vector<uint32_t> operations{consumers[first]};
    const graph::Operation& add = ir.operations[consumers[first]];
    const uint32_t productIndex = consumers[1 - first];
    const graph::Operation& product = ir.operations[productIndex];
    const auto three = otherInput(add, x);
    if (add.type != OpType::Add || !three || !isScalar(ir, *three, 3)) continue;
    const graph::Operation* clamp = soleConsumer(ir, add.outputs[0], operations);
    if (!clamp || clamp->type != OpType::Clamp) continue;
    const auto& bounds = clamp->attributesAs<graph::ClampAttributes>();
    if (bounds.minValue.toDouble() != 0 || bounds.maxValue.toDouble() != 6) continue;
    const graph::OperandId clamped = clamp->outputs[0];
    const graph::Operation* next = soleConsumer(ir, clamped, operations);
    if (!next) continue;
    graph::OperandId result;
    if (next == &product) {  // (x * clamp) / 6
      if (product.type != OpType::Mul || otherInput(product, x) != clamped) continue;
      const graph::Operation* sixth = soleConsumer(ir, product.outputs[0], operations);
      if (!sixth || !isSixth(*sixth, product.outputs[0])) continue;
      result = sixth->outputs[0];
    } else {  // x * (clamp / 6)
      if (!isSixth(*next, clamped)) continue;
      const graph::Operation* multiply = soleConsumer(ir, next->outputs[0], operations);
      if (multiply != &product || product.type != OpType::Mul ||
          otherInput(product, x) != next->outputs[0]) {
        continue;
      }
      result = product.outputs[0];
    }
    if (std::find(operations.begin(), operations.end(), productIndex) == operations.end()) {
      operations.push_back(productIndex);
    }
    std::sort(operations.begin(), operations.end());
    return std::make_pair(operations, result);
  }
  return std::nullopt;
}

// batchNormalization over channels (axis 1) with constant statistics, after a 4-D value.
std::optional<FusedPostOp> batchNormalizationPostOp(const graph::GraphIR& ir,
                                                    const graph::Operation& next,
                                                    graph::OperandId value) {
  if (next.type != graph::OpType::BatchNormalization || next.inputs[0] != value) {
    return std::nullopt;
  }
  const auto& attributes = next.attributesAs<graph::BatchNormalizationAttributes>();
  if (attributes.axis != 1 || ir.descriptor(value).shape.size() != 4) return std::nullopt;
  FusedPostOp postOp{.kind = FusedPostOp::Kind::BatchNormalization,
                     .alpha = static_cast<float>(attributes.epsilon),
                     .other = next.inputs[1]};
  postOp.variance = next.inputs[2];
  postOp.scale = attributes.scale;
  postOp.bias = attributes.bias;
  for (auto id :
       {std::optional(postOp.other), std::optional(postOp.variance), postOp.scale, postOp.bias}) {
    if (id && (!isConstant(ir, *id) || !isFloat32(ir, *id))) return std::nullopt;
  }
  return postOp;
}

bool isLinear(const FusedPostOp& postOp) {
  return postOp.kind == FusedPostOp::Kind::Eltwise &&
         postOp.algorithm == dnnl::algorithm::eltwise_linear;
}

// Appends `next` to `postOps`, unless it would make a second element-wise linear post-op:
// oneDNN 2.6's matmul runs two of them wrong (the second with the first's parameters, mixed).
// A linear right after a linear is merged into it: a2 (a1 x + b1) + b2; one after other post-ops
// becomes the binary post-op of its scalar constant when it was made from one (a learnable affine
// block after an activation: mul and add by scalars).
bool appendPostOps(std::vector<FusedPostOp>& postOps, const std::vector<FusedPostOp>& next) {
  std::vector<FusedPostOp> result = postOps;
  for (const FusedPostOp& postOp : next) {
    const bool linearBefore = std::any_of(result.begin(), result.end(), isLinear);
    if (!isLinear(postOp) || !linearBefore) {
      result.push_back(postOp);
      continue;
    }
    if (!isLinear(result.back())) {
      if (postOp.binaryForm == dnnl::algorithm::undef) return false;
      result.push_back({.kind = FusedPostOp::Kind::Binary,
                        .algorithm = postOp.binaryForm,
                        .other = postOp.other});
      continue;
    }
    FusedPostOp& last = result.back();
    last.beta = postOp.alpha * last.beta + postOp.beta;
    last.alpha = postOp.alpha * last.alpha;
  }
  postOps = std::move(result);
  return true;
}

// The operation producing `value` when `reader` alone reads it and it is not a graph output.
const graph::Operation* soleProducerFor(const graph::GraphIR& ir, graph::OperandId value,
                                        size_t reader, size_t& index) {
  const int32_t producer = ir.uses.producer[value];
  if (producer < 0 || ir.isGraphOutput(value)) return nullptr;
  const auto consumers = ir.consumersOf(value);
  if (consumers.size() != 1 || consumers[0] != reader) return nullptr;
  index = static_cast<size_t>(producer);
  return &ir.operations[index];
}

// The dequantizeLinear producing `value` when the anchor at `anchor` is its only reader.
const graph::Operation* soleDequantizer(const graph::GraphIR& ir, graph::OperandId value,
                                        size_t anchor, size_t& index) {
  size_t at = 0;
  const graph::Operation* operation = soleProducerFor(ir, value, anchor, at);
  if (!operation || operation->type != graph::OpType::DequantizeLinear) return nullptr;
  index = at;
  return operation;
}

// The constant whose bytes `id` holds: `id` itself, or the constant it is a reshape of (an
// importer lays a per-axis scale out as [O, 1, 1, 1] with a reshape).
std::optional<graph::OperandId> constantBehindReshapes(const graph::GraphIR& ir,
                                                       graph::OperandId id) {
  for (int depth = 0; depth < 4; ++depth) {
    if (isConstant(ir, id)) return id;
    const graph::Operation* producer = ir.producerOf(id);
    if (!producer || producer->type != graph::OpType::Reshape) return std::nullopt;
    id = producer->inputs[0];
  }
  return std::nullopt;
}

// The reshapes between `value` and the constant behind it that `reader` alone reads, one after
// the other (each the sole reader of the one before): appended to `reshapes`.
void appendSoleReshapes(const graph::GraphIR& ir, graph::OperandId value, size_t reader,
                        std::vector<size_t>& reshapes) {
  size_t at = 0;
  const graph::Operation* reshape = soleProducerFor(ir, value, reader, at);
  while (reshape && reshape->type == graph::OpType::Reshape) {
    reshapes.push_back(at);
    reader = at;
    reshape = soleProducerFor(ir, reshape->inputs[0], reader, at);
  }
}

// Element `index` of classic constant bytes of 4- or 8-bit integers (4 bits: low nibble first).
int32_t smallIntegerAt(const std::vector<std::byte>& bytes, uint64_t index,
                       MLOperandDataType type) {
  using T = MLOperandDataType;
  if (type == T::Int8) return static_cast<int8_t>(bytes[index]);
  if (type == T::Uint8) return static_cast<uint8_t>(bytes[index]);
  const uint32_t nibble = (static_cast<uint8_t>(bytes[index / 2]) >> ((index % 2) * 4)) & 0xF;
  return type == T::Int4 ? static_cast<int32_t>(nibble ^ 8) - 8 : static_cast<int32_t>(nibble);
}

// The one value every element of `value` (int4, uint4, int8 or uint8) has, when the graph says it
// at build: a classic constant whose elements are all equal, or an expand of a classic constant
// of one element, with reshapes anywhere between. The operations between `value` and the constant
// that `reader` alone reads (each link read by the next alone) are appended to `operations`.
std::optional<int32_t> uniformSmallIntegerOf(const graph::GraphIR& ir, graph::OperandId value,
                                             size_t reader, std::vector<size_t>& operations) {
  using T = MLOperandDataType;
  const MLOperandDataType type = ir.descriptor(value).dataType;
  if (type != T::Int4 && type != T::Uint4 && type != T::Int8 && type != T::Uint8) {
    return std::nullopt;
  }
  graph::OperandId id = value;
  bool expanded = false;
  for (int depth = 0; depth < 6 && !isConstant(ir, id); ++depth) {
    const graph::Operation* producer = ir.producerOf(id);
    if (!producer) return std::nullopt;
    if (producer->type == graph::OpType::Expand && !expanded) {
      expanded = true;
    } else if (producer->type != graph::OpType::Reshape) {
      return std::nullopt;
    }
    id = producer->inputs[0];
  }
  const detail::OperandNode& constant = ir.operand(id);
  if (constant.kind != graph::OperandKind::Constant || !constant.data) return std::nullopt;
  const uint64_t count = constant.descriptor.elementCount();
  if (count == 0 || (expanded && count != 1)) return std::nullopt;
  const int32_t first = smallIntegerAt(*constant.data, 0, type);
  for (uint64_t i = 1; i < count; ++i) {
    if (smallIntegerAt(*constant.data, i, type) != first) return std::nullopt;
  }
  size_t at = 0;
  const graph::Operation* link = soleProducerFor(ir, value, reader, at);
  while (link && (link->type == graph::OpType::Reshape || link->type == graph::OpType::Expand)) {
    operations.push_back(at);
    reader = at;
    link = soleProducerFor(ir, link->inputs[0], reader, at);
  }
  return first;
}

// The constant behind `value` = cast(constant, float32), possibly reshaped before or after the
// cast, every link read by the next one alone (the first by `reader`): the links are appended to
// `operations`. The compiler sees float16 graphs widened (widen_float16.h): a float16 constant
// cast to float32 (GGUF's q4_0 scales as a graph reads them) is a float32 constant whose bytes
// arrive as float16, behind a cast from float32 to float32.
std::optional<graph::OperandId> constantCastBehind(const graph::GraphIR& ir, graph::OperandId value,
                                                   size_t reader, std::vector<size_t>& operations) {
  std::vector<size_t> links;
  bool cast = false;
  for (int depth = 0; depth < 6; ++depth) {
    if (isConstant(ir, value)) {
      if (!cast || !isFloat32(ir, value)) break;
      operations.insert(operations.end(), links.begin(), links.end());
      return value;
    }
    size_t at = 0;
    const graph::Operation* producer = soleProducerFor(ir, value, reader, at);
    if (!producer) break;
    if (producer->type == graph::OpType::Cast && !cast && isFloat32(ir, producer->inputs[0]) &&
        isFloat32(ir, producer->outputs[0])) {
      cast = true;
    } else if (producer->type != graph::OpType::Reshape) {
      break;
    }
    links.push_back(at);
    reader = at;
    value = producer->inputs[0];
  }
  return std::nullopt;
}

bool hasOneElement(const graph::GraphIR& ir, graph::OperandId id) {
  return ir.descriptor(id).elementCount() == 1;
}

// `operation`'s input 0 and 1 from dequantizeLinear operations it alone reads: a uint8 / int8
// input with one classic scale and zero point, and int8 constant weights whose scale and zero
// point (constants, possibly reshaped) have one element or `channels` elements laid out along
// `channelAxis` of the weights (size 1 elsewhere).
std::optional<QuantizedOperands> quantizedOperandsOf(const graph::GraphIR& ir,
                                                     const graph::Operation& operation,
                                                     size_t index, size_t channelAxis) {
  using T = MLOperandDataType;
  QuantizedOperands q;
  const graph::Operation* input =
      soleDequantizer(ir, operation.inputs[0], index, q.inputDequantize);
  const graph::Operation* weights =
      soleDequantizer(ir, operation.inputs[1], index, q.weightsDequantize);
  if (!input || !weights) return std::nullopt;
  q.input = input->inputs[0], q.inputScale = input->inputs[1], q.inputZeroPoint = input->inputs[2];
  const T inputType = ir.descriptor(q.input).dataType;
  if (inputType != T::Uint8 && inputType != T::Int8) return std::nullopt;
  // The input's scale and zero point: known now (classic constants of one element).
  for (graph::OperandId id : {q.inputScale, q.inputZeroPoint}) {
    if (ir.operand(id).kind != graph::OperandKind::Constant || !ir.operand(id).data ||
        !hasOneElement(ir, id)) {
      return std::nullopt;
    }
  }
  if (!isFloat32(ir, q.inputScale)) return std::nullopt;
  q.weights = weights->inputs[0];
  if (!isConstant(ir, q.weights) || ir.descriptor(q.weights).dataType != T::Int8) {
    return std::nullopt;
  }
  const auto scale = constantBehindReshapes(ir, weights->inputs[1]);
  const auto zeroPoint = constantBehindReshapes(ir, weights->inputs[2]);
  if (!scale || !zeroPoint || !isFloat32(ir, *scale) ||
      ir.descriptor(*zeroPoint).dataType != T::Int8) {
    return std::nullopt;
  }
  q.weightsScale = *scale, q.weightsZeroPoint = *zeroPoint;
  appendSoleReshapes(ir, weights->inputs[1], q.weightsDequantize, q.reshapes);
  appendSoleReshapes(ir, weights->inputs[2], q.weightsDequantize, q.reshapes);
  // One scale for the weights, or one per output channel.
  const auto& weightsShape = ir.descriptor(q.weights).shape;
  const auto& scaleShape = ir.descriptor(weights->inputs[1]).shape;
  bool perChannel = scaleShape.size() == weightsShape.size();
  for (size_t d = 0; perChannel && d < scaleShape.size(); ++d) {
    perChannel = scaleShape[d] == (d == channelAxis ? weightsShape[d] : 1u);
  }
  if (!perChannel && !hasOneElement(ir, q.weightsScale)) return std::nullopt;
  if (ir.descriptor(q.weightsZeroPoint).elementCount() !=
      ir.descriptor(q.weightsScale).elementCount()) {
    return std::nullopt;
  }
  return q;
}

// quantizeLinear(value) into uint8 with one classic scale and zero point.
std::optional<QuantizedOutput> quantizedOutputOf(const graph::GraphIR& ir,
                                                 const graph::Operation& next,
                                                 graph::OperandId value) {
  if (next.type != graph::OpType::QuantizeLinear || next.inputs[0] != value) return std::nullopt;
  if (ir.descriptor(next.outputs[0]).dataType != MLOperandDataType::Uint8) return std::nullopt;
  for (graph::OperandId id : {next.inputs[1], next.inputs[2]}) {
    if (ir.operand(id).kind != graph::OperandKind::Constant || !ir.operand(id).data ||
        !hasOneElement(ir, id)) {
      return std::nullopt;
    }
  }
  if (!isFloat32(ir, next.inputs[1])) return std::nullopt;
  return QuantizedOutput{.scale = next.inputs[1], .zeroPoint = next.inputs[2]};
}

// What a QDQ model's quantized convolution (nchw input, oihw filter, channels on axis 0) or
// matmul (2-D B [K, N], channels on axis 1) is.
std::optional<QuantizedOperands> quantizedAnchorOf(const graph::GraphIR& ir,
                                                   const graph::Operation& anchor, size_t index) {
  if (anchor.type == graph::OpType::Conv2d) {
    const auto& attributes = anchor.attributesAs<graph::Conv2dAttributes>();
    if (attributes.inputLayout != MLInputOperandLayout::Nchw ||
        attributes.filterLayout != MLConv2dFilterOperandLayout::Oihw) {
      return std::nullopt;
    }
    if (attributes.bias && !isFloat32(ir, *attributes.bias)) return std::nullopt;
    auto q = quantizedOperandsOf(ir, anchor, index, 0);
    // A bias dequantized from int32 constants (scale and zero point of one element or one per
    // channel, like the filter's).
    size_t dequantize = 0;
    if (q && attributes.bias && anchor.inputs.size() > 2 &&
        soleDequantizer(ir, *attributes.bias, index, dequantize)) {
      const graph::Operation& operation = ir.operations[dequantize];
      const auto scale = constantBehindReshapes(ir, operation.inputs[1]);
      const auto zeroPoint = constantBehindReshapes(ir, operation.inputs[2]);
      const uint64_t channels = ir.descriptor(*attributes.bias).elementCount();
      auto countFits = [&](graph::OperandId id) {
        const uint64_t count = ir.descriptor(id).elementCount();
        return count == 1 || count == channels;
      };
      if (isConstant(ir, operation.inputs[0]) &&
          ir.descriptor(operation.inputs[0]).dataType == MLOperandDataType::Int32 && scale &&
          zeroPoint && isFloat32(ir, *scale) &&
          ir.descriptor(*zeroPoint).dataType == MLOperandDataType::Int32 && countFits(*scale) &&
          countFits(*zeroPoint)) {
        q->bias = QuantizedOperands::Bias{dequantize, operation.inputs[0], *scale, *zeroPoint};
        appendSoleReshapes(ir, operation.inputs[1], dequantize, q->bias->reshapes);
        appendSoleReshapes(ir, operation.inputs[2], dequantize, q->bias->reshapes);
      }
    }
    return q;
  }
  if (anchor.type == graph::OpType::Matmul && ir.descriptor(anchor.inputs[1]).shape.size() == 2 &&
      ir.descriptor(anchor.inputs[0]).shape.size() >= 2) {
    return quantizedOperandsOf(ir, anchor, index, 1);
  }
  return std::nullopt;
}

// add / sub / mul / div of float32 values (ops/elementwise_binary.cpp takes a quantizeLinear after
// them).
bool isQuantizedGlue(const graph::GraphIR& ir, const graph::Operation& operation) {
  using graph::OpType;
  if (operation.type != OpType::Add && operation.type != OpType::Sub &&
      operation.type != OpType::Mul && operation.type != OpType::Div) {
    return false;
  }
  if (operation.inputs.size() != 2 || operation.outputs.size() != 1) return false;
  return isFloat32(ir, operation.inputs[0]) && isFloat32(ir, operation.inputs[1]) &&
         isFloat32(ir, operation.outputs[0]);
}

// matmul(A, transpose(dequantizeLinear(W))) with W [N, K] of 4- or 8-bit integers, a reshape of
// W [N, K / blockSize, blockSize] between the two allowed, and a scale and zero point per block of
// a row: BlockQuantizedWeightsOperand.
std::optional<BlockQuantizedWeightsOperand> blockQuantizedWeightsOf(const graph::GraphIR& ir,
                                                                    const graph::Operation& anchor,
                                                                    size_t index) {
  using T = MLOperandDataType;
  if (anchor.type != graph::OpType::Matmul) return std::nullopt;
  const auto& bShape = ir.descriptor(anchor.inputs[1]).shape;
  if (bShape.size() != 2 || ir.descriptor(anchor.inputs[0]).shape.size() < 2) return std::nullopt;
  BlockQuantizedWeightsOperand operand;
  operand.k = bShape[0], operand.n = bShape[1];
  size_t at = 0;
  const graph::Operation* transpose = soleProducerFor(ir, anchor.inputs[1], index, at);
  if (!transpose || transpose->type != graph::OpType::Transpose ||
      transpose->attributesAs<graph::TransposeAttributes>().permutation !=
          std::vector<uint32_t>{1, 0}) {
    return std::nullopt;
  }
  operand.operations.push_back(at);
  size_t reader = at;
  const graph::Operation* producer = soleProducerFor(ir, transpose->inputs[0], reader, at);
  if (producer && producer->type == graph::OpType::Reshape) {
    operand.operations.push_back(at);
    reader = at;
    producer = soleProducerFor(ir, producer->inputs[0], reader, at);
  }
  if (!producer || producer->type != graph::OpType::DequantizeLinear) return std::nullopt;
  operand.operations.push_back(at);
  operand.weights = producer->inputs[0];
  const MLOperandDescriptor& weights = ir.descriptor(operand.weights);
  if (!isConstant(ir, operand.weights) ||
      (weights.dataType != T::Int4 && weights.dataType != T::Uint4 && weights.dataType != T::Int8 &&
       weights.dataType != T::Uint8)) {
    return std::nullopt;
  }
  // The scale as the dequantizeLinear sees it: [N, blocks] for W [N, K], [N, blocks, 1] for W
  // [N, blocks, blockSize].
  const std::vector<uint32_t> scaleShape =
      graph::padToRank(ir.descriptor(producer->inputs[1]).shape, weights.shape.size());
  uint64_t blocks = 0;
  if (weights.shape.size() == 2 && weights.shape[0] == operand.n && weights.shape[1] == operand.k &&
      scaleShape[0] == operand.n) {
    blocks = scaleShape[1];
  } else if (weights.shape.size() == 3 && weights.shape[0] == operand.n &&
             uint64_t{weights.shape[1]} * weights.shape[2] == operand.k &&
             scaleShape == std::vector<uint32_t>{weights.shape[0], weights.shape[1], 1}) {
    blocks = weights.shape[1];
  } else {
    return std::nullopt;
  }
  if (blocks == 0 || operand.k % blocks != 0) return std::nullopt;
  operand.blockSize = operand.k / blocks;
  const size_t dequantize = at;
  // The scale: a float32 constant, possibly cast to float32 (a float16 one widened: the op reads
  // it as it arrives).
  std::vector<size_t> castScaleLinks;
  auto scale = constantCastBehind(ir, producer->inputs[1], dequantize, castScaleLinks);
  const bool castScale = scale.has_value();
  if (!scale) scale = constantBehindReshapes(ir, producer->inputs[1]);
  if (!scale || !isFloat32(ir, *scale) ||
      ir.descriptor(*scale).elementCount() != operand.n * blocks ||
      ir.descriptor(producer->inputs[2]).dataType != weights.dataType) {
    return std::nullopt;
  }
  // The zero point: one value for every block (nothing stored per block), or a constant of one
  // per block.
  std::vector<size_t> zeroPointLinks;
  if (auto uniform = uniformSmallIntegerOf(ir, producer->inputs[2], dequantize, zeroPointLinks)) {
    operand.uniformZeroPoint = *uniform;
  } else {
    const auto zeroPoint = constantBehindReshapes(ir, producer->inputs[2]);
    if (!zeroPoint || ir.descriptor(*zeroPoint).elementCount() != operand.n * blocks) {
      return std::nullopt;
    }
    operand.zeroPoint = *zeroPoint;
    appendSoleReshapes(ir, producer->inputs[2], dequantize, zeroPointLinks);
  }
  operand.scale = *scale;
  // The reshapes (and the cast) of the scale and zero point that only the dequantizeLinear reads
  // run no step.
  if (castScale) {
    operand.operations.insert(operand.operations.end(), castScaleLinks.begin(),
                              castScaleLinks.end());
  } else {
    appendSoleReshapes(ir, producer->inputs[1], dequantize, operand.operations);
  }
  operand.operations.insert(operand.operations.end(), zeroPointLinks.begin(), zeroPointLinks.end());
  std::sort(operand.operations.begin(), operand.operations.end());
  return operand;
}

// add(value, bias) with bias a float32 row of `n` ([n] or [1, n]).
std::optional<FusedPostOp> biasRowOf(const graph::GraphIR& ir, const graph::Operation& next,
                                     graph::OperandId value, uint64_t n) {
  if (next.type != graph::OpType::Add) return std::nullopt;
  const auto other = otherInput(next, value);
  if (!other || !isFloat32(ir, *other) || !isFloat32(ir, next.outputs[0])) return std::nullopt;
  const auto& shape = ir.descriptor(*other).shape;
  const bool row =
      (shape.size() == 1 && shape[0] == n) || (shape.size() == 2 && shape[0] == 1 && shape[1] == n);
  if (!row) return std::nullopt;
  return FusedPostOp{
      .kind = FusedPostOp::Kind::Binary, .algorithm = dnnl::algorithm::binary_add, .other = *other};
}

// Why operation `add`, add(value, residual) with `residual` a whole tensor, cannot be a sum
// post-op of `chain` (the anchor's step writing into the residual's buffer); empty when it can: an
// add (the sum adds), one sum per chain on a float32 conv2d, and a residual that an operation
// computed, that the caller does not see and that nothing reads after the add (the step
// overwrites it; the compiler checks that its other readers ran in earlier steps).
std::string residualSumUnfit(const graph::GraphIR& ir, uint32_t add, graph::OperandId residual,
                             const FusionChain& chain) {
  const graph::Operation& next = ir.operations[add];
  if (next.type != graph::OpType::Add) return "not an add";
  if (chain.quantized) return "a quantized convolution";
  for (const FusedPostOp& postOp : chain.postOps) {
    if (postOp.kind == FusedPostOp::Kind::Sum) return "the chain sums one already";
  }
  if (ir.operand(residual).kind != graph::OperandKind::Intermediate) {
    return "the residual is not computed by the graph";
  }
  if (ir.isGraphOutput(residual)) return "the residual is a graph output";
  for (uint32_t consumer : ir.consumersOf(residual)) {
    if (consumer > add) return "the residual is read after the add";
  }
  if (ir.descriptor(residual).shape != ir.descriptor(next.outputs[0]).shape) {
    return "the residual is broadcast";
  }
  return {};
}

}  // namespace

FusionPlan planFusions(const graph::GraphIR& ir) {
  const size_t count = ir.operations.size();
  FusionPlan plan{std::vector<std::optional<FusionChain>>(count), std::vector<int32_t>(count, -1),
                  std::vector<std::string>(count)};
  for (size_t i = 0; i < count; ++i) {
    const graph::Operation& anchor = ir.operations[i];
    if (plan.anchorOf[i] >= 0 || !isAnchor(ir, anchor)) continue;
    FusionChain chain;
    if (auto weights = blockQuantizedWeightsOf(ir, anchor, i);
        weights && std::none_of(weights->operations.begin(), weights->operations.end(),
                                [&plan](size_t op) { return plan.anchorOf[op] >= 0; })) {
      // The kernel takes a bias row and nothing else after the product.
      chain.operations = weights->operations;
      chain.output = anchor.outputs[0];
      const graph::OperandId product = anchor.outputs[0];
      const auto consumers = ir.consumersOf(product);
      if (!ir.isGraphOutput(product) && consumers.size() == 1 && plan.anchorOf[consumers[0]] < 0) {
        if (auto bias = biasRowOf(ir, ir.operations[consumers[0]], product, weights->n)) {
          chain.operations.push_back(consumers[0]);
          chain.postOps.push_back(*bias);
          chain.output = ir.operations[consumers[0]].outputs[0];
        }
      }
      chain.blockQuantized = std::move(weights);
      for (size_t fused : chain.operations) plan.anchorOf[fused] = static_cast<int32_t>(i);
      plan.chains[i] = std::move(chain);
      continue;
    }
    if (auto quantized = quantizedAnchorOf(ir, anchor, i);
        quantized && plan.anchorOf[quantized->inputDequantize] < 0 &&
        plan.anchorOf[quantized->weightsDequantize] < 0) {
      chain.operations = {quantized->inputDequantize, quantized->weightsDequantize};
      chain.operations.insert(chain.operations.end(), quantized->reshapes.begin(),
                              quantized->reshapes.end());
      if (quantized->bias && plan.anchorOf[quantized->bias->dequantize] < 0) {
        chain.operations.push_back(quantized->bias->dequantize);
        chain.operations.insert(chain.operations.end(), quantized->bias->reshapes.begin(),
                                quantized->bias->reshapes.end());
      } else {
        quantized->bias.reset();
      }
      std::sort(chain.operations.begin(), chain.operations.end());
      chain.quantized = quantized;
    }
    graph::OperandId value = anchor.outputs[0];
    // Where the chain took a residual sum: its place in operations and postOps, the value before.
    struct SumAt {
      size_t operation, postOp;
      graph::OperandId before;
    };
    std::optional<SumAt> sumAt;
    for (;;) {
      if (ir.isGraphOutput(value)) break;
      if (auto hardSwish = hardSwishPattern(ir, value);
          hardSwish && chain.postOps.size() < kMaxPostOps &&
          std::none_of(hardSwish->first.begin(), hardSwish->first.end(),
                       [&plan](uint32_t op) { return plan.anchorOf[op] >= 0; })) {
        chain.operations.insert(chain.operations.end(), hardSwish->first.begin(),
                                hardSwish->first.end());
        chain.postOps.push_back(
            {.kind = FusedPostOp::Kind::Eltwise, .algorithm = dnnl::algorithm::eltwise_hardswish});
        value = hardSwish->second;
        continue;
      }
      const auto consumers = ir.consumersOf(value);
      if (consumers.size() != 1) break;
      // An operation another chain took (add(matmul(a), matmul(b)): the first matmul's).
      if (plan.anchorOf[consumers[0]] >= 0) break;
      const graph::Operation& next = ir.operations[consumers[0]];
      if (auto batchNormalization = batchNormalizationPostOp(ir, next, value);
          batchNormalization && chain.postOps.size() + 2 <= kMaxPostOps) {
        chain.operations.push_back(consumers[0]);
        chain.postOps.push_back(*batchNormalization);
        value = next.outputs[0];
        continue;
      }
      auto postOps = postOpsOf(ir, next, value);
      // oneDNN 2.6's direct convolutions take binary post-ops that broadcast (bias, per-channel
      // scale) but not a whole tensor (a residual): with one they fall back to gemm or the
      // reference. A residual add that is the last reader of its other operand is a sum post-op
      // instead (the convolution writes into that operand's buffer); otherwise it stays a step
      // of its own after the convolution.
      if (postOps && anchor.type == graph::OpType::Conv2d &&
          postOps->front().kind == FusedPostOp::Kind::Binary &&
          ir.descriptor(postOps->front().other).elementCount() ==
              ir.descriptor(value).elementCount()) {
        const graph::OperandId residual = postOps->front().other;
        std::string whyNot = residualSumUnfit(ir, consumers[0], residual, chain);
        if (whyNot.empty() && chain.postOps.size() + 1 > kMaxPostOps) {
          whyNot = "the chain has its most post-ops";
        }
        if (!whyNot.empty()) {
          plan.notFused[consumers[0]] =
              "a whole-tensor operand after conv2d (oneDNN 2.6's direct convolutions take only "
              "broadcast binary post-ops, and it cannot be summed into: " +
              whyNot + ")";
          break;
        }
        sumAt = {chain.operations.size(), chain.postOps.size(), value};
        chain.operations.push_back(consumers[0]);
        chain.postOps.push_back({.kind = FusedPostOp::Kind::Sum, .other = residual});
        value = next.outputs[0];
        continue;
      }
      if (!postOps) break;
      if (chain.postOps.size() + postOps->size() > kMaxPostOps) {
        plan.notFused[consumers[0]] = "the chain has its most post-ops";
        break;
      }
      if (!appendPostOps(chain.postOps, *postOps)) {
        plan.notFused[consumers[0]] =
            "a second element-wise linear post-op (oneDNN 2.6 runs two of them wrong)";
        break;
      }
      chain.operations.push_back(consumers[0]);
      value = next.outputs[0];
    }
    // A quantized chain's output quantized (the next layer's input): the step writes uint8.
    if (chain.quantized && !ir.isGraphOutput(value)) {
      const auto consumers = ir.consumersOf(value);
      if (consumers.size() == 1 && plan.anchorOf[consumers[0]] < 0) {
        if (auto output = quantizedOutputOf(ir, ir.operations[consumers[0]], value)) {
          output->operation = consumers[0];
          chain.operations.push_back(consumers[0]);
          chain.quantizedOutput = output;
          value = ir.operations[consumers[0]].outputs[0];
        }
      }
    }
    // A sum writes into the residual's buffer, which a graph output (the caller's tensor) is
    // not: the chain then ends before the sum.
    if (sumAt && ir.isGraphOutput(value)) {
      const size_t add = chain.operations[sumAt->operation];
      chain.operations.resize(sumAt->operation);
      chain.postOps.resize(sumAt->postOp);
      value = sumAt->before;
      plan.notFused[add] =
          "a whole-tensor operand after conv2d (oneDNN 2.6's direct convolutions take only "
          "broadcast binary post-ops, and it cannot be summed into: the chain ends in a graph "
          "output)";
    }
    if (chain.operations.empty()) continue;
    chain.output = value;
    for (size_t fused : chain.operations) plan.anchorOf[fused] = static_cast<int32_t>(i);
    plan.chains[i] = std::move(chain);
  }
  // Binary ops (add, sub, mul, div of float32 values) that no chain took, whose result one
  // operation alone reads:
  // - a quantizeLinear into uint8: a QDQ model's float glue between quantized layers (a residual
  //   add, a squeeze-and-excitation multiply) runs as one step writing the uint8 values (a chain
  //   of the quantizeLinear alone, without quantized operands: ops/elementwise_binary.cpp);
  // - an add of a whole tensor of its shape (PaddleOCR det's squeeze-and-excitation shortcut,
  //   c + c * gate): one binary step, the add a binary post-op of it, which saves writing and
  //   reading the product.
  for (size_t i = 0; i < count; ++i) {
    const graph::Operation& operation = ir.operations[i];
    if (plan.anchorOf[i] >= 0 || plan.chains[i] || !isQuantizedGlue(ir, operation)) continue;
    const graph::OperandId value = operation.outputs[0];
    if (ir.isGraphOutput(value)) continue;
    const auto consumers = ir.consumersOf(value);
    if (consumers.size() != 1 || plan.anchorOf[consumers[0]] >= 0 || plan.chains[consumers[0]]) {
      continue;
    }
    const graph::Operation& next = ir.operations[consumers[0]];
    FusionChain chain;
    chain.operations = {consumers[0]};
    chain.output = next.outputs[0];
    if (auto output = quantizedOutputOf(ir, next, value)) {
      output->operation = consumers[0];
      chain.quantizedOutput = output;
    } else {
      if (next.type != graph::OpType::Add) continue;
      const auto other = otherInput(next, value);
      const auto& shape = ir.descriptor(value).shape;
      if (!other || !isFloat32(ir, *other) || !isFloat32(ir, next.outputs[0]) ||
          ir.descriptor(*other).shape != shape || ir.descriptor(next.outputs[0]).shape != shape) {
        continue;
      }
      chain.postOps = {{.kind = FusedPostOp::Kind::Binary,
                        .algorithm = dnnl::algorithm::binary_add,
                        .other = *other}};
    }
    plan.anchorOf[consumers[0]] = static_cast<int32_t>(i);
    plan.chains[i] = std::move(chain);
  }
  return plan;
}

}  // namespace webnn::cpu
