#include "core/host_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <utility>

#include "core/huge_pages.h"
#include "webnn/types.h"

namespace webnn {
namespace {
constexpr uint64_t kAlignment = 64;
constexpr uint64_t kMapThreshold = 1ull << 20;
constexpr uint64_t kHugePage = 2ull << 20;
}  // namespace

HostBuffer::HostBuffer(uint64_t byteLength, Commit commit) : size_(byteLength) {
  if (byteLength == 0) return;
  if (byteLength >= kMapThreshold) {
    const uint64_t length = (byteLength + kHugePage - 1) / kHugePage * kHugePage;
    void* memory =
        mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      throw Error(Error::Kind::OperationError,
                  "cannot allocate " + std::to_string(byteLength) + " bytes of host memory");
    }
#ifdef MADV_HUGEPAGE
    // Only the whole huge pages of the bytes asked for: a huge page over the buffer's last,
    // partial 2 MiB would commit up to 2 MiB that nobody asked for (a 1.1 MiB buffer would take
    // 2 MiB), where 4 KiB pages commit only what is written.
    const uint64_t wholeHugePages = byteLength / kHugePage * kHugePage;
    if (wholeHugePages && adviseHugePages()) madvise(memory, wholeHugePages, MADV_HUGEPAGE);
#endif
    data_ = static_cast<std::byte*>(memory);
    mappedSize_ = length;
    if (commit == Commit::Now) this->commit();
    return;
  }
  const uint64_t rounded = (byteLength + kAlignment - 1) / kAlignment * kAlignment;
  data_ = static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded));
  if (!data_) {
    throw Error(Error::Kind::OperationError,
                "cannot allocate " + std::to_string(byteLength) + " bytes of host memory");
  }
}

HostBuffer::~HostBuffer() {
  release();
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mappedSize_(std::exchange(other.mappedSize_, 0)),
      committed_(other.committed_.exchange(false)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mappedSize_ = std::exchange(other.mappedSize_, 0);
    committed_.store(other.committed_.exchange(false));
  }
  return *this;
}

void HostBuffer::commit() {
  if (!mappedSize_ || committed_.exchange(true)) return;
#ifdef MADV_POPULATE_WRITE
  // Linux 5.14 and later; elsewhere (EINVAL) the pages are committed as they are written.
  // Only the bytes asked for: the mapping's rounding up to 2 MiB stays uncommitted.
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  madvise(data_, (size_ + page - 1) / page * page, MADV_POPULATE_WRITE);
#endif
}

void HostBuffer::commitZeroed() {
  if (mappedSize_) {
    commit();
    return;
  }
  if (!data_ || committed_.load(std::memory_order_acquire)) return;
  // A lock per stripe of buffers: the first writers of different constants zero them in parallel.
  static std::mutex stripes[16];
  std::lock_guard lock(stripes[(reinterpret_cast<uintptr_t>(data_) >> 6) % 16]);
  if (committed_.load(std::memory_order_relaxed)) return;
  std::memset(data_, 0, size_);
  committed_.store(true, std::memory_order_release);
}

void HostBuffer::discard() {
  if (!data_) return;
  if (mappedSize_) {
    madvise(data_, mappedSize_, MADV_DONTNEED);
    committed_.store(false);
  } else {
    std::memset(data_, 0, size_);
  }
}

void HostBuffer::release() {
  if (!data_) return;
  if (mappedSize_) {
    munmap(data_, mappedSize_);
  } else {
    std::free(data_);
  }
  data_ = nullptr;
  size_ = 0;
  mappedSize_ = 0;
  committed_.store(false);
}

}  // namespace webnn
