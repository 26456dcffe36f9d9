// MLGraphBuilder for Python: input, constant (classic, scalar, hollow, or over a constant tensor),
// build, and every operation of the op schema (webnn/op_schema.h) under its Python name,
// parameters by position or keyword, the options dictionary as keywords (Python or spec names) or
// as a trailing dict.
#include <pybind11/stl.h>
#include <webnn/op_schema.h>

#include <set>
#include <type_traits>

#include "bindings.h"
#include "convert.h"

namespace webnn::python {
namespace {

// One call's arguments as the op schema asks for them.
class PythonArguments {
 public:
  PythonArguments(std::string op, const py::args& args, const py::kwargs& kwargs, size_t arity)
      : op_(std::move(op)), args_(args), kwargs_(kwargs), arity_(arity) {
    if (args_.size() > arity_ + 1) {
      throw py::type_error(op_ + "() takes at most " + std::to_string(arity_ + 1) +
                           " positional arguments (" + std::to_string(args_.size()) + " given)");
    }
  }

  template <class T>
  T read(size_t index, std::string_view name) {
    if constexpr (schema::OptionsDictionary<T>) {
      return readOptions<T>(index);
    } else {
      const py::object value = parameter(index, name);
      const std::string what = op_ + "(): " + std::string(name);
      if constexpr (std::is_same_v<T, MLOperand>) {
        if (!py::isinstance<MLOperand>(value)) throw py::type_error(what + " must be an MLOperand");
        return value.cast<MLOperand>();
      } else if constexpr (std::is_same_v<T, std::vector<MLOperand>>) {
        if (py::isinstance<py::str>(value) || !py::isinstance<py::sequence>(value)) {
          throw py::type_error(what + " must be a sequence of MLOperand");
        }
        std::vector<MLOperand> operands;
        for (const py::handle item : py::reinterpret_borrow<py::sequence>(value)) {
          if (!py::isinstance<MLOperand>(item)) {
            throw py::type_error(what + "[" + std::to_string(operands.size()) +
                                 "] must be an MLOperand");
          }
          operands.push_back(item.cast<MLOperand>());
        }
        return operands;
      } else if constexpr (std::is_same_v<T, uint32_t>) {
        return toU32(value, what);
      } else if constexpr (std::is_same_v<T, std::vector<uint32_t>>) {
        return toU32List(value, what);
      } else if constexpr (std::is_same_v<T, MLOperandDataType>) {
        return toDataType(value, what);
      } else {
        static_assert(std::is_same_v<T, schema::Splits>,
                      "a parameter kind the binding cannot read");
        if (py::isinstance<py::int_>(value)) return schema::Splits(toU32(value, what));
        return schema::Splits(toU32List(value, what));
      }
    }
  }

  // Keywords the op does not take (checked before the builder is called: a misspelt option
  // must neither be ignored nor leave an operation behind).
  template <class Entry>
  void refuseUnknownKeywords(const Entry& op) const {
    std::set<std::string> known = {"options"};
    for (size_t i = 0; i < Entry::kArity; ++i) {
      known.insert(std::string(op.parameters[i]));
      known.insert(pythonName(op.parameters[i]));
    }
    schema::forEachMemberType<typename Entry::OptionsType>([&]<class>(std::string_view name) {
      known.insert(std::string(name));
      known.insert(pythonName(name));
    });
    for (const auto& [key, value] : kwargs_) {
      const std::string name = py::cast<std::string>(key);
      if (known.count(name)) continue;
      std::string list;
      for (const std::string& k : known) {
        if (pythonName(k) == k) list += (list.empty() ? "" : ", ") + k;
      }
      throw py::type_error(op_ + "() got an unexpected keyword argument '" + name +
                           "' (it takes: " + list + ")");
    }
  }

 private:
  // Parameter `index` by position, else by keyword (its Python or spec name).
  py::object parameter(size_t index, std::string_view name) {
    const std::string spec(name);
    const std::string python = pythonName(name);
    if (index < args_.size()) {
      if (keyword(spec, python)) {
        throw py::type_error(op_ + "() got multiple values for argument '" + python + "'");
      }
      return args_[index];
    }
    if (py::object value = keyword(spec, python)) return value;
    throw py::type_error(op_ + "() missing required argument '" + python + "'");
  }

