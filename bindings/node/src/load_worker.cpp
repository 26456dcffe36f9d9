#include "load_worker.h"

#include <webnn/weight_source.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "convert.h"
#include "errors.h"

namespace webnn::node {
namespace {

// The load off the main thread; progress comes back as (done, total) pairs.
class LoadWorker : public Napi::AsyncProgressQueueWorker<std::pair<uint64_t, uint64_t>> {
 public:
  LoadWorker(Napi::Env env, LoadConstants load, std::string path,
             std::map<std::string, std::string> names, const LoadOptions& plain,
             Napi::Value onProgress)
      : Napi::AsyncProgressQueueWorker<std::pair<uint64_t, uint64_t>>(env, "webnn.loadConstants"),
        deferred_(Napi::Promise::Deferred::New(env)),
        load_(std::move(load)),
        path_(std::move(path)),
        names_(std::move(names)),
        plain_(plain) {
    if (onProgress.IsFunction()) onProgress_ = Napi::Persistent(onProgress.As<Napi::Function>());
  }

  Napi::Promise promise() { return deferred_.Promise(); }

  void Execute(const ExecutionProgress& progress) override {
    error_.run([&] {
      std::unique_ptr<WeightSource> source = WeightSource::open(path_);
      LoadOptions options = plain_;
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
      load_(*source, options);
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
  LoadConstants load_;
  std::string path_;
  std::map<std::string, std::string> names_;
  LoadOptions plain_;  // no mapping or progress functions: those are made in Execute
  Napi::FunctionReference onProgress_{};
  CapturedError error_{};
};

// LoadOptions' plain members from the JS options object (undefined: the defaults).
LoadOptions plainLoadOptions(const Napi::Value& value) {
  LoadOptions options;
  if (value.IsUndefined()) return options;
  if (!value.IsObject()) throw Napi::TypeError::New(value.Env(), "options must be an object");
  const Napi::Object object = value.As<Napi::Object>();
  auto flag = [&](const char* name, bool& member) {
    const Napi::Value given = object.Get(name);
    if (!given.IsUndefined()) member = given.ToBoolean().Value();
  };
  auto bytes = [&](const char* name, uint64_t& member) {
    const Napi::Value given = object.Get(name);
    if (!given.IsUndefined()) member = toByteOffset(given, std::string("options.") + name);
  };
  flag("requireAll", options.requireAll);
  flag("reload", options.reload);
  flag("allowMapping", options.allowMapping);
  const Napi::Value threads = object.Get("threads");
  if (!threads.IsUndefined()) options.threads = toU32(threads, "options.threads");
  bytes("chunkBytes", options.chunkBytes);
  bytes("maxTensorBytes", options.maxTensorBytes);
  bytes("maxTotalBytes", options.maxTotalBytes);
  return options;
}

}  // namespace

Napi::Promise startLoad(const Napi::CallbackInfo& info, size_t first, LoadConstants load) {
  Napi::Env env = info.Env();
  if (!info[first].IsString()) throwTypeError(env, "path must be a string");
  std::map<std::string, std::string> names;
  if (info[first + 1].IsObject()) {
    const Napi::Object record = info[first + 1].As<Napi::Object>();
    const Napi::Array keys = record.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      const std::string label = keys.Get(i).ToString().Utf8Value();
      names.emplace(label, toDOMString(record.Get(label)));
    }
  }
  const LoadOptions plain = plainLoadOptions(info[first + 2]);
  auto* worker = new LoadWorker(env, std::move(load), info[first].As<Napi::String>().Utf8Value(),
                                std::move(names), plain, info[first + 3]);
  Napi::Promise promise = worker->promise();
  worker->Queue();
  return promise;
}

}  // namespace webnn::node
