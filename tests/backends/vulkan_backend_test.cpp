// The vulkan backend's own checks (its results on every op are compared with the reference by
// the per-backend suite): device choice, large dispatches, and the staging ring.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_VULKAN

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "api/graph_state.h"
#include "backends/backend.h"
#include "backends/vulkan/device.h"
#include "backends/vulkan/vulkan_backend.h"
#include "webnn/context.h"
#include "webnn/graph.h"
#include "webnn/graph_builder.h"
#include "webnn/weight_source.h"
#include "weights/weight_generators.h"

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

// With profiling, every operation gets a row with its shader and one run per dispatch, timed by
// the device's timestamps; an op of several steps (a concat of many inputs) counts once.
TEST(VulkanBackend, ProfilingTimesEveryOperationWithDeviceTimestamps) {
  MLContext context = createContext({.backend = "vulkan", .profiling = true});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {64, 64}});
  auto y = builder.matmul(x, x, {.label = "square"});
  std::vector<MLOperand> parts(7, builder.relu(y));
  auto z = builder.concat(parts, 0);
  MLGraph graph = builder.build({{"z", z}});
  const std::vector<float> values(64 * 64, 0.5f);
  MLTensor in = context.createTensor({{F32, {64, 64}}, false, true});
  MLTensor out = context.createTensor({{F32, {7 * 64, 64}}, true, false});
  context.writeTensor(in, bytesOf(values));
  for (int i = 0; i < 3; ++i) context.dispatch(graph, {{"x", in}}, {{"z", out}});
  const auto rows = graph.profile();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].type, "matmul");
  EXPECT_EQ(rows[0].label, "square");
  EXPECT_EQ(rows[0].implementation, "vulkan matmul");
  EXPECT_EQ(rows[2].type, "concat");
  for (const auto& row : rows) {
    EXPECT_EQ(row.runs, 3u) << row.type;
    EXPECT_GE(row.totalMilliseconds, 0.0) << row.type;
  }
  EXPECT_GT(rows[0].totalMilliseconds, 0.0);
}

TEST(VulkanBackend, NoProfileUnlessAsked) {
  MLContext context = createContext({.backend = "vulkan"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {4}});
  MLGraph graph = builder.build({{"y", builder.relu(x)}});
  MLTensor in = context.createTensor({{F32, {4}}, false, true});
  MLTensor out = context.createTensor({{F32, {4}}, true, false});
  context.writeTensor(in, bytesOf({1.0f, -1.0f, 2.0f, -2.0f}));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  EXPECT_TRUE(graph.profile().empty());
}

// Buffers share pooled device memory: thousands of small buffers live in a few VkDeviceMemory
// objects (Vulkan guarantees only 4096), placed at their alignment without overlap, mapped
// memory is usable through every buffer, and the memory goes back as the buffers go.
TEST(VulkanMemoryPool, ThousandsOfBuffersShareAFewAllocationsAndGiveThemBack) {
  auto device = vulkan::Device::create({}, MLPowerPreference::Default);
  vulkan::MemoryPool& pool = device->memoryPool();
  const size_t before = pool.deviceAllocationCount();
  std::vector<std::unique_ptr<vulkan::Buffer>> buffers;
  for (uint32_t i = 0; i < 6000; ++i) {
    buffers.push_back(std::make_unique<vulkan::Buffer>(device, 100 + (i % 7) * 300,
                                                       /*hostVisible=*/true, true));
    std::memset(buffers.back()->mapped(), static_cast<int>(i & 0xff), buffers.back()->byteLength());
  }
  EXPECT_LE(pool.deviceAllocationCount() - before, 4u);
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    const std::byte* bytes = buffers[i]->mapped();
    for (uint64_t b = 0; b < buffers[i]->byteLength(); ++b) {
      ASSERT_EQ(bytes[b], static_cast<std::byte>(i & 0xff)) << "buffer " << i << " byte " << b;
    }
  }
  // A buffer above half the largest block gets its own allocation.
  auto large =
      std::make_unique<vulkan::Buffer>(device, vulkan::MemoryPool::kLargestBlockBytes, false, true);
  const size_t withLarge = pool.deviceAllocationCount();
  large.reset();
  EXPECT_EQ(pool.deviceAllocationCount(), withLarge - 1);
  // Freed out of order, ranges coalesce and blocks are returned once empty.
  for (size_t i = 0; i < buffers.size(); i += 2) buffers[i].reset();
  for (size_t i = 1; i < buffers.size(); i += 2) buffers[i].reset();
  EXPECT_EQ(pool.deviceAllocationCount(), before);
}

// A graph with more constants than Vulkan's guaranteed allocation count builds, loads and runs.
TEST(VulkanMemoryPool, AGraphWithFiveThousandConstantsRuns) {
  MLContext context = createContext({.backend = "vulkan"});
  MLGraphBuilder builder(context);
  auto y = builder.input("x", {F32, {4}});
  const uint32_t constants = 5000;
  for (uint32_t i = 0; i < constants; ++i) {
    y = builder.add(y, builder.constant({F32, {4}}, bytesOf({1.0f, 2.0f, 3.0f, 4.0f})));
  }
  MLGraph graph = builder.build({{"y", y}});
  MLTensor in = context.createTensor({{F32, {4}}, false, true});
  MLTensor out = context.createTensor({{F32, {4}}, true, false});
  context.writeTensor(in, bytesOf({0.0f, 0.0f, 0.0f, 0.0f}));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  const auto bytes = context.readTensor(out);
  std::vector<float> result(4);
  std::memcpy(result.data(), bytes.data(), bytes.size());
  EXPECT_EQ(result, (std::vector<float>{5000.0f, 10000.0f, 15000.0f, 20000.0f}));
}

