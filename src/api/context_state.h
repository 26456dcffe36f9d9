// The state behind MLContext, MLTensor and MLGraph handles.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "graph/ir.h"
#include "graph/op_limits.h"
#include "webnn/tensor.h"

namespace webnn::detail {

struct ContextState {
  std::unique_ptr<backend::Backend> backend;
  // The backend's opSupportLimits(), read once: every builder call on the context checks its
  // operands against it.
  graph::OpLimitsTable limits;
  std::shared_ptr<backend::MemoryAccount> memory = std::make_shared<backend::MemoryAccount>();
  std::atomic<bool> destroyed{false};

  void checkAlive(std::string_view method) const;
};

struct TensorState {
  std::weak_ptr<ContextState> context;
  MLTensorDescriptor descriptor;
  // The backend's storage. A dispatch holds its own reference while it runs, so destroy() (which
  // drops this one) never frees memory a running dispatch reads.
  std::shared_ptr<backend::BackendTensor> storage;
  mutable std::mutex mutex;  // guards storage against destroy()
  std::atomic<bool> destroyed{false};

  // The storage, or InvalidStateError when the tensor is destroyed.
  std::shared_ptr<backend::BackendTensor> acquire(std::string_view method) const;
};

}  // namespace webnn::detail
