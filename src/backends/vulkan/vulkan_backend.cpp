// The vulkan backend and its compiled graph. compile() turns every operation into compute steps
// (ops/*.cpp), creates their pipelines and one descriptor set per step, plans the intermediates
// once with the shared liveness planner (one device-local arena per dispatch) and gives every
// hollow constant a device-local slot. dispatch() binds the tensors' buffers, records every step
// with a barrier between steps, submits and waits. When the context profiles, every step is
// bracketed by device timestamps and their differences are added to the operation's row.
#include "backends/vulkan/vulkan_backend.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>

#include "backends/vulkan/constant_slot.h"
#include "backends/vulkan/kernel.h"
#include "backends/vulkan/runtime.h"
#include "backends/vulkan/staging_ring.h"
#include "backends/vulkan/vulkan_tensor.h"
#include "graph/memory_plan.h"
#include "graph/op_limits.h"

namespace webnn::vulkan {
namespace {

uint64_t roundUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

struct BufferRef {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t offset = 0;
  uint64_t range = VK_WHOLE_SIZE;
};

class VulkanCompiledGraph final : public backend::CompiledGraph {
 public:
  VulkanCompiledGraph(std::shared_ptr<Runtime> runtime, std::shared_ptr<const graph::GraphIR> ir,
                      std::shared_ptr<backend::MemoryAccount> memory, bool profiling)
      : runtime_(std::move(runtime)), ir_(std::move(ir)), memory_(std::move(memory)) {
    const Device& device = *runtime_->device;
    compileSteps();
    if (profiling && device.timestampBits() > 0 && !steps_.empty()) createProfiler();
    const uint64_t maxBinding = device.maxBindingBytes();
    for (const auto& operand : ir_->operands) {
      if (ir_->isUsed(operand->id) && operand->descriptor.byteLength() > maxBinding) {
        throw Error(Error::Kind::NotSupportedError,
                    "vulkan: operand '" + operand->name + "' (" + toString(operand->descriptor) +
                        ") is larger than the device's largest storage buffer binding (" +
                        std::to_string(maxBinding) + " bytes)");
      }
    }
    const uint64_t alignment =
        std::max<uint64_t>(64, device.limits().minStorageBufferOffsetAlignment);
    plan_ = graph::planArena(graph::intermediateLifetimes(*ir_), ir_->operands.size(), alignment);
    // The scratch buffer of ops that carry state across their steps: after the planned
    // intermediates, in the same arena.
    for (const Step& step : steps_) scratchBytes_ = std::max(scratchBytes_, step.scratchBytes);
    scratchOffset_ = roundUp(plan_.arenaBytes, alignment);
    if (scratchBytes_ > maxBinding) {
      throw Error(Error::Kind::NotSupportedError,
                  "vulkan: an op's scratch state (" + std::to_string(scratchBytes_) +
                      " bytes) is larger than the device's largest storage buffer binding");
    }
    dummy_ = std::make_unique<Buffer>(runtime_->device, 16, false, true);
    createConstants();
    createParams();
    createDescriptors();
    createCommands();
  }

  ~VulkanCompiledGraph() override {
    // Copies still in flight (a load that failed before constantsComplete) write into the slots'
    // buffers: wait for them before anything is destroyed.
    releaseRing();
    VkDevice vk = runtime_->device->handle();
    if (fence_) vkDestroyFence(vk, fence_, nullptr);
    if (queries_) vkDestroyQueryPool(vk, queries_, nullptr);
    if (commandPool_) vkDestroyCommandPool(vk, commandPool_, nullptr);
    if (descriptorPool_) vkDestroyDescriptorPool(vk, descriptorPool_, nullptr);
  }

  backend::ConstantSlot& constantSlot(graph::OperandId operandId) override {
    return *slots_.at(operandId);
  }

  backend::StagingHints stagingHints() const override {
    backend::StagingHints hints;
    hints.deviceMemory = true;
    if (runtime_->direct) {
      hints.direct = true;
    } else {
      hints.chunkBytes = runtime_->options.ringChunkBytes;
      hints.maxChunksInFlight = runtime_->options.ringChunks;
    }
    return hints;
  }

  // Every copy is done: the ring goes (its host memory with it) until a re-fill needs it again.
  void constantsComplete() override { releaseRing(); }

