#include "bindings.h"

#include <webnn/webnn.h>

#include <map>

namespace webnn::python {

namespace py = pybind11;

void registerErrors(py::module_& module) {
  // Created once and never freed: the translator refers to them until the interpreter ends (a
  // static object's destructor would release them after it).
  static auto* base = new py::exception<Error>(module, "WebNNError");
  static auto* classes = new std::map<Error::Kind, py::object>();
  for (const auto& [kind, name] : {std::pair{Error::Kind::InvalidStateError, "InvalidStateError"},
                                   std::pair{Error::Kind::OperationError, "OperationError"},
                                   std::pair{Error::Kind::UnknownError, "UnknownError"},
                                   std::pair{Error::Kind::NotSupportedError, "NotSupportedError"},
                                   std::pair{Error::Kind::DataError, "DataError"}}) {
    py::object type = py::reinterpret_steal<py::object>(
        PyErr_NewException((std::string("webnn.") + name).c_str(), base->ptr(), nullptr));
    module.attr(name) = type;
    (*classes)[kind] = type;
  }
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer) std::rethrow_exception(pointer);
    } catch (const Error& error) {
      if (error.kind() == Error::Kind::TypeError) {
        PyErr_SetString(PyExc_TypeError, error.what());
        return;
      }
      const auto it = classes->find(error.kind());
      PyErr_SetString(it != classes->end() ? it->second.ptr() : base->ptr(), error.what());
    }
  });
}

}  // namespace webnn::python
