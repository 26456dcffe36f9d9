#include "async.h"
#include "convert.h"
#include "errors.h"
#include "load_worker.h"
#include "wrappers.h"

namespace webnn::node {
namespace {

Napi::Object toJsLimits(Napi::Env env, const MLTensorLimits& limits) {
  Napi::Object object = Napi::Object::New(env);
  Napi::Array types = Napi::Array::New(env, limits.dataTypes.size());
  for (size_t i = 0; i < limits.dataTypes.size(); ++i) {
    types.Set(i, Napi::String::New(env, std::string(toString(limits.dataTypes[i]))));
  }
  object.Set("dataTypes", types);
  Napi::Object rank = Napi::Object::New(env);
  rank.Set("min", Napi::Number::New(env, limits.rankRange.min));
  rank.Set("max", Napi::Number::New(env, limits.rankRange.max));
  object.Set("rankRange", rank);
  return object;
}

// MLNamedTensors from a record of NativeTensors.
MLNamedTensors toNamedTensors(const Napi::Value& value, const std::string& what) {
  if (!value.IsObject()) throw Napi::TypeError::New(value.Env(), what + " must be a record");
  const Napi::Object record = value.As<Napi::Object>();
  MLNamedTensors tensors;
  const Napi::Array names = record.GetPropertyNames();
  for (uint32_t i = 0; i < names.Length(); ++i) {
    const std::string name = names.Get(i).ToString().Utf8Value();
    tensors.emplace(name, unwrap<NativeTensor>(record.Get(name), addonData(value.Env()).tensor,
                                               what + "['" + name + "']", "MLTensor")
                              .tensor());
  }
  return tensors;
}

const std::vector<std::pair<const char*, MLPowerPreference>> kPowerPreferences = {
    {"default", MLPowerPreference::Default},
    {"high-performance", MLPowerPreference::HighPerformance},
    {"low-power", MLPowerPreference::LowPower}};

}  // namespace

Napi::Function NativeContext::define(Napi::Env env) {
  return DefineClass(env, "NativeContext",
                     {InstanceMethod<&NativeContext::createTensor>("createTensor"),
                      InstanceMethod<&NativeContext::writeTensor>("writeTensor"),
                      InstanceMethod<&NativeContext::readTensor>("readTensor"),
                      InstanceMethod<&NativeContext::createConstantTensor>("createConstantTensor"),
                      InstanceMethod<&NativeContext::hollowConstantTensor>("hollowConstantTensor"),
                      InstanceMethod<&NativeContext::writeConstantTensor>("writeConstantTensor"),
                      InstanceMethod<&NativeContext::loadConstants>("loadConstants"),
                      InstanceMethod<&NativeContext::dispatch>("dispatch"),
                      InstanceMethod<&NativeContext::opSupportLimits>("opSupportLimits"),
                      InstanceMethod<&NativeContext::memoryStats>("memoryStats"),
                      InstanceMethod<&NativeContext::backendName>("backendName"),
                      InstanceMethod<&NativeContext::destroy>("destroy")});
}

// new NativeContext({powerPreference, backend, numThreads, profiling, constantMemoryBudget,
// blockQuantizedInt8Activations}): MLContextOptions and its extensions.
NativeContext::NativeContext(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<NativeContext>(info) {
  Napi::Env env = info.Env();
  MLContextOptions options;
  if (info[0].IsObject()) {
    const Napi::Object object = info[0].As<Napi::Object>();
    const Napi::Value power = object.Get("powerPreference");
    if (!power.IsUndefined()) {
      options.powerPreference = toEnum(power, kPowerPreferences, "powerPreference");
    }
    const Napi::Value backend = object.Get("backend");
    if (!backend.IsUndefined()) options.backend = toDOMString(backend);
    const Napi::Value threads = object.Get("numThreads");
    if (!threads.IsUndefined()) options.numThreads = toU32(threads, "numThreads");
    options.profiling = object.Get("profiling").ToBoolean().Value();
    const Napi::Value budget = object.Get("constantMemoryBudget");
    if (!budget.IsUndefined()) {
      options.constantMemoryBudget = toByteOffset(budget, "constantMemoryBudget");
    }
    options.blockQuantizedInt8Activations =
        object.Get("blockQuantizedInt8Activations").ToBoolean().Value();
  }
  context_ = guard(env, [&] { return createContext(options); });
}

Napi::Value NativeContext::createTensor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLTensorDescriptor descriptor = toTensorDescriptor(info[0], "descriptor");
  return guard(env, [&] { return NativeTensor::wrap(env, context_.createTensor(descriptor)); });
}

// writeTensor(tensor, bytes): copies now.
void NativeContext::writeTensor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLTensor& tensor =
      unwrap<NativeTensor>(info[0], addonData(env).tensor, "tensor", "MLTensor").tensor();
  const std::span<const std::byte> bytes = bufferBytes(info[1], "data");
  guard(env, [&] { context_.writeTensor(tensor, bytes); });
}

