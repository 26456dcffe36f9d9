#include "async.h"
#include "convert.h"
#include "errors.h"
#include "ops.h"
#include "wrappers.h"

namespace webnn::node {

Napi::Function NativeBuilder::define(Napi::Env env) {
  return DefineClass(
      env, "NativeBuilder",
      {InstanceMethod<&NativeBuilder::input>("input"),
       InstanceMethod<&NativeBuilder::constant>("constant"),
       InstanceMethod<&NativeBuilder::hollowConstant>("hollowConstant"),
       InstanceMethod<&NativeBuilder::tensorConstant>("tensorConstant"),
       InstanceMethod<&NativeBuilder::scalarConstant>("scalarConstant"),
       InstanceMethod<&NativeBuilder::op>("op"), InstanceMethod<&NativeBuilder::build>("build"),
       StaticMethod("opNames", [](const Napi::CallbackInfo& info) -> Napi::Value {
         const std::vector<std::string> names = opNames();
         Napi::Array array = Napi::Array::New(info.Env(), names.size());
         for (size_t i = 0; i < names.size(); ++i) array.Set(i, names[i]);
         return array;
       })});
}

// new NativeBuilder(nativeContext)
NativeBuilder::NativeBuilder(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<NativeBuilder>(info) {
  Napi::Env env = info.Env();
  MLContext& context =
      unwrap<NativeContext>(info[0], addonData(env).context, "context", "MLContext").context();
  builder_ = guard(env, [&] { return std::make_unique<MLGraphBuilder>(context); });
}

Napi::Value NativeBuilder::input(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::string name = toDOMString(info[0]);
  const MLOperandDescriptor descriptor = toOperandDescriptor(info[1], "descriptor");
  return guard(env, [&] { return NativeOperand::wrap(env, builder_->input(name, descriptor)); });
}

// constant(descriptor, bytes): the classic constant, copied now.
Napi::Value NativeBuilder::constant(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLOperandDescriptor descriptor = toOperandDescriptor(info[0], "descriptor");
  const std::span<const std::byte> bytes = bufferBytes(info[1], "buffer");
  return guard(env,
               [&] { return NativeOperand::wrap(env, builder_->constant(descriptor, bytes)); });
}

// hollowConstant(descriptor, label): descriptor only, filled after build().
Napi::Value NativeBuilder::hollowConstant(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLOperandDescriptor descriptor = toOperandDescriptor(info[0], "descriptor");
  MLConstantOptions options;
  if (!info[1].IsUndefined()) options.label = toDOMString(info[1]);
  return guard(env,
               [&] { return NativeOperand::wrap(env, builder_->constant(descriptor, options)); });
}

// tensorConstant(nativeTensor): a constant that reads a constant tensor of the context.
Napi::Value NativeBuilder::tensorConstant(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLTensor& tensor =
      unwrap<NativeTensor>(info[0], addonData(env).tensor, "tensor", "MLTensor").tensor();
  return guard(env, [&] { return NativeOperand::wrap(env, builder_->constant(tensor)); });
}

// scalarConstant(type, value)
Napi::Value NativeBuilder::scalarConstant(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLOperandDataType type = toDataType(info[0], "type");
  const MLNumber value = toMLNumber(info[1], "value");
  return guard(env, [&] { return NativeOperand::wrap(env, builder_->constant(type, value)); });
}

// op(name, args)
Napi::Value NativeBuilder::op(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::string name = toDOMString(info[0]);
  if (!info[1].IsArray()) throwTypeError(env, "op arguments must be an array");
  const Napi::Array args = info[1].As<Napi::Array>();
  return guard(env, [&] { return callOp(env, *builder_, name, args); });
}

// build({name: NativeOperand}) -> Promise<NativeGraph>, compiled off the main thread.
Napi::Value NativeBuilder::build(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject()) throwTypeError(env, "outputs must be a record of MLOperands");
  const Napi::Object record = info[0].As<Napi::Object>();
  MLNamedOperands outputs;
  const Napi::Array names = record.GetPropertyNames();
  for (uint32_t i = 0; i < names.Length(); ++i) {
    const std::string name = names.Get(i).ToString().Utf8Value();
    outputs.emplace(name, toOperand(record.Get(name), "outputs['" + name + "']"));
  }
  auto graph = std::make_shared<MLGraph>();
  MLGraphBuilder* builder = builder_.get();
  return PromiseWorker::start(
      env, [builder, outputs, graph] { *graph = builder->build(outputs); },
      [graph](Napi::Env env) -> Napi::Value { return NativeGraph::wrap(env, *graph); },
      {info.This()});
}

}  // namespace webnn::node
