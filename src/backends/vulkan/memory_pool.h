// Device memory suballocation. Vulkan caps live VkDeviceMemory objects (maxMemoryAllocationCount:
// 4096 on many GPUs), and each vkAllocateMemory is slow, so buffers do not get their own: small and
// medium ones are placed in shared blocks per memory type (first fit, coalescing free ranges),
// blocks growing from 4 MiB to 64 MiB as a type's use grows; a request above half the largest
// block gets a dedicated allocation. A host-visible block is mapped once, for all its buffers.
// Thread-safe. An empty block is freed at once, so memory goes back as buffers go.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace webnn::vulkan {

struct MemoryAllocation {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t offset = 0;
  uint64_t size = 0;
  std::byte* mapped = nullptr;  // host address of `offset` when the memory type is host-visible
  const void* block = nullptr;  // the pool's block (for free)
};

class MemoryPool {
 public:
  static constexpr uint64_t kFirstBlockBytes = 4ull << 20;
  static constexpr uint64_t kLargestBlockBytes = 64ull << 20;

  explicit MemoryPool(VkDevice device) : device_(device) {}
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // `size` bytes at a multiple of `alignment` (a power of two) in memory type `type`, mapped when
  // `hostVisible`. Throws OperationError when the device is out of memory.
  MemoryAllocation allocate(uint32_t type, uint64_t size, uint64_t alignment, bool hostVisible);
  void free(const MemoryAllocation& allocation);

  // Live VkDeviceMemory objects (blocks and dedicated allocations).
  size_t deviceAllocationCount() const;

 private:
  struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint32_t type = 0;
    uint64_t size = 0;
    std::byte* mapped = nullptr;
    bool dedicated = false;
    std::map<uint64_t, uint64_t> freeRanges;  // offset -> size
    size_t liveAllocations = 0;
  };

  Block& newBlock(uint32_t type, uint64_t size, bool hostVisible, bool dedicated);
  static bool placeIn(Block& block, uint64_t size, uint64_t alignment, uint64_t& offset);
  void release(Block& block);

  VkDevice device_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Block>> blocks_;
  std::map<uint32_t, uint64_t> nextBlockBytes_;  // per memory type
};

}  // namespace webnn::vulkan
