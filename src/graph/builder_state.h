// The state behind MLGraphBuilder, and the helpers every op file validates and records through.
#pragma once

#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/ir.h"
#include "graph/op_limits.h"
#include "webnn/graph_builder.h"
#include "webnn/operand.h"

namespace webnn::detail {

struct ContextState;
struct ConstantFill;

struct BuilderState {
  std::shared_ptr<ContextState> context;
  uint64_t id = 0;
  bool built = false;
  graph::GraphIR ir;
  // Hollow constants that read a constant tensor (MLGraphBuilder::constant(tensor)): operand id ->
  // the tensor's fill; one operand per tensor.
  std::map<graph::OperandId, std::shared_ptr<ConstantFill>> constantTensors;

  // Throws InvalidStateError after build() (the builder is one-shot) or when the context is gone.
  void checkUsable(std::string_view method) const;
  // Throws TypeError unless `operand` is a non-empty operand of this builder.
  void checkOperand(const MLOperand& operand, std::string_view opName) const;
  // The limits of the context's backend, which every builder call checks against.
  const graph::OpLimitsTable& limits() const;

  MLOperand addOperand(const MLOperandDescriptor& descriptor, OperandKind kind, std::string name);
  // Records an operation whose operands were validated. Absent optional operands are skipped.
  // Every output is checked against the context's output limits. Returns one operand per output.
  std::vector<MLOperand> addOperation(const graph::OpCall& call,
                                      const std::vector<std::optional<MLOperand>>& inputs,
                                      graph::Attributes attributes,
                                      const std::vector<MLOperandDescriptor>& outputs);
};

}  // namespace webnn::detail

namespace webnn::graph {

// "conv2d" or "conv2d 'label'": how errors name an operation.
std::string opName(std::string_view type, std::string_view label);

// The id of an optional operand (validated by beginOp), or nullopt.
std::optional<OperandId> operandId(const std::optional<MLOperand>& operand);

// One builder call: checks that the builder is usable and that every operand given (required and
// present optional ones) is this builder's; `call` then validates against the context's limits.
class OpBuilder {
 public:
  OpBuilder(MLGraphBuilder& builder, OpType type, std::string_view label,
            std::initializer_list<const MLOperand*> operands,
            std::initializer_list<const std::optional<MLOperand>*> optionalOperands = {});

  const OpCall& call() const { return call_; }
  // Records the operation (see BuilderState::addOperation).
  MLOperand record(const std::vector<std::optional<MLOperand>>& inputs, Attributes attributes,
                   const MLOperandDescriptor& output);
  std::vector<MLOperand> record(const std::vector<std::optional<MLOperand>>& inputs,
                                Attributes attributes,
                                const std::vector<MLOperandDescriptor>& outputs);

 private:
  detail::BuilderState& state_;
  OpCall call_;
};

}  // namespace webnn::graph