// readTensor(tensor, destination) -> Promise<undefined>: fills `destination` (a buffer source of
// the tensor's byte length) off the main thread.
Napi::Value NativeContext::readTensor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLTensor tensor =
      unwrap<NativeTensor>(info[0], addonData(env).tensor, "tensor", "MLTensor").tensor();
  const std::span<std::byte> destination = bufferBytes(info[1], "destination");
  MLContext context = context_;
  return PromiseWorker::start(
      env, [context, tensor, destination]() mutable { context.readTensor(tensor, destination); },
      nullptr, {info[1]});
}

// createConstantTensor(descriptor, bytes): a constant tensor, its bytes copied now.
Napi::Value NativeContext::createConstantTensor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLOperandDescriptor descriptor = toOperandDescriptor(info[0], "descriptor");
  const std::span<const std::byte> bytes = bufferBytes(info[1], "inputData");
  return guard(env, [&] {
    return NativeTensor::wrap(env, context_.createConstantTensor(descriptor, bytes));
  });
}

// hollowConstantTensor(descriptor, label): a constant tensor without bytes, filled later.
Napi::Value NativeContext::hollowConstantTensor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLOperandDescriptor descriptor = toOperandDescriptor(info[0], "descriptor");
  MLConstantOptions options;
  if (!info[1].IsUndefined()) options.label = toDOMString(info[1]);
  return guard(env, [&] {
    return NativeTensor::wrap(env, context_.createConstantTensor(descriptor, options));
  });
}

// writeConstantTensor(tensor, byteOffset, bytes): copies now.
void NativeContext::writeConstantTensor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLTensor& tensor =
      unwrap<NativeTensor>(info[0], addonData(env).tensor, "tensor", "MLTensor").tensor();
  const uint64_t offset = toByteOffset(info[1], "byteOffset");
  const std::span<const std::byte> bytes = bufferBytes(info[2], "data");
  guard(env, [&] { context_.writeConstantTensor(tensor, offset, bytes); });
}

// loadConstants([tensor], path, names, options, onProgress) -> Promise<undefined>, the tensors
// read from the file off the main thread (options as load_worker.h's).
Napi::Value NativeContext::loadConstants(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsArray()) throwTypeError(env, "tensors must be an array of MLTensors");
  const Napi::Array array = info[0].As<Napi::Array>();
  std::vector<MLTensor> tensors;
  for (uint32_t i = 0; i < array.Length(); ++i) {
    tensors.push_back(unwrap<NativeTensor>(array.Get(i), addonData(env).tensor,
                                           "tensors[" + std::to_string(i) + "]", "MLTensor")
                          .tensor());
  }
  MLContext context = context_;
  return startLoad(
      info, 1, [context, tensors](const WeightSource& source, const LoadOptions& options) mutable {
        context.loadConstants(tensors, source, options);
      });
}

// dispatch(graph, inputs, outputs) -> Promise<undefined>, run off the main thread.
Napi::Value NativeContext::dispatch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLGraph graph =
      unwrap<NativeGraph>(info[0], addonData(env).graph, "graph", "MLGraph").graph();
  MLNamedTensors inputs = toNamedTensors(info[1], "inputs");
  MLNamedTensors outputs = toNamedTensors(info[2], "outputs");
  MLContext context = context_;
  return PromiseWorker::start(
      env,
      [context, graph, inputs, outputs]() mutable { context.dispatch(graph, inputs, outputs); },
      nullptr);
}

Napi::Value NativeContext::opSupportLimits(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLOpSupportLimits limits = guard(env, [&] { return context_.opSupportLimits(); });
  Napi::Object object = Napi::Object::New(env);
  object.Set("preferredInputLayout",
             limits.preferredInputLayout == MLInputOperandLayout::Nchw ? "nchw" : "nhwc");
  object.Set("maxTensorByteLength",
             Napi::Number::New(env, static_cast<double>(limits.maxTensorByteLength)));
  object.Set("input", toJsLimits(env, limits.input));
  object.Set("constant", toJsLimits(env, limits.constant));
  object.Set("output", toJsLimits(env, limits.output));
  for (const auto& [op, operands] : limits.ops) {
    Napi::Object entry = Napi::Object::New(env);
    for (const auto& [operand, tensorLimits] : operands) {
      entry.Set(operand, toJsLimits(env, tensorLimits));
    }
    object.Set(op, entry);
  }
  return object;
}

Napi::Value NativeContext::memoryStats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MLMemoryStats stats = guard(env, [&] { return context_.memoryStats(); });
  Napi::Object object = Napi::Object::New(env);
  auto set = [&](const char* name, uint64_t value) {
    object.Set(name, Napi::Number::New(env, static_cast<double>(value)));
  };
  set("constantBytes", stats.constantBytes);
  set("constantBytesPeak", stats.constantBytesPeak);
  set("activationBytes", stats.activationBytes);
  set("activationBytesPeak", stats.activationBytesPeak);
  set("tensorBytes", stats.tensorBytes);
  set("stagingBytes", stats.stagingBytes);
  set("stagingBytesPeak", stats.stagingBytesPeak);
  set("mappedConstantBytes", stats.mappedConstantBytes);
  return object;
}

Napi::Value NativeContext::backendName(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), guard(info.Env(), [&] { return context_.backendName(); }));
}

void NativeContext::destroy(const Napi::CallbackInfo& info) {
  guard(info.Env(), [&] { context_.destroy(); });
}

}  // namespace webnn::node
