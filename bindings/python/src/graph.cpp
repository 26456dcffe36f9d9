// MLGraph for Python: the proposal's constant filling (set/write from any buffer, copied once;
// load_constants from a file without the GIL), descriptors, implementations, profile, and
// compute({"x": array}) -> {"y": array}.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <map>
#include <optional>

#include "bindings.h"
#include "convert.h"
#include "weights.h"

namespace webnn::python {
namespace {

py::dict descriptors(const std::map<std::string, MLOperandDescriptor>& map) {
  py::dict dict;
  for (const auto& [name, descriptor] : map) dict[name.c_str()] = fromDescriptor(descriptor);
  return dict;
}

void loadConstants(PyGraph& self, const py::object& source, const py::object& names,
                   const py::object& onProgress, bool requireAll, uint32_t threads, bool reload,
                   bool allowMapping, std::optional<uint64_t> maxTensorBytes,
                   std::optional<uint64_t> maxTotalBytes) {
  std::vector<std::string> labels;
  if (!names.is_none()) {
    for (const MLOperand& constant : self.graph.pendingConstants())
      labels.push_back(constant.label());
  }
  MLGraph graph = self.graph;
  const LoadKeywords keywords{requireAll,   threads,        reload,
                              allowMapping, maxTensorBytes, maxTotalBytes};
  loadConstantsFrom(source, names, onProgress, keywords, labels,
                    [&graph](const WeightSource& weights, const LoadOptions& options) {
                      graph.loadConstants(weights, options);
                    });
}

py::dict compute(PyGraph& self, const py::dict& inputs) {
  const auto inputDescriptors = self.graph.inputDescriptors();
  const auto outputDescriptors = self.graph.outputDescriptors();
  for (const auto& [key, value] : inputs) {
    if (!inputDescriptors.count(key.cast<std::string>())) {
      throw py::type_error("compute(): the graph has no input '" + key.cast<std::string>() + "'");
    }
  }
  MLNamedTensors in, out;
  std::vector<std::pair<py::buffer_info, std::span<const std::byte>>> data;
  for (const auto& [name, descriptor] : inputDescriptors) {
    if (!inputs.contains(name)) throw py::type_error("compute(): input '" + name + "' is missing");
    const std::string what = "compute(): input '" + name + "'";
    py::array array = py::array::ensure(inputs[name.c_str()], py::array::c_style);
    if (!array) throw py::type_error(what + " must be an array");
    MLOperandDataType type;
    try {
      type = toDataType(array.dtype(), what);
    } catch (const py::type_error&) {
      throw py::type_error(what + " is a " + py::str(array.dtype()).cast<std::string>() +
                           " array; the graph takes " + toString(descriptor));
    }
    std::vector<uint32_t> shape;
    for (py::ssize_t i = 0; i < array.ndim(); ++i)
      shape.push_back(static_cast<uint32_t>(array.shape(i)));
    if (type != descriptor.dataType || shape != descriptor.shape) {
      throw py::type_error(what + " is " + toString(MLOperandDescriptor{type, shape}) +
                           "; the graph takes " + toString(descriptor));
    }
    in[name] = self.context.createTensor({descriptor, false, true});
    py::buffer_info holder;
    const std::span<const std::byte> bytes = readableBytes(array, holder, what);
    self.context.writeTensor(in[name], bytes);
  }
  py::dict results;
  std::map<std::string, py::array> arrays;
  for (const auto& [name, descriptor] : outputDescriptors) {
    out[name] = self.context.createTensor({descriptor, true, false});
    arrays[name] = emptyArray(descriptor);
  }
  {
    py::gil_scoped_release release;
    self.context.dispatch(self.graph, in, out);
  }
  for (auto& [name, array] : arrays) {
    py::buffer_info holder;
    std::span<std::byte> bytes = writableBytes(array, holder, "compute()");
    {
      py::gil_scoped_release release;
      self.context.readTensor(out[name], bytes);
    }
    results[name.c_str()] = array;
  }
  return results;
}

}  // namespace

void registerGraph(py::module_& module) {
  py::class_<PyGraph>(module, "MLGraph", "A compiled graph.")
      .def("pending_constants", [](const PyGraph& g) { return g.graph.pendingConstants(); })
      .def("hollow_constants", [](const PyGraph& g) { return g.graph.hollowConstants(); })
      .def(
          "set_constant_data",
          [](PyGraph& g, const MLOperand& constant, const py::handle& data) {
            py::buffer_info holder;
            const auto bytes = readableBytes(data, holder, "set_constant_data(): data");
            py::gil_scoped_release release;
            g.graph.setConstantData(constant, bytes);
          },
          py::arg("constant"), py::arg("data"),
          "The whole constant from any buffer (numpy array, bytes, memoryview, memmap slice), "
          "copied once into its final storage.")
      .def(
          "write_constant_data",
          [](PyGraph& g, const MLOperand& constant, uint64_t byteOffset, const py::handle& data) {
            py::buffer_info holder;
            const auto bytes = readableBytes(data, holder, "write_constant_data(): data");
            py::gil_scoped_release release;
            g.graph.writeConstantData(constant, byteOffset, bytes);
          },
          py::arg("constant"), py::arg("byte_offset"), py::arg("data"),
          "A chunk of the constant's bytes at `byte_offset`; chunks in any order.")
      .def("load_constants", &loadConstants, py::arg("source"), py::kw_only(),
           py::arg("names") = py::none(), py::arg("on_progress") = py::none(),
           py::arg("require_all") = true, py::arg("threads") = 0, py::arg("reload") = false,
           py::arg("allow_mapping") = false, py::arg("max_tensor_bytes") = py::none(),
           py::arg("max_total_bytes") = py::none(),
           "Streams every pending constant by label from `source` (a safetensors, GGUF or WebNN "
           "weights path, or a WeightSource such as an imported ONNX model's), without the GIL. "
           "reload: every constant, complete or not (a new weight set); allow_mapping: constants "
           "kept as the file stores them adopt a map of it; max_tensor_bytes / max_total_bytes: "
           "limits checked before any byte is read (TypeError naming the constant).")
      .def_property_readonly(
          "input_descriptors",
          [](const PyGraph& g) { return descriptors(g.graph.inputDescriptors()); })
      .def_property_readonly(
          "output_descriptors",
          [](const PyGraph& g) { return descriptors(g.graph.outputDescriptors()); })
      .def("implementations",
           [](const PyGraph& g) {
             py::list list;
             for (const MLStepImplementation& s : g.graph.implementations()) {
               py::dict d;
               d["type"] = s.type;
               d["label"] = s.label;
               d["dataType"] = s.dataType;
               d["implementation"] = s.implementation;
               d["fallbackReason"] = s.fallbackReason;
               list.append(d);
             }
             return list;
           })
      .def("profile",
           [](const PyGraph& g) {
             py::list list;
             for (const MLOperationProfile& p : g.graph.profile()) {
               py::dict d;
               d["type"] = p.type;
               d["label"] = p.label;
               d["implementation"] = p.implementation;
               d["runs"] = p.runs;
               d["totalMilliseconds"] = p.totalMilliseconds;
               list.append(d);
             }
             return list;
           })
      .def("compute", &compute, py::arg("inputs"),
           "Runs the graph on numpy arrays: {name: array} -> {name: array} (dtype and shape as "
           "the graph's; new tensors each call).")
      .def_property_readonly("context", [](const PyGraph& g) { return g.context; })
      .def("destroy", [](PyGraph& g) { g.graph.destroy(); });
}

}  // namespace webnn::python
