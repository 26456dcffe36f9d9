#include "backends/registration.h"

#include "backends/reference/reference_backend.h"

namespace webnn::backend {

void registerBuiltinBackends(const RegisterFunction& add) {
  // The reference backend: the oracle, and the default until a faster backend registers above it.
  add("reference", 0, [] { return reference::createReferenceBackend(); });
}

}  // namespace webnn::backend
