// MLContextOptions::constantMemoryBudget on the cpu backend: beyond the budget the largest float32
// weights stay in the file's layout (their convolution or matmul reads them as stored), so that a
// memory-mapped load leaves them file-backed; the results are those of packed weights.
#include "webnn/config.h"

#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "test_helpers.h"
#include "webnn/webnn.h"
#include "webnn/weight_source.h"
#include "weights/weight_generators.h"

namespace webnn {
namespace {

constexpr MLOperandDataType F32 = MLOperandDataType::Float32;

std::vector<float> values(size_t count, uint32_t seed) {
  std::vector<float> out(count);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
  for (auto& value : out) value = uniform(random);
  return out;
}

testing::Bytes bytesOf(const std::vector<float>& v) {
  testing::Bytes bytes(v.size() * sizeof(float));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

// conv2d(x [1, 16, 12, 12], f [32, 16, 3, 3]) -> reshape [1, 4608] -> matmul w [4608, 64] + b.
struct Model {
  MLContext context;
  MLGraph graph;
  explicit Model(uint64_t budget) {
    context = createContext({.backend = "cpu", .numThreads = 2, .constantMemoryBudget = budget});
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {F32, {1, 16, 12, 12}});
    MLConv2dOptions options;
    options.padding = {1, 1, 1, 1};
    auto conv = builder.relu(
        builder.conv2d(x, builder.constant({F32, {32, 16, 3, 3}}, {.label = "f"}), options));
    auto flat = builder.reshape(conv, {1, 32 * 12 * 12});
    auto y = builder.add(builder.matmul(flat, builder.constant({F32, {4608, 64}}, {.label = "w"})),
                         builder.constant({F32, {64}}, {.label = "b"}));
    graph = builder.build({{"y", y}});
  }
  std::vector<std::string> layouts() const {
    return cpu::constantLayouts(*graph.state()->compiled);
  }
};

bool fileBacked(const std::vector<std::string>& layouts, const std::string& label) {
  for (const auto& line : layouts) {
    if (line.find(" " + label + ":") != std::string::npos) {
      return line.find("file-backed") != std::string::npos;
    }
  }
  ADD_FAILURE() << "no constant " << label;
  return false;
}

// The model's weights (f, w, b) as a safetensors file in a folder of its own, and its input x.
struct Weights {
  testing::TempDir dir;
  std::string path = dir.file("weights.safetensors");
  std::unique_ptr<WeightSource> source;
  std::vector<float> x = values(16 * 12 * 12, 4);
  Weights() {
    const auto f = values(32 * 16 * 9, 1), w = values(4608 * 64, 2), b = values(64, 3);
    testing::writeFile(path, testing::makeSafetensors({{"f", "F32", {32, 16, 3, 3}, bytesOf(f)},
                                                       {"w", "F32", {4608, 64}, bytesOf(w)},
                                                       {"b", "F32", {64}, bytesOf(b)}}));
    source = WeightSource::open(path);
  }
};

TEST(CpuMemoryBudget, TheLargestWeightsBeyondTheBudgetAreReadAsStoredFromAMap) {
  Weights weights;
  const auto& source = weights.source;
  const auto& x = weights.x;

  Model unlimited(0);
  EXPECT_FALSE(fileBacked(unlimited.layouts(), "w"));
  EXPECT_FALSE(fileBacked(unlimited.layouts(), "f"));
  unlimited.graph.loadConstants(*source);
  const auto expected = testing::runFloat(unlimited.context, unlimited.graph, {{"x", x}}, "y");

  // 64 KiB: w (1.1 MiB) goes; f (18 KiB) and b fit.
  Model budgeted(64 << 10);
  EXPECT_TRUE(fileBacked(budgeted.layouts(), "w"));
  EXPECT_FALSE(fileBacked(budgeted.layouts(), "f"));
  EXPECT_FALSE(fileBacked(budgeted.layouts(), "b"));
  LoadOptions mapped;
  mapped.allowMapping = true;
  budgeted.graph.loadConstants(*source, mapped);
  const auto actual = testing::runFloat(budgeted.context, budgeted.graph, {{"x", x}}, "y");
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], 1e-4f + 1e-4f * std::fabs(expected[i])) << i;
  }

  // A budget below every weight: the filter is read as stored too.
  Model tiny(1);
  EXPECT_TRUE(fileBacked(tiny.layouts(), "f"));
  EXPECT_TRUE(fileBacked(tiny.layouts(), "w"));
  tiny.graph.loadConstants(*source, mapped);
  const auto all = testing::runFloat(tiny.context, tiny.graph, {{"x", x}}, "y");
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_NEAR(all[i], expected[i], 1e-4f + 1e-4f * std::fabs(expected[i])) << i;
  }
}

