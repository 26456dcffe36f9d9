// The reference backend: plain kernels over host memory, the oracle for every other backend.
#pragma once

#include <memory>

#include "backends/backend.h"

namespace webnn::reference {

std::unique_ptr<backend::Backend> createReferenceBackend();

}  // namespace webnn::reference
