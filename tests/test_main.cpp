// The unit tests' main: registers the test backends (explicitly, as every backend registers),
// then runs GoogleTest.
#include <gtest/gtest.h>

#include "backends/transforming_backend.h"
#include "webnn/config.h"
#ifdef WEBNN_HAVE_VULKAN
#include "backends/backend.h"
#include "backends/vulkan/vulkan_backend.h"
#endif

int main(int argc, char** argv) {
  webnn::testing::registerTransformingBackend();
#ifdef WEBNN_HAVE_VULKAN
  // "vulkan-ring": the vulkan backend with its constants forced through a small staging ring
  // (4 x 256 KiB), as on a device without mapped device-local memory; the per-backend suite
  // (loads with faults, retries, re-fills, threads) runs on it too.
  webnn::backend::registerBackend("vulkan-ring", -100, [] {
    webnn::vulkan::VulkanOptions options;
    options.allowDirect = false;
    options.ringChunkBytes = 256 << 10;
    return webnn::vulkan::createVulkanBackend(options, "vulkan-ring");
  });
#endif
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