  bool concurrentDispatch() const override { return false; }

  void dispatch(const backend::BoundTensors& inputs,
                const backend::BoundTensors& outputs) override {
    const uint64_t arenaBytes = scratchBytes_ ? scratchOffset_ + scratchBytes_ : plan_.arenaBytes;
    Buffer arena(runtime_->device, arenaBytes + 64, false, true);
    backend::GaugeCharge arenaCharge(memory_->activations, arenaBytes);
    std::vector<BufferRef> refs = constantRefs_;
    refs.push_back(scratchBytes_
                       ? BufferRef{arena.handle(), scratchOffset_, roundUp(scratchBytes_, 4)}
                       : BufferRef{dummy_->handle(), 0, VK_WHOLE_SIZE});
    for (const auto& operand : ir_->operands) {
      const uint64_t offset = plan_.offsets[operand->id];
      if (offset == graph::kNotPlanned) continue;
      const uint64_t bytes = operand->descriptor.byteLength();
      refs[operand->id] = bytes == 0 ? BufferRef{dummy_->handle(), 0, VK_WHOLE_SIZE}
                                     : BufferRef{arena.handle(), offset, roundUp(bytes, 4)};
    }
    for (const auto& [name, tensor] : inputs) {
      refs[ir_->inputs.at(name)] = {static_cast<VulkanTensor*>(tensor)->buffer(), 0, VK_WHOLE_SIZE};
    }
    for (const auto& [name, tensor] : outputs) {
      refs[ir_->outputs.at(name)] = {static_cast<VulkanTensor*>(tensor)->buffer(), 0,
                                     VK_WHOLE_SIZE};
    }
    bindDescriptors(refs);
    record();
    VkDevice vk = runtime_->device->handle();
    check(vkResetFences(vk, 1, &fence_), "vkResetFences");
    runtime_->device->submit(commands_, fence_);
    check(vkWaitForFences(vk, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    if (queries_) recordProfile();
  }

  std::vector<backend::OperationProfile> profile() const override { return profiler_.snapshot(); }

  std::string constantPath() const { return runtime_->direct ? "direct" : "ring"; }

 private:
  void compileSteps() {
    const OpTable& table = vulkanOps();
    std::set<std::string_view> missing;
    for (const auto& operation : ir_->operations) {
      const OpEntry* entry = table.find(operation.type);
      if (!entry) {
        missing.insert(graph::specName(operation.type));
        continue;
      }
      entry->compile(OpContext{*ir_, operation}, steps_);
      stepOperation_.resize(steps_.size(),
                            static_cast<size_t>(&operation - ir_->operations.data()));
    }
    if (!missing.empty()) {
      std::string names;
      for (const auto& name : missing) names += (names.empty() ? "" : ", ") + std::string(name);
      throw Error(Error::Kind::NotSupportedError, "the vulkan backend cannot run: " + names);
    }
    for (const Step& step : steps_) {
      pipelines_.push_back(runtime_->pipelines->get(step.shader, step.float16));
      if (step.bindings.size() > kMaxBindings) {
        throwOperationError("vulkan: a step binds too many operands");
      }
    }
  }

  // One row per operation (its steps' shaders '+'-joined), two timestamps per step.
  void createProfiler() {
    std::vector<backend::OperationProfile> rows(ir_->operations.size());
    for (size_t i = 0; i < ir_->operations.size(); ++i) {
      const graph::Operation& operation = ir_->operations[i];
      rows[i].type = std::string(graph::specName(operation.type));
      rows[i].label = operation.label;
    }
    for (size_t i = 0; i < steps_.size(); ++i) {
      std::string& implementation = rows[stepOperation_[i]].implementation;
      const std::string shader =
          std::string(steps_[i].shader) + (steps_[i].float16 ? " (f16)" : "");
      if (implementation.find(shader) == std::string::npos) {
        implementation += (implementation.empty() ? "" : "+") + shader;
      }
    }
    for (auto& row : rows) row.implementation = "vulkan " + row.implementation;
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = static_cast<uint32_t>(2 * steps_.size());
    check(vkCreateQueryPool(runtime_->device->handle(), &info, nullptr, &queries_),
          "vkCreateQueryPool");
    profiler_ = backend::OpProfiler(std::move(rows));
  }

  void recordProfile() {
    std::vector<uint64_t> stamps(2 * steps_.size());
    check(vkGetQueryPoolResults(runtime_->device->handle(), queries_, 0,
                                static_cast<uint32_t>(stamps.size()),
                                stamps.size() * sizeof(uint64_t), stamps.data(), sizeof(uint64_t),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults");
    const uint32_t bits = runtime_->device->timestampBits();
    const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const double nanosecondsPerTick = runtime_->device->limits().timestampPeriod;
    for (size_t i = 0; i < steps_.size(); ++i) {
      const uint64_t ticks = (stamps[2 * i + 1] - stamps[2 * i]) & mask;
      const bool firstStepOfOperation = i == 0 || stepOperation_[i - 1] != stepOperation_[i];
      profiler_.add(stepOperation_[i], static_cast<double>(ticks) * nanosecondsPerTick * 1e-6,
                    firstStepOfOperation);
    }
  }

  StagingRing& ring() {
    std::lock_guard lock(ringMutex_);
    if (!ring_) {
      ring_ = std::make_unique<StagingRing>(runtime_->device, runtime_->options.ringChunks,
                                            runtime_->options.ringChunkBytes, memory_);
    }
    return *ring_;
  }
  void releaseRing() {
    std::lock_guard lock(ringMutex_);
    if (ring_) ring_->drain();
    ring_.reset();
  }

  void createConstants() {
    slots_.resize(ir_->operands.size());
    constantRefs_.assign(ir_->operands.size(), BufferRef{dummy_->handle(), 0, VK_WHOLE_SIZE});
    uint64_t constantBytes = 0;
    for (const auto& operand : ir_->operands) {
      if (!ir_->isUsed(operand->id)) continue;
      const uint64_t bytes = operand->descriptor.byteLength();
      if (operand->kind == graph::OperandKind::HollowConstant) {
        slots_[operand->id] = std::make_unique<VulkanConstantSlot>(
            runtime_, bytes, [this]() -> StagingRing& { return ring(); }, memory_);
        constantRefs_[operand->id] = {slots_[operand->id]->buffer(), 0, VK_WHOLE_SIZE};
        constantBytes += bytes;
      } else if (operand->kind == graph::OperandKind::Constant && operand->data) {
        // A classic constant: uploaded once, now, the same way a hollow one is.
        auto slot = std::make_unique<VulkanConstantSlot>(
            runtime_, bytes, [this]() -> StagingRing& { return ring(); }, memory_);
        slot->write(0, std::span<const std::byte>(operand->data->data(), operand->data->size()));
        constantRefs_[operand->id] = {slot->buffer(), 0, VK_WHOLE_SIZE};
        classic_.push_back(std::move(slot));
        constantBytes += bytes;
      }
    }
    releaseRing();
    constantCharge_ = backend::GaugeCharge(memory_->constants, constantBytes);
  }

  void createParams() {
    const uint64_t alignment =
        std::max<uint64_t>(16, runtime_->device->limits().minStorageBufferOffsetAlignment);
    uint64_t total = 0;
    for (const Step& step : steps_) {
      paramOffsets_.push_back(total);
      total = roundUp(total + std::max<size_t>(step.params.size(), 1) * 4, alignment);
    }
    params_ = std::make_unique<Buffer>(runtime_->device, total, /*hostVisible=*/true,
                                       /*preferDeviceLocal=*/true);
    for (size_t i = 0; i < steps_.size(); ++i) {
      if (!steps_[i].params.empty()) {
        std::memcpy(params_->mapped() + paramOffsets_[i], steps_[i].params.data(),
                    steps_[i].params.size() * 4);
      }
    }
  }

  void createDescriptors() {
    if (steps_.empty()) return;
    VkDevice vk = runtime_->device->handle();
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              static_cast<uint32_t>(steps_.size() * kDescriptorBindings)};
    VkDescriptorPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    info.maxSets = static_cast<uint32_t>(steps_.size());
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    check(vkCreateDescriptorPool(vk, &info, nullptr, &descriptorPool_), "vkCreateDescriptorPool");
    std::vector<VkDescriptorSetLayout> layouts(steps_.size(), runtime_->pipelines->setLayout());
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = descriptorPool_;
    allocate.descriptorSetCount = static_cast<uint32_t>(layouts.size());
    allocate.pSetLayouts = layouts.data();
    sets_.resize(steps_.size());
    check(vkAllocateDescriptorSets(vk, &allocate, sets_.data()), "vkAllocateDescriptorSets");
  }

  void createCommands() {
    VkDevice vk = runtime_->device->handle();
    commandPool_ = runtime_->device->createCommandPool();
    VkCommandBufferAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    info.commandPool = commandPool_;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(vk, &info, &commands_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fenceInfo{};
    fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    check(vkCreateFence(vk, &fenceInfo, nullptr, &fence_), "vkCreateFence");
  }

  void bindDescriptors(const std::vector<BufferRef>& refs) {
    std::vector<VkDescriptorBufferInfo> infos(steps_.size() * kDescriptorBindings);
    std::vector<VkWriteDescriptorSet> writes;
    writes.reserve(infos.size());
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& step = steps_[i];
      for (uint32_t b = 0; b < kDescriptorBindings; ++b) {
        VkDescriptorBufferInfo& info = infos[i * kDescriptorBindings + b];
        if (b == 0) {
          info = {params_->handle(), paramOffsets_[i],
                  std::max<uint64_t>(step.params.size(), 1) * 4};
        } else if (b - 1 < step.bindings.size()) {
          const BufferRef& ref = refs[step.bindings[b - 1]];
          info = {ref.buffer, ref.offset, ref.range};
        } else {
          info = {dummy_->handle(), 0, VK_WHOLE_SIZE};
        }
        VkWriteDescriptorSet write{};
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstSet = sets_[i];
        write.dstBinding = b;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        write.pBufferInfo = &info;
        writes.push_back(write);
      }
    }
    if (!writes.empty()) {
      vkUpdateDescriptorSets(runtime_->device->handle(), static_cast<uint32_t>(writes.size()),
                             writes.data(), 0, nullptr);
    }
  }

  void record() {
    check(vkResetCommandBuffer(commands_, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
    // Host writes (tensors, parameters) are visible to the first step.
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                         nullptr);
    if (queries_) {
      vkCmdResetQueryPool(commands_, queries_, 0, static_cast<uint32_t>(2 * steps_.size()));
    }
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& step = steps_[i];
      // Profiling: the step's time is from the previous step's end (its barrier) to its own.
      if (queries_) {
        vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries_,
                            static_cast<uint32_t>(2 * i));
      }
      if (step.groups[0] == 0 || step.groups[1] == 0 || step.groups[2] == 0) {
        if (queries_) {
          vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_,
                              static_cast<uint32_t>(2 * i + 1));
        }
        continue;
      }
      vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[i]);
      vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE,
                              runtime_->pipelines->layout(), 0, 1, &sets_[i], 0, nullptr);
      const uint32_t maxGroups = runtime_->device->limits().maxComputeWorkGroupCount[0];
      for (uint32_t first = 0; first < step.groups[0]; first += maxGroups) {
        const uint32_t firstIndex = first * step.groupSize;
        vkCmdPushConstants(commands_, runtime_->pipelines->layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           4, &firstIndex);
        vkCmdDispatch(commands_, std::min(maxGroups, step.groups[0] - first), step.groups[1],
                      step.groups[2]);
      }
      if (queries_) {
        vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_,
                            static_cast<uint32_t>(2 * i + 1));
      }
      VkMemoryBarrier between{};
      between.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
      between.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
      between.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                              VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
      vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT |
                               VK_PIPELINE_STAGE_TRANSFER_BIT,
                           0, 1, &between, 0, nullptr, 0, nullptr);
    }
    check(vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
  }

