// MLOperand: read-only data type, shape and label.
#include <pybind11/stl.h>

#include "bindings.h"
#include "convert.h"

namespace webnn::python {

void registerOperand(py::module_& module) {
  py::class_<MLOperand>(module, "MLOperand", "An operand of an MLGraphBuilder's graph.")
      .def_property_readonly("data_type",
                             [](const MLOperand& o) { return std::string(toString(o.dataType())); })
      .def_property_readonly("dataType",
                             [](const MLOperand& o) { return std::string(toString(o.dataType())); })
      .def_property_readonly("shape", [](const MLOperand& o) { return o.shape(); })
      .def_property_readonly("label", [](const MLOperand& o) { return o.label(); })
      .def_property_readonly("is_constant", &MLOperand::isConstant)
      .def("__repr__", [](const MLOperand& o) {
        std::string text = "<MLOperand " + toString(o.descriptor());
        if (!o.label().empty()) text += " '" + o.label() + "'";
        return text + ">";
      });
}

}  // namespace webnn::python
