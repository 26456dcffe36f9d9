// The webnn command's OpenMP wait policy (openmp_wait_policy.cpp).
#pragma once

namespace webnn::tools {

// Unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set, runs the command again (execv, the same
// arguments) with OMP_WAIT_POLICY=passive; returns when either is set or the exec failed.
void waitPassivelyUnlessTold(char** argv);

}  // namespace webnn::tools
