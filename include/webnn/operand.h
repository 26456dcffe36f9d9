// MLOperand: a handle to an operand of an MLGraphBuilder's graph.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "webnn/export.h"
#include "webnn/types.h"

namespace webnn {

namespace detail {
struct OperandNode;
}

class WEBNN_EXPORT MLOperand {
 public:
  MLOperand() = default;  // an empty handle; using it in a builder call throws TypeError
  explicit MLOperand(std::shared_ptr<detail::OperandNode> node) : node_(std::move(node)) {}

  MLOperandDataType dataType() const;
  const std::vector<uint32_t>& shape() const;
  const MLOperandDescriptor& descriptor() const;
  // The label of a constant (or name of an input); empty for intermediate operands.
  const std::string& label() const;
  bool isConstant() const;
  explicit operator bool() const { return node_ != nullptr; }

  const std::shared_ptr<detail::OperandNode>& node() const { return node_; }
  bool operator==(const MLOperand& other) const { return node_ == other.node_; }

 private:
  std::shared_ptr<detail::OperandNode> node_;
};

using MLNamedOperands = std::map<std::string, MLOperand>;

}  // namespace webnn
