// Benchmark of the cpu backend's float32 x float16 matrix product (backends/cpu/kernels/
// half_gemm.h) against oneDNN's float32 matmul with the same weights widened to float32 and
// prepacked once (format_tag::any), both on the same OpenMP threads. Prints a table and one JSON
// line per shape. Built as webnn_half_gemm_bench (bench/CMakeLists.txt, with the cpu backend).
// Usage: webnn_half_gemm_bench [--threads N] [--trials N] [--cold] [M,K,N ...]
// Times are the median over the trials (each trial: calls for about 20 ms, the two alternating);
// the JSON lines add the best trial. --cold: writes 256 MiB through the caches before every timed
// call, so that the weights come from memory.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dnnl.hpp>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/kernels/half_gemm.h"

namespace {

using Clock = std::chrono::steady_clock;
using webnn::cpu::HalfPanelLayout;

struct Shape {
  int64_t m, k, n;
};

struct Options {
  int threads = 2;
  int trials = 9;
  bool cold = false;
  std::vector<Shape> shapes;
};

// Evicts the caches by writing and reading a buffer much larger than the last-level cache.
void evictCaches() {
  static std::vector<uint64_t> sweep(size_t{256} << 17);  // 256 MiB
  for (size_t i = 0; i < sweep.size(); i += 8) {
    sweep[i] += 1;  // one write per 64-byte line: the lines are fetched and dirtied
  }
}

// Milliseconds per call of `run`, over `repeats` calls (one call when `cold`, after evicting the
// caches).
template <typename Run>
double timeCalls(Run&& run, int repeats, bool cold) {
  if (cold) {
    evictCaches();
    repeats = 1;
  }
  const auto start = Clock::now();
  for (int repeat = 0; repeat < repeats; ++repeat) run();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / repeats;
}

// Enough calls to last about 20 ms, from one warm-up call and one timed call.
template <typename Run>
int repeatsFor(Run&& run) {
  run();
  const double once = timeCalls(run, 1, false);
  return std::max(1, static_cast<int>(20.0 / std::max(once, 1e-3)));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

Options parseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--threads" && i + 1 < argc) {
      options.threads = std::atoi(argv[++i]);
    } else if (argument == "--trials" && i + 1 < argc) {
      options.trials = std::max(1, std::atoi(argv[++i]));
    } else if (argument == "--cold") {
      options.cold = true;
    } else {
      Shape shape{};
      if (std::sscanf(argument.c_str(), "%ld,%ld,%ld", &shape.m, &shape.k, &shape.n) != 3) {
        std::fprintf(stderr, "usage: %s [--threads N] [--trials N] [--cold] [M,K,N ...]\n",
                     argv[0]);
        std::exit(2);
      }
      options.shapes.push_back(shape);
    }
  }
  if (options.shapes.empty()) {
    options.shapes = {
        {8, 4096, 4096}, {256, 1024, 1024}, {256, 1024, 4096}, {256, 4096, 1024}, {1, 4096, 4096}};
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parseOptions(argc, argv);
  omp_set_num_threads(options.threads);
  using dnnl::memory;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);

  std::printf("halfGemm path: %s, threads: %d, %s caches, median of %d trials\n",
              webnn::cpu::halfGemmIsFast() ? "AVX-512" : "portable", options.threads,
              options.cold ? "cold" : "warm", options.trials);
  std::printf("%-18s %10s %14s %8s %12s %12s\n", "shape (m,k,n)", "ours ms", "oneDNN f32 ms",
              "ratio", "ours GFLOP/s", "max rel diff");
  std::mt19937 random(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const Shape& shape : options.shapes) {
    const auto m = static_cast<uint64_t>(shape.m), k = static_cast<uint64_t>(shape.k),
               n = static_cast<uint64_t>(shape.n);
    std::vector<float> a(m * k);
    for (float& value : a) value = uniform(random);
    // Weights: float16 values in [-1, 1], and the same values as float32 for oneDNN.
    std::vector<uint16_t> halfWeights(k * n);
    std::vector<float> floatWeights(k * n);
    for (uint64_t i = 0; i < k * n; ++i) {
      const uint16_t bits = static_cast<uint16_t>(((random() & 1u) << 15) |
                                                  ((random() % 15) << 10) | (random() % 1024));
      halfWeights[i] = bits;
      floatWeights[i] = webnn::cpu::halfBitsToFloat(bits);
    }
    const HalfPanelLayout layout{k, n};
    std::vector<uint16_t> packed(layout.packedElements());
    webnn::cpu::packHalfPanels(halfWeights.data(), n, layout, packed.data());
    std::vector<float> ours(m * n), theirs(m * n);

    const memory::desc sourceDesc({shape.m, shape.k}, memory::data_type::f32,
                                  memory::format_tag::ab);
    const memory::desc weightsAny({shape.k, shape.n}, memory::data_type::f32,
                                  memory::format_tag::any);
    const memory::desc destinationDesc({shape.m, shape.n}, memory::data_type::f32,
                                       memory::format_tag::ab);
    const dnnl::matmul::primitive_desc primitiveDesc(
        dnnl::matmul::desc(sourceDesc, weightsAny, destinationDesc), engine);
    memory plainWeights({{shape.k, shape.n}, memory::data_type::f32, memory::format_tag::ab},
                        engine, floatWeights.data());
    memory packedWeights(primitiveDesc.weights_desc(), engine);
    dnnl::reorder(plainWeights, packedWeights).execute(stream, plainWeights, packedWeights);
    stream.wait();
    memory source(sourceDesc, engine, a.data()),
        destination(destinationDesc, engine, theirs.data());
    const dnnl::matmul matmul(primitiveDesc);

    const auto runOurs = [&] {
      webnn::cpu::halfGemm(m, a.data(), k, packed.data(), layout, nullptr, ours.data(), n);
    };
    const auto runOneDnn = [&] {
      matmul.execute(
          stream,
          {{DNNL_ARG_SRC, source}, {DNNL_ARG_WEIGHTS, packedWeights}, {DNNL_ARG_DST, destination}});
      stream.wait();
    };
    // Alternate the two, trial after trial, so that both see the same machine noise.
    const int oursRepeats = repeatsFor(runOurs), oneDnnRepeats = repeatsFor(runOneDnn);
    std::vector<double> oursTimes, oneDnnTimes;
    for (int trial = 0; trial < options.trials; ++trial) {
      oursTimes.push_back(timeCalls(runOurs, oursRepeats, options.cold));
      oneDnnTimes.push_back(timeCalls(runOneDnn, oneDnnRepeats, options.cold));
    }
    const double oursMs = median(oursTimes), oneDnnMs = median(oneDnnTimes);
    const double oursBestMs = *std::min_element(oursTimes.begin(), oursTimes.end());
    const double oneDnnBestMs = *std::min_element(oneDnnTimes.begin(), oneDnnTimes.end());

    double largest = 0.0, difference = 0.0;
    for (uint64_t i = 0; i < m * n; ++i) {
      largest = std::max(largest, std::fabs(double{theirs[i]}));
      difference = std::max(difference, std::fabs(double{ours[i]} - double{theirs[i]}));
    }
    const double relativeDifference = largest > 0 ? difference / largest : difference;
    const double gflops = 2.0 * static_cast<double>(m * n * k) / (oursMs * 1e6);
    char label[64];
    std::snprintf(label, sizeof(label), "(%ld,%ld,%ld)", shape.m, shape.k, shape.n);
    std::printf("%-18s %10.3f %14.3f %8.2f %12.1f %12.2e\n", label, oursMs, oneDnnMs,
                oursMs / oneDnnMs, gflops, relativeDifference);
    std::printf(
        "{\"bench\":\"half_gemm\",\"m\":%ld,\"k\":%ld,\"n\":%ld,\"threads\":%d,\"cold\":%s,"
        "\"fast_path\":%s,\"ours_ms\":%.4f,\"onednn_f32_ms\":%.4f,\"ratio\":%.4f,"
        "\"ours_gflops\":%.2f,\"ours_best_ms\":%.4f,\"onednn_f32_best_ms\":%.4f,"
        "\"max_rel_diff\":%.3e}\n",
        shape.m, shape.k, shape.n, options.threads, options.cold ? "true" : "false",
        webnn::cpu::halfGemmIsFast() ? "true" : "false", oursMs, oneDnnMs, oursMs / oneDnnMs,
        gflops, oursBestMs, oneDnnBestMs, relativeDifference);
    std::fflush(stdout);
  }
  return 0;
}
