// The memory benchmark of weight loading (`webnn load-bench`, or the webnn_load_bench program).
//
// For each model size W it generates a transformer-like model (a chain of float32 [H, H] matmul
// weights) as a safetensors file, warms the page cache, measures this machine's limits (pread from
// page cache into a reused buffer, and into fresh huge-page-advised memory), then loads the model
// in a fresh child process for each path and checks one inference against a reference computed
// here, independently of the library. The weights feed matmuls or 1x1 convolutions (--model),
// which the cpu backend packs into oneDNN's blocked layouts as they arrive; the children also
// report memoryStats() (constants, staging peak):
//   a: classic       file read into a user buffer, constant(desc, data) per tensor, build
//   b: hollow+push   build weightless, then per tensor read into a reused buffer, setConstantData
//   c: hollow+pull   build weightless, then loadConstants(WeightSource::open(file))
//   d: as c with LoadOptions::allowMapping (zero copy)
// The child is this same program, run again with the hidden --child option.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace webnn::bench {

struct LoadBenchOptions {
  // Model sizes ("256M", "1G", "4G"; K, M, G are binary units). Each is rounded down to whole
  // layers.
  std::vector<std::string> sizes = {"256M", "1G", "4G"};
  // Which paths to run, in order.
  std::string paths = "abcd";
  // Hidden size H: each layer is a float32 [H, H] weight.
  uint32_t hidden = 4096;
  // What reads the weights: "matmul" (x [1, H] x W per layer), "conv" (a 1x1 conv2d per layer on
  // x [1, 1, 1, H] nhwc with W as its ihwo filter: the same product), or "mixed" (alternating).
  // On the cpu backend both pack their weights into oneDNN's blocked layouts.
  std::string model = "matmul";
  // The backend of the children's contexts (empty: the default backend). On a device backend the
  // report adds host staging (current and peak), device bytes for constants and the host RSS
  // growth of the load.
  std::string backend;
  // Threads of loadConstants (paths c and d) and of the pread limits.
  uint32_t threads = 2;
  // Runs of each path; the fastest load is reported.
  uint32_t repeat = 1;
  // Where the generated model files go (deleted afterwards unless keep).
  std::string directory = "/tmp";
  bool keep = false;
  // Hidden: set when this process is the child that loads one model by one path.
  std::string childPath;
  std::string childFile;
};

// Declares the options above on `app` (the child's options hidden).
void addLoadBenchOptions(CLI::App& app, LoadBenchOptions& options);

// Runs the benchmark (or, with childPath set, the child). `self` is the command line that runs
// this program with the same options (e.g. {"/proc/self/exe"} or {"/proc/self/exe",
// "load-bench"}). Returns 0 when every inference matched its reference.
int runLoadBench(const LoadBenchOptions& options, const std::vector<std::string>& self);

}  // namespace webnn::bench
