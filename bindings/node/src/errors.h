// WebNN errors in JavaScript: webnn::Error becomes a DOMException with the spec's name (TypeError
// a real TypeError); every native entry point runs its body through guard().
#pragma once

#include <napi.h>
#include <webnn/types.h>

#include <string>

namespace webnn::node {

// The JS error for a webnn::Error kind and message.
Napi::Value makeError(Napi::Env env, Error::Kind kind, const std::string& message);
Napi::Value makeError(Napi::Env env, const Error& error);

// Throws a JS TypeError.
[[noreturn]] void throwTypeError(Napi::Env env, const std::string& message);

// Runs `body`, turning a webnn::Error (or std::exception) into a thrown JS error.
template <class Body>
auto guard(Napi::Env env, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Napi::Error&) {
    throw;
  } catch (const Error& error) {
    throw Napi::Error(env, makeError(env, error));
  } catch (const std::bad_alloc&) {
    throw Napi::Error(env, makeError(env, Error::Kind::OperationError, "out of memory"));
  } catch (const std::exception& error) {
    throw Napi::Error(env, makeError(env, Error::Kind::OperationError, error.what()));
  }
}

// A failure captured on a worker thread, turned into a JS error later on the main thread.
struct CapturedError {
  bool failed = false;
  Error::Kind kind = Error::Kind::OperationError;
  std::string message{};

  template <class Body>
  void run(Body&& body) {
    try {
      body();
    } catch (const Error& error) {
      failed = true;
      kind = error.kind();
      message = error.message();
    } catch (const std::bad_alloc&) {
      failed = true;
      message = "out of memory";
    } catch (const std::exception& error) {
      failed = true;
      message = error.what();
    }
  }
  Napi::Value value(Napi::Env env) const { return makeError(env, kind, message); }
};

}  // namespace webnn::node
