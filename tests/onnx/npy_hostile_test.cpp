// .npy files from hostile hands: headers that claim more data than the file holds, dimensions
// above 2^32, FIFOs; writes to a full disk fail loudly and leave the old file as it was.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>

#include "npy.h"
#include "test_helpers.h"

namespace webnn::testing {
namespace {

std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + name;
}

std::string npyWithHeader(const std::string& dictionary, const std::string& data) {
  std::string header = dictionary;
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size() & 0xff) +
         static_cast<char>(header.size() >> 8) + header + data;
}

void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(HostileNpy, HeadersClaimingMoreDataThanTheFileAreRefusedBeforeAllocation) {
  const std::string path = tempPath("claims.npy");
  for (const char* shape : {"(65536, 65536)", "(1073741824, 4)", "(4294967295, 65536)", "(3,)"}) {
    SCOPED_TRACE(shape);
    write(path, npyWithHeader(std::string("{'descr': '<f4', 'fortran_order': False, 'shape': ") +
                                  shape + ", }",
                              "abcdefgh"));
    expectError([&] { tools::readNpy(path); }, Error::Kind::DataError, {"fewer bytes"});
  }
  // A header length beyond the file.
  write(path, std::string("\x93NUMPY\x02\x00", 8) + std::string("\xff\xff\x0f\x00", 4) + "{");
  expectError([&] { tools::readNpy(path); }, Error::Kind::DataError, {"truncated header"});
}

TEST(HostileNpy, DimensionsAbove32BitsAreRefusedWithAClearError) {
  const std::string path = tempPath("dims.npy");
  for (const char* shape :
       {"(4294967296,)", "(99999999999999999999999,)", "(1, 4294967297)", "(1000000000000,)"}) {
    SCOPED_TRACE(shape);
    write(path, npyWithHeader(std::string("{'descr': '<f4', 'fortran_order': False, 'shape': ") +
                                  shape + ", }",
                              ""));
    expectError([&] { tools::readNpy(path); }, Error::Kind::DataError, {"dimension"});
  }
}

TEST(HostileNpy, AFifoIsRefusedWithoutBlocking) {
  const std::string path = tempPath("fifo.npy");
  ::unlink(path.c_str());
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto done = std::async(std::launch::async, [&] {
    expectError([&] { tools::readNpy(path); }, Error::Kind::DataError, {"not a regular file"});
  });
  ASSERT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready) << "blocked";
  done.get();
  ::unlink(path.c_str());
}

tools::NpyArray sample(size_t bytes) {
  tools::NpyArray a;
  a.dataType = MLOperandDataType::Uint8;
  a.shape = {static_cast<uint32_t>(bytes)};
  a.data.assign(bytes, std::byte{7});
  return a;
}

TEST(HostileNpy, WritingToAFullDiskFails) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  for (size_t bytes : {size_t{1}, size_t{4096}, size_t{1} << 20}) {
    expectError([&] { tools::writeNpy("/dev/full", sample(bytes)); }, Error::Kind::OperationError,
                {"/dev/full", "No space left"});
  }
}

// Limits the size of files this process writes (RLIMIT_FSIZE) while it lives: writes past it
// fail with EFBIG, even as root.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    previousSignal_ = std::signal(SIGXFSZ, SIG_IGN);
    ::getrlimit(RLIMIT_FSIZE, &previous_);
    rlimit limit = previous_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previousSignal_);
  }

 private:
  rlimit previous_{};
  void (*previousSignal_)(int) = nullptr;
};

TEST(HostileNpy, AFailedWriteLeavesTheOldFileAsItWas) {
  const std::string folder = tempPath("npy-write-fails");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string path = folder + "/out.npy";
  tools::writeNpy(path, sample(16));
  for (size_t bytes : {size_t{200}, size_t{4096}, size_t{1} << 20}) {
    SCOPED_TRACE(bytes);
    {
      FileSizeLimit limit(150);
      expectError([&] { tools::writeNpy(path, sample(bytes)); }, Error::Kind::OperationError,
                  {"out.npy", "File too large"});
    }
    EXPECT_EQ(tools::readNpy(path).data, sample(16).data);
  }
  // Neither a failed nor a successful write leaves a temporary file behind.
  tools::writeNpy(path, sample(32));
  EXPECT_EQ(tools::readNpy(path).data, sample(32).data);
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++files;
  EXPECT_EQ(files, 1u);
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace webnn::testing
