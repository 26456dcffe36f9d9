// What every context and graph on one Vulkan device shares: the device, its pipelines and the
// backend's options (which staging path constants take).
#pragma once

#include <memory>

#include "backends/vulkan/device.h"
#include "backends/vulkan/pipelines.h"

namespace webnn::vulkan {

struct Runtime {
  std::shared_ptr<Device> device;
  std::unique_ptr<Pipelines> pipelines;
  VulkanOptions options;
  // Constants and tensors live in mapped device-local memory (no staging): the device has a
  // device-local host-visible memory type and options.allowDirect.
  bool direct = false;
};

// The runtime of the device `options` and `preference` choose, shared while anyone holds it.
std::shared_ptr<Runtime> acquireRuntime(const VulkanOptions& options, MLPowerPreference preference);

}  // namespace webnn::vulkan
