#include "errors.h"

namespace webnn::node {

Napi::Value makeError(Napi::Env env, Error::Kind kind, const std::string& message) {
  if (kind == Error::Kind::TypeError) return Napi::TypeError::New(env, message).Value();
  const Error error(kind, message);
  const std::string name(error.name());
  Napi::Function domException = env.Global().Get("DOMException").As<Napi::Function>();
  return domException.New({Napi::String::New(env, message), Napi::String::New(env, name)});
}

Napi::Value makeError(Napi::Env env, const Error& error) {
  return makeError(env, error.kind(), error.message());
}

void throwTypeError(Napi::Env env, const std::string& message) {
  throw Napi::TypeError::New(env, message);
}

}  // namespace webnn::node
