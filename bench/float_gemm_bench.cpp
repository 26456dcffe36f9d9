// Benchmark of the cpu backend's float32 product on column panels (backends/cpu/kernels/
// float_gemm.h) against oneDNN's float32 matmul with its weights prepacked (format_tag::any), on
// the same OpenMP threads, as a model runs them: each call reads another copy of the weights, the
// copies together at least 256 MiB a side, so that B comes from memory (a 12-layer encoder reads
// 324 MiB of weights per dispatch); --warm keeps one copy (B in cache). The two alternate call by
// call, so that both see the same machine. Prints a table and one JSON line per shape. Built as
// webnn_float_gemm_bench (bench/CMakeLists.txt, with the cpu backend).
// Usage: webnn_float_gemm_bench [--threads N] [--calls N] [--warm] [M,K,N ...]
// Exits with status 1 when the two products differ by more than 1e-4 relative to the largest
// output (a smoke test: bench.float_gemm_smoke).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dnnl.hpp>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/kernels/float_gemm.h"

namespace {

using Clock = std::chrono::steady_clock;
using webnn::cpu::FloatPanelLayout;

struct Shape {
  int64_t m, k, n;
};

struct Options {
  int threads = 2;
  int calls = 300;
  bool warm = false;
  std::vector<Shape> shapes;
};

constexpr uint64_t kColdBytes = uint64_t{256} << 20;

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
    } else if (argument == "--calls" && i + 1 < argc) {
      options.calls = std::max(1, std::atoi(argv[++i]));
    } else if (argument == "--warm") {
      options.warm = true;
    } else {
      Shape shape{};
      if (std::sscanf(argument.c_str(), "%ld,%ld,%ld", &shape.m, &shape.k, &shape.n) != 3 ||
          shape.m <= 0 || shape.k <= 0 || shape.n <= 0) {
        std::fprintf(stderr, "usage: %s [--threads N] [--calls N] [--warm] [M,K,N ...]\n", argv[0]);
        std::exit(2);
      }
      options.shapes.push_back(shape);
    }
  }
  if (options.shapes.empty()) {
    // A BERT-base layer's products at sequence length 128: Q/K/V and the output projection, the
    // FFN's up and down projections.
    options.shapes = {{128, 768, 768}, {128, 768, 3072}, {128, 3072, 768}};
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

  std::printf("floatGemm path: %s, threads: %d, weights %s, median of %d calls each\n",
              webnn::cpu::floatGemmIsFast() ? "AVX-512" : "portable", options.threads,
              options.warm ? "in cache (one copy)" : "from memory (copies of 256 MiB a side)",
              options.calls);
  std::printf("%-18s %10s %14s %8s %12s %14s %12s\n", "shape (m,k,n)", "ours ms", "oneDNN ms",
              "ratio", "ours GFLOP/s", "oneDNN GFLOP/s", "max rel diff");
  std::mt19937 random(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  bool agree = true;
  for (const Shape& shape : options.shapes) {
    const auto m = static_cast<uint64_t>(shape.m), k = static_cast<uint64_t>(shape.k),
               n = static_cast<uint64_t>(shape.n);
    std::vector<float> a(m * k), weights(k * n);
    for (float& value : a) value = uniform(random);
    for (float& value : weights) value = uniform(random);
    const FloatPanelLayout layout{k, n};
    const uint64_t copies =
        options.warm ? 1 : std::max<uint64_t>(2, kColdBytes / (k * n * sizeof(float)) + 1);
    std::vector<std::vector<float>> packed(copies, std::vector<float>(layout.packedElements()));
    for (auto& copy : packed) webnn::cpu::packFloatPanels(weights.data(), n, layout, copy.data());
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
                        engine, weights.data());
    std::vector<memory> packedWeights;
    for (uint64_t copy = 0; copy < copies; ++copy) {
      packedWeights.emplace_back(primitiveDesc.weights_desc(), engine);
      dnnl::reorder(plainWeights, packedWeights.back())
          .execute(stream, plainWeights, packedWeights.back());
    }
    stream.wait();
    memory source(sourceDesc, engine, a.data()),
        destination(destinationDesc, engine, theirs.data());
    const dnnl::matmul matmul(primitiveDesc);

    const auto runOurs = [&](uint64_t copy) {
      webnn::cpu::floatGemm(m, a.data(), k, packed[copy].data(), layout, {}, ours.data(), n);
    };
    const auto runOneDnn = [&](uint64_t copy) {
      matmul.execute(stream, {{DNNL_ARG_SRC, source},
                              {DNNL_ARG_WEIGHTS, packedWeights[copy]},
                              {DNNL_ARG_DST, destination}});
      stream.wait();
    };
    const auto timed = [](auto&& run) {
      const auto start = Clock::now();
      run();
      return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    };
    for (uint64_t copy = 0; copy < copies; ++copy) runOurs(copy), runOneDnn(copy);  // warm-up
    std::vector<double> oursTimes, oneDnnTimes;
    for (int call = 0; call < options.calls; ++call) {
      const uint64_t copy = static_cast<uint64_t>(call) % copies;
      oursTimes.push_back(timed([&] { runOurs(copy); }));
      oneDnnTimes.push_back(timed([&] { runOneDnn(copy); }));
    }
    const double oursMs = median(oursTimes), oneDnnMs = median(oneDnnTimes);

    double largest = 0.0, difference = 0.0;
    for (uint64_t i = 0; i < m * n; ++i) {
      largest = std::max(largest, std::fabs(double{theirs[i]}));
      difference = std::max(difference, std::fabs(double{ours[i]} - double{theirs[i]}));
    }
    const double relativeDifference = largest > 0 ? difference / largest : difference;
    agree = agree && relativeDifference <= 1e-4;
    const double flops = 2.0 * static_cast<double>(m * n * k);
    char label[64];
    std::snprintf(label, sizeof(label), "(%ld,%ld,%ld)", shape.m, shape.k, shape.n);
    std::printf("%-18s %10.3f %14.3f %8.3f %12.1f %14.1f %12.2e\n", label, oursMs, oneDnnMs,
                oursMs / oneDnnMs, flops / (oursMs * 1e6), flops / (oneDnnMs * 1e6),
                relativeDifference);
    std::printf(
        "{\"bench\":\"float_gemm\",\"m\":%ld,\"k\":%ld,\"n\":%ld,\"threads\":%d,\"warm\":%s,"
        "\"fast_path\":%s,\"ours_ms\":%.4f,\"onednn_ms\":%.4f,\"ratio\":%.4f,"
        "\"ours_gflops\":%.2f,\"onednn_gflops\":%.2f,\"max_rel_diff\":%.3e}\n",
        shape.m, shape.k, shape.n, options.threads, options.warm ? "true" : "false",
        webnn::cpu::floatGemmIsFast() ? "true" : "false", oursMs, oneDnnMs, oursMs / oneDnnMs,
        flops / (oursMs * 1e6), flops / (oneDnnMs * 1e6), relativeDifference);
    std::fflush(stdout);
  }
  if (!agree) std::fprintf(stderr, "the products differ by more than 1e-4 relative\n");
  return agree ? 0 : 1;
}
