// Weight sources for Python: WeightSource.open(path) and an imported ONNX model's, shared by the
// graphs they fill; the load_constants of MLGraph and MLContext.
#pragma once

#include <pybind11/pybind11.h>
#include <webnn/webnn.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace webnn::python {

// A WeightSource object, or a path (str or os.PathLike) opened now.
std::shared_ptr<WeightSource> weightSourceOf(const pybind11::handle& source,
                                             const std::string& what);

// What a load does with the source and the options (run without the GIL).
using LoadConstants = std::function<void(const WeightSource& source, const LoadOptions& options)>;

// The keyword arguments of load_constants that are plain values, as LoadOptions' fields:
// require_all, threads, reload, allow_mapping, max_tensor_bytes, max_total_bytes (None: no limit).
struct LoadKeywords {
  bool requireAll = true;
  uint32_t threads = 0;
  bool reload = false;
  bool allowMapping = false;
  std::optional<uint64_t> maxTensorBytes;
  std::optional<uint64_t> maxTotalBytes;
};

// load_constants(source, names=, on_progress=, ...) of MLGraph and MLContext: `names` (a dict or
// a function) is resolved now for each of `labels` (what is still to load).
void loadConstantsFrom(const pybind11::object& source, const pybind11::object& names,
                       const pybind11::object& onProgress, const LoadKeywords& keywords,
                       const std::vector<std::string>& labels, const LoadConstants& load);

}  // namespace webnn::python
