// ml.create_context, MLContext (tensors, writes and reads with numpy or any buffer, dispatch
// without the GIL, limits, memory) and MLTensor.
#include <pybind11/stl.h>

#include "bindings.h"
#include "convert.h"

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
      .def("destroy", &MLTensor::destroy)
      .def("__repr__", [](const MLTensor& t) {
        return "<MLTensor " + toString(MLOperandDescriptor{t.dataType(), t.shape()}) + ">";
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
             return dict;
           })
      .def_property_readonly("backend_name", &MLContext::backendName)
      .def("destroy", &MLContext::destroy)
      .def("__repr__", [](const MLContext& c) { return "<MLContext on " + c.backendName() + ">"; });

  module.def(
      "create_context",
      [](const py::object& backend, const std::string& powerPreference, uint32_t numThreads,
         bool profiling) {
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
        return createContext(options);
      },
      py::kw_only(), py::arg("backend") = py::none(), py::arg("power_preference") = "default",
      py::arg("num_threads") = 0, py::arg("profiling") = false,
      "MLContext on `backend` ('cpu', 'reference', 'vulkan'; None: the default).");
  module.def("available_backends", &availableBackends);
}

}  // namespace webnn::python
