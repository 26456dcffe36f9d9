// The staging ring: a fixed number of host-visible chunks through which bytes reach device-local
// buffers. A loader is leased a chunk (blocking while every chunk is leased or its copy is in
// flight), reads the file into it, then the lease is committed: a transfer command copies the
// chunk into the destination buffer, and the chunk is reused once that copy's fence signals. Host
// staging memory is the ring's size, whatever the model's; it is charged to memory.staging while
// the ring exists.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "backends/memory_account.h"
#include "backends/vulkan/device.h"

namespace webnn::vulkan {

class StagingRing {
 public:
  StagingRing(std::shared_ptr<Device> device, uint32_t chunks, uint64_t chunkBytes,
              std::shared_ptr<backend::MemoryAccount> memory);
  ~StagingRing();  // waits for every copy in flight
  StagingRing(const StagingRing&) = delete;
  StagingRing& operator=(const StagingRing&) = delete;

  uint64_t chunkBytes() const { return chunkBytes_; }
  uint32_t chunkCount() const { return static_cast<uint32_t>(chunks_.size()); }

  // A leased chunk; bytes() is the first `size` bytes of it.
  struct Lease {
    uint32_t chunk = 0;
    std::span<std::byte> bytes;
  };
  // Leases a chunk for `size` <= chunkBytes() bytes, waiting for one to be free.
  Lease acquire(uint64_t size);
  // Copies the lease's bytes to `destination` at `offset` (asynchronously) and gives the chunk
  // back once the copy is done.
  void commit(const Lease& lease, VkBuffer destination, uint64_t offset);
  // Gives a lease back without copying (the read failed).
  void release(const Lease& lease);
  // Copies from `source` at `offset` into the lease's chunk and waits (device -> host reads).
  void readInto(const Lease& lease, VkBuffer source, uint64_t offset);
  // Waits for every committed copy.
  void drain();

 private:
  enum class State { Free, Leased, InFlight, Reclaiming };
  struct Chunk {
    std::unique_ptr<Buffer> buffer;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    State state = State::Free;
  };
  void record(Chunk& chunk, const std::function<void(VkCommandBuffer)>& commands);

  std::shared_ptr<Device> device_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  uint64_t chunkBytes_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Chunk> chunks_;
  backend::GaugeCharge charge_;
};

}  // namespace webnn::vulkan
