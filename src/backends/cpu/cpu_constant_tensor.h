// A constant tensor on the cpu backend (MLContext::createConstantTensor): one set of values that
// several graphs read, each in the layouts its ops want, and every layout kept once however many
// graphs read it.
//
// A graph compiled on the tensor asks for a layout (acquire): the descriptor's own bytes (raw: the
// plain readers, float16 or int4 weights read as stored) or a oneDNN layout its primitive chose
// (a conv filter's blocked layout, a matmul B's, a float16 filter's float16 blocked layout, int8
// weights with their compensation), described as BlockedScatter describes a packing request: the
// tensor's bytes seen through `plain`, stored as `packed`. Layouts are shared: a graph asking for
// one that exists gets it.
// - Layouts asked for before the fill are filled on arrival: the fill scatters each chunk into
//   every one of them (a bounded staging chunk, as a PackingSlot), and when no graph has asked,
//   keeps the raw bytes (the loader reads straight into them).
// - A layout asked for once the tensor is complete is made from the values the tensor keeps, by a
//   oneDNN reorder (from the raw bytes, or through a transient raw copy when the tensor keeps a
//   packed layout only).
// The tensor keeps one layout of its own (the values outlive every graph); the others live as
// long as a graph reads them. When a graph asks for a new layout and no graph reads the one the
// tensor keeps, the tensor keeps the new one instead and the old goes: a tensor filled before its
// graphs were built holds its values once, in the layout they read.
#pragma once

#include <cstdint>
#include <dnnl.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "backends/backend.h"
#include "backends/cpu/blocked_layout.h"
#include "core/host_buffer.h"

namespace webnn::cpu {

class StagingPool;

class CpuConstantTensor final : public backend::BackendConstantTensor {
 public:
  // `pool`: the backend's staging buffers for constant tensors (shared by every tensor of the
  // context, so staging stays bounded however many fill at once).
  CpuConstantTensor(const MLOperandDescriptor& descriptor,
                    std::shared_ptr<backend::MemoryAccount> memory, uint32_t numThreads,
                    std::shared_ptr<StagingPool> pool);
  ~CpuConstantTensor() override;

  // One layout of the values, shared by the graphs that read it.
  struct Layout {
    std::optional<dnnl::memory::desc> plain;  // null: the raw bytes
    std::optional<dnnl::memory::desc> packed;
    std::optional<BlockedScatter> scatter;
    HostBuffer bytes;
    std::shared_ptr<backend::MemoryAccount> account;  // outlives the charge
    backend::GaugeCharge charge;
    bool filled = false;
    std::byte* data() { return bytes.data(); }
  };

  backend::ConstantSlot& slot() override;
  backend::StagingHints stagingHints() const override;
  std::span<const std::byte> hostBytes(std::shared_ptr<const void>* owner) override;

  // The tensor's bytes as stored (for plain readers): filled on arrival, or made now when the
  // tensor is complete.
  std::shared_ptr<Layout> acquireRaw();
  // The tensor's bytes seen through `plain` (its data type the tensor's), stored as `packed`.
  // Null when BlockedScatter cannot describe the pair (the graph then keeps a copy of its own).
  std::shared_ptr<Layout> acquire(const dnnl::memory::desc& plain, const dnnl::memory::desc& packed);

  const MLOperandDescriptor& descriptor() const { return descriptor_; }
  // How many layouts exist now (tests).
  size_t layoutCount() const;

 private:
  class Slot;
  std::shared_ptr<Layout> find(const std::optional<dnnl::memory::desc>& plain,
                               const std::optional<dnnl::memory::desc>& packed) const;
  std::shared_ptr<Layout> add(std::shared_ptr<Layout> layout);
  // Makes `layout` from the values kept (the tensor is complete). Needs mutex_.
  void derive(Layout& layout);
  // A new layout exists: keep it instead of the kept one when no graph reads that. Needs mutex_.
  void preferKept(const std::shared_ptr<Layout>& layout);

  MLOperandDescriptor descriptor_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  int threads_;
  dnnl::engine engine_;
  std::unique_ptr<Slot> slot_;
  std::shared_ptr<StagingPool> pool_;

  mutable std::mutex mutex_;
  std::vector<std::weak_ptr<Layout>> layouts_;
  std::shared_ptr<Layout> kept_;  // the tensor's own reference to its values
  std::vector<std::shared_ptr<Layout>> targets_;  // the layouts the current fill writes
  bool filling_ = false;
  bool complete_ = false;
};

}  // namespace webnn::cpu
