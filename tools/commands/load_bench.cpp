// webnn load-bench: the memory benchmark of weight loading (bench/load_bench_lib.h).
#include <memory>

#include "command.h"
#include "load_bench_lib.h"

void webnn::tools::registerLoadBenchCommand() {
  registerCommand("load-bench",
                  "Peak memory and speed of loading weights, four ways (generates the models)",
                  [](CLI::App& app) -> std::function<int()> {
                    auto options = std::make_shared<webnn::bench::LoadBenchOptions>();
                    webnn::bench::addLoadBenchOptions(app, *options);
                    return [options] {
                      return webnn::bench::runLoadBench(*options, {"/proc/self/exe", "load-bench"});
                    };
                  });
}
