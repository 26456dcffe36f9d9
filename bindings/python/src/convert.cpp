#include "convert.h"

#include <limits>

namespace webnn::python {
namespace {

[[noreturn]] void typeError(const std::string& message) {
  throw py::type_error(message);
}

}  // namespace

MLOperandDataType toDataType(const py::handle& value, const std::string& what) {
  if (py::isinstance<py::str>(value)) {
    const std::string text = value.cast<std::string>();
    if (auto type = parseDataType(text)) return *type;
    typeError(what + ": '" + text + "' is not an MLOperandDataType");
  }
  py::dtype dtype;
  try {
    dtype = py::dtype::from_args(py::reinterpret_borrow<py::object>(value));
  } catch (const py::error_already_set&) {
    typeError(what + " must be a data type name ('float32', ...) or a numpy dtype");
  }
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'f' && size == 4) return MLOperandDataType::Float32;
  if (kind == 'f' && size == 2) return MLOperandDataType::Float16;
  if (kind == 'i' && size == 4) return MLOperandDataType::Int32;
  if (kind == 'u' && size == 4) return MLOperandDataType::Uint32;
  if (kind == 'i' && size == 8) return MLOperandDataType::Int64;
  if (kind == 'u' && size == 8) return MLOperandDataType::Uint64;
  if (kind == 'i' && size == 1) return MLOperandDataType::Int8;
  if ((kind == 'u' || kind == 'b') && size == 1) return MLOperandDataType::Uint8;
  typeError(what + ": numpy dtype " + py::str(dtype).cast<std::string>() +
            " has no MLOperandDataType (float32, float16, int32, uint32, int64, uint64, int8, "
            "uint8; int4 and uint4 by name)");
}

py::dtype numpyDtype(MLOperandDataType type) {
  switch (type) {
    case MLOperandDataType::Float32:
      return py::dtype("float32");
    case MLOperandDataType::Float16:
      return py::dtype("float16");
    case MLOperandDataType::Int32:
      return py::dtype("int32");
    case MLOperandDataType::Uint32:
      return py::dtype("uint32");
    case MLOperandDataType::Int64:
      return py::dtype("int64");
    case MLOperandDataType::Uint64:
      return py::dtype("uint64");
    case MLOperandDataType::Int8:
      return py::dtype("int8");
    case MLOperandDataType::Uint8:
    case MLOperandDataType::Int4:
    case MLOperandDataType::Uint4:
      return py::dtype("uint8");
  }
  return py::dtype("uint8");
}

namespace {

py::object member(const py::dict& dict, const char* spec, const char* python) {
  if (dict.contains(spec)) return dict[spec];
  if (python && dict.contains(python)) return dict[python];
  return py::none();
}

}  // namespace

MLOperandDescriptor toDescriptor(const py::handle& value, const std::string& what) {
  if (!py::isinstance<py::dict>(value)) {
    typeError(what + " must be a dict {\"dataType\": ..., \"shape\": [...]}");
  }
  const py::dict dict = py::reinterpret_borrow<py::dict>(value);
  MLOperandDescriptor descriptor;
  const py::object type = member(dict, "dataType", "data_type");
  if (type.is_none()) typeError(what + " has no dataType");
  descriptor.dataType = toDataType(type, what + ".dataType");
  const py::object shape = member(dict, "shape", nullptr);
  if (shape.is_none()) typeError(what + " has no shape");
  descriptor.shape = toU32List(shape, what + ".shape");
  return descriptor;
}

MLTensorDescriptor toTensorDescriptor(const py::handle& value, const std::string& what) {
  MLTensorDescriptor descriptor;
  static_cast<MLOperandDescriptor&>(descriptor) = toDescriptor(value, what);
  const py::dict dict = py::reinterpret_borrow<py::dict>(value);
  if (const py::object v = member(dict, "readable", nullptr); !v.is_none())
    descriptor.readable = py::bool_(v);
  if (const py::object v = member(dict, "writable", nullptr); !v.is_none())
    descriptor.writable = py::bool_(v);
  return descriptor;
}

py::dict fromDescriptor(const MLOperandDescriptor& descriptor) {
  py::dict dict;
  dict["dataType"] = std::string(toString(descriptor.dataType));
  py::list shape;
  for (uint32_t d : descriptor.shape) shape.append(d);
  dict["shape"] = shape;
  return dict;
}

