#include "backends/vulkan/memory_pool.h"

#include <algorithm>
#include <string>

#include "webnn/types.h"

namespace webnn::vulkan {
namespace {

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

MemoryPool::~MemoryPool() {
  for (auto& block : blocks_) release(*block);
}

size_t MemoryPool::deviceAllocationCount() const {
  std::lock_guard lock(mutex_);
  return blocks_.size();
}

MemoryPool::Block& MemoryPool::newBlock(uint32_t type, uint64_t size, bool hostVisible,
                                        bool dedicated) {
  VkMemoryAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  info.allocationSize = size;
  info.memoryTypeIndex = type;
  auto block = std::make_unique<Block>();
  block->type = type;
  block->size = size;
  block->dedicated = dedicated;
  VkResult result = vkAllocateMemory(device_, &info, nullptr, &block->memory);
  if (result != VK_SUCCESS) {
    throw Error(Error::Kind::OperationError, "vulkan: out of device memory allocating " +
                                                 std::to_string(size) + " bytes (VkResult " +
                                                 std::to_string(static_cast<int>(result)) + ")");
  }
  if (hostVisible) {
    void* pointer = nullptr;
    result = vkMapMemory(device_, block->memory, 0, VK_WHOLE_SIZE, 0, &pointer);
    if (result != VK_SUCCESS) {
      vkFreeMemory(device_, block->memory, nullptr);
      throw Error(Error::Kind::OperationError, "vulkan: vkMapMemory failed (VkResult " +
                                                   std::to_string(static_cast<int>(result)) + ")");
    }
    block->mapped = static_cast<std::byte*>(pointer);
  }
  block->freeRanges.emplace(0, size);
  blocks_.push_back(std::move(block));
  return *blocks_.back();
}

bool MemoryPool::placeIn(Block& block, uint64_t size, uint64_t alignment, uint64_t& offset) {
  for (auto it = block.freeRanges.begin(); it != block.freeRanges.end(); ++it) {
    const uint64_t start = alignUp(it->first, alignment);
    const uint64_t end = it->first + it->second;
    if (start > end || end - start < size) continue;
    const uint64_t rangeStart = it->first;
    block.freeRanges.erase(it);
    if (start > rangeStart) block.freeRanges.emplace(rangeStart, start - rangeStart);
    if (end > start + size) block.freeRanges.emplace(start + size, end - start - size);
    offset = start;
    return true;
  }
  return false;
}

MemoryAllocation MemoryPool::allocate(uint32_t type, uint64_t size, uint64_t alignment,
                                      bool hostVisible) {
  alignment = std::max<uint64_t>(alignment, 1);
  std::lock_guard lock(mutex_);
  Block* chosen = nullptr;
  uint64_t offset = 0;
  if (size > kLargestBlockBytes / 2) {
    chosen = &newBlock(type, size, hostVisible, /*dedicated=*/true);
    chosen->freeRanges.clear();
  } else {
    for (auto& block : blocks_) {
      if (block->dedicated || block->type != type || (hostVisible && !block->mapped)) continue;
      if (placeIn(*block, size, alignment, offset)) {
        chosen = block.get();
        break;
      }
    }
    if (!chosen) {
      uint64_t& next = nextBlockBytes_.try_emplace(type, kFirstBlockBytes).first->second;
      while (next < size) next *= 2;
      chosen = &newBlock(type, next, hostVisible, /*dedicated=*/false);
      next = std::min(next * 2, kLargestBlockBytes);
      placeIn(*chosen, size, alignment, offset);
    }
  }
  ++chosen->liveAllocations;
  return {chosen->memory, offset, size, chosen->mapped ? chosen->mapped + offset : nullptr, chosen};
}

void MemoryPool::free(const MemoryAllocation& allocation) {
  if (!allocation.block) return;
  std::lock_guard lock(mutex_);
  auto it = std::find_if(blocks_.begin(), blocks_.end(),
                         [&](const auto& block) { return block.get() == allocation.block; });
  if (it == blocks_.end()) return;
  Block& block = **it;
  if (--block.liveAllocations == 0) {
    release(block);
    blocks_.erase(it);
    return;
  }
  // Give the range back, merged with its free neighbours.
  uint64_t start = allocation.offset, end = allocation.offset + allocation.size;
  auto next = block.freeRanges.lower_bound(start);
  if (next != block.freeRanges.end() && next->first == end) {
    end += next->second;
    next = block.freeRanges.erase(next);
  }
  if (next != block.freeRanges.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == start) {
      start = previous->first;
      block.freeRanges.erase(previous);
    }
  }
  block.freeRanges.emplace(start, end - start);
}

void MemoryPool::release(Block& block) {
  if (block.mapped) vkUnmapMemory(device_, block.memory);
  vkFreeMemory(device_, block.memory, nullptr);
  block.memory = VK_NULL_HANDLE;
}

}  // namespace webnn::vulkan