  std::shared_ptr<Runtime> runtime_;
  std::shared_ptr<const graph::GraphIR> ir_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  std::vector<Step> steps_;
  std::vector<VkPipeline> pipelines_;
  graph::ArenaPlan plan_;
  uint64_t scratchBytes_ = 0;
  uint64_t scratchOffset_ = 0;
  std::unique_ptr<Buffer> dummy_;
  std::mutex ringMutex_;
  std::unique_ptr<StagingRing> ring_;
  std::vector<std::unique_ptr<VulkanConstantSlot>> slots_;
  std::vector<std::unique_ptr<VulkanConstantSlot>> classic_;
  std::vector<BufferRef> constantRefs_;
  backend::GaugeCharge constantCharge_;
  std::unique_ptr<Buffer> params_;
  std::vector<uint64_t> paramOffsets_;
  VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets_;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  std::vector<size_t> stepOperation_;     // the IR operation each step belongs to
  VkQueryPool queries_ = VK_NULL_HANDLE;  // timestamps, when profiling
  backend::OpProfiler profiler_;
};

class VulkanBackend final : public backend::Backend {
 public:
  VulkanBackend(VulkanOptions options, std::string name)
      : options_(options), name_(std::move(name)) {}

  std::string_view name() const override { return name_; }

  void configure(const backend::BackendOptions& options) override {
    preference_ = options.powerPreference;
    profiling_ = options.profiling;
  }

