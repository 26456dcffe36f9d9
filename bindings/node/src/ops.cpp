#include "ops.h"

#include <webnn/op_schema.h>

#include <functional>
#include <map>
#include <string_view>
#include <type_traits>

#include "dictionary.h"
#include "wrappers.h"

namespace webnn::node {
namespace {

// The positional arguments of one call.
class Args {
 public:
  Args(Napi::Env env, const std::string& name, const Napi::Array& args)
      : env_(env), name_(name), args_(args) {}

  Napi::Value at(uint32_t i) const { return i < args_.Length() ? args_.Get(i) : env_.Undefined(); }
  std::string what(const char* parameter) const { return name_ + "(): " + parameter; }
  MLOperand operand(uint32_t i, const char* parameter) const {
    return toOperand(at(i), what(parameter));
  }
  std::vector<MLOperand> operands(uint32_t i, const char* parameter) const {
    const Napi::Value value = at(i);
    if (!value.IsArray()) throw Napi::TypeError::New(env_, what(parameter) + " must be a sequence");
    const Napi::Array array = value.As<Napi::Array>();
    std::vector<MLOperand> list;
    for (uint32_t k = 0; k < array.Length(); ++k) {
      list.push_back(toOperand(array.Get(k), what(parameter) + "[" + std::to_string(k) + "]"));
    }
    return list;
  }
  uint32_t u32(uint32_t i, const char* parameter) const { return toU32(at(i), what(parameter)); }
  std::vector<uint32_t> u32List(uint32_t i, const char* parameter) const {
    return toU32List(at(i), what(parameter));
  }
  Dictionary options(uint32_t i) const { return Dictionary(at(i), what("options")); }
  Napi::Env env() const { return env_; }

 private:
  Napi::Env env_;
  const std::string& name_;
  const Napi::Array& args_;
};

using Result = std::vector<MLOperand>;
using Op = std::function<Result(MLGraphBuilder&, const Args&)>;

// A call's JavaScript arguments as the op schema asks for them, converted as the IDL types them.
struct JsArguments {
  const Args& args;

  template <class T>
  T read(size_t index, std::string_view name) {
    const auto i = static_cast<uint32_t>(index);
    const std::string parameter(name);
    if constexpr (std::is_same_v<T, MLOperand>) {
      return args.operand(i, parameter.c_str());
    } else if constexpr (std::is_same_v<T, std::vector<MLOperand>>) {
      return args.operands(i, parameter.c_str());
    } else if constexpr (std::is_same_v<T, uint32_t>) {
      return args.u32(i, parameter.c_str());
    } else if constexpr (std::is_same_v<T, std::vector<uint32_t>>) {
      return args.u32List(i, parameter.c_str());
    } else if constexpr (std::is_same_v<T, MLOperandDataType>) {
      return toDataType(args.at(i), args.what(parameter.c_str()));
    } else if constexpr (std::is_same_v<T, schema::Splits>) {
      if (args.at(i).IsNumber()) return schema::Splits(args.u32(i, parameter.c_str()));
      return schema::Splits(args.u32List(i, parameter.c_str()));
    } else {
      static_assert(schema::OptionsDictionary<T>, "a parameter kind the binding cannot read");
      T options;
      Dictionary dictionary = args.options(i);
      schema::forEachMember(
          options, [&](std::string_view key, auto& member) { dictionary.member(key, member); });
      return options;
    }
  }
};

// Every op of the schema; sequence results known from the method's type.
struct OpEntry {
  Op call;
  bool returnsSequence = false;
};

std::vector<std::pair<std::string, OpEntry>> makeOps() {
  std::vector<std::pair<std::string, OpEntry>> t;
  schema::forEachOp([&t](const auto& op) {
    using Entry = std::remove_cvref_t<decltype(op)>;
    Op call = [op](MLGraphBuilder& builder, const Args& args) {
      JsArguments arguments{args};
      return schema::call(builder, op, arguments);
    };
    t.emplace_back(std::string(op.name), OpEntry{std::move(call), Entry::kReturnsSequence});
  });
  return t;
}

const std::vector<std::pair<std::string, OpEntry>>& opList() {
  static const std::vector<std::pair<std::string, OpEntry>> list = makeOps();
  return list;
}

const std::map<std::string, const OpEntry*>& opIndex() {
  static const std::map<std::string, const OpEntry*> index = [] {
    std::map<std::string, const OpEntry*> map;
    for (const auto& [name, op] : opList()) map.emplace(name, &op);
    return map;
  }();
  return index;
}

}  // namespace

Napi::Value callOp(Napi::Env env, MLGraphBuilder& builder, const std::string& name,
                   const Napi::Array& args) {
  auto it = opIndex().find(name);
  if (it == opIndex().end()) throw Napi::TypeError::New(env, "no builder method named " + name);
  const Result result = it->second->call(builder, Args(env, name, args));
  if (!it->second->returnsSequence) return NativeOperand::wrap(env, result.at(0));
  Napi::Array array = Napi::Array::New(env, result.size());
  for (size_t i = 0; i < result.size(); ++i) array.Set(i, NativeOperand::wrap(env, result[i]));
  return array;
}

std::vector<std::string> opNames() {
  std::vector<std::string> names;
  for (const auto& [name, op] : opList()) names.push_back(name);
  return names;
}

}  // namespace webnn::node
