// The native objects behind the JS classes (lib/*.js): each holds one handle of the C++ API.
#pragma once

#include <napi.h>
#include <webnn/webnn.h>

#include <memory>
#include <string>

namespace webnn::node {

// Constructors of the native classes, per Node environment (the addon's instance data).
struct AddonData {
  Napi::FunctionReference context, builder, operand, graph, tensor;
};
AddonData& addonData(Napi::Env env);

class NativeOperand : public Napi::ObjectWrap<NativeOperand> {
 public:
  static Napi::Function define(Napi::Env env);
  static Napi::Object wrap(Napi::Env env, const MLOperand& operand);
  explicit NativeOperand(const Napi::CallbackInfo& info);
  const MLOperand& operand() const { return operand_; }

 private:
  Napi::Value descriptor(const Napi::CallbackInfo& info);
  Napi::Value key(const Napi::CallbackInfo& info);
  MLOperand operand_{};
};

class NativeTensor : public Napi::ObjectWrap<NativeTensor> {
 public:
  static Napi::Function define(Napi::Env env);
  static Napi::Object wrap(Napi::Env env, const MLTensor& tensor);
  explicit NativeTensor(const Napi::CallbackInfo& info);
  const MLTensor& tensor() const { return tensor_; }

 private:
  Napi::Value info(const Napi::CallbackInfo& info);
  Napi::Value constantComplete(const Napi::CallbackInfo& info);
  void destroy(const Napi::CallbackInfo& info);
  MLTensor tensor_{};
};

class NativeGraph : public Napi::ObjectWrap<NativeGraph> {
 public:
  static Napi::Function define(Napi::Env env);
  static Napi::Object wrap(Napi::Env env, const MLGraph& graph);
  explicit NativeGraph(const Napi::CallbackInfo& info);
  const MLGraph& graph() const { return graph_; }

 private:
  Napi::Value pendingConstants(const Napi::CallbackInfo& info);
  Napi::Value hollowConstants(const Napi::CallbackInfo& info);
  void setConstantData(const Napi::CallbackInfo& info);
  void writeConstantData(const Napi::CallbackInfo& info);
  Napi::Value loadConstants(const Napi::CallbackInfo& info);
  Napi::Value descriptors(const Napi::CallbackInfo& info);
  Napi::Value implementations(const Napi::CallbackInfo& info);
  Napi::Value profile(const Napi::CallbackInfo& info);
  void destroy(const Napi::CallbackInfo& info);
  MLGraph graph_{};
};

class NativeContext : public Napi::ObjectWrap<NativeContext> {
 public:
  static Napi::Function define(Napi::Env env);
  explicit NativeContext(const Napi::CallbackInfo& info);
  MLContext& context() { return context_; }

 private:
  Napi::Value createTensor(const Napi::CallbackInfo& info);
  void writeTensor(const Napi::CallbackInfo& info);
  Napi::Value readTensor(const Napi::CallbackInfo& info);
  Napi::Value createConstantTensor(const Napi::CallbackInfo& info);
  Napi::Value hollowConstantTensor(const Napi::CallbackInfo& info);
  void writeConstantTensor(const Napi::CallbackInfo& info);
  Napi::Value loadConstants(const Napi::CallbackInfo& info);
  Napi::Value dispatch(const Napi::CallbackInfo& info);
  Napi::Value opSupportLimits(const Napi::CallbackInfo& info);
  Napi::Value memoryStats(const Napi::CallbackInfo& info);
  Napi::Value backendName(const Napi::CallbackInfo& info);
  void destroy(const Napi::CallbackInfo& info);
  MLContext context_{};
};

class NativeBuilder : public Napi::ObjectWrap<NativeBuilder> {
 public:
  static Napi::Function define(Napi::Env env);
  explicit NativeBuilder(const Napi::CallbackInfo& info);
  MLGraphBuilder& builder() { return *builder_; }

 private:
  Napi::Value input(const Napi::CallbackInfo& info);
  Napi::Value constant(const Napi::CallbackInfo& info);
  Napi::Value hollowConstant(const Napi::CallbackInfo& info);
  Napi::Value tensorConstant(const Napi::CallbackInfo& info);
  Napi::Value scalarConstant(const Napi::CallbackInfo& info);
  Napi::Value op(const Napi::CallbackInfo& info);
  Napi::Value build(const Napi::CallbackInfo& info);
  std::unique_ptr<MLGraphBuilder> builder_{};
};

// The native object behind `value`, or a TypeError naming `what`.
template <class Native>
Native& unwrap(const Napi::Value& value, Napi::FunctionReference& constructor,
               const std::string& what, const char* typeName) {
  if (!value.IsObject() || !value.As<Napi::Object>().InstanceOf(constructor.Value())) {
    throw Napi::TypeError::New(value.Env(), what + " is not an " + typeName);
  }
  return *Napi::ObjectWrap<Native>::Unwrap(value.As<Napi::Object>());
}

MLOperand toOperand(const Napi::Value& value, const std::string& what);

}  // namespace webnn::node
