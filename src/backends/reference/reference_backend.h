// The reference backend: plain kernels over host memory, the oracle for every other backend.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace webnn::reference {

std::unique_ptr<backend::Backend> createReferenceBackend();

// What the reference backend runs: the spec's limits of every op it has a kernel for (also what
// a backend that falls back to the reference kernels can run).
MLOpSupportLimits referenceOpSupportLimits(std::string_view backendName);

}  // namespace webnn::reference