// A vulkan backend whose constants take the staging ring (as on a discrete GPU) even where the
// device has mapped device-local memory (lavapipe): 4 chunks of 64 KiB.
constexpr uint32_t kRingChunks = 4;
constexpr uint64_t kRingChunkBytes = 64 << 10;
const char* ringBackend() {
  static const bool registered = [] {
    vulkan::VulkanOptions options;
    options.allowDirect = false;
    options.ringChunks = kRingChunks;
    options.ringChunkBytes = kRingChunkBytes;
    backend::registerBackend("vulkan-ring-test", -100, [options] {
      return vulkan::createVulkanBackend(options, "vulkan-ring-test");
    });
    return true;
  }();
  (void)registered;
  return "vulkan-ring-test";
}

TEST(VulkanStagingRing, ManySmallAndAFewHugeConstantsStayWithinTheRingAndSurviveAFault) {
  MLContext context = createContext({.backend = ringBackend()});
  MLGraphBuilder builder(context);
  // 300 small constants (1..37 floats) and 3 huge ones (4 MiB each, 16 ring chunks each).
  std::vector<testing::SafetensorsTensor> tensors;
  // Two concats, the small constants' and the huge ones', so that the shader's passes (one per
  // five inputs) over the output stay small.
  std::vector<MLOperand> smallParts, hugeParts;
  std::vector<float> expected;
  for (uint32_t i = 0; i < 303; ++i) {
    const uint32_t count = i < 300 ? 1 + i % 37 : (1u << 20);
    std::vector<float> values(count);
    for (uint32_t k = 0; k < count; ++k) {
      values[k] = static_cast<float>((i * 131 + k * 7) % 1000) - 500.0f;
      expected.push_back(values[k] + 0.5f);
    }
    const std::string name = "c" + std::to_string(i);
    const auto bytes = bytesOf(values);
    tensors.push_back({name, "F32", {count}, testing::Bytes(bytes.begin(), bytes.end())});
    (i < 300 ? smallParts : hugeParts).push_back(builder.constant({F32, {count}}, {.label = name}));
  }
  auto x = builder.input("x", {F32, {1}});
  auto all = builder.concat({builder.concat(smallParts, 0), builder.concat(hugeParts, 0)}, 0);
  MLGraph graph = builder.build({{"y", builder.add(all, x)}});
  ASSERT_EQ(vulkan::constantPath(*graph.state()->compiled), "ring");

  const testing::TempDir dir;
  const std::string path = dir.file("ring.safetensors");
  const testing::Bytes file = testing::makeSafetensors(tensors);
  testing::writeFile(path, file);
  auto reader = std::make_shared<testing::FaultyReader>();
  auto source = WeightSource::open(path, reader);
  // A read fault in the middle of the second huge constant: the load fails, naming it...
  reader->arm(testing::FaultyReader::Fault::Eio, file.size() / 2, file.size() / 2 + 1);
  EXPECT_THROW(graph.loadConstants(*source, {.threads = 4}), Error);
  EXPECT_FALSE(graph.pendingConstants().empty());
  // ... and a retry loads what is pending.
  reader->disarm();
  graph.loadConstants(*source, {.threads = 4});
  EXPECT_TRUE(graph.pendingConstants().empty());

  MLTensor in = context.createTensor({{F32, {1}}, false, true});
  const uint32_t total = static_cast<uint32_t>(expected.size());
  MLTensor out = context.createTensor({{F32, {total}}, true, false});
  context.writeTensor(in, bytesOf({0.5f}));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  const auto bytes = context.readTensor(out);
  ASSERT_EQ(bytes.size(), expected.size() * 4);
  std::vector<float> result(total);
  std::memcpy(result.data(), bytes.data(), bytes.size());
  for (uint32_t i = 0; i < total; ++i) ASSERT_EQ(result[i], expected[i]) << "at " << i;

  // Host staging never exceeded the ring, though 12 MiB went through it; it is gone after the
  // load, and the constants are device bytes.
  const MLMemoryStats stats = context.memoryStats();
  EXPECT_GT(stats.stagingBytesPeak, 0u);
  EXPECT_LE(stats.stagingBytesPeak, kRingChunks * kRingChunkBytes);
  EXPECT_EQ(stats.stagingBytes, 0u);
  EXPECT_EQ(stats.constantBytes, total * 4ull);
}

TEST(VulkanStagingRing, ALoaderThatIgnoresTheHintsStillLands) {
  // writeConstantData of a whole 1 MiB constant: the slot cuts it into ring chunks.
  MLContext context = createContext({.backend = ringBackend()});
  MLGraphBuilder builder(context);
  const uint32_t count = 1u << 18;
  auto w = builder.constant({F32, {count}}, {.label = "w"});
  auto x = builder.input("x", {F32, {1}});
  MLGraph graph = builder.build({{"y", builder.mul(w, x)}});
  std::vector<float> values(count);
  for (uint32_t k = 0; k < count; ++k) values[k] = static_cast<float>(k % 4093);
  graph.setConstantData(w, bytesOf(values));
  MLTensor in = context.createTensor({{F32, {1}}, false, true});
  MLTensor out = context.createTensor({{F32, {count}}, true, false});
  context.writeTensor(in, bytesOf({2.0f}));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  const auto bytes = context.readTensor(out);
  std::vector<float> result(count);
  std::memcpy(result.data(), bytes.data(), bytes.size());
  for (uint32_t k = 0; k < count; ++k) ASSERT_EQ(result[k], values[k] * 2.0f) << "at " << k;
  EXPECT_LE(context.memoryStats().stagingBytesPeak, kRingChunks * kRingChunkBytes);
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_VULKAN
