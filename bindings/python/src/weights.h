// Weight sources for Python: WeightSource.open(path) and an imported ONNX model's, shared by the
// graphs they fill; the load_constants of MLGraph and MLContext.
#pragma once

#include <pybind11/pybind11.h>
#include <webnn/webnn.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace webnn::python {

// A WeightSource object, or a path (str or os.PathLike) opened now.
std::shared_ptr<WeightSource> weightSourceOf(const pybind11::handle& source,
                                             const std::string& what);

// What a load does with the source and the options (run without the GIL).
using LoadConstants = std::function<void(const WeightSource& source, const LoadOptions& options)>;

// load_constants(source, names=, on_progress=, require_all=, threads=) of MLGraph and MLContext:
// `names` (a dict or a function) is resolved now for each of `labels` (what is still to load).
void loadConstantsFrom(const pybind11::object& source, const pybind11::object& names,
                       const pybind11::object& onProgress, bool requireAll, uint32_t threads,
                       const std::vector<std::string>& labels, const LoadConstants& load);

}  // namespace webnn::python
