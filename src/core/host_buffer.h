// HostBuffer: 64-byte aligned host memory. Large buffers come from mmap and are advised for
// transparent huge pages where that pays off (core/huge_pages.h), so that filling them runs near
// memory speed instead of the ~1.5 GB/s of first-touching 4 KiB pages. Memory is committed
// lazily, as it is written, or at once when asked (Commit::Now: one call that maps every page,
// instead of a fault per page when a kernel first writes it; a VM's faults cost several
// microseconds each).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

namespace webnn {

class HostBuffer {
 public:
  enum class Commit { Lazily, Now };
  HostBuffer() = default;
  explicit HostBuffer(uint64_t byteLength, Commit commit = Commit::Lazily);
  ~HostBuffer();
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  uint64_t size() const { return size_; }
  std::span<std::byte> span() { return {data_, static_cast<size_t>(size_)}; }
  std::span<const std::byte> span() const { return {data_, static_cast<size_t>(size_)}; }
  // Maps every page of the asked bytes now, in one call, where the buffer is mapped and the kernel
  // can (MADV_POPULATE_WRITE): a fill that is about to write the whole buffer then takes no fault
  // per page (a VM's faults cost several microseconds each: 512 MiB of 4 KiB pages is 131,072).
  // Once from creation or the last discard(); safe beside threads that write the buffer (pages
  // already there are left as they are). Contents are unchanged.
  void commit();
  // commit(), and every byte zero: what a fill that writes only some bytes (a blocked layout's
  // padding stays) calls before its first write, so that nothing is touched before the weights
  // arrive. Mapped buffers are zero already (fresh or discarded pages); a heap buffer (created
  // uninitialized) is zeroed once, callers on other threads waiting until it is.
  void commitZeroed();
  // Gives the pages back to the system (contents become zero); the buffer stays usable.
  void discard();

 private:
  void release();
  std::byte* data_ = nullptr;
  uint64_t size_ = 0;
  uint64_t mappedSize_ = 0;  // nonzero when data_ came from mmap
  // commit() (mapped) or commitZeroed() (heap) ran since creation or the last discard()
  std::atomic<bool> committed_{false};
};

}  // namespace webnn
