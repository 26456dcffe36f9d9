// The vulkan backend: WebNN graphs as Vulkan compute shaders on the device powerPreference (or
// WEBNN_VULKAN_DEVICE) chooses; constants, tensors and activations in device memory; constants
// uploaded through a bounded staging ring, or straight into mapped device-local memory where the
// device has it. See docs/vulkan.md.
#pragma once

#include <memory>
#include <string>

#include "backends/backend.h"
#include "backends/vulkan/device.h"

namespace webnn::vulkan {

// A vulkan backend named `name` with `options` (the registered "vulkan" reads them from the
// environment: optionsFromEnvironment).
std::unique_ptr<backend::Backend> createVulkanBackend(VulkanOptions options,
                                                      std::string name = "vulkan");

// Where a graph's constants go: "direct" (mapped device memory) or "ring"; empty when `graph` is
// not a vulkan graph.
std::string constantPath(const backend::CompiledGraph& graph);

}  // namespace webnn::vulkan