  std::string description() const override {
    const Device& device = *runtime().device;
    return device.info().name + ", " + deviceTypeName(device.info().type) + " device #" +
           std::to_string(device.info().index) +
           (runtime().direct ? ", constants direct" : ", constants via staging ring");
  }

  MLOpSupportLimits opSupportLimits() const override {
    const OpTable& ops = vulkanOps();
    graph::OpLimitsTable table = graph::specOpLimits();
    table.backendName = name_;
    for (graph::OpType type : graph::allOpTypes()) {
      const OpEntry* entry = ops.find(type);
      graph::OperandLimits* limits = table.find(type);
      if (!entry || !limits) {
        table.erase(type);
        continue;
      }
      for (auto& [operand, tensorLimits] : *limits) {
        const std::vector<MLOperandDataType>* allowed = &entry->types;
        for (const auto& override : entry->overrides) {
          if (override.first == operand) allowed = &override.second;
        }
        std::vector<MLOperandDataType> kept;
        for (MLOperandDataType type : tensorLimits.dataTypes) {
          if (std::find(allowed->begin(), allowed->end(), type) != allowed->end()) {
            kept.push_back(type);
          }
        }
        tensorLimits.dataTypes = std::move(kept);
      }
    }
    if (!runtime().device->hasInt64()) {
      // No 64-bit integers in shaders: no int64/uint64 operands, no cast (its shader uses them).
      table.erase(graph::OpType::Cast);
      for (graph::OpType type : graph::allOpTypes()) {
        graph::OperandLimits* limits = table.find(type);
        if (!limits) continue;
        for (auto& entry : *limits) {
          auto& types = entry.second.dataTypes;
          std::erase(types, MLOperandDataType::Int64);
          std::erase(types, MLOperandDataType::Uint64);
        }
      }
    }
    table.maxTensorByteLength =
        std::min<uint64_t>(table.maxTensorByteLength, runtime().device->maxBindingBytes());
    return graph::toSupportLimits(table);
  }

