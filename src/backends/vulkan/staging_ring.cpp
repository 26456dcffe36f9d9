#include "backends/vulkan/staging_ring.h"

#include <string>

#include "webnn/types.h"

namespace webnn::vulkan {

StagingRing::StagingRing(std::shared_ptr<Device> device, uint32_t chunks, uint64_t chunkBytes,
                         std::shared_ptr<backend::MemoryAccount> memory)
    : device_(std::move(device)), memory_(std::move(memory)), chunkBytes_(chunkBytes) {
  pool_ = device_->createCommandPool();
  VkDevice vk = device_->handle();
  chunks_.resize(chunks);
  try {
    for (Chunk& chunk : chunks_) {
      chunk.buffer = std::make_unique<Buffer>(device_, chunkBytes, /*hostVisible=*/true,
                                              /*preferDeviceLocal=*/false);
      VkCommandBufferAllocateInfo info{};
      info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
      info.commandPool = pool_;
      info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      info.commandBufferCount = 1;
      check(vkAllocateCommandBuffers(vk, &info, &chunk.commands), "vkAllocateCommandBuffers");
      VkFenceCreateInfo fenceInfo{};
      fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
      check(vkCreateFence(vk, &fenceInfo, nullptr, &chunk.fence), "vkCreateFence");
    }
  } catch (...) {
    for (Chunk& chunk : chunks_) {
      if (chunk.fence) vkDestroyFence(vk, chunk.fence, nullptr);
    }
    vkDestroyCommandPool(vk, pool_, nullptr);
    throw;
  }
  charge_ = backend::GaugeCharge(memory_->staging, uint64_t{chunks} * chunkBytes);
}

StagingRing::~StagingRing() {
  VkDevice vk = device_->handle();
  for (Chunk& chunk : chunks_) {
    if (chunk.state == State::InFlight) vkWaitForFences(vk, 1, &chunk.fence, VK_TRUE, UINT64_MAX);
    vkDestroyFence(vk, chunk.fence, nullptr);
  }
  vkDestroyCommandPool(vk, pool_, nullptr);
}

StagingRing::Lease StagingRing::acquire(uint64_t size) {
  if (size > chunkBytes_) {
    throwOperationError("vulkan: a staged range of " + std::to_string(size) +
                        " bytes is larger than a staging chunk (" + std::to_string(chunkBytes_) +
                        ")");
  }
  std::unique_lock lock(mutex_);
  for (;;) {
    for (uint32_t i = 0; i < chunks_.size(); ++i) {
      if (chunks_[i].state == State::Free) {
        chunks_[i].state = State::Leased;
        return {i, {chunks_[i].buffer->mapped(), static_cast<size_t>(size)}};
      }
    }
    for (uint32_t i = 0; i < chunks_.size(); ++i) {
      Chunk& chunk = chunks_[i];
      if (chunk.state != State::InFlight) continue;
      chunk.state = State::Reclaiming;  // ours: nobody else waits on its fence
      lock.unlock();
      VkResult result = vkWaitForFences(device_->handle(), 1, &chunk.fence, VK_TRUE, UINT64_MAX);
      lock.lock();
      if (result != VK_SUCCESS) {
        chunk.state = State::InFlight;
        changed_.notify_all();
        check(result, "vkWaitForFences");
      }
      chunk.state = State::Leased;
      return {i, {chunk.buffer->mapped(), static_cast<size_t>(size)}};
    }
    changed_.wait(lock);
  }
}

void StagingRing::record(Chunk& chunk, const std::function<void(VkCommandBuffer)>& commands) {
  check(vkResetFences(device_->handle(), 1, &chunk.fence), "vkResetFences");
  check(vkResetCommandBuffer(chunk.commands, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(chunk.commands, &begin), "vkBeginCommandBuffer");
  commands(chunk.commands);
  check(vkEndCommandBuffer(chunk.commands), "vkEndCommandBuffer");
  device_->submit(chunk.commands, chunk.fence);
}

void StagingRing::commit(const Lease& lease, VkBuffer destination, uint64_t offset) {
  std::lock_guard lock(mutex_);  // the command pool is shared by the chunks
  Chunk& chunk = chunks_[lease.chunk];
  try {
    if (!lease.bytes.empty()) {
      record(chunk, [&](VkCommandBuffer commands) {
        VkBufferCopy region{0, offset, lease.bytes.size()};
        vkCmdCopyBuffer(commands, chunk.buffer->handle(), destination, 1, &region);
      });
      chunk.state = State::InFlight;
    } else {
      chunk.state = State::Free;
    }
  } catch (...) {
    chunk.state = State::Free;
    changed_.notify_all();
    throw;
  }
  changed_.notify_all();
}

void StagingRing::readInto(const Lease& lease, VkBuffer source, uint64_t offset) {
  std::unique_lock lock(mutex_);
  Chunk& chunk = chunks_[lease.chunk];
  if (lease.bytes.empty()) return;
  record(chunk, [&](VkCommandBuffer commands) {
    VkBufferCopy region{offset, 0, lease.bytes.size()};
    vkCmdCopyBuffer(commands, source, chunk.buffer->handle(), 1, &region);
  });
  lock.unlock();
  check(vkWaitForFences(device_->handle(), 1, &chunk.fence, VK_TRUE, UINT64_MAX),
        "vkWaitForFences");
}

void StagingRing::release(const Lease& lease) {
  std::lock_guard lock(mutex_);
  chunks_[lease.chunk].state = State::Free;
  changed_.notify_all();
}

void StagingRing::drain() {
  std::unique_lock lock(mutex_);
  for (Chunk& chunk : chunks_) {
    while (chunk.state == State::Reclaiming || chunk.state == State::Leased) changed_.wait(lock);
    if (chunk.state == State::InFlight) {
      check(vkWaitForFences(device_->handle(), 1, &chunk.fence, VK_TRUE, UINT64_MAX),
            "vkWaitForFences");
      chunk.state = State::Free;
    }
  }
}

}  // namespace webnn::vulkan
