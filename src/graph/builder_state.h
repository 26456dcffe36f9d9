// The state behind MLGraphBuilder, and the helpers every op file uses to validate and record.
#pragma once

#include <any>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/ir.h"
#include "webnn/graph_builder.h"
#include "webnn/operand.h"

namespace webnn::detail {

struct ContextState;

struct BuilderState {
  std::shared_ptr<ContextState> context;
  uint64_t id = 0;
  bool built = false;
  graph::GraphIR ir;

  // Throws InvalidStateError after build() (the builder is one-shot) or when the context is gone.
  void checkUsable(std::string_view method) const;
  // Throws TypeError unless `operand` is a non-empty operand of this builder.
  void checkOperand(const MLOperand& operand, std::string_view opName) const;
  const MLOperandDescriptor& descriptorOf(const MLOperand& operand) const;

  MLOperand addOperand(const MLOperandDescriptor& descriptor, OperandKind kind, std::string name);
  // Records an operation whose operands were validated. Optional operands that are absent are
  // skipped. Returns one operand per output descriptor.
  std::vector<MLOperand> addOperation(std::string type, std::string label,
                                      const std::vector<std::optional<MLOperand>>& inputs,
                                      std::any attributes,
                                      const std::vector<MLOperandDescriptor>& outputs);
  MLOperand addOperation(std::string type, std::string label,
                         const std::vector<std::optional<MLOperand>>& inputs, std::any attributes,
                         const MLOperandDescriptor& output);
};

}  // namespace webnn::detail

namespace webnn::graph {

// "conv2d" or "conv2d 'label'": how errors name an operation.
std::string opName(std::string_view type, std::string_view label);

// Validates one op call: the builder is usable and every given operand is this builder's.
// Returns the state to record into. `operands` may hold empty optionals (absent options).
detail::BuilderState& beginOp(MLGraphBuilder& builder, std::string_view type,
                              std::string_view label,
                              std::initializer_list<const std::optional<MLOperand>*> operands);
detail::BuilderState& beginOp(MLGraphBuilder& builder, std::string_view type,
                              std::string_view label,
                              std::initializer_list<const MLOperand*> operands);

}  // namespace webnn::graph
