#include "convert.h"

#include <cmath>
#include <limits>

namespace webnn::node {
namespace {

[[noreturn]] void fail(const Napi::Value& value, const std::string& message) {
  throw Napi::TypeError::New(value.Env(), message);
}

double toNumber(const Napi::Value& value, const std::string& what) {
  if (value.IsNumber()) return value.As<Napi::Number>().DoubleValue();
  if (value.IsBoolean()) return value.As<Napi::Boolean>().Value() ? 1 : 0;
  fail(value, what + " must be a number");
}

double enforceRange(const Napi::Value& value, const std::string& what, double low, double high) {
  const double number = toNumber(value, what);
  if (!std::isfinite(number)) fail(value, what + " must be a finite number");
  const double integer = std::trunc(number);
  if (integer < low || integer > high) {
    fail(value, what + " is out of range [" + std::to_string(static_cast<int64_t>(low)) + ", " +
                    std::to_string(static_cast<int64_t>(high)) + "]");
  }
  return integer;
}

template <class T, class Convert>
std::vector<T> toList(const Napi::Value& value, const std::string& what, Convert convert) {
  std::vector<T> list;
  if (value.IsArray()) {
    const Napi::Array array = value.As<Napi::Array>();
    list.reserve(array.Length());
    for (uint32_t i = 0; i < array.Length(); ++i) {
      list.push_back(convert(array.Get(i), what + "[" + std::to_string(i) + "]"));
    }
    return list;
  }
  if (value.IsTypedArray()) {
    const Napi::Object object = value.As<Napi::Object>();
    const uint32_t length = object.Get("length").As<Napi::Number>().Uint32Value();
    for (uint32_t i = 0; i < length; ++i) {
      list.push_back(convert(object.Get(i), what + "[" + std::to_string(i) + "]"));
    }
    return list;
  }
  fail(value, what + " must be a sequence");
}

}  // namespace

uint32_t toU32(const Napi::Value& value, const std::string& what) {
  return static_cast<uint32_t>(enforceRange(value, what, 0, 4294967295.0));
}

int32_t toI32(const Napi::Value& value, const std::string& what) {
  return static_cast<int32_t>(enforceRange(value, what, -2147483648.0, 2147483647.0));
}

double toDouble(const Napi::Value& value, const std::string& what, bool restricted) {
  const double number = toNumber(value, what);
  if (restricted && !std::isfinite(number)) fail(value, what + " must be a finite number");
  return number;
}

uint64_t toByteOffset(const Napi::Value& value, const std::string& what) {
  if (value.IsBigInt()) {
    bool lossless = false;
    const uint64_t offset = value.As<Napi::BigInt>().Uint64Value(&lossless);
    if (!lossless) fail(value, what + " is out of range");
    return offset;
  }
  const double offset = toDouble(value, what);
  if (offset < 0 || offset > 9007199254740991.0 ||
      offset != static_cast<double>(static_cast<uint64_t>(offset))) {
    fail(value, what + " must be a non-negative integer");
  }
  return static_cast<uint64_t>(offset);
}

MLNumber toMLNumber(const Napi::Value& value, const std::string& what) {
  if (value.IsBigInt()) {
    // A bigint stays exact (int64/uint64 bounds and pad values beyond 2^53); one beyond 64 bits
    // saturates.
    bool lossless = false;
    const Napi::BigInt big = value.As<Napi::BigInt>();
    const int64_t asSigned = big.Int64Value(&lossless);
    if (lossless) return asSigned;
    const uint64_t asUnsigned = big.Uint64Value(&lossless);
    if (lossless) return asUnsigned;
    return asSigned < 0 ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
  }
  return toDouble(value, what, false);
}

std::vector<uint32_t> toU32List(const Napi::Value& value, const std::string& what) {
  return toList<uint32_t>(value, what, toU32);
}

std::vector<float> toFloatList(const Napi::Value& value, const std::string& what) {
  return toList<float>(value, what, [](const Napi::Value& item, const std::string& name) {
    return static_cast<float>(toDouble(item, name, true));
  });
}

std::string toDOMString(const Napi::Value& value) {
  return value.ToString().Utf8Value();
}

MLOperandDataType toDataType(const Napi::Value& value, const std::string& what) {
  if (!value.IsString()) fail(value, what + " must be a string");
  const std::string text = value.As<Napi::String>().Utf8Value();
  if (auto type = parseDataType(text)) return *type;
  fail(value, what + ": '" + text + "' is not an MLOperandDataType");
}

MLOperandDescriptor toOperandDescriptor(const Napi::Value& value, const std::string& what) {
  if (!value.IsObject()) fail(value, what + " must be an MLOperandDescriptor");
  const Napi::Object object = value.As<Napi::Object>();
  MLOperandDescriptor descriptor;
  descriptor.dataType = toDataType(object.Get("dataType"), what + ".dataType");
  Napi::Value shape = object.Get("shape");
  if (shape.IsUndefined()) shape = object.Get("dimensions");
  if (shape.IsUndefined()) fail(value, what + ".shape is required");
  descriptor.shape = toU32List(shape, what + ".shape");
  return descriptor;
}

MLTensorDescriptor toTensorDescriptor(const Napi::Value& value, const std::string& what) {
  MLTensorDescriptor descriptor;
  static_cast<MLOperandDescriptor&>(descriptor) = toOperandDescriptor(value, what);
  const Napi::Object object = value.As<Napi::Object>();
  descriptor.readable = object.Get("readable").ToBoolean().Value();
  descriptor.writable = object.Get("writable").ToBoolean().Value();
  return descriptor;
}

bool isBufferSource(const Napi::Value& value) {
  return value.IsArrayBuffer() || value.IsTypedArray() || value.IsDataView();
}

std::span<std::byte> bufferBytes(const Napi::Value& value, const std::string& what) {
  if (value.IsArrayBuffer()) {
    Napi::ArrayBuffer buffer = value.As<Napi::ArrayBuffer>();
    return {static_cast<std::byte*>(buffer.Data()), buffer.ByteLength()};
  }
  // The raw calls give the view's own data pointer, also over a SharedArrayBuffer.
  if (value.IsTypedArray()) {
    napi_typedarray_type type;
    size_t length = 0;
    void* data = nullptr;
    NAPI_THROW_IF_FAILED(
        value.Env(),
        napi_get_typedarray_info(value.Env(), value, &type, &length, &data, nullptr, nullptr), {});
    return {static_cast<std::byte*>(data), value.As<Napi::TypedArray>().ByteLength()};
  }
  if (value.IsDataView()) {
    size_t length = 0;
    void* data = nullptr;
    NAPI_THROW_IF_FAILED(
        value.Env(), napi_get_dataview_info(value.Env(), value, &length, &data, nullptr, nullptr),
        {});
    return {static_cast<std::byte*>(data), length};
  }
  fail(value, what + " must be an ArrayBuffer or an ArrayBufferView");
}

Napi::Array toJsShape(Napi::Env env, const std::vector<uint32_t>& shape) {
  Napi::Array array = Napi::Array::New(env, shape.size());
  for (size_t i = 0; i < shape.size(); ++i) array.Set(i, Napi::Number::New(env, shape[i]));
  return array;
}

Napi::Object toJsDescriptor(Napi::Env env, const MLOperandDescriptor& descriptor) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("dataType", Napi::String::New(env, std::string(toString(descriptor.dataType))));
  object.Set("shape", toJsShape(env, descriptor.shape));
  return object;
}

}  // namespace webnn::node
