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
#include "core/host_buffer.h"
#include "graph/ir.h"
#include "webnn/tensor.h"

namespace webnn::detail {

struct ContextState {
  std::unique_ptr<backend::Backend> backend;
  std::shared_ptr<backend::MemoryAccount> memory = std::make_shared<backend::MemoryAccount>();
  std::atomic<bool> destroyed{false};

  void checkAlive(std::string_view method) const;
};

struct TensorState {
  std::weak_ptr<ContextState> context;
  MLTensorDescriptor descriptor;
  HostBuffer storage;
  backend::GaugeCharge charge;
  std::atomic<bool> destroyed{false};
};

}  // namespace webnn::detail
