#include "async.h"

namespace webnn::node {

PromiseWorker::PromiseWorker(Napi::Env env, Work work, Settle settle)
    : Napi::AsyncWorker(env, "webnn"),
      deferred_(Napi::Promise::Deferred::New(env)),
      work_(std::move(work)),
      settle_(std::move(settle)) {}

Napi::Promise PromiseWorker::start(Napi::Env env, Work work, Settle settle,
                                   const std::vector<Napi::Value>& keepAlive) {
  auto* worker = new PromiseWorker(env, std::move(work), std::move(settle));
  for (const Napi::Value& value : keepAlive) {
    worker->keepAlive_.push_back(Napi::Reference<Napi::Value>::New(value, 1));
  }
  Napi::Promise promise = worker->deferred_.Promise();
  worker->Queue();
  return promise;
}

void PromiseWorker::Execute() {
  error_.run(work_);
}

void PromiseWorker::OnOK() {
  Napi::Env env = Env();
  Napi::HandleScope scope(env);
  if (error_.failed) {
    deferred_.Reject(error_.value(env));
    return;
  }
  try {
    deferred_.Resolve(settle_ ? guard(env, [&] { return settle_(env); }) : env.Undefined());
  } catch (const Napi::Error& error) {
    deferred_.Reject(error.Value());
  }
}

}  // namespace webnn::node
