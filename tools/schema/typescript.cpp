#include "schema/typescript.h"

#include <webnn/op_schema.h>

#include <map>
#include <type_traits>

#include "schema/type_traits.h"

namespace webnn::tools {
namespace {

// The TypeScript type of a C++ parameter or member type, as the binding converts it.
template <class T>
std::string typeName() {
  if constexpr (IsOptional<T>::value) {
    return typeName<typename IsOptional<T>::Type>();
  } else if constexpr (std::is_same_v<T, schema::Splits>) {
    return "number | number[]";
  } else if constexpr (IsVector<T>::value) {
    return typeName<typename IsVector<T>::Type>() + "[]";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "string";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "boolean";
  } else if constexpr (std::is_same_v<T, MLNumber>) {
    return "MLNumber";
  } else if constexpr (std::is_same_v<T, MLOperand>) {
    return "MLOperand";
  } else if constexpr (std::is_same_v<T, MLOperandDataType>) {
    return "MLOperandDataType";
  } else if constexpr (schema::SpecEnum<T>) {
    return std::string(schema::EnumStrings<T>::name);
  } else if constexpr (std::is_arithmetic_v<T>) {
    return "number";
  } else {
    static_assert(schema::OptionsDictionary<T>, "a type without a TypeScript name");
    return std::string(schema::Options<T>::name);
  }
}

template <class E>
std::string enumType() {
  std::string line = "export type " + std::string(schema::EnumStrings<E>::name) + " =";
  const char* separator = " ";
  for (const auto& [text, value] : schema::EnumStrings<E>::entries) {
    line += separator;
    line += "'" + std::string(text) + "'";
    separator = " | ";
  }
  return line + ";\n";
}

// The declarations the ops need, by name: their options dictionaries and the enums those use.
struct Declarations {
  std::map<std::string, std::string> enums, interfaces;

  template <class T>
  void noteEnums() {
    if constexpr (IsOptional<T>::value) {
      noteEnums<typename IsOptional<T>::Type>();
    } else if constexpr (IsVector<T>::value) {
      noteEnums<typename IsVector<T>::Type>();
    } else if constexpr (schema::SpecEnum<T>) {
      enums.emplace(std::string(schema::EnumStrings<T>::name), enumType<T>());
    }
  }

  template <class O>
  void noteOptions() {
    const std::string name(schema::Options<O>::name);
    if (interfaces.count(name)) return;
    if constexpr (std::is_same_v<O, MLOperatorOptions>) {
      interfaces.emplace(name, "export interface MLOperatorOptions { label?: string }\n");
    } else {
      std::string members;
      schema::forEachMemberType<O>([&]<class T>(std::string_view member) {
        if (member == "label") return;
        noteEnums<T>();
        members += (members.empty() ? "" : "; ") + std::string(member) + "?: " + typeName<T>();
      });
      interfaces.emplace(
          name, "export interface " + name + " extends MLOperatorOptions { " + members + " }\n");
    }
  }
};

}  // namespace

std::string typescriptTypes() {
  Declarations declarations;
  declarations.noteOptions<MLOperatorOptions>();
  schema::forEachOp([&](const auto& op) {
    using Op = std::remove_cvref_t<decltype(op)>;
    declarations.template noteOptions<typename Op::OptionsType>();
  });
  std::string out;
  for (const auto& [name, text] : declarations.enums) out += text;
  out += declarations.interfaces.at("MLOperatorOptions");
  for (const auto& [name, text] : declarations.interfaces) {
    if (name != "MLOperatorOptions") out += text;
  }
  return out;
}

std::string typescriptBuilderMethods() {
  std::string out;
  schema::forEachOp([&](const auto& op) {
    using Op = std::remove_cvref_t<decltype(op)>;
    using Parameters = typename Op::Parameters;
    std::string line = "  " + std::string(op.name) + "(";
    [&]<size_t... I>(std::index_sequence<I...>) {
      ((line += std::string(op.parameters[I]) + ": " +
                typeName<std::tuple_element_t<I, Parameters>>() + ", "),
       ...);
    }
    (std::make_index_sequence<Op::kArity>{});
    line += "options?: " + typeName<typename Op::OptionsType>() + "): ";
    line += Op::kReturnsSequence ? "MLOperand[];\n" : "MLOperand;\n";
    out += line;
  });
  return out;
}

std::optional<std::string> replaceGeneratedRegion(std::string_view text, std::string_view name,
                                                  std::string_view content,
                                                  std::string_view comment) {
  const std::string begin = std::string(comment) + " BEGIN generated: " + std::string(name);
  const std::string end = std::string(comment) + " END generated: " + std::string(name);
  const size_t beginAt = text.find(begin);
  if (beginAt == std::string_view::npos) return std::nullopt;
  const size_t afterBegin = text.find('\n', beginAt);
  const size_t endAt = text.find(end, beginAt);
  if (afterBegin == std::string_view::npos || endAt == std::string_view::npos || endAt < afterBegin)
    return std::nullopt;
  const size_t endLine = text.rfind('\n', endAt);  // the end marker's line starts after it
  std::string out(text.substr(0, afterBegin + 1));
  out += content;
  out += text.substr(endLine + 1);
  return out;
}

}  // namespace webnn::tools
