#include "core/huge_pages.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace webnn {
namespace {

// A fake sysfs tree with one virtio device and, optionally, page_reporting_order.
class FakeSysfs {
 public:
  FakeSysfs() {
    root_ = std::filesystem::temp_directory_path() /
            ("webnn-sysfs-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::create_directories(root_);
  }
  ~FakeSysfs() { std::filesystem::remove_all(root_); }
  void device(const std::string& name, const std::string& id, const std::string& features) {
    write("bus/virtio/devices/" + name + "/device", id);
    write("bus/virtio/devices/" + name + "/features", features);
  }
  void reportingOrder(const std::string& order) {
    write("module/page_reporting/parameters/page_reporting_order", order);
  }
  std::string root() const { return root_.string(); }

 private:
  void write(const std::string& relative, const std::string& text) {
    const auto path = root_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text << "\n";
  }
  std::filesystem::path root_;
};

constexpr const char* kReporting = "0110010100000000000000000000000010000000";
constexpr const char* kNotReporting = "0110000100000000000000000000000010000000";

TEST(HugePages, PayOffWithoutAVirtioBalloon) {
  FakeSysfs sysfs;
  EXPECT_TRUE(hugePagesPayOff(sysfs.root()));
  sysfs.device("virtio1", "0x0002", kReporting);  // a block device with bit 5 set: not a balloon
  sysfs.reportingOrder("9");
  EXPECT_TRUE(hugePagesPayOff(sysfs.root()));
}

TEST(HugePages, PayOffWhenTheBalloonDoesNotReportFreePages) {
  FakeSysfs sysfs;
  sysfs.device("virtio0", "0x0005", kNotReporting);
  sysfs.reportingOrder("9");
  EXPECT_TRUE(hugePagesPayOff(sysfs.root()));
}

TEST(HugePages, NotWhenTheBalloonReportsHugePageSizedBlocks) {
  FakeSysfs sysfs;
  sysfs.device("virtio0", "0x0005", kReporting);
  sysfs.reportingOrder("9");
  EXPECT_FALSE(hugePagesPayOff(sysfs.root()));
  sysfs.reportingOrder("");  // reporting at an order we cannot read: assume the worst
  EXPECT_FALSE(hugePagesPayOff(sysfs.root()));
}

TEST(HugePages, PayOffWhenOnlyBlocksLargerThanAHugePageAreReported) {
  FakeSysfs sysfs;
  sysfs.device("virtio0", "0x0005", kReporting);
  sysfs.reportingOrder("11");
  EXPECT_TRUE(hugePagesPayOff(sysfs.root()));
}

TEST(HugePages, TheProbePrefersHugePagesUnlessTheyFaultInMoreThanTwiceAsSlowly) {
  // The two VMs of huge_pages.h: 6x faster, and 10-20x slower, than 4 KiB pages.
  EXPECT_TRUE(hugePageFaultsPayOff({.hugeSeconds = 0.0023, .smallSeconds = 0.0140}));
  EXPECT_FALSE(hugePageFaultsPayOff({.hugeSeconds = 0.0400, .smallSeconds = 0.0030}));
  EXPECT_TRUE(hugePageFaultsPayOff({.hugeSeconds = 0.0060, .smallSeconds = 0.0030}));
  EXPECT_FALSE(hugePageFaultsPayOff({.hugeSeconds = 0.0061, .smallSeconds = 0.0030}));
  EXPECT_TRUE(hugePageFaultsPayOff({}));  // a probe that could not run: no preference
}

TEST(HugePages, TheProbeFaultsInFreshMemoryBothWays) {
  const FirstTouchTimes times = firstTouchProbe(1);  // one huge page, and 256 KiB of small ones
  EXPECT_GT(times.hugeSeconds, 0.0);
  EXPECT_GT(times.smallSeconds, 0.0);
  EXPECT_LT(times.hugeSeconds + times.smallSeconds, 10.0);
}

}  // namespace
}  // namespace webnn