  std::unique_ptr<backend::CompiledGraph> compile(
      std::shared_ptr<const graph::GraphIR> ir,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<VulkanCompiledGraph>(runtimePointer(), std::move(ir), std::move(memory),
                                                 profiling_);
  }

  std::unique_ptr<backend::BackendTensor> createTensor(
      const MLTensorDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<VulkanTensor>(runtimePointer(), descriptor, std::move(memory));
  }

 private:
  std::shared_ptr<Runtime> runtimePointer() const {
    std::lock_guard lock(mutex_);
    if (!runtime_) runtime_ = acquireRuntime(options_, preference_);
    return runtime_;
  }
  const Runtime& runtime() const { return *runtimePointer(); }

  VulkanOptions options_;
  std::string name_;
  MLPowerPreference preference_ = MLPowerPreference::Default;
  bool profiling_ = false;
  mutable std::mutex mutex_;
  mutable std::shared_ptr<Runtime> runtime_;
};

}  // namespace

std::unique_ptr<backend::Backend> createVulkanBackend(VulkanOptions options, std::string name) {
  return std::make_unique<VulkanBackend>(options, std::move(name));
}

std::string constantPath(const backend::CompiledGraph& graph) {
  const auto* compiled = dynamic_cast<const VulkanCompiledGraph*>(&graph);
  return compiled ? compiled->constantPath() : std::string();
}

}  // namespace webnn::vulkan
