#include "convert.h"
#include "errors.h"
#include "load_worker.h"
#include "wrappers.h"

namespace webnn::node {
namespace {

Napi::Array toJsOperands(Napi::Env env, const std::vector<MLOperand>& operands) {
  Napi::Array array = Napi::Array::New(env, operands.size());
  for (size_t i = 0; i < operands.size(); ++i) array.Set(i, NativeOperand::wrap(env, operands[i]));
  return array;
}

}  // namespace

Napi::Function NativeGraph::define(Napi::Env env) {
  return DefineClass(env, "NativeGraph",
                     {InstanceMethod<&NativeGraph::pendingConstants>("pendingConstants"),
                      InstanceMethod<&NativeGraph::hollowConstants>("hollowConstants"),
                      InstanceMethod<&NativeGraph::setConstantData>("setConstantData"),
                      InstanceMethod<&NativeGraph::writeConstantData>("writeConstantData"),
                      InstanceMethod<&NativeGraph::loadConstants>("loadConstants"),
                      InstanceMethod<&NativeGraph::descriptors>("descriptors"),
                      InstanceMethod<&NativeGraph::implementations>("implementations"),
                      InstanceMethod<&NativeGraph::profile>("profile"),
                      InstanceMethod<&NativeGraph::destroy>("destroy")});
}

Napi::Object NativeGraph::wrap(Napi::Env env, const MLGraph& graph) {
  Napi::Object object = addonData(env).graph.New({});
  Unwrap(object)->graph_ = graph;
  return object;
}

NativeGraph::NativeGraph(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeGraph>(info) {}

Napi::Value NativeGraph::pendingConstants(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return toJsOperands(env, guard(env, [&] { return graph_.pendingConstants(); }));
}

Napi::Value NativeGraph::hollowConstants(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return toJsOperands(env, guard(env, [&] { return graph_.hollowConstants(); }));
}

// setConstantData(operand, bytes): one copy, from the JS buffer into the constant's storage.
void NativeGraph::setConstantData(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLOperand operand = toOperand(info[0], "operand");
  const std::span<const std::byte> bytes = bufferBytes(info[1], "data");
  guard(env, [&] { graph_.setConstantData(operand, bytes); });
}

// writeConstantData(operand, byteOffset, bytes)
void NativeGraph::writeConstantData(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLOperand operand = toOperand(info[0], "operand");
  const uint64_t offset = toByteOffset(info[1], "byteOffset");
  const std::span<const std::byte> bytes = bufferBytes(info[2], "data");
  guard(env, [&] { graph_.writeConstantData(operand, offset, bytes); });
}

// loadConstants(path, names, options, onProgress) -> Promise<undefined> (options as
// load_worker.h's)
Napi::Value NativeGraph::loadConstants(const Napi::CallbackInfo& info) {
  MLGraph graph = graph_;
  return startLoad(info, 0,
                   [graph](const WeightSource& source, const LoadOptions& options) mutable {
                     graph.loadConstants(source, options);
                   });
}

// {inputs: {name: descriptor}, outputs: {name: descriptor}}
Napi::Value NativeGraph::descriptors(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guard(env, [&] {
    auto record = [&](const std::map<std::string, MLOperandDescriptor>& descriptors) {
      Napi::Object object = Napi::Object::New(env);
      for (const auto& [name, descriptor] : descriptors) {
        object.Set(name, toJsDescriptor(env, descriptor));
      }
      return object;
    };
    Napi::Object object = Napi::Object::New(env);
    object.Set("inputs", record(graph_.inputDescriptors()));
    object.Set("outputs", record(graph_.outputDescriptors()));
    return object;
  });
}

// [{type, label, dataType, implementation, fallbackReason}], one per executable step.
Napi::Value NativeGraph::implementations(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guard(env, [&] {
    const std::vector<MLStepImplementation> steps = graph_.implementations();
    Napi::Array array = Napi::Array::New(env, steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      Napi::Object step = Napi::Object::New(env);
      step.Set("type", steps[i].type);
      step.Set("label", steps[i].label);
      step.Set("dataType", steps[i].dataType);
      step.Set("implementation", steps[i].implementation);
      step.Set("fallbackReason", steps[i].fallbackReason);
      array.Set(static_cast<uint32_t>(i), step);
    }
    return array;
  });
}

// [{type, label, implementation, runs, totalMilliseconds}], one per executable step, over the
// dispatches so far (empty unless the context was created with profiling).
Napi::Value NativeGraph::profile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guard(env, [&] {
    const std::vector<MLOperationProfile> steps = graph_.profile();
    Napi::Array array = Napi::Array::New(env, steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      Napi::Object step = Napi::Object::New(env);
      step.Set("type", steps[i].type);
      step.Set("label", steps[i].label);
      step.Set("implementation", steps[i].implementation);
      step.Set("runs", Napi::Number::New(env, static_cast<double>(steps[i].runs)));
      step.Set("totalMilliseconds", steps[i].totalMilliseconds);
      array.Set(static_cast<uint32_t>(i), step);
    }
    return array;
  });
}

void NativeGraph::destroy(const Napi::CallbackInfo& info) {
  guard(info.Env(), [&] { graph_.destroy(); });
}

}  // namespace webnn::node
