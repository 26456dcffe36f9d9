// Weight sources for Python: WeightSource.open(path) and an imported ONNX model's, shared by the
// graphs they fill.
#pragma once

#include <pybind11/pybind11.h>
#include <webnn/webnn.h>

#include <memory>
#include <string>

namespace webnn::python {

// A WeightSource object, or a path (str or os.PathLike) opened now.
std::shared_ptr<WeightSource> weightSourceOf(const pybind11::handle& source,
                                             const std::string& what);

}  // namespace webnn::python
