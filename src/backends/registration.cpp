#include "backends/registration.h"

#include "backends/reference/reference_backend.h"
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU
#include "backends/cpu/cpu_backend.h"
#endif
#ifdef WEBNN_HAVE_VULKAN
#include "backends/vulkan/vulkan_backend.h"
#endif

namespace webnn::backend {

void registerBuiltinBackends(const RegisterFunction& add) {
  // The reference backend: the oracle; the default only in builds without a faster backend.
  add("reference", 0, [] { return reference::createReferenceBackend(); });
#ifdef WEBNN_HAVE_CPU
  // The cpu backend, the default: oneDNN primitives, the reference kernels for what they do not
  // run. Every suite (per-backend ops/API, conformance, real models) is green on it.
  add("cpu", 10, [] { return cpu::createCpuBackend(); });
#endif
#ifdef WEBNN_HAVE_VULKAN
  // The vulkan backend: never the default (`backend = "vulkan"` selects it); its options come
  // from the WEBNN_VULKAN_* environment variables (docs/vulkan.md).
  add("vulkan", -10, [] { return vulkan::createVulkanBackend(vulkan::optionsFromEnvironment()); });
#endif
}

}  // namespace webnn::backend
