#include "backends/registration.h"

#include "backends/reference/reference_backend.h"
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU
#include "backends/cpu/cpu_backend.h"
#endif

namespace webnn::backend {

void registerBuiltinBackends(const RegisterFunction& add) {
  // The reference backend: the oracle, and the default until a faster backend registers above it.
  add("reference", 0, [] { return reference::createReferenceBackend(); });
#ifdef WEBNN_HAVE_CPU
  // The cpu backend: oneDNN primitives, the reference kernels for what they do not run.
  add("cpu", -1, [] { return cpu::createCpuBackend(); });
#endif
}

}  // namespace webnn::backend
