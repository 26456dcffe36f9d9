// Benchmark of the cpu backend's batch-1 block-quantized product (backends/cpu/kernels/
// block_quantized_gemm.h: 4-bit or 8-bit weights in blocks of 32, float16 scales as GGUF's
// q4_0/q8_0 keep them) against this machine's memory: a read of the same bytes by the same threads
// (each thread summing its share with AVX-512 loads when the CPU has them). A batch-1 product reads
// every weight once, so the read is what it cannot beat. Prints a table and one JSON line per
// case. Built as webnn_block_gemm_bench (bench/CMakeLists.txt, with the cpu backend).
// Usage: webnn_block_gemm_bench [--threads N] [--trials N] [--bits 4|8] [--sets N] [--rows M]
//                               [--scales float16|float32] [--zero-points stored|one]
//                               [--activations float32|int8] [K,N ...]
// --rows M: M rows of A (a prompt's tokens at once: the kernel's tile path) instead of one.
// --activations int8: blockQuantizedGemmInt8Activations (A quantized to int8 per block of 32,
// VNNI dot products) instead of the float32-activation product (4 bits only).
// --zero-points one: one zero point for every block (BlockQuantizedWeights::uniformZeroPoint, as a
// graph that expands q4_0's 8 gives it) instead of a stored one per block.
// The products of one set are the shapes given (default: an LLM layer at hidden 2048: q, k, v, o
// 2048 x 2048, gate and up 2048 x 5632, down 5632 x 2048); --sets N repeats them with other
// weights (N x the bytes: 4 sets of the default are 116 MB, beyond the last-level cache), all run
// in turn per timed call. Times are the median over the trials (each trial: about 20 ms of calls,
// the two sides alternating).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/kernels/block_quantized_gemm.h"
#include "core/float16.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;
using webnn::cpu::BlockQuantizedWeights;

constexpr uint64_t kBlockSize = 32;

struct Shape {
  uint64_t k, n;
};

struct Options {
  int threads = 2;
  int trials = 9;
  uint32_t bits = 4;
  int sets = 1;
  uint64_t rows = 1;
  bool floatScales = false;   // float32 scales (ONNX MatMulNBits' type) instead of GGUF's float16
  bool oneZeroPoint = false;  // uniformZeroPoint instead of zero points stored per block
  bool int8Activations = false;
  std::vector<Shape> shapes;
};

// One product's weights: values (N x K, packed), float16 or float32 scales and zero points per
// block.
struct Weights {
  std::vector<uint8_t> values, zeroPoints;
  std::vector<uint16_t> scales;
  std::vector<float> floatScales;
  BlockQuantizedWeights view;
  uint64_t bytes() const {
    return values.size() + zeroPoints.size() + scales.size() * 2 + floatScales.size() * 4;
  }
};

Weights makeWeights(const Shape& shape, uint32_t bits, bool floatScales, bool oneZeroPoint,
                    std::mt19937& random) {
  Weights w;
  const uint64_t blocks = shape.n * (shape.k / kBlockSize);
  w.values.resize(shape.n * shape.k * bits / 8);
  for (auto& byte : w.values) byte = static_cast<uint8_t>(random());
  // q4_0 / q8_0: signed values, zero points 0 (4 bits: two nibbles a byte).
  w.zeroPoints.assign(bits == 4 ? (blocks + 1) / 2 : blocks, 0);
  w.scales.resize(blocks);
  for (auto& scale : w.scales) scale = static_cast<uint16_t>(0x2000 + random() % 0x800);
  w.view.values = w.values.data();
  w.view.halfScales = w.scales.data();
  if (floatScales) {  // the same values as float32
    for (uint16_t scale : w.scales) w.floatScales.push_back(webnn::halfToFloat(scale));
    w.scales.clear();
    w.view.halfScales = nullptr;
    w.view.scales = w.floatScales.data();
  }
  w.view.zeroPoints = w.zeroPoints.data();
  if (oneZeroPoint) {  // the same zero point, 0, kept as one value
    w.zeroPoints.clear();
    w.view.zeroPoints = nullptr;
    w.view.uniformZeroPoint = 0;
  }
  w.view.n = shape.n;
  w.view.k = shape.k;
  w.view.blockSize = kBlockSize;
  w.view.bits = bits;
  w.view.isSigned = true;
  return w;
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) float sumAvx512(const uint8_t* bytes, uint64_t count) {
  __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
  uint64_t i = 0;
  for (; i + 256 <= count; i += 256) {
    a = _mm512_xor_si512(a, _mm512_loadu_si512(bytes + i));
    b = _mm512_xor_si512(b, _mm512_loadu_si512(bytes + i + 64));
    c = _mm512_xor_si512(c, _mm512_loadu_si512(bytes + i + 128));
    d = _mm512_xor_si512(d, _mm512_loadu_si512(bytes + i + 192));
  }
  alignas(64) uint32_t lanes[16];
  _mm512_store_si512(lanes, _mm512_xor_si512(_mm512_xor_si512(a, b), _mm512_xor_si512(c, d)));
  uint32_t sum = 0;
  for (uint32_t lane : lanes) sum ^= lane;
  for (; i < count; ++i) sum ^= bytes[i];
  return static_cast<float>(sum & 0xFF);
}
#endif

