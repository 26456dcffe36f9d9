// The oneDNN memory objects a step binds for a dispatch, made once per set of pointers (its
// workspace, then `operands`': the input, the output, and the post-op or bias operands that are
// not constants) and reused while the pointers hold (an arena of the graph's pool, the same graph
// inputs and outputs). Each dnnl::memory costs about a microsecond to make and free (a 64-byte-
// aligned allocation of about 1 KiB) and a convolution with its post-ops makes 5 to 8: PaddleOCR
// cls (53 convolutions) spent 0.15 of its 1.1 ms so. Two sets are kept (concurrent dispatches
// use other arenas); clear() forgets them when the constants are prepared again (their bytes may
// have moved). Shared by conv2d, and the int8 conv2d and matmul.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {

using BindingKey = std::array<const void*, 8>;

// `Bound` holds the memory objects and its `key` (a BindingKey).
template <class Bound>
class BindingCache {
 public:
  // The operands whose pointers (after the workspace's) a binding is made for.
  std::vector<graph::OperandId> operands;

  // Whether the pointers fit a key (else the step binds at every dispatch).
  bool usable() const { return operands.size() + 1 <= BindingKey().size(); }

  // The binding of these pointers: a cached one, or `make(key)`'s (then cached). Needs usable().
  template <class Make>
  std::shared_ptr<const Bound> get(const DispatchTensors& tensors, std::byte* workspace,
                                   Make&& make) {
    BindingKey key{};
    key[0] = workspace;
    for (size_t i = 0; i < operands.size(); ++i) key[i + 1] = dataOf(tensors, operands[i]);
    {
      std::lock_guard lock(mutex_);
      for (const auto& candidate : bound_) {
        if (candidate && candidate->key == key) return candidate;
      }
    }
    std::shared_ptr<const Bound> bound = make(key);
    std::lock_guard lock(mutex_);
    bound_[next_++ % bound_.size()] = bound;
    return bound;
  }

  void clear() {
    std::lock_guard lock(mutex_);
    bound_ = {};
  }

 private:
  std::mutex mutex_;
  std::array<std::shared_ptr<const Bound>, 2> bound_;
  size_t next_ = 0;
};

}  // namespace webnn::cpu
