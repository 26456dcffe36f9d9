#include "schema/python_stubs.h"

#include <webnn/op_schema.h>

#include <optional>
#include <type_traits>
#include <vector>

#include "schema/type_traits.h"

namespace webnn::tools {
namespace {

// The Python type of a C++ parameter or member type, as the binding converts it.
template <class T>
std::string typeName() {
  if constexpr (IsOptional<T>::value) {
    return typeName<typename IsOptional<T>::Type>();
  } else if constexpr (std::is_same_v<T, schema::Splits>) {
    return "Union[int, Sequence[int]]";
  } else if constexpr (IsVector<T>::value) {
    return "Sequence[" + typeName<typename IsVector<T>::Type>() + "]";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "str";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "bool";
  } else if constexpr (std::is_same_v<T, MLNumber>) {
    return "Union[int, float]";
  } else if constexpr (std::is_same_v<T, MLOperand>) {
    return "MLOperand";
  } else if constexpr (std::is_same_v<T, MLOperandDataType>) {
    return "DataType";
  } else if constexpr (schema::SpecEnum<T>) {
    std::string literal = "Literal[";
    const char* separator = "";
    for (const auto& [text, value] : schema::EnumStrings<T>::entries) {
      literal += separator;
      literal += "\"" + std::string(text) + "\"";
      separator = ", ";
    }
    return literal + "]";
  } else if constexpr (std::is_floating_point_v<T>) {
    return "float";
  } else {
    static_assert(std::is_integral_v<T>, "a type without a Python name");
    return "int";
  }
}

}  // namespace

std::string pythonBuilderMethods() {
  std::string out;
  schema::forEachOp([&](const auto& op) {
    using Op = std::remove_cvref_t<decltype(op)>;
    using Parameters = typename Op::Parameters;
    out += "    def " + schema::pythonName(op.name) + "(\n        self,\n";
    [&]<size_t... I>(std::index_sequence<I...>) {
      ((out += "        " + schema::pythonName(op.parameters[I]) + ": " +
               typeName<std::tuple_element_t<I, Parameters>>() + ",\n"),
       ...);
    }
    (std::make_index_sequence<Op::kArity>{});
    out += "        options: Optional[Mapping[str, Any]] = None,\n        *,\n";
    schema::forEachMemberType<typename Op::OptionsType>([&]<class T>(std::string_view member) {
      out += "        " + schema::pythonName(member) + ": " + typeName<T>() + " = ...,\n";
    });
    out += Op::kReturnsSequence ? "    ) -> List[MLOperand]: ...\n" : "    ) -> MLOperand: ...\n";
  });
  return out;
}

}  // namespace webnn::tools
