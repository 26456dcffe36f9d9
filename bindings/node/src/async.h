// Work off the main thread, settled as a promise: `work` runs on a libuv worker thread and must
// not touch JS; `settle` builds the resolution value on the main thread. An error thrown by
// `work` rejects the promise with the matching DOMException / TypeError.
#pragma once

#include <napi.h>

#include <functional>
#include <vector>

#include "errors.h"

namespace webnn::node {

class PromiseWorker : public Napi::AsyncWorker {
 public:
  using Work = std::function<void()>;
  using Settle = std::function<Napi::Value(Napi::Env)>;

  // Queues the work and returns its promise. `keepAlive` are JS objects the work uses (kept from
  // the garbage collector until it settles).
  static Napi::Promise start(Napi::Env env, Work work, Settle settle,
                             const std::vector<Napi::Value>& keepAlive = {});

  void Execute() override;
  void OnOK() override;

 private:
  PromiseWorker(Napi::Env env, Work work, Settle settle);

  Napi::Promise::Deferred deferred_;
  Work work_;
  Settle settle_;
  CapturedError error_;
  std::vector<Napi::Reference<Napi::Value>> keepAlive_;
};

}  // namespace webnn::node
