#include "backends/vulkan/pipelines.h"

#include <array>

#include "backends/vulkan/shaders.h"
#include "webnn/types.h"

namespace webnn::vulkan {

Pipelines::Pipelines(std::shared_ptr<Device> device) : device_(std::move(device)) {
  std::array<VkDescriptorSetLayoutBinding, kDescriptorBindings> bindings{};
  for (uint32_t i = 0; i < kDescriptorBindings; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo setInfo{};
  setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  setInfo.bindingCount = kDescriptorBindings;
  setInfo.pBindings = bindings.data();
  check(vkCreateDescriptorSetLayout(device_->handle(), &setInfo, nullptr, &setLayout_),
        "vkCreateDescriptorSetLayout");
  VkPipelineLayoutCreateInfo layoutInfo{};
  layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout_;
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  const VkResult result = vkCreatePipelineLayout(device_->handle(), &layoutInfo, nullptr, &layout_);
  if (result != VK_SUCCESS) {
    vkDestroyDescriptorSetLayout(device_->handle(), setLayout_, nullptr);
    check(result, "vkCreatePipelineLayout");
  }
}

Pipelines::~Pipelines() {
  VkDevice vk = device_->handle();
  for (auto& entry : pipelines_) vkDestroyPipeline(vk, entry.second, nullptr);
  vkDestroyPipelineLayout(vk, layout_, nullptr);
  vkDestroyDescriptorSetLayout(vk, setLayout_, nullptr);
}

VkPipeline Pipelines::get(std::string_view name, bool float16) {
  std::lock_guard lock(mutex_);
  std::pair<std::string, bool> key{std::string(name), float16};
  if (auto found = pipelines_.find(key); found != pipelines_.end()) return found->second;
  const std::span<const uint32_t> code = shaderCode(name);
  if (code.empty()) throwOperationError("vulkan: no shader '" + std::string(name) + "'");
  VkDevice vk = device_->handle();
  VkShaderModuleCreateInfo moduleInfo{};
  moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  moduleInfo.codeSize = code.size_bytes();
  moduleInfo.pCode = code.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(vk, &moduleInfo, nullptr, &module), "vkCreateShaderModule");
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  const VkBool32 specialization = float16 ? VK_TRUE : VK_FALSE;
  const VkSpecializationMapEntry entry{0, 0, sizeof specialization};
  const VkSpecializationInfo specializationInfo{1, &entry, sizeof specialization, &specialization};
  info.stage.pSpecializationInfo = &specializationInfo;
  info.layout = layout_;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult result =
      vkCreateComputePipelines(vk, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  vkDestroyShaderModule(vk, module, nullptr);
  check(result, "vkCreateComputePipelines");
  pipelines_.emplace(std::move(key), pipeline);
  return pipeline;
}

}  // namespace webnn::vulkan