namespace {

// An integer (a Python int or a numpy integer; not a bool, not a float) in [low, high].
long long integerIn(const py::handle& value, long long low, unsigned long long high,
                    const std::string& what, const char* type) {
  if (py::isinstance<py::bool_>(value) || !py::hasattr(value, "__index__")) {
    typeError(what + " must be an integer (" + type + ")");
  }
  const py::int_ number = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
  if (!number) throw py::error_already_set();
  int overflow = 0;
  const long long result = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow != 0 || result < low ||
      (result > 0 && static_cast<unsigned long long>(result) > high)) {
    typeError(what + " is outside the range of " + type);
  }
  return result;
}

}  // namespace

uint32_t toU32(const py::handle& value, const std::string& what) {
  return static_cast<uint32_t>(
      integerIn(value, 0, std::numeric_limits<uint32_t>::max(), what, "unsigned long"));
}

int32_t toI32(const py::handle& value, const std::string& what) {
  return static_cast<int32_t>(integerIn(value, std::numeric_limits<int32_t>::min(),
                                        std::numeric_limits<int32_t>::max(), what, "long"));
}

std::vector<uint32_t> toU32List(const py::handle& value, const std::string& what) {
  if (py::isinstance<py::str>(value) || !py::isinstance<py::sequence>(value)) {
    // A numpy array of integers is a sequence too (through its __len__ and __getitem__).
    if (!py::hasattr(value, "__len__") || !py::hasattr(value, "__getitem__"))
      typeError(what + " must be a sequence of integers");
  }
  std::vector<uint32_t> list;
  const py::sequence sequence = py::reinterpret_borrow<py::sequence>(value);
  for (size_t i = 0; i < py::len(sequence); ++i) {
    list.push_back(toU32(sequence[i], what + "[" + std::to_string(i) + "]"));
  }
  return list;
}

double toDouble(const py::handle& value, const std::string& what) {
  if (!PyNumber_Check(value.ptr()) || py::isinstance<py::str>(value)) {
    typeError(what + " must be a number");
  }
  const double result = py::float_(py::reinterpret_borrow<py::object>(value));
  return result;
}

MLNumber toMLNumber(const py::handle& value, const std::string& what) {
  // An int keeps its integer value (int64, or uint64 above int64), as a JS bigint would.
  if (!py::isinstance<py::bool_>(value) && py::isinstance<py::int_>(value)) {
    int overflow = 0;
    const long long signedValue = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0) return MLNumber(static_cast<int64_t>(signedValue));
    const unsigned long long unsignedValue = PyLong_AsUnsignedLongLong(value.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      typeError(what + " is outside the range of int64 and uint64");
    }
    return MLNumber(static_cast<uint64_t>(unsignedValue));
  }
  return MLNumber(toDouble(value, what));
}

namespace {

py::buffer_info bufferOf(const py::handle& value, bool writable, const std::string& what) {
  // (buffer_info releases and deletes the view it owns.)
  auto* view = new Py_buffer();
  const int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(value.ptr(), view, flags) != 0) {
    delete view;
    PyErr_Clear();
    typeError(what + (writable ? " must be a writable, C-contiguous buffer (a numpy array, "
                                 "bytearray, memoryview)"
                               : " must be a C-contiguous buffer (a numpy array, bytes, "
                                 "bytearray, memoryview, a memmap slice)"));
  }
  return py::buffer_info(view, true);
}

}  // namespace

std::span<const std::byte> readableBytes(const py::handle& value, py::buffer_info& holder,
                                         const std::string& what) {
  holder = bufferOf(value, false, what);
  return {static_cast<const std::byte*>(holder.ptr),
          static_cast<size_t>(holder.size * holder.itemsize)};
}

std::span<std::byte> writableBytes(const py::handle& value, py::buffer_info& holder,
                                   const std::string& what) {
  holder = bufferOf(value, true, what);
  return {static_cast<std::byte*>(holder.ptr), static_cast<size_t>(holder.size * holder.itemsize)};
}

py::array emptyArray(const MLOperandDescriptor& descriptor) {
  if (descriptor.dataType == MLOperandDataType::Int4 ||
      descriptor.dataType == MLOperandDataType::Uint4) {
    return py::array(py::dtype("uint8"),
                     std::vector<py::ssize_t>{static_cast<py::ssize_t>(descriptor.byteLength())});
  }
  std::vector<py::ssize_t> shape(descriptor.shape.begin(), descriptor.shape.end());
  return py::array(numpyDtype(descriptor.dataType), shape);
}

}  // namespace webnn::python
