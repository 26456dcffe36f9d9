// ml.create_context, MLContext (tensors, writes and reads with numpy or any buffer, dispatch
// without the GIL, constant tensors, limits, memory) and MLTensor.
#include <pybind11/stl.h>

#include <optional>

#include "bindings.h"
#include "convert.h"
#include "weights.h"

namespace webnn::python {
namespace {

MLNamedTensors toNamedTensors(const py::dict& dict, const char* what) {
  MLNamedTensors tensors;
  for (const auto& [key, value] : dict) {
    if (!py::isinstance<MLTensor>(value)) {
      throw py::type_error(std::string("dispatch(): ") + what + "['" + key.cast<std::string>() +
                           "'] must be an MLTensor");
    }
    tensors.emplace(key.cast<std::string>(), value.cast<MLTensor>());
  }
  return tensors;
}

py::dict tensorLimits(const MLTensorLimits& limits) {
  py::list types;
  for (MLOperandDataType t : limits.dataTypes) types.append(std::string(toString(t)));
  py::dict dict;
  dict["dataTypes"] = types;
  py::dict range;
  range["min"] = limits.rankRange.min;
  range["max"] = limits.rankRange.max;
  dict["rankRange"] = range;
  return dict;
}

}  // namespace

void registerContext(py::module_& module) {
  py::class_<MLTensor>(module, "MLTensor", "A buffer of an MLContext, bound at dispatch.")
      .def_property_readonly("data_type",
                             [](const MLTensor& t) { return std::string(toString(t.dataType())); })
      .def_property_readonly("shape", [](const MLTensor& t) { return t.shape(); })
      .def_property_readonly("readable", &MLTensor::readable)
      .def_property_readonly("writable", &MLTensor::writable)
      .def_property_readonly("byte_length", &MLTensor::byteLength)
      .def_property_readonly(
          "constant", &MLTensor::constant,
          "A constant tensor (MLContext.create_constant_tensor), read by graphs.")
      .def_property_readonly("constant_complete", &MLTensor::constantComplete,
                             "Whether a constant tensor has every byte (False for other tensors).")
      .def_property_readonly("label", &MLTensor::label,
                             "A constant tensor's label ('' for other tensors).")
      .def("destroy", &MLTensor::destroy)
      .def("__repr__", [](const MLTensor& t) {
        const std::string descriptor = toString(MLOperandDescriptor{t.dataType(), t.shape()});
        if (!t.constant()) return "<MLTensor " + descriptor + ">";
        return "<MLTensor constant '" + t.label() + "' " + descriptor +
               (t.constantComplete() ? "" : ", not filled") + ">";
      });

  py::class_<MLContext>(module, "MLContext", "The backend graphs run on; owns MLTensors.")
      .def(
          "create_tensor",
          [](MLContext& self, const py::handle& descriptor) {
            return self.createTensor(toTensorDescriptor(descriptor, "create_tensor(): descriptor"));
          },
          py::arg("descriptor"))
      .def(
          "write_tensor",
          [](MLContext& self, const MLTensor& tensor, const py::handle& data) {
            py::buffer_info holder;
            self.writeTensor(tensor, readableBytes(data, holder, "write_tensor(): data"));
          },
          py::arg("tensor"), py::arg("data"))
      .def(
          "read_tensor",
          [](MLContext& self, const MLTensor& tensor, const py::object& out) -> py::object {
            if (out.is_none()) {
              py::array array = emptyArray({tensor.dataType(), tensor.shape()});
              py::buffer_info holder;
              std::span<std::byte> bytes = writableBytes(array, holder, "read_tensor()");
              {
                py::gil_scoped_release release;
                self.readTensor(tensor, bytes);
              }
              return array;
            }
            // Into the caller's buffer (its byte length must be the tensor's).
            py::buffer_info holder;
            std::span<std::byte> bytes = writableBytes(out, holder, "read_tensor(): out");
            {
              py::gil_scoped_release release;
              self.readTensor(tensor, bytes);
            }
            return out;
          },
          py::arg("tensor"), py::arg("out") = py::none(),
          "The tensor's elements as a new numpy array of its dtype and shape, or into `out` "
          "(any writable buffer of its byte length).")
      .def(
          "create_constant_tensor",
          [](MLContext& self, const py::object& first, const py::object& data,
             const py::object& label) {
            // create_constant_tensor(array): the descriptor from the array, its bytes copied.
            if (py::isinstance<py::array>(first)) {
              if (!data.is_none()) {
                throw py::type_error("create_constant_tensor(array) takes no data");
              }
              const py::array array = py::array::ensure(first, py::array::c_style);
              MLOperandDescriptor descriptor;
              descriptor.dataType =
                  toDataType(array.dtype(), "create_constant_tensor(): the array's dtype");
              for (py::ssize_t i = 0; i < array.ndim(); ++i) {
                descriptor.shape.push_back(
                    toU32(py::int_(array.shape(i)), "create_constant_tensor(): shape"));
              }
              py::buffer_info holder;
              return self.createConstantTensor(
                  descriptor, readableBytes(array, holder, "create_constant_tensor(): array"));
            }
            const MLOperandDescriptor descriptor =
                toDescriptor(first, "create_constant_tensor(): descriptor");
            if (data.is_none()) {
              // Hollow: a descriptor and a label, filled later.
              MLConstantOptions options;
              if (!label.is_none()) options.label = label.cast<std::string>();
              return self.createConstantTensor(descriptor, options);
            }
            py::buffer_info holder;
            return self.createConstantTensor(
                descriptor, readableBytes(data, holder, "create_constant_tensor(): data"));
          },
          py::arg("descriptor"), py::arg("data") = py::none(), py::kw_only(),
          py::arg("label") = py::none(),
          "A constant tensor: one copy of a constant that several graphs read "
          "(MLGraphBuilder.constant(tensor)). create_constant_tensor(descriptor, data) or "
          "(array): the bytes copied now; create_constant_tensor(descriptor, label=...): hollow, "
          "filled once later by write_constant_tensor or load_constants, before or after the "
          "graphs that read it are built.")
      .def(
          "write_constant_tensor",
          [](MLContext& self, const MLTensor& tensor, uint64_t byteOffset, const py::handle& data) {
            py::buffer_info holder;
            const auto bytes = readableBytes(data, holder, "write_constant_tensor(): data");
            py::gil_scoped_release release;
            self.writeConstantTensor(tensor, byteOffset, bytes);
          },
          py::arg("tensor"), py::arg("byte_offset"), py::arg("data"),
          "A chunk of a hollow constant tensor's bytes at `byte_offset`, from any buffer; chunks "
          "in any order. A complete tensor never changes (InvalidStateError).")
      .def(
          "load_constants",
          [](MLContext& self, const std::vector<MLTensor>& tensors, const py::object& source,
             const py::object& names, const py::object& onProgress, bool requireAll,
             uint32_t threads, bool reload, bool allowMapping,
             std::optional<uint64_t> maxTensorBytes, std::optional<uint64_t> maxTotalBytes) {
            std::vector<std::string> labels;
            for (const MLTensor& tensor : tensors) {
              if (!tensor.constantComplete()) labels.push_back(tensor.label());
            }
            MLContext context = self;
            const LoadKeywords keywords{requireAll,   threads,        reload,
                                        allowMapping, maxTensorBytes, maxTotalBytes};
            loadConstantsFrom(source, names, onProgress, keywords, labels,
                              [&](const WeightSource& weights, const LoadOptions& options) {
                                context.loadConstants(tensors, weights, options);
                              });
          },
          py::arg("tensors"), py::arg("source"), py::kw_only(), py::arg("names") = py::none(),
          py::arg("on_progress") = py::none(), py::arg("require_all") = true,
          py::arg("threads") = 0, py::arg("reload") = false, py::arg("allow_mapping") = false,
          py::arg("max_tensor_bytes") = py::none(), py::arg("max_total_bytes") = py::none(),
          "Streams every one of `tensors` not yet complete by label from `source` (a "
          "safetensors, GGUF or WebNN weights path, or a WeightSource), without the GIL; the "
          "options as MLGraph.load_constants.")
      .def(
          "dispatch",
          [](MLContext& self, const PyGraph& graph, const py::dict& inputs,
             const py::dict& outputs) {
            const MLNamedTensors in = toNamedTensors(inputs, "inputs");
            const MLNamedTensors out = toNamedTensors(outputs, "outputs");
            py::gil_scoped_release release;
            self.dispatch(graph.graph, in, out);
          },
          py::arg("graph"), py::arg("inputs"), py::arg("outputs"))
      .def("op_support_limits",
           [](const MLContext& self) {
             const MLOpSupportLimits limits = self.opSupportLimits();
             py::dict dict;
             dict["preferredInputLayout"] =
                 limits.preferredInputLayout == MLInputOperandLayout::Nchw ? "nchw" : "nhwc";
             dict["maxTensorByteLength"] = limits.maxTensorByteLength;
             dict["input"] = tensorLimits(limits.input);
             dict["constant"] = tensorLimits(limits.constant);
             dict["output"] = tensorLimits(limits.output);
             for (const auto& [op, operands] : limits.ops) {
               py::dict entry;
               for (const auto& [operand, tensor] : operands)
                 entry[operand.c_str()] = tensorLimits(tensor);
               dict[op.c_str()] = entry;
             }
             return dict;
           })
      .def("memory_stats",
           [](const MLContext& self) {
             const MLMemoryStats s = self.memoryStats();
             py::dict dict;
             dict["constantBytes"] = s.constantBytes;
             dict["constantBytesPeak"] = s.constantBytesPeak;
             dict["activationBytes"] = s.activationBytes;
             dict["activationBytesPeak"] = s.activationBytesPeak;
             dict["tensorBytes"] = s.tensorBytes;
             dict["stagingBytes"] = s.stagingBytes;
             dict["stagingBytesPeak"] = s.stagingBytesPeak;
             dict["mappedConstantBytes"] = s.mappedConstantBytes;
             return dict;
           })
      .def_property_readonly("backend_name", &MLContext::backendName)
      .def("destroy", &MLContext::destroy)
      .def("__repr__", [](const MLContext& c) { return "<MLContext on " + c.backendName() + ">"; });

  module.def(
      "create_context",
      [](const py::object& backend, const std::string& powerPreference, uint32_t numThreads,
         bool profiling, uint64_t constantMemoryBudget, bool blockQuantizedInt8Activations) {
        MLContextOptions options;
        if (!backend.is_none()) options.backend = backend.cast<std::string>();
        if (powerPreference == "high-performance") {
          options.powerPreference = MLPowerPreference::HighPerformance;
        } else if (powerPreference == "low-power") {
          options.powerPreference = MLPowerPreference::LowPower;
        } else if (powerPreference != "default") {
          throw py::type_error(
              "power_preference must be 'default', 'high-performance' or "
              "'low-power'");
        }
        options.numThreads = numThreads;
        options.profiling = profiling;
        options.constantMemoryBudget = constantMemoryBudget;
        options.blockQuantizedInt8Activations = blockQuantizedInt8Activations;
        return createContext(options);
      },
      py::kw_only(), py::arg("backend") = py::none(), py::arg("power_preference") = "default",
      py::arg("num_threads") = 0, py::arg("profiling") = false,
      py::arg("constant_memory_budget") = 0, py::arg("block_quantized_int8_activations") = false,
      "MLContext on `backend` ('cpu', 'reference', 'vulkan'; None: the default). "
      "constant_memory_budget: the most bytes of weights the backend keeps of its own (0: no "
      "limit; beyond it the largest float32 weights stay as the file stores them, mapped by "
      "load_constants(allow_mapping=True)); block_quantized_int8_activations: 4-bit products "
      "multiply int8-quantized activations (faster, about 1e-2 from the float result).");
  module.def("available_backends", &availableBackends);
}

}  // namespace webnn::python
