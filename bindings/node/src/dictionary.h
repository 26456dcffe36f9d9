// Reads a WebIDL options dictionary (a JS object, or undefined/null for the empty dictionary)
// into the C++ option structs: each member converted as the spec types it, missing members
// keeping the struct's (the spec's) default.
#pragma once

#include <napi.h>
#include <webnn/op_schema.h>
#include <webnn/webnn.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "convert.h"
#include "wrappers.h"

namespace webnn::node {

class Dictionary {
 public:
  Dictionary(const Napi::Value& value, std::string what) : what_(std::move(what)) {
    if (value.IsUndefined() || value.IsNull()) return;
    if (!value.IsObject()) throw Napi::TypeError::New(value.Env(), what_ + " must be an object");
    object_ = value.As<Napi::Object>();
  }

  // The member `key`, or nullopt when missing or undefined.
  std::optional<Napi::Value> get(const char* key) const {
    if (object_.IsEmpty()) return std::nullopt;
    Napi::Value value = object_.Get(key);
    if (value.IsUndefined()) return std::nullopt;
    return value;
  }
  std::string what(const char* key) const { return what_ + "." + key; }

  template <class Options>
  Dictionary& label(Options& options) {
    if (auto v = get("label")) options.label = toDOMString(*v);
    return *this;
  }
  Dictionary& boolean(const char* key, bool& out) {
    if (auto v = get(key)) out = v->ToBoolean().Value();
    return *this;
  }
  Dictionary& number(const char* key, double& out) {
    if (auto v = get(key)) out = toDouble(*v, what(key));
    return *this;
  }
  Dictionary& mlNumber(const char* key, MLNumber& out) {
    if (auto v = get(key)) out = toMLNumber(*v, what(key));
    return *this;
  }
  Dictionary& u32(const char* key, uint32_t& out) {
    if (auto v = get(key)) out = toU32(*v, what(key));
    return *this;
  }
  Dictionary& i32(const char* key, int32_t& out) {
    if (auto v = get(key)) out = toI32(*v, what(key));
    return *this;
  }
  Dictionary& u32List(const char* key, std::vector<uint32_t>& out) {
    if (auto v = get(key)) out = toU32List(*v, what(key));
    return *this;
  }
  Dictionary& u32List(const char* key, std::optional<std::vector<uint32_t>>& out) {
    if (auto v = get(key)) out = toU32List(*v, what(key));
    return *this;
  }
  Dictionary& floatList(const char* key, std::optional<std::vector<float>>& out) {
    if (auto v = get(key)) out = toFloatList(*v, what(key));
    return *this;
  }
  Dictionary& operand(const char* key, std::optional<MLOperand>& out) {
    if (auto v = get(key)) out = toOperand(*v, what(key));
    return *this;
  }
  Dictionary& dataType(const char* key, MLOperandDataType& out) {
    if (auto v = get(key)) out = toDataType(*v, what(key));
    return *this;
  }
  // Members by kind, as the op schema (webnn/op_schema.h) hands them out.
  void member(std::string_view key, std::string& out) { label(key, out); }
  void member(std::string_view key, bool& out) { boolean(std::string(key).c_str(), out); }
  void member(std::string_view key, double& out) { number(std::string(key).c_str(), out); }
  void member(std::string_view key, MLNumber& out) { mlNumber(std::string(key).c_str(), out); }
  void member(std::string_view key, uint32_t& out) { u32(std::string(key).c_str(), out); }
  void member(std::string_view key, int32_t& out) { i32(std::string(key).c_str(), out); }
  void member(std::string_view key, std::vector<uint32_t>& out) {
    u32List(std::string(key).c_str(), out);
  }
  void member(std::string_view key, std::optional<std::vector<uint32_t>>& out) {
    u32List(std::string(key).c_str(), out);
  }
  void member(std::string_view key, std::optional<std::vector<float>>& out) {
    floatList(std::string(key).c_str(), out);
  }
  void member(std::string_view key, std::optional<MLOperand>& out) {
    operand(std::string(key).c_str(), out);
  }
  void member(std::string_view key, MLOperandDataType& out) {
    dataType(std::string(key).c_str(), out);
  }
  template <schema::SpecEnum Enum>
  void member(std::string_view key, Enum& out) {
    enumeration(std::string(key).c_str(), out, specStrings<Enum>());
  }
  template <schema::SpecEnum Enum>
  void member(std::string_view key, std::optional<std::vector<Enum>>& out) {
    enumList(std::string(key).c_str(), out, specStrings<Enum>());
  }

  template <class Enum>
  Dictionary& enumeration(const char* key, Enum& out,
                          const std::vector<std::pair<const char*, Enum>>& names) {
    if (auto v = get(key)) out = toEnum(*v, names, what(key));
    return *this;
  }
  template <class Enum>
  Dictionary& enumList(const char* key, std::optional<std::vector<Enum>>& out,
                       const std::vector<std::pair<const char*, Enum>>& names) {
    if (auto v = get(key)) {
      if (!v->IsArray()) throw Napi::TypeError::New(v->Env(), what(key) + " must be a sequence");
      const Napi::Array array = v->As<Napi::Array>();
      out.emplace();
      for (uint32_t i = 0; i < array.Length(); ++i) {
        out->push_back(toEnum(array.Get(i), names, what(key) + "[" + std::to_string(i) + "]"));
      }
    }
    return *this;
  }

 private:
  void label(std::string_view, std::string& out) {
    if (auto v = get("label")) out = toDOMString(*v);
  }
  // The schema's strings of an enum, as toEnum takes them.
  template <schema::SpecEnum Enum>
  static const std::vector<std::pair<const char*, Enum>>& specStrings() {
    static const std::vector<std::pair<const char*, Enum>> names = [] {
      std::vector<std::pair<const char*, Enum>> list;
      for (const auto& [text, value] : schema::EnumStrings<Enum>::entries)
        list.emplace_back(text.data(), value);
      return list;
    }();
    return names;
  }

  std::string what_;
  Napi::Object object_{};
};

}  // namespace webnn::node
