// webnn_pull_vs_pread FILE [ROUNDS] [THREADS] [packed]: in one process, alternates loadConstants
// (path c of the load benchmark: a weightless graph whose constants are FILE's tensors) with a
// plain pread of FILE into fresh memory (mmap + MADV_HUGEPAGE, 8 MiB chunks), so that both see the
// same machine state. Run it on a file the load benchmark kept (--keep), after reading the file
// once. With "packed", each [K, N] tensor is the B of a matmul and each [I, 1, 1, O] one the ihwo
// filter of a 1x1 nhwc conv2d, so that the cpu backend packs them as they arrive (else each is an
// identity's input: plain slots, read straight into).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <webnn/webnn.h>
#include <webnn/weight_source.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}
}  // namespace

int main(int argc, char** argv) {
  using namespace webnn;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [ROUNDS] [THREADS]\n", argv[0]);
    return 2;
  }
  const std::string file = argv[1];
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 4;
  const uint32_t threads = argc > 3 ? static_cast<uint32_t>(std::atoi(argv[3])) : 2;
  const bool packed = argc > 4 && std::string(argv[4]) == "packed";
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 1;
  const auto size = static_cast<uint64_t>(lseek(fd, 0, SEEK_END));
  constexpr uint64_t kChunk = 8ull << 20, kHuge = 2ull << 20;
  for (int round = 0; round < rounds; ++round) {
    {
      MLContext context = createContext();
      MLGraphBuilder builder(context);
      auto source = WeightSource::open(file);
      MLOperand value = builder.input("x", {MLOperandDataType::Float32, {1, 1}});
      MLNamedOperands outputs;
      std::map<uint32_t, MLOperand> vectors;  // [1, K] inputs by K
      auto vectorOf = [&](uint32_t k) {
        auto it = vectors.find(k);
        if (it == vectors.end()) {
          it = vectors.emplace(k, builder.input("x" + std::to_string(k),
                                                {MLOperandDataType::Float32, {1, k}}))
                   .first;
        }
        return it->second;
      };
      for (const auto& t : source->tensors()) {
        const MLOperand constant = builder.constant(t.descriptor(), {.label = t.name});
        const auto shape = t.descriptor().shape;
        if (packed && shape.size() == 2) {
          outputs[t.name] = builder.matmul(vectorOf(shape[0]), constant);
        } else if (packed && shape.size() == 4 && shape[1] == 1 && shape[2] == 1) {
          const MLOperand image = builder.reshape(vectorOf(shape[0]), {1, 1, 1, shape[0]});
          outputs[t.name] =
              builder.conv2d(image, constant,
                             {.inputLayout = MLInputOperandLayout::Nhwc,
                              .filterLayout = MLConv2dFilterOperandLayout::Ihwo});
        } else {
          outputs[t.name] = builder.identity(constant);
        }
      }
      MLGraph graph = builder.build(outputs);
      LoadOptions options;
      options.threads = threads;
      const auto begin = Clock::now();
      graph.loadConstants(*source, options);
      const double s = since(begin);
      const MLMemoryStats memory = context.memoryStats();
      std::printf("loadConstants        %.3f s %6.2f GB/s (constants %.0f MiB, staging peak %.1f MiB)\n",
                  s, static_cast<double>(size) / s / 1e9,
                  static_cast<double>(memory.constantBytes) / (1 << 20),
                  static_cast<double>(memory.stagingBytesPeak) / (1 << 20));
    }
    {
      const uint64_t length = (size + kHuge - 1) / kHuge * kHuge;
      const auto begin = Clock::now();
      auto* memory = static_cast<char*>(
          mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
      if (memory == MAP_FAILED) return 1;
      madvise(memory, length, MADV_HUGEPAGE);
      std::atomic<uint64_t> next{0};
      auto work = [&] {
        for (uint64_t c = next++; c * kChunk < size; c = next++) {
          const uint64_t offset = c * kChunk, n = std::min(kChunk, size - offset);
          if (pread(fd, memory + offset, n, static_cast<off_t>(offset)) !=
              static_cast<ssize_t>(n)) {
            std::abort();
          }
        }
      };
      std::vector<std::thread> pool;
      for (uint32_t t = 0; t < threads; ++t) pool.emplace_back(work);
      for (auto& thread : pool) thread.join();
      const double s = since(begin);
      std::printf("pread, fresh memory  %.3f s %6.2f GB/s\n", s,
                  static_cast<double>(size) / s / 1e9);
      munmap(memory, length);
    }
  }
  close(fd);
  return 0;
}
