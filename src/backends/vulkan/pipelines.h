// Compute pipelines of the embedded shaders, created on first use and shared by every graph on a
// device. One descriptor set layout for all: binding 0 the parameter block, bindings 1..6 the
// operands (storage buffers).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "backends/vulkan/device.h"

namespace webnn::vulkan {

inline constexpr uint32_t kDescriptorBindings = 7;

class Pipelines {
 public:
  explicit Pipelines(std::shared_ptr<Device> device);
  ~Pipelines();
  Pipelines(const Pipelines&) = delete;
  Pipelines& operator=(const Pipelines&) = delete;

  VkDescriptorSetLayout setLayout() const { return setLayout_; }
  VkPipelineLayout layout() const { return layout_; }
  // The pipeline of shader `name`, its specialization constant 0 (float_io.glsl's kFloat16; a
  // shader without it ignores it) `float16`; throws OperationError when the build has no such
  // shader.
  VkPipeline get(std::string_view name, bool float16 = false);

 private:
  std::shared_ptr<Device> device_;
  VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::mutex mutex_;
  std::map<std::pair<std::string, bool>, VkPipeline, std::less<>> pipelines_;
};

}  // namespace webnn::vulkan
