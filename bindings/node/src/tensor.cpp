#include "convert.h"
#include "errors.h"
#include "wrappers.h"

namespace webnn::node {

Napi::Function NativeTensor::define(Napi::Env env) {
  return DefineClass(env, "NativeTensor",
                     {InstanceMethod<&NativeTensor::info>("info"),
                      InstanceMethod<&NativeTensor::constantComplete>("constantComplete"),
                      InstanceMethod<&NativeTensor::destroy>("destroy")});
}

Napi::Object NativeTensor::wrap(Napi::Env env, const MLTensor& tensor) {
  Napi::Object object = addonData(env).tensor.New({});
  Unwrap(object)->tensor_ = tensor;
  return object;
}

NativeTensor::NativeTensor(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeTensor>(info) {}

// {dataType, shape, readable, writable, byteLength, constant, label}
Napi::Value NativeTensor::info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guard(env, [&] {
    Napi::Object object = toJsDescriptor(env, {tensor_.dataType(), tensor_.shape()});
    object.Set("readable", Napi::Boolean::New(env, tensor_.readable()));
    object.Set("writable", Napi::Boolean::New(env, tensor_.writable()));
    object.Set("byteLength", Napi::Number::New(env, static_cast<double>(tensor_.byteLength())));
    object.Set("constant", Napi::Boolean::New(env, tensor_.constant()));
    object.Set("label", Napi::String::New(env, tensor_.label()));
    return object;
  });
}

// Whether a constant tensor has every byte (false for other tensors).
Napi::Value NativeTensor::constantComplete(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), tensor_.constantComplete());
}

void NativeTensor::destroy(const Napi::CallbackInfo& info) {
  guard(info.Env(), [&] { tensor_.destroy(); });
}

}  // namespace webnn::node
