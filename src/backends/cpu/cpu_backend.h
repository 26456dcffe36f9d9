// The cpu backend: oneDNN primitives for the ops oneDNN runs with the graph's types and
// attributes, the reference kernels for every other op, over host memory.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace webnn::cpu {

std::unique_ptr<backend::Backend> createCpuBackend();

}  // namespace webnn::cpu
