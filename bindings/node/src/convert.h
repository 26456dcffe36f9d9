// WebIDL conversions of JS values to the C++ API's types. A value of the wrong type throws a JS
// TypeError naming `what` (the argument or dictionary member).
#pragma once

#include <napi.h>
#include <webnn/webnn.h>

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace webnn::node {

// [EnforceRange] unsigned long.
uint32_t toU32(const Napi::Value& value, const std::string& what);
// [EnforceRange] long.
int32_t toI32(const Napi::Value& value, const std::string& what);
// double (finite) or, when `restricted` is false, unrestricted double.
double toDouble(const Napi::Value& value, const std::string& what, bool restricted = true);
// A byte offset: a BigInt of 64 bits, or a Number that is a non-negative safe integer.
uint64_t toByteOffset(const Napi::Value& value, const std::string& what);
// MLNumber: a BigInt or an unrestricted double.
MLNumber toMLNumber(const Napi::Value& value, const std::string& what);
std::vector<uint32_t> toU32List(const Napi::Value& value, const std::string& what);
std::vector<float> toFloatList(const Napi::Value& value, const std::string& what);
std::string toDOMString(const Napi::Value& value);

MLOperandDataType toDataType(const Napi::Value& value, const std::string& what);
// MLOperandDescriptor {dataType, shape} (`dimensions`, the older name, is read when `shape` is
// missing).
MLOperandDescriptor toOperandDescriptor(const Napi::Value& value, const std::string& what);
MLTensorDescriptor toTensorDescriptor(const Napi::Value& value, const std::string& what);

// An enum member by its spec string.
template <class Enum>
Enum toEnum(const Napi::Value& value, const std::vector<std::pair<const char*, Enum>>& names,
            const std::string& what) {
  if (value.IsString()) {
    const std::string text = value.As<Napi::String>().Utf8Value();
    for (const auto& [name, member] : names) {
      if (text == name) return member;
    }
    std::string list;
    for (const auto& entry : names)
      list += (list.empty() ? "'" : ", '") + std::string(entry.first) + "'";
    throw Napi::TypeError::New(value.Env(), what + ": '" + text + "' is not one of " + list);
  }
  throw Napi::TypeError::New(value.Env(), what + " must be a string");
}

// The bytes of an ArrayBuffer, TypedArray or DataView.
std::span<std::byte> bufferBytes(const Napi::Value& value, const std::string& what);
bool isBufferSource(const Napi::Value& value);

Napi::Array toJsShape(Napi::Env env, const std::vector<uint32_t>& shape);
Napi::Object toJsDescriptor(Napi::Env env, const MLOperandDescriptor& descriptor);

}  // namespace webnn::node
