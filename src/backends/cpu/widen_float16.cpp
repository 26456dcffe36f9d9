#include "backends/cpu/widen_float16.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/float16_convert.h"

namespace webnn::cpu {
namespace {

using graph::OperandId;
using graph::OperandKind;
using graph::OperandNode;
constexpr auto kFloat16 = MLOperandDataType::Float16;
constexpr auto kFloat32 = MLOperandDataType::Float32;

graph::Operation castOperation(OperandId from, OperandId to, MLOperandDataType type,
                               std::string label) {
  graph::Operation cast;
  cast.type = graph::OpType::Cast;
  cast.label = std::move(label);
  cast.inputs = {from};
  cast.outputs = {to};
  cast.attributes = graph::CastAttributes{type};
  return cast;
}

class Widener {
 public:
  explicit Widener(const graph::GraphIR& ir) : source_(ir) {}

  WidenedGraph run() {
    auto widened = std::make_shared<graph::GraphIR>();
    ir_ = widened.get();
    ir_->builderId = source_.builderId;
    ir_->inputs = source_.inputs;
    ir_->outputs = source_.outputs;
    ir_->operands = source_.operands;
    arrivesAsFloat16_.assign(source_.operands.size(), false);

    for (const auto& operand : source_.operands) {
      // An input no operation reads stays as it is (the caller need not bind it).
      if (operand->kind == OperandKind::Input && !isBoundInput(*operand)) continue;
      if (operand->descriptor.dataType == kFloat16) widenOperand(*operand);
    }
    // Outputs: the float16 value of each float16 output, cast from its float32 one at the end.
    std::map<OperandId, OperandId> halfOutputOf;
    std::vector<graph::Operation> epilogue;
    for (auto& [name, id] : ir_->outputs) {
      if (source_.descriptor(id).dataType != kFloat16) continue;
      auto found = halfOutputOf.find(id);
      if (found == halfOutputOf.end()) {
        const OperandId half = addOperand(source_.operand(id), OperandKind::Intermediate);
        epilogue.push_back(castOperation(id, half, kFloat16, "float16 output " + name));
        found = halfOutputOf.emplace(id, half).first;
      }
      id = found->second;
    }

    std::vector<uint32_t> operationIndex(source_.operations.size());
    for (size_t i = 0; i < source_.operations.size(); ++i) {
      const graph::Operation& operation = source_.operations[i];
      operationIndex[i] = static_cast<uint32_t>(ir_->operations.size());
      const OperandId output = operation.outputs.empty() ? 0 : operation.outputs[0];
      if (operation.type == graph::OpType::Cast &&
          source_.descriptor(output).dataType == kFloat16) {
        // Rounded to float16, then read on as float32.
        const OperandId rounded = addOperand(source_.operand(output), OperandKind::Intermediate);
        graph::Operation toHalf = operation;
        toHalf.outputs = {rounded};
        ir_->operations.push_back(std::move(toHalf));
        ir_->operations.push_back(castOperation(rounded, output, kFloat32, operation.label));
        continue;
      }
      ir_->operations.push_back(operation);
    }
    for (auto& cast : epilogue) ir_->operations.push_back(std::move(cast));
    // The inputs' casts come first.
    ir_->operations.insert(ir_->operations.begin(), prologue_.begin(), prologue_.end());
    for (uint32_t& index : operationIndex) index += static_cast<uint32_t>(prologue_.size());
    ir_->indexUses();

    arrivesAsFloat16_.resize(ir_->operands.size(), false);
    return {std::move(widened), std::move(operationIndex), std::move(arrivesAsFloat16_), true};
  }

 private:
  // Whether `operand` is a graph input that some operation reads.
  bool isBoundInput(const OperandNode& operand) const {
    auto it = source_.inputs.find(operand.name);
    return it != source_.inputs.end() && it->second == operand.id &&
           !source_.consumersOf(operand.id).empty();
  }

  // A new operand like `like` (its descriptor and name), of `kind`.
  OperandId addOperand(const OperandNode& like, OperandKind kind) {
    auto node = std::make_shared<OperandNode>(like);
    node->id = static_cast<OperandId>(ir_->operands.size());
    node->kind = kind;
    node->data.reset();
    ir_->operands.push_back(std::move(node));
    return ir_->operands.back()->id;
  }

  void widenOperand(const OperandNode& operand) {
    auto node = std::make_shared<OperandNode>(operand);
    node->descriptor.dataType = kFloat32;
    switch (operand.kind) {
      case OperandKind::Intermediate:
        break;
      case OperandKind::Constant:
        if (operand.data) {
          const uint64_t count = operand.descriptor.elementCount();
          auto bytes = std::make_shared<std::vector<std::byte>>(count * sizeof(float));
          convertHalfToFloat(reinterpret_cast<const uint16_t*>(operand.data->data()),
                             reinterpret_cast<float*>(bytes->data()), count);
          node->data = std::move(bytes);
        }
        break;
      case OperandKind::HollowConstant:
        arrivesAsFloat16_[operand.id] = true;
        break;
      case OperandKind::Input: {
        // The name moves to a new float16 input; this id becomes its float32 value.
        node->kind = OperandKind::Intermediate;
        const OperandId half = addOperand(operand, OperandKind::Input);
        ir_->inputs[operand.name] = half;
        prologue_.push_back(
            castOperation(half, operand.id, kFloat32, "float16 input " + operand.name));
        break;
      }
    }
    ir_->operands[operand.id] = std::move(node);
  }

  const graph::GraphIR& source_;
  graph::GraphIR* ir_ = nullptr;
  std::vector<bool> arrivesAsFloat16_;
  std::vector<graph::Operation> prologue_;
};

}  // namespace

WidenedGraph widenFloat16(std::shared_ptr<const graph::GraphIR> ir) {
  const bool anyFloat16 =
      std::any_of(ir->operands.begin(), ir->operands.end(),
                  [](const auto& operand) { return operand->descriptor.dataType == kFloat16; });
  if (!anyFloat16) {
    WidenedGraph same;
    same.operationIndex.resize(ir->operations.size());
    for (size_t i = 0; i < same.operationIndex.size(); ++i) {
      same.operationIndex[i] = static_cast<uint32_t>(i);
    }
    same.arrivesAsFloat16.assign(ir->operands.size(), false);
    same.ir = std::move(ir);
    return same;
  }
  return Widener(*ir).run();
}

}  // namespace webnn::cpu
