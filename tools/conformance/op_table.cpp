#include "conformance/op_table.h"

#include "conformance/op_options.h"

namespace webnn::conformance {

OpCall::OpCall(const OperatorCall& call, Resolver resolve)
    : call_(call), resolve_(std::move(resolve)) {
  for (const Argument& argument : call.arguments) {
    if (argument.key == "options") {
      options_ = argument.value;
    } else {
      positional_.push_back(&argument);
    }
  }
}

void OpCall::fail(const std::string& what) const {
  throw RunnerError(call_.name + ": " + what);
}

const Argument& OpCall::argument(size_t index) const {
  if (!has(index)) fail("argument #" + std::to_string(index) + " is missing");
  return *positional_[index];
}

MLOperand OpCall::operand(size_t index) const {
  const Argument& arg = argument(index);
  if (!arg.value.is_string()) fail("argument \"" + arg.key + "\" is not an operand name");
  auto resolved = resolve_(arg.value.get<std::string>());
  if (!resolved) fail("argument \"" + arg.key + "\" names no operand: " + arg.value.dump());
  return *resolved;
}

std::vector<MLOperand> OpCall::operandList(size_t index) const {
  const Argument& arg = argument(index);
  if (!arg.value.is_array()) fail("argument \"" + arg.key + "\" is not a list of operands");
  std::vector<MLOperand> operands;
  for (const Json& item : arg.value) {
    if (!item.is_string()) fail("argument \"" + arg.key + "\" holds " + item.dump());
    auto resolved = resolve_(item.get<std::string>());
    if (!resolved) fail("argument \"" + arg.key + "\" names no operand: " + item.dump());
    operands.push_back(*resolved);
  }
  return operands;
}

uint32_t OpCall::u32(size_t index) const {
  const Argument& arg = argument(index);
  return toU32(arg.value, call_.name + " argument \"" + arg.key + "\"");
}

std::vector<uint32_t> OpCall::u32List(size_t index) const {
  const Argument& arg = argument(index);
  return toU32List(arg.value, call_.name + " argument \"" + arg.key + "\"");
}

std::string OpCall::string(size_t index) const {
  const Argument& arg = argument(index);
  if (!arg.value.is_string()) fail("argument \"" + arg.key + "\" is not a string");
  return arg.value.get<std::string>();
}

uint32_t toU32(const Json& value, const std::string& what) {
  if (value.is_number_unsigned() && value.get<uint64_t>() <= UINT32_MAX) {
    return value.get<uint32_t>();
  }
  if (value.is_string()) {  // a BigInt literal written as a decimal string
    const std::string text = value.get<std::string>();
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos &&
        text.size() <= 10) {
      const uint64_t number = std::stoull(text);
      if (number <= UINT32_MAX) return static_cast<uint32_t>(number);
    }
  }
  throw RunnerError(what + " is not an unsigned 32-bit integer: " + value.dump());
}

std::vector<uint32_t> toU32List(const Json& value, const std::string& what) {
  if (!value.is_array()) throw RunnerError(what + " is not a list: " + value.dump());
  std::vector<uint32_t> list;
  for (const Json& item : value) list.push_back(toU32(item, what));
  return list;
}

namespace {

// A vector's positional arguments and options, as the op schema asks for them.
struct VectorArguments {
  const OpCall& call;

  template <class T>
  T read(size_t index, std::string_view name) {
    if constexpr (std::is_same_v<T, MLOperand>) {
      return call.operand(index);
    } else if constexpr (std::is_same_v<T, std::vector<MLOperand>>) {
      return call.operandList(index);
    } else if constexpr (std::is_same_v<T, uint32_t>) {
      return call.u32(index);
    } else if constexpr (std::is_same_v<T, std::vector<uint32_t>>) {
      return call.u32List(index);
    } else if constexpr (std::is_same_v<T, MLOperandDataType>) {
      return dataTypeNamed(call.argument(index).value, call.name() + " " + std::string(name));
    } else if constexpr (std::is_same_v<T, schema::Splits>) {
      if (call.argument(index).value.is_array()) return schema::Splits(call.u32List(index));
      return schema::Splits(call.u32(index));
    } else {
      static_assert(schema::OptionsDictionary<T>, "a parameter kind the runner cannot read");
      return readOptions<T>(call);
    }
  }
};

std::map<std::string, OpFunction> makeTable() {
  std::map<std::string, OpFunction> t;
  schema::forEachOp([&t](const auto& op) {
    t[std::string(op.name)] = [op](MLGraphBuilder& builder, const OpCall& call) {
      VectorArguments arguments{call};
      return schema::call(builder, op, arguments);
    };
  });
  // softmax without an axis (older vectors): the last axis, which the data match (README §7).
  t["softmax"] = [](MLGraphBuilder& builder, const OpCall& call) -> std::vector<MLOperand> {
    const MLOperand input = call.operand(0);
    const auto rank = static_cast<uint32_t>(input.shape().size());
    const uint32_t axis = call.has(1) ? call.u32(1) : (rank == 0 ? 0 : rank - 1);
    return {builder.softmax(input, axis, readOptions<MLOperatorOptions>(call))};
  };
  return t;
}

}  // namespace

const std::map<std::string, OpFunction>& opTable() {
  static const std::map<std::string, OpFunction> table = makeTable();
  return table;
}

}  // namespace webnn::conformance
