#include "convert.h"
#include "wrappers.h"

namespace webnn::node {

Napi::Function NativeOperand::define(Napi::Env env) {
  return DefineClass(env, "NativeOperand",
                     {InstanceMethod<&NativeOperand::descriptor>("descriptor"),
                      InstanceMethod<&NativeOperand::key>("key")});
}

Napi::Object NativeOperand::wrap(Napi::Env env, const MLOperand& operand) {
  Napi::Object object = addonData(env).operand.New({});
  Unwrap(object)->operand_ = operand;
  return object;
}

NativeOperand::NativeOperand(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<NativeOperand>(info) {}

// {dataType, shape, label, constant}
Napi::Value NativeOperand::descriptor(const Napi::CallbackInfo& info) {
  Napi::Object object = toJsDescriptor(info.Env(), operand_.descriptor());
  object.Set("label", Napi::String::New(info.Env(), operand_.label()));
  object.Set("constant", Napi::Boolean::New(info.Env(), operand_.isConstant()));
  return object;
}

// A string that is the same for every handle of one operand (its node's address).
Napi::Value NativeOperand::key(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(),
                           std::to_string(reinterpret_cast<uintptr_t>(operand_.node().get())));
}

MLOperand toOperand(const Napi::Value& value, const std::string& what) {
  return unwrap<NativeOperand>(value, addonData(value.Env()).operand, what, "MLOperand").operand();
}

}  // namespace webnn::node
