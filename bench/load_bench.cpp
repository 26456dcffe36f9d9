// webnn_load_bench: the memory benchmark of weight loading as its own program (the same code as
// `webnn load-bench`). See load_bench_lib.h.
#include <cstdio>
#include <exception>

#include "load_bench_lib.h"

int main(int argc, char** argv) {
  webnn::bench::LoadBenchOptions options;
  CLI::App app{"webnn_load_bench: peak memory and speed of loading weights, four ways"};
  webnn::bench::addLoadBenchOptions(app, options);
  CLI11_PARSE(app, argc, argv);
  try {
    return webnn::bench::runLoadBench(options, {"/proc/self/exe"});
  } catch (const std::exception& error) {
    std::fprintf(stderr, "webnn_load_bench: %s\n", error.what());
    return 1;
  }
}
