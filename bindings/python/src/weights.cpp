// WeightSource (safetensors, GGUF, WebNN weights, or an imported ONNX model's) and the ONNX
// importer: onnx_load(path, builder, ...) -> ImportedModel, the graph weightless, its weights a
// WeightSource that load_constants streams from the model file.
#include "weights.h"

#include <pybind11/stl.h>

#include <exception>
#include <map>
#include <mutex>

#include "bindings.h"
#include "convert.h"

#ifdef WEBNN_HAVE_ONNX
#include <webnn/onnx.h>
#endif

namespace webnn::python {
namespace {

using SharedSource = std::shared_ptr<WeightSource>;

#ifdef WEBNN_HAVE_ONNX
struct PyImportedModel {
  py::list inputs, outputs;  // [(name, descriptor dict)]
  std::map<std::string, MLOperand> outputOperands;
  SharedSource weights;
  uint64_t weightBytes = 0;
  size_t weightCount = 0, nodeCount = 0, foldedNodeCount = 0;
  int64_t opsetVersion = 0;
  std::string producer;
};

py::list namedDescriptors(const std::vector<std::pair<std::string, MLOperandDescriptor>>& list) {
  py::list out;
  for (const auto& [name, descriptor] : list)
    out.append(py::make_tuple(name, fromDescriptor(descriptor)));
  return out;
}
#endif

}  // namespace

std::shared_ptr<WeightSource> weightSourceOf(const py::handle& source, const std::string& what) {
  if (py::isinstance<WeightSource>(source)) return source.cast<SharedSource>();
  py::object path = py::reinterpret_borrow<py::object>(source);
  if (!py::isinstance<py::str>(path)) {
    if (!py::hasattr(path, "__fspath__")) {
      throw py::type_error(what + ": source must be a path or a WeightSource");
    }
    path = path.attr("__fspath__")();
  }
  const std::string file = path.cast<std::string>();
  py::gil_scoped_release release;
  return WeightSource::open(file);
}

void loadConstantsFrom(const py::object& source, const py::object& names,
                       const py::object& onProgress, const LoadKeywords& keywords,
                       const std::vector<std::string>& labels, const LoadConstants& load) {
  std::shared_ptr<WeightSource> weights = weightSourceOf(source, "load_constants()");
  LoadOptions options;
  options.requireAll = keywords.requireAll;
  options.threads = keywords.threads;
  options.reload = keywords.reload;
  options.allowMapping = keywords.allowMapping;
  if (keywords.maxTensorBytes) options.maxTensorBytes = *keywords.maxTensorBytes;
  if (keywords.maxTotalBytes) options.maxTotalBytes = *keywords.maxTotalBytes;
  // Names are resolved now, with the GIL: a dict, or a function of the label.
  if (!names.is_none()) {
    std::map<std::string, std::string> mapping;
    const bool callable = PyCallable_Check(names.ptr());
    if (!callable && !py::isinstance<py::dict>(names)) {
      throw py::type_error("load_constants(): names must be a dict or a function of the label");
    }
    for (const std::string& label : labels) {
      if (callable) {
        mapping[label] = names(label).cast<std::string>();
      } else if (names.contains(label)) {
        mapping[label] = names[label.c_str()].cast<std::string>();
      }
    }
    options.nameMapping = [mapping = std::move(mapping)](const std::string& label) {
      const auto it = mapping.find(label);
      return it == mapping.end() ? label : it->second;
    };
  }
  // Progress from the loading threads, with the GIL; the first exception it raises is kept and
  // raised once the load is over.
  std::exception_ptr progressError;
  std::mutex errorMutex;
  if (!onProgress.is_none()) {
    if (!PyCallable_Check(onProgress.ptr())) {
      throw py::type_error("load_constants(): on_progress must be callable");
    }
    options.progress = [&](uint64_t done, uint64_t total) {
      py::gil_scoped_acquire acquire;
      try {
        onProgress(done, total);
      } catch (py::error_already_set&) {
        std::lock_guard lock(errorMutex);
        if (!progressError) progressError = std::current_exception();
      }
    };
  }
  {
    py::gil_scoped_release release;
    load(*weights, options);
  }
  if (progressError) std::rethrow_exception(progressError);
}

void registerOnnx(py::module_& module) {
  py::class_<WeightSource, SharedSource>(module, "WeightSource",
                                         "Tensors of a weights file, read straight into a "
                                         "graph's constants.")
      .def_static(
          "open",
          [](const py::handle& path) { return weightSourceOf(path, "WeightSource.open()"); },
          py::arg("path"))
      .def_property_readonly("format_name",
                             [](const WeightSource& s) { return std::string(s.formatName()); })
      .def_property_readonly("path", &WeightSource::path)
      .def_property_readonly("total_bytes", &WeightSource::totalBytes)
      .def_property_readonly("tensor_names", [](const WeightSource& s) {
        std::vector<std::string> names;
        for (const TensorInfo& t : s.tensors()) names.push_back(t.name);
        return names;
      });

#ifdef WEBNN_HAVE_ONNX
  py::class_<PyImportedModel>(module, "ImportedModel", "An ONNX model imported weightless.")
      .def_readonly("inputs", &PyImportedModel::inputs)
      .def_readonly("outputs", &PyImportedModel::outputs)
      .def_readonly("output_operands", &PyImportedModel::outputOperands)
      .def_readonly("weights", &PyImportedModel::weights)
      .def_readonly("weight_bytes", &PyImportedModel::weightBytes)
      .def_readonly("weight_count", &PyImportedModel::weightCount)
      .def_readonly("node_count", &PyImportedModel::nodeCount)
      .def_readonly("folded_node_count", &PyImportedModel::foldedNodeCount)
      .def_readonly("opset_version", &PyImportedModel::opsetVersion)
      .def_readonly("producer", &PyImportedModel::producer);
  module.def(
      "onnx_load",
      [](const py::handle& pathObject, PyBuilder& builder,
         const std::map<std::string, std::vector<uint32_t>>& inputShapes,
         const std::map<std::string, uint32_t>& dimensions) {
        py::object path = py::reinterpret_borrow<py::object>(pathObject);
        if (!py::isinstance<py::str>(path) && py::hasattr(path, "__fspath__"))
          path = path.attr("__fspath__")();
        onnx::ImportOptions options;
        options.inputShapes = inputShapes;
        options.dimensions = dimensions;
        const std::string file = path.cast<std::string>();
        onnx::ImportedModel imported = onnx::importModel(file, *builder.builder, options);
        PyImportedModel model;
        model.inputs = namedDescriptors(imported.inputs);
        model.outputs = namedDescriptors(imported.outputs);
        model.outputOperands = imported.outputOperands;
        model.weights = SharedSource(std::move(imported.weights));
        model.weightBytes = imported.weightBytes;
        model.weightCount = imported.weightCount;
        model.nodeCount = imported.nodeCount;
        model.foldedNodeCount = imported.foldedNodeCount;
        model.opsetVersion = imported.opsetVersion;
        model.producer = imported.producer;
        return model;
      },
      py::arg("path"), py::arg("builder"), py::kw_only(),
      py::arg("input_shapes") = std::map<std::string, std::vector<uint32_t>>{},
      py::arg("dimensions") = std::map<std::string, uint32_t>{});
  module.def(
      "onnx_summarize",
      [](const py::handle& pathObject) {
        py::object path = py::reinterpret_borrow<py::object>(pathObject);
        if (!py::isinstance<py::str>(path) && py::hasattr(path, "__fspath__"))
          path = path.attr("__fspath__")();
        const std::string file = path.cast<std::string>();
        onnx::ModelSummary summary;
        {
          py::gil_scoped_release release;
          summary = onnx::summarizeModel(file);
        }
        py::dict dict;
        dict["opset_version"] = summary.opsetVersion;
        dict["producer"] = summary.producer;
        dict["block_quantized_matmuls"] = summary.blockQuantizedMatMuls;
        dict["int8_accuracy_matmuls"] = summary.int8AccuracyMatMuls;
        dict["allows_int8_activations"] = summary.allowsInt8Activations();
        return dict;
      },
      py::arg("path"),
      "What the model asks of the runtime, from its structure alone (no weight byte read).");
  module.attr("HAVE_ONNX") = true;
#else
  module.attr("HAVE_ONNX") = false;
#endif
}

}  // namespace webnn::python