// The address ranges of this process's mappings of file `path` (/proc/self/maps).
std::vector<std::pair<uintptr_t, uintptr_t>> mappingsOf(const std::string& path) {
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.size() < path.size() || line.compare(line.size() - path.size(), path.size(), path)) {
      continue;
    }
    std::istringstream fields(line);
    std::string range;
    fields >> range;
    const size_t dash = range.find('-');
    ranges.emplace_back(std::stoull(range.substr(0, dash), nullptr, 16),
                        std::stoull(range.substr(dash + 1), nullptr, 16));
  }
  return ranges;
}

// Weights read from a memory map may be dropped by the system at any time, also in the middle of a
// dispatch: two threads dispatch the graph while a third drops the mapped pages again and again
// (MADV_PAGEOUT where the kernel has it, which reclaims them, else MADV_DONTNEED); every result is
// the one computed from weights in memory.
TEST(CpuMemoryBudget, MappedWeightsDroppedDuringDispatchesOnTwoThreadsAreReadAgain) {
  Weights weights;
  const auto& source = weights.source;
  const auto& x = weights.x;
  const std::string& path = weights.path;
  Model unlimited(0);
  unlimited.graph.loadConstants(*source);
  const auto expected = testing::runFloat(unlimited.context, unlimited.graph, {{"x", x}}, "y");

  Model mapped(1);  // every weight read as stored, from the map
  LoadOptions options;
  options.allowMapping = true;
  mapped.graph.loadConstants(*source, options);
  ASSERT_GT(mapped.context.memoryStats().mappedConstantBytes, 4608u * 64 * 4);
  const auto ranges = mappingsOf(path);
  ASSERT_FALSE(ranges.empty()) << path << " is not mapped";

  std::atomic<bool> done{false};
  std::atomic<int> drops{0};
  std::thread dropper([&] {
    while (!done.load()) {
      for (const auto& [begin, end] : ranges) {
#ifdef MADV_PAGEOUT
        if (madvise(reinterpret_cast<void*>(begin), end - begin, MADV_PAGEOUT) != 0)
#endif
          madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
      }
      ++drops;
      std::this_thread::yield();
    }
  });
  std::vector<std::vector<float>> results[2];
  std::vector<std::thread> dispatchers;
  for (auto& mine : results) {
    dispatchers.emplace_back([&mapped, &x, &mine] {
      for (int i = 0; i < 20; ++i) {
        mine.push_back(testing::runFloat(mapped.context, mapped.graph, {{"x", x}}, "y"));
      }
    });
  }
  for (auto& thread : dispatchers) thread.join();
  done = true;
  dropper.join();
  EXPECT_GT(drops.load(), 0);
  for (const auto& mine : results) {
    ASSERT_EQ(mine.size(), 20u);
    for (const auto& actual : mine) {
      ASSERT_EQ(actual.size(), expected.size());
      for (size_t i = 0; i < actual.size(); ++i) {
        ASSERT_NEAR(actual[i], expected[i], 1e-4f + 1e-4f * std::fabs(expected[i])) << i;
      }
    }
  }
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
