// The addon's entry point: the native classes that lib/*.js wraps into the WebNN IDL interfaces.
#include <napi.h>
#include <webnn/webnn.h>

#include "convert.h"
#include "wrappers.h"

namespace webnn::node {

AddonData& addonData(Napi::Env env) {
  return *env.GetInstanceData<AddonData>();
}

namespace {

Napi::Value availableBackendNames(const Napi::CallbackInfo& info) {
  const std::vector<std::string> names = availableBackends();
  Napi::Array array = Napi::Array::New(info.Env(), names.size());
  for (size_t i = 0; i < names.size(); ++i) array.Set(i, Napi::String::New(info.Env(), names[i]));
  return array;
}

// Data type facts for the JS side: {name: {bits, float, signed}} in the spec's order.
Napi::Value dataTypes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object object = Napi::Object::New(env);
  for (auto type : {MLOperandDataType::Float32, MLOperandDataType::Float16,
                    MLOperandDataType::Int32, MLOperandDataType::Uint32, MLOperandDataType::Int64,
                    MLOperandDataType::Uint64, MLOperandDataType::Int8, MLOperandDataType::Uint8,
                    MLOperandDataType::Int4, MLOperandDataType::Uint4}) {
    Napi::Object entry = Napi::Object::New(env);
    entry.Set("bits", Napi::Number::New(env, bitsPerElement(type)));
    entry.Set("float", Napi::Boolean::New(env, isFloatingPoint(type)));
    entry.Set("signed", Napi::Boolean::New(env, isSigned(type)));
    object.Set(std::string(toString(type)), entry);
  }
  return object;
}

}  // namespace

Napi::Object init(Napi::Env env, Napi::Object exports) {
  auto* data = new AddonData();
  env.SetInstanceData(data);
  auto keep = [&](Napi::FunctionReference& slot, const char* name, Napi::Function constructor) {
    slot = Napi::Persistent(constructor);
    exports.Set(name, constructor);
  };
  keep(data->context, "NativeContext", NativeContext::define(env));
  keep(data->builder, "NativeBuilder", NativeBuilder::define(env));
  keep(data->operand, "NativeOperand", NativeOperand::define(env));
  keep(data->graph, "NativeGraph", NativeGraph::define(env));
  keep(data->tensor, "NativeTensor", NativeTensor::define(env));
  exports.Set("availableBackends", Napi::Function::New(env, availableBackendNames));
  exports.Set("dataTypes", Napi::Function::New(env, dataTypes));
  return exports;
}

}  // namespace webnn::node

static Napi::Object initWebnn(Napi::Env env, Napi::Object exports) {
  return webnn::node::init(env, exports);
}

NODE_API_MODULE(webnn, initWebnn)
