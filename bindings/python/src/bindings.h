// The Python classes' C++ sides and the registration of each part of the module. Errors
// (errors.cpp): webnn::Error as Python exceptions named as the spec's: TypeError stays Python's
// TypeError; the DOMException names are classes of the module (webnn.InvalidStateError,
// webnn.DataError, ...), subclasses of webnn.WebNNError.
#pragma once

#include <pybind11/pybind11.h>
#include <webnn/webnn.h>

#include <memory>

namespace webnn::python {

namespace py = pybind11;

// MLGraphBuilder with the context it builds for (a graph's compute() dispatches on it).
struct PyBuilder {
  MLContext context;
  std::unique_ptr<MLGraphBuilder> builder;
  explicit PyBuilder(MLContext c)
      : context(std::move(c)), builder(std::make_unique<MLGraphBuilder>(context)) {}
};

// MLGraph with its context.
struct PyGraph {
  MLGraph graph;
  MLContext context;
};

void registerErrors(py::module_& module);
void registerContext(py::module_& module);  // ml, MLContext, MLTensor
void registerOperand(py::module_& module);
void registerBuilder(py::module_& module);
void registerGraph(py::module_& module);
void registerOnnx(py::module_& module);  // WeightSource, onnx_load

}  // namespace webnn::python
