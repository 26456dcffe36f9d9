// Maps each MLGraphBuilder method name to a function that calls it with a vector's arguments.
#pragma once

#include <webnn/webnn.h>

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "conformance/case_loader.h"

namespace webnn::conformance {

// The vector asks for something the runner cannot express (unknown op or option, wrong kind of
// value): a runner problem, reported apart from the library's errors.
class RunnerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One operator call with its arguments resolved: strings naming operands become operands
// (inputs first, then earlier outputs), anything else stays a literal.
class OpCall {
 public:
  using Resolver = std::function<std::optional<MLOperand>(const std::string&)>;
  OpCall(const OperatorCall& call, Resolver resolve);

  const std::string& name() const { return call_.name; }
  // Positional arguments, the options entry excluded.
  size_t count() const { return positional_.size(); }
  bool has(size_t index) const { return index < positional_.size(); }
  const Argument& argument(size_t index) const;
  MLOperand operand(size_t index) const;
  std::vector<MLOperand> operandList(size_t index) const;
  uint32_t u32(size_t index) const;
  std::vector<uint32_t> u32List(size_t index) const;
  std::string string(size_t index) const;
  // The options entry; an empty object when the call has none.
  const Json& options() const { return options_; }
  std::optional<MLOperand> resolve(const std::string& name) const { return resolve_(name); }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  const OperatorCall& call_;
  Resolver resolve_;
  std::vector<const Argument*> positional_;
  Json options_ = Json::object();
};

using OpFunction = std::function<std::vector<MLOperand>(MLGraphBuilder&, const OpCall&)>;

// Every builder method of the spec, by name.
const std::map<std::string, OpFunction>& opTable();

// Literal conversions shared with the option readers (throw RunnerError).
uint32_t toU32(const Json& value, const std::string& what);
std::vector<uint32_t> toU32List(const Json& value, const std::string& what);

}  // namespace webnn::conformance
