// The built-in backends: registerBuiltinBackends is the one place that lists them (each backend
// folder exposes a factory), called when the registry is first used. No static initializers, so
// a static library keeps every backend.
#pragma once

#include <functional>
#include <string>

#include "backends/backend.h"

namespace webnn::backend {

using RegisterFunction = std::function<void(std::string name, int priority, BackendFactory)>;
void registerBuiltinBackends(const RegisterFunction& add);

}  // namespace webnn::backend