// Reads `count` bytes, shared by the OpenMP threads as the product shares its columns.
float readAll(const uint8_t* bytes, uint64_t count) {
  float total = 0;
#pragma omp parallel reduction(+ : total)
  {
    const auto threads = static_cast<uint64_t>(omp_get_num_threads());
    const auto thread = static_cast<uint64_t>(omp_get_thread_num());
    const uint64_t begin = count * thread / threads, end = count * (thread + 1) / threads;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f")) {
      total += sumAvx512(bytes + begin, end - begin);
    } else
#endif
    {
      uint64_t sum = 0;
      for (uint64_t i = begin; i < end; ++i) sum += bytes[i];
      total += static_cast<float>(sum & 0xFF);
    }
  }
  return total;
}

template <typename Run>
double millisecondsPerCall(Run&& run, int repeats) {
  const auto start = Clock::now();
  for (int repeat = 0; repeat < repeats; ++repeat) run();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / repeats;
}

template <typename Run>
int repeatsFor(Run&& run) {
  run();
  const double once = millisecondsPerCall(run, 1);
  return std::max(1, static_cast<int>(20.0 / std::max(once, 1e-3)));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

[[noreturn]] void usage(const char* program) {
  std::fprintf(stderr,
               "usage: %s [--threads N] [--trials N] [--bits 4|8] [--sets N] [--rows M] "
               "[--scales float16|float32] [--zero-points stored|one] "
               "[--activations float32|int8] [K,N ...]\n",
               program);
  std::exit(2);
}

Options parseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--threads" && i + 1 < argc) {
      options.threads = std::max(1, std::atoi(argv[++i]));
    } else if (argument == "--trials" && i + 1 < argc) {
      options.trials = std::max(1, std::atoi(argv[++i]));
    } else if (argument == "--bits" && i + 1 < argc) {
      options.bits = static_cast<uint32_t>(std::atoi(argv[++i]));
      if (options.bits != 4 && options.bits != 8) usage(argv[0]);
    } else if (argument == "--sets" && i + 1 < argc) {
      options.sets = std::max(1, std::atoi(argv[++i]));
    } else if (argument == "--scales" && i + 1 < argc) {
      const std::string type = argv[++i];
      if (type != "float16" && type != "float32") usage(argv[0]);
      options.floatScales = type == "float32";
    } else if (argument == "--zero-points" && i + 1 < argc) {
      const std::string kind = argv[++i];
      if (kind != "stored" && kind != "one") usage(argv[0]);
      options.oneZeroPoint = kind == "one";
    } else if (argument == "--activations" && i + 1 < argc) {
      const std::string type = argv[++i];
      if (type != "float32" && type != "int8") usage(argv[0]);
      options.int8Activations = type == "int8";
    } else if (argument == "--rows" && i + 1 < argc) {
      options.rows = static_cast<uint64_t>(std::max(1, std::atoi(argv[++i])));
    } else {
      unsigned long long k = 0, n = 0;
      if (std::sscanf(argument.c_str(), "%llu,%llu", &k, &n) != 2 || k == 0 || n == 0 ||
          k % kBlockSize != 0) {
        usage(argv[0]);
      }
      options.shapes.push_back({k, n});
    }
  }
  if (options.int8Activations && options.bits != 4) usage(argv[0]);
  if (options.shapes.empty()) {
    options.shapes = {{2048, 2048}, {2048, 2048}, {2048, 2048}, {2048, 2048},
                      {2048, 5632}, {2048, 5632}, {5632, 2048}};
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parseOptions(argc, argv);
  omp_set_num_threads(options.threads);
  std::mt19937 random(7);
  std::vector<Weights> weights;
  uint64_t bytes = 0, multiplyAdds = 0, widest = 0;
  for (int set = 0; set < options.sets; ++set) {
    for (const Shape& shape : options.shapes) {
      weights.push_back(
          makeWeights(shape, options.bits, options.floatScales, options.oneZeroPoint, random));
      bytes += weights.back().bytes();
      multiplyAdds += shape.k * shape.n;
      widest = std::max({widest, shape.k, shape.n});
    }
  }
  const uint64_t rows = options.rows;
  std::vector<float> a(rows * widest), c(rows * widest);
  for (float& value : a) value = std::uniform_real_distribution<float>(-1, 1)(random);
  // The read baseline: one buffer of the same size (the weights' bytes laid end to end).
  std::vector<uint8_t> plain(bytes);
  for (uint64_t i = 0; i < bytes; i += 4096) plain[i] = static_cast<uint8_t>(i >> 12);

  auto runProducts = [&] {
    for (const Weights& w : weights) {
      if (options.int8Activations) {
        webnn::cpu::blockQuantizedGemmInt8Activations(rows, a.data(), w.view.k, w.view, nullptr,
                                                      c.data(), w.view.n);
      } else {
        webnn::cpu::blockQuantizedGemm(rows, a.data(), w.view.k, w.view, nullptr, c.data(),
                                       w.view.n);
      }
    }
  };
  volatile float sink = 0;
  auto runRead = [&] { sink = sink + readAll(plain.data(), plain.size()); };
  const bool fast = options.int8Activations
                        ? webnn::cpu::blockQuantizedGemmInt8ActivationsIsFast(weights.front().view)
                        : webnn::cpu::blockQuantizedGemmIsFast(weights.front().view);
  const int productRepeats = repeatsFor(runProducts), readRepeats = repeatsFor(runRead);
  std::vector<double> productTimes, readTimes;
  for (int trial = 0; trial < options.trials; ++trial) {
    productTimes.push_back(millisecondsPerCall(runProducts, productRepeats));
    readTimes.push_back(millisecondsPerCall(runRead, readRepeats));
  }
  const double productMs = median(productTimes), readMs = median(readTimes);
  const double productGbps = static_cast<double>(bytes) / productMs / 1e6;
  const double readGbps = static_cast<double>(bytes) / readMs / 1e6;
  std::printf(
      "block-quantized product, %llu row(s): %s path, %u-bit weights in blocks of %llu, "
      "%s scales, %s, %s activations; %d thread(s); %zu products, %.1f MB of weights; median "
      "of %d trials\n",
      static_cast<unsigned long long>(rows),
      fast ? (options.int8Activations ? "AVX-512 VNNI" : "AVX-512") : "portable", options.bits,
      static_cast<unsigned long long>(kBlockSize), options.floatScales ? "float32" : "float16",
      options.oneZeroPoint ? "one zero point" : "a zero point per block",
      options.int8Activations ? "int8" : "float32", options.threads, weights.size(),
      static_cast<double>(bytes) / 1e6, options.trials);
  std::printf("%-22s %10s %10s %12s %12s %8s\n", "side", "ms", "GB/s", "G MACs/s", "x the read",
              "");
  std::printf("%-22s %10.3f %10.2f %12.2f %12.2f\n", "products", productMs, productGbps,
              static_cast<double>(rows * multiplyAdds) / productMs / 1e6, readMs / productMs);
  std::printf("%-22s %10.3f %10.2f %12s %12s\n", "read of the same bytes", readMs, readGbps, "-",
              "1.00");
  std::printf(
      "{\"bench\":\"block_gemm\",\"rows\":%llu,\"bits\":%u,\"block\":%llu,\"scales\":\"%s\","
      "\"zero_points\":\"%s\",\"activations\":\"%s\",\"threads\":%d,"
      "\"products\":%zu,"
      "\"bytes\":%llu,\"fast_path\":%s,\"products_ms\":%.4f,\"read_ms\":%.4f,"
      "\"products_gbps\":%.3f,\"read_gbps\":%.3f,\"ratio_to_read\":%.4f}\n",
      static_cast<unsigned long long>(rows), options.bits,
      static_cast<unsigned long long>(kBlockSize), options.floatScales ? "float32" : "float16",
      options.oneZeroPoint ? "one" : "stored", options.int8Activations ? "int8" : "float32",
      options.threads, weights.size(), static_cast<unsigned long long>(bytes),
      fast ? "true" : "false", productMs, readMs, productGbps, readGbps, readMs / productMs);
  return 0;
}
