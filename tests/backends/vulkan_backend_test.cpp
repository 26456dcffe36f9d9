// The vulkan backend's own checks (its results on every op are compared with the reference by
// the per-backend suite): device choice, large dispatches, and the staging ring.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_VULKAN

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backends/vulkan/device.h"
#include "backends/vulkan/vulkan_backend.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace {

constexpr auto F32 = MLOperandDataType::Float32;

std::span<const std::byte> bytesOf(const std::vector<float>& values) {
  return std::as_bytes(std::span(values));
}

TEST(VulkanBackend, DeviceChoiceFollowsPowerPreferenceWithCpuDevicesLast) {
  using vulkan::PhysicalDeviceInfo;
  const std::vector<PhysicalDeviceInfo> devices{
      {0, "cpu", VK_PHYSICAL_DEVICE_TYPE_CPU},
      {1, "integrated", VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU},
      {2, "discrete", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU}};
  EXPECT_EQ(vulkan::choosePhysicalDevice(devices, MLPowerPreference::HighPerformance), 2u);
  EXPECT_EQ(vulkan::choosePhysicalDevice(devices, MLPowerPreference::Default), 2u);
  EXPECT_EQ(vulkan::choosePhysicalDevice(devices, MLPowerPreference::LowPower), 1u);
  const std::vector<PhysicalDeviceInfo> cpuOnly{{0, "cpu", VK_PHYSICAL_DEVICE_TYPE_CPU}};
  EXPECT_EQ(vulkan::choosePhysicalDevice(cpuOnly, MLPowerPreference::LowPower), 0u);
}

TEST(VulkanBackend, AnElementwiseOpOverMoreThan65535WorkgroupsCoversEveryElement) {
  MLContext context = createContext({.backend = "vulkan"});
  MLGraphBuilder builder(context);
  const uint32_t count = 5'000'003;
  auto x = builder.input("x", {F32, {count}});
  auto y = builder.add(x, builder.constant({F32, {1}}, bytesOf({1.0f})));
  MLGraph graph = builder.build({{"y", y}});
  std::vector<float> values(count);
  for (uint32_t i = 0; i < count; ++i) values[i] = static_cast<float>(i % 1000);
  MLTensor in = context.createTensor({{F32, {count}}, false, true});
  MLTensor out = context.createTensor({{F32, {count}}, true, false});
  context.writeTensor(in, bytesOf(values));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  const auto bytes = context.readTensor(out);
  std::vector<float> result(count);
  std::memcpy(result.data(), bytes.data(), bytes.size());
  for (uint32_t i = 0; i < count; ++i) {
    ASSERT_EQ(result[i], values[i] + 1.0f) << "at " << i;
  }
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_VULKAN
