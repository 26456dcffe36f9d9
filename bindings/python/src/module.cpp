// The native part of the `webnn` Python package (webnn/_webnn): the WebNN API over webnn-cpp.
#include "bindings.h"

PYBIND11_MODULE(_webnn, module) {
  module.doc() = "The W3C WebNN API over webnn-cpp, with weightless graphs and copy-once constants";
  webnn::python::registerErrors(module);
  webnn::python::registerOperand(module);
  webnn::python::registerContext(module);
  webnn::python::registerBuilder(module);
  webnn::python::registerGraph(module);
  webnn::python::registerOnnx(module);
}