  py::object keyword(const std::string& spec, const std::string& python) {
    for (const std::string* key : {&python, &spec}) {
      if (kwargs_.contains(key->c_str())) {
        return kwargs_[key->c_str()];
      }
    }
    return py::object();
  }

  template <class O>
  O readOptions(size_t index) {
    O options;
    py::dict dictionary;
    // The dictionary: the last positional argument, or the keyword `options`.
    py::object given = index < args_.size() ? py::reinterpret_borrow<py::object>(args_[index])
                                            : keyword("options", "options");
    if (given && !given.is_none()) {
      if (!py::isinstance<py::dict>(given)) {
        throw py::type_error(op_ + "(): options must be a dict (or keyword arguments)");
      }
      dictionary = given.cast<py::dict>();
    }
    schema::forEachMember(options, [&](std::string_view key, auto& member) {
      const std::string spec(key);
      const std::string python = pythonName(key);
      py::object value = keyword(spec, python);
      if (!value) {
        if (dictionary.contains(spec.c_str()))
          value = dictionary[spec.c_str()];
        else if (dictionary.contains(python.c_str()))
          value = dictionary[python.c_str()];
      }
      if (value && !value.is_none()) readMember(value, op_ + "(): " + python, member);
    });
    return options;
  }

  static void readMember(const py::object& v, const std::string& what, std::string& out) {
    if (!py::isinstance<py::str>(v)) throw py::type_error(what + " must be a str");
    out = v.cast<std::string>();
  }
  static void readMember(const py::object& v, const std::string&, bool& out) { out = py::bool_(v); }
  static void readMember(const py::object& v, const std::string& what, double& out) {
    out = toDouble(v, what);
  }
  static void readMember(const py::object& v, const std::string& what, MLNumber& out) {
    out = toMLNumber(v, what);
  }
  static void readMember(const py::object& v, const std::string& what, uint32_t& out) {
    out = toU32(v, what);
  }
  static void readMember(const py::object& v, const std::string& what, int32_t& out) {
    out = toI32(v, what);
  }
  static void readMember(const py::object& v, const std::string& what, std::vector<uint32_t>& out) {
    out = toU32List(v, what);
  }
  static void readMember(const py::object& v, const std::string& what,
                         std::optional<std::vector<uint32_t>>& out) {
    out = toU32List(v, what);
  }
  static void readMember(const py::object& v, const std::string& what,
                         std::optional<std::vector<float>>& out) {
    out.emplace();
    for (const py::handle item : py::reinterpret_borrow<py::sequence>(v)) {
      out->push_back(static_cast<float>(toDouble(item, what)));
    }
  }
  static void readMember(const py::object& v, const std::string& what,
                         std::optional<MLOperand>& out) {
    if (!py::isinstance<MLOperand>(v)) throw py::type_error(what + " must be an MLOperand");
    out = v.cast<MLOperand>();
  }
  static void readMember(const py::object& v, const std::string& what, MLOperandDataType& out) {
    out = toDataType(v, what);
  }
  template <schema::SpecEnum Enum>
  static void readMember(const py::object& v, const std::string& what, Enum& out) {
    out = toEnum<Enum>(v, what);
  }
  template <schema::SpecEnum Enum>
  static void readMember(const py::object& v, const std::string& what,
                         std::optional<std::vector<Enum>>& out) {
    out.emplace();
    size_t i = 0;
    for (const py::handle item : py::reinterpret_borrow<py::sequence>(v)) {
      out->push_back(toEnum<Enum>(item, what + "[" + std::to_string(i++) + "]"));
    }
  }
  template <schema::SpecEnum Enum>
  static Enum toEnum(const py::handle& v, const std::string& what) {
    if (py::isinstance<py::str>(v)) {
      if (auto value = schema::fromSpecString<Enum>(v.cast<std::string>())) return *value;
    }
    std::string names;
    for (const auto& [text, value] : schema::EnumStrings<Enum>::entries) {
      names += (names.empty() ? "'" : ", '") + std::string(text) + "'";
    }
    throw py::type_error(what + " must be one of " + names + " (" +
                         std::string(schema::EnumStrings<Enum>::name) + ")");
  }

