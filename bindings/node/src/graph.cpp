#include <webnn/weight_source.h>

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "convert.h"
#include "errors.h"
#include "wrappers.h"

namespace webnn::node {
namespace {

Napi::Array toJsOperands(Napi::Env env, const std::vector<MLOperand>& operands) {
  Napi::Array array = Napi::Array::New(env, operands.size());
  for (size_t i = 0; i < operands.size(); ++i) array.Set(i, NativeOperand::wrap(env, operands[i]));
  return array;
}

// loadConstants off the main thread; progress comes back as (done, total) pairs.
class LoadWorker : public Napi::AsyncProgressQueueWorker<std::pair<uint64_t, uint64_t>> {
 public:
  LoadWorker(Napi::Env env, MLGraph graph, std::string path,
             std::map<std::string, std::string> names, bool requireAll, Napi::Value onProgress)
      : Napi::AsyncProgressQueueWorker<std::pair<uint64_t, uint64_t>>(env, "webnn.loadConstants"),
        deferred_(Napi::Promise::Deferred::New(env)),
        graph_(std::move(graph)),
        path_(std::move(path)),
        names_(std::move(names)),
        requireAll_(requireAll) {
    if (onProgress.IsFunction()) onProgress_ = Napi::Persistent(onProgress.As<Napi::Function>());
  }

  Napi::Promise promise() { return deferred_.Promise(); }

  void Execute(const ExecutionProgress& progress) override {
    error_.run([&] {
      std::unique_ptr<WeightSource> source = WeightSource::open(path_);
      LoadOptions options;
      options.requireAll = requireAll_;
      if (!names_.empty()) {
        options.nameMapping = [this](const std::string& label) {
          auto it = names_.find(label);
          return it == names_.end() ? label : it->second;
        };
      }
      if (!onProgress_.IsEmpty()) {
        options.progress = [&progress](uint64_t done, uint64_t total) {
          const std::pair<uint64_t, uint64_t> step{done, total};
          progress.Send(&step, 1);
        };
      }
      graph_.loadConstants(*source, options);
    });
  }

  void OnProgress(const std::pair<uint64_t, uint64_t>* steps, size_t count) override {
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    for (size_t i = 0; i < count && !onProgress_.IsEmpty(); ++i) {
      try {
        onProgress_.Call({Napi::Number::New(env, static_cast<double>(steps[i].first)),
                          Napi::Number::New(env, static_cast<double>(steps[i].second))});
      } catch (const Napi::Error& error) {
        // A throwing callback does not stop the load; Node reports the error.
        error.ThrowAsJavaScriptException();
        return;
      }
    }
  }

  void OnOK() override {
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    if (error_.failed) {
      deferred_.Reject(error_.value(env));
    } else {
      deferred_.Resolve(env.Undefined());
    }
  }

 private:
  Napi::Promise::Deferred deferred_;
  MLGraph graph_;
  std::string path_;
  std::map<std::string, std::string> names_;
  bool requireAll_;
  Napi::FunctionReference onProgress_{};
  CapturedError error_{};
};

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
  double offset = 0;
  if (info[1].IsBigInt()) {
    bool lossless = false;
    offset = static_cast<double>(info[1].As<Napi::BigInt>().Uint64Value(&lossless));
    if (!lossless) throwTypeError(env, "byteOffset is out of range");
  } else {
    offset = toDouble(info[1], "byteOffset");
    if (offset < 0 || offset > 9007199254740991.0 ||
        offset != static_cast<double>(static_cast<uint64_t>(offset))) {
      throwTypeError(env, "byteOffset must be a non-negative integer");
    }
  }
  const std::span<const std::byte> bytes = bufferBytes(info[2], "data");
  guard(env, [&] { graph_.writeConstantData(operand, static_cast<uint64_t>(offset), bytes); });
}

// loadConstants(path, names, requireAll, onProgress) -> Promise<undefined>
Napi::Value NativeGraph::loadConstants(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString()) throwTypeError(env, "path must be a string");
  std::map<std::string, std::string> names;
  if (info[1].IsObject()) {
    const Napi::Object record = info[1].As<Napi::Object>();
    const Napi::Array keys = record.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      const std::string label = keys.Get(i).ToString().Utf8Value();
      names.emplace(label, toDOMString(record.Get(label)));
    }
  }
  auto* worker = new LoadWorker(env, graph_, info[0].As<Napi::String>().Utf8Value(),
                                std::move(names), info[2].ToBoolean().Value(), info[3]);
  Napi::Promise promise = worker->promise();
  worker->Queue();
  return promise;
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

void NativeGraph::destroy(const Napi::CallbackInfo& info) {
  guard(info.Env(), [&] { graph_.destroy(); });
}

}  // namespace webnn::node
