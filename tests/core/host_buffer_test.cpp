#include "core/host_buffer.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace webnn {
namespace {

// How many pages of [data, data + bytes) are resident (mincore).
size_t residentPages(const std::byte* data, uint64_t bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((bytes + page - 1) / page);
  if (mincore(const_cast<std::byte*>(data), bytes, resident.data()) != 0) {
    ADD_FAILURE() << "mincore failed";
    return 0;
  }
  size_t count = 0;
  for (unsigned char r : resident) count += r & 1;
  return count;
}

// The buffer's resident pages, before anything wrote them.
size_t residentPages(const HostBuffer& buffer) {
  return residentPages(buffer.data(), buffer.size());
}

constexpr uint64_t kBytes = uint64_t{8} << 20;  // mapped (above the 1 MiB threshold)

TEST(HostBuffer, ALargeBufferIsCommittedAsItIsWrittenByDefault) {
  HostBuffer buffer(kBytes);
  ASSERT_NE(buffer.data(), nullptr);
  EXPECT_EQ(residentPages(buffer), 0u);
  buffer.data()[0] = std::byte{1};
  EXPECT_GE(residentPages(buffer), 1u);
}

// An arena is committed in one call when it is made, not a fault per page at its first dispatch.
TEST(HostBuffer, CommitNowMakesEveryPageResidentBeforeAnyWrite) {
#ifdef MADV_POPULATE_WRITE
  if (madvise(nullptr, 0, MADV_POPULATE_WRITE) != 0 && errno == EINVAL) {
    GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  }
  HostBuffer buffer(kBytes, HostBuffer::Commit::Now);
  ASSERT_NE(buffer.data(), nullptr);
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(residentPages(buffer), (kBytes + page - 1) / page);
  EXPECT_EQ(buffer.data()[kBytes - 1], std::byte{0});  // committed pages read as zero
#else
  GTEST_SKIP() << "built without MADV_POPULATE_WRITE";
#endif
}

// The mapping is rounded up to 2 MiB (huge pages); only the bytes asked for are committed (packed
// constants of 2.25 MiB committed whole made the encoder's peak 1.41 x its weights, not 1.07).
TEST(HostBuffer, CommitNowLeavesTheMappingsRoundingUncommitted) {
#ifdef MADV_POPULATE_WRITE
  if (madvise(nullptr, 0, MADV_POPULATE_WRITE) != 0 && errno == EINVAL) {
    GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const uint64_t asked = (uint64_t{2} << 20) + 3 * page, mapped = uint64_t{4} << 20;
  HostBuffer buffer(asked, HostBuffer::Commit::Now);
  EXPECT_EQ(residentPages(buffer.data(), mapped), asked / page);
#else
  GTEST_SKIP() << "built without MADV_POPULATE_WRITE";
#endif
}

// A fill commits its buffer when it begins (one call, not a fault per page), once; a discard gives
// the pages back, and the next fill commits them again.
TEST(HostBuffer, CommitMapsEveryPageAgainAfterADiscard) {
#ifdef MADV_POPULATE_WRITE
  if (madvise(nullptr, 0, MADV_POPULATE_WRITE) != 0 && errno == EINVAL) {
    GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  HostBuffer buffer(kBytes);
  EXPECT_EQ(residentPages(buffer), 0u);
  buffer.data()[5] = std::byte{7};
  buffer.commit();
  EXPECT_EQ(residentPages(buffer), (kBytes + page - 1) / page);
  EXPECT_EQ(buffer.data()[5], std::byte{7}) << "commit changed the contents";
  buffer.discard();
  EXPECT_EQ(residentPages(buffer), 0u);
  buffer.commit();
  EXPECT_EQ(residentPages(buffer), (kBytes + page - 1) / page) << "not committed after a discard";
  EXPECT_EQ(buffer.data()[5], std::byte{0});
  HostBuffer moved(std::move(buffer));
  moved.discard();
  moved.commit();  // the moved-to buffer carries the state along
  EXPECT_EQ(residentPages(moved), (kBytes + page - 1) / page);
#else
  GTEST_SKIP() << "built without MADV_POPULATE_WRITE";
#endif
}

// A heap buffer (below the mapping threshold) is created uninitialized and zeroed by the first
// commitZeroed(), once: bytes written after it stay, also when writers on other threads call it
// at the same time (each waits for the zeroing, none zeroes what another wrote).
TEST(HostBuffer, CommitZeroedZeroesASmallBufferOnceBeforeItsWrites) {
  HostBuffer buffer(4096);
  std::memset(buffer.data(), 0xAB, buffer.size());  // what an uninitialized allocation may hold
  std::vector<std::thread> writers;
  for (int half = 0; half < 2; ++half) {
    writers.emplace_back([&buffer, half] {
      buffer.commitZeroed();
      std::memset(buffer.data() + half * 1024, 0x11 * (half + 1), 1024);
      buffer.commitZeroed();  // again: nothing happens
    });
  }
  for (auto& writer : writers) writer.join();
  for (size_t i = 0; i < buffer.size(); ++i) {
    const auto expected = static_cast<std::byte>(i < 1024 ? 0x11 : i < 2048 ? 0x22 : 0);
    ASSERT_EQ(buffer.data()[i], expected) << i;
  }
  // A mapped one reads zero without a write.
  HostBuffer mapped(4 << 20);
  mapped.commitZeroed();
  for (size_t i = 0; i < mapped.size(); i += 4096) ASSERT_EQ(mapped.data()[i], std::byte{0}) << i;
}

}  // namespace
}  // namespace webnn