  std::string op_;
  const py::args& args_;
  const py::kwargs& kwargs_;
  size_t arity_;
};

}  // namespace

void registerBuilder(py::module_& module) {
  auto builder = py::class_<PyBuilder>(module, "MLGraphBuilder",
                                       "Builds a graph op by op; validation and shape inference "
                                       "happen at each call.");
  builder.def(py::init<MLContext>(), py::arg("context"));
  builder.def(
      "input",
      [](PyBuilder& self, const std::string& name, const py::handle& descriptor) {
        return self.builder->input(name, toDescriptor(descriptor, "input(): descriptor"));
      },
      py::arg("name"), py::arg("descriptor"));
  builder.def(
      "constant",
      [](PyBuilder& py_self, const py::object& first, const py::object& data,
         const py::object& label) -> MLOperand {
        MLGraphBuilder& self = *py_self.builder;
        // constant(tensor): reads a constant tensor of the context (the spec's overload).
        if (py::isinstance<MLTensor>(first)) {
          if (!data.is_none() || !label.is_none()) {
            throw py::type_error("constant(tensor) takes no data and no label");
          }
          return self.constant(first.cast<MLTensor>());
        }
        // constant(type, value): a scalar.
        if (!py::isinstance<py::dict>(first) && !py::isinstance<py::array>(first)) {
          if (data.is_none()) throw py::type_error("constant(type, value): the value is missing");
          return self.constant(toDataType(first, "constant(): type"),
                               toMLNumber(data, "constant(): value"));
        }
        // constant(array): the descriptor from the array, its bytes copied (classic).
        if (py::isinstance<py::array>(first)) {
          const py::array array = py::array::ensure(first, py::array::c_style);
          MLOperandDescriptor descriptor;
          descriptor.dataType = toDataType(array.dtype(), "constant(): the array's dtype");
          for (py::ssize_t i = 0; i < array.ndim(); ++i) {
            descriptor.shape.push_back(toU32(py::int_(array.shape(i)), "constant(): shape"));
          }
          py::buffer_info holder;
          return self.constant(descriptor, readableBytes(array, holder, "constant(): array"));
        }
        const MLOperandDescriptor descriptor = toDescriptor(first, "constant(): descriptor");
        if (data.is_none()) {
          // Hollow (the proposal): a descriptor and a label, filled after build().
          MLConstantOptions options;
          if (!label.is_none()) options.label = label.cast<std::string>();
          return self.constant(descriptor, options);
        }
        py::buffer_info holder;
        return self.constant(descriptor, readableBytes(data, holder, "constant(): data"));
      },
      py::arg("descriptor"), py::arg("data") = py::none(), py::kw_only(),
      py::arg("label") = py::none(),
      "constant(descriptor, data): classic, the bytes copied now; constant(descriptor, "
      "label=...): hollow, filled after build(); constant(array); constant(type, value): a "
      "scalar; constant(tensor): reads a constant tensor (MLContext.create_constant_tensor), "
      "filled or not, one copy shared by every graph built on it.");
  builder.def(
      "build",
      [](PyBuilder& self, const std::map<std::string, MLOperand>& outputs) {
        return PyGraph{self.builder->build(outputs), self.context};
      },
      py::arg("outputs"));

  // The spec's name of every operation -> its Python name (docs/python.md lists them).
  py::dict names;
  schema::forEachOp(
      [&names](const auto& op) { names[std::string(op.name).c_str()] = pythonName(op.name); });
  module.attr("OP_NAMES") = names;
  schema::forEachOp([&builder](const auto& op) {
    using Entry = std::remove_cvref_t<decltype(op)>;
    const std::string name = pythonName(op.name);
    builder.def(
        name.c_str(),
        [op, name](PyBuilder& self, const py::args& args, const py::kwargs& kwargs) -> py::object {
          PythonArguments reader(name, args, kwargs, Entry::kArity);
          reader.refuseUnknownKeywords(op);
          std::vector<MLOperand> result = schema::call(*self.builder, op, reader);
          if constexpr (Entry::kReturnsSequence) {
            return py::cast(result);
          } else {
            return py::cast(result.at(0));
          }
        });
  });
}

}  // namespace webnn::python
