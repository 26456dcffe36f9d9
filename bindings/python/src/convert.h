// Python values to the C++ API's types and back: data types (the spec's strings or numpy dtypes),
// descriptors (dicts with the spec's keys), numbers, byte buffers, numpy arrays of tensor bytes.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <webnn/op_schema.h>
#include <webnn/webnn.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace webnn::python {

namespace py = pybind11;

// "float32", a numpy dtype, or a numpy scalar type (numpy.float16). TypeError naming `what`.
MLOperandDataType toDataType(const py::handle& value, const std::string& what);
// The numpy dtype elements of `type` are read as (int4/uint4: their packed bytes, uint8).
py::dtype numpyDtype(MLOperandDataType type);

// {"dataType": ..., "shape": [...]} (also "data_type"); a tensor descriptor also reads
// "readable" and "writable".
MLOperandDescriptor toDescriptor(const py::handle& value, const std::string& what);
MLTensorDescriptor toTensorDescriptor(const py::handle& value, const std::string& what);
py::dict fromDescriptor(const MLOperandDescriptor& descriptor);

uint32_t toU32(const py::handle& value, const std::string& what);
int32_t toI32(const py::handle& value, const std::string& what);
std::vector<uint32_t> toU32List(const py::handle& value, const std::string& what);
double toDouble(const py::handle& value, const std::string& what);
MLNumber toMLNumber(const py::handle& value, const std::string& what);

// The bytes of any object with the buffer protocol (a numpy array, bytes, bytearray, memoryview,
// a memmap slice), C-contiguous. The buffer (and so the span) lives as long as `holder`.
std::span<const std::byte> readableBytes(const py::handle& value, py::buffer_info& holder,
                                         const std::string& what);
std::span<std::byte> writableBytes(const py::handle& value, py::buffer_info& holder,
                                   const std::string& what);

// A new numpy array of `descriptor`'s dtype and shape (int4/uint4: [byteLength] uint8).
py::array emptyArray(const MLOperandDescriptor& descriptor);

// The Python name of a spec name (the op schema's rule: "convTranspose2d" -> "conv_transpose2d").
using schema::pythonName;

}  // namespace webnn::python
