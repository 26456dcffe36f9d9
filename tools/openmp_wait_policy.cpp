// The webnn command's OpenMP threads (oneDNN's and the cpu backend's) wait for work asleep, not
// spinning, unless the environment chooses (OMP_WAIT_POLICY or GOMP_SPINCOUNT). On a machine
// shared with other processes a thread spinning at a step's barrier holds its core while the
// team's other thread waits for one, so every parallel region waits for a time slice: the 2-layer
// encoder took 176 ms a dispatch spinning and 32-38 ms waiting passively, at a load of 5 on 2
// cores (docs/benchmarks.md). libgomp reads its settings from the environment the process
// started with (a setenv before main, even from the preinit array, does not reach its spin
// count), so the command starts itself again with the variable set.
#include "openmp_wait_policy.h"

#include <unistd.h>

#include <cstdlib>

namespace webnn::tools {

void waitPassivelyUnlessTold(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  execv("/proc/self/exe", argv);  // returns only when it failed: go on spinning
}

}  // namespace webnn::tools
