// Where the cpu backend keeps its constants, and how their bytes arrive.
//
// A hollow constant whose only readers are ops that pack it into one blocked layout (conv2d
// filters, matmul/gemm constant B, chosen with format_tag::any) gets a PackingSlot: the slot owns
// the packed buffer (zeroed for the blocked padding, huge-page advised), hands the loader bounded
// staging chunks from the graph's StagingPool, and on commit() scatters the chunk's elements
// straight into their places (BlockedScatter). No plain copy of the constant ever exists.
// A float16 constant of a widened graph (widen_float16.h) is widened as it is scattered: packed
// float32, or a plain float32 copy (a PackingSlot into the plain layout) for its plain readers;
// unless its reader keeps it 16-bit (matmul panels, ops/half_matmul.cpp; conv filters,
// half_weights.h): then it is scattered as float16 into a float16 packed layout.
// Every other hollow constant keeps a plain slot in the descriptor's layout (the loader reads
// straight into it, or it adopts a memory map); an op that wants it packed reorders it into its
// own buffer after every fill (PackedConstant, Reordered), unless oneDNN chose the descriptor's
// layout itself (Identity: no copy at all).
// int8 weights whose packed layout carries oneDNN's compensation (a source zero point, an s8
// source) are packed on arrival too: the slot computes the compensation from the packed weights
// when its constant is complete (ConstantSlot::complete), after each fill.
//
// Accounting (memory.constants): the packed buffers, the plain slots, the reordered copies, and
// the classic constants' plain bytes (the graph's: the IR holds them for the graph's life).
// memory.staging: the pool's buffers while it holds them (released when every constant is in).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/cpu/blocked_layout.h"
#include "backends/cpu/cpu_constant_tensor.h"
#include "backends/cpu/packed_constant.h"
#include "backends/reference/reference_constant_slot.h"
#include "core/host_buffer.h"
#include "graph/ir.h"

namespace webnn::cpu {

// A bounded pool of staging buffers shared by the packing slots of one graph: at most `capacity`
// in flight (take() blocks beyond), each as big as the largest chunk asked of it, charged to
// memory.staging while the pool holds it.
class StagingPool {
 public:
  StagingPool(std::shared_ptr<backend::MemoryAccount> memory, uint32_t capacity);

  struct Buffer {
    HostBuffer memory;
    backend::GaugeCharge charge;
  };
  Buffer take(uint64_t bytes);
  void give(Buffer buffer);
  // Frees the idle buffers (every constant is in).
  void release();
  uint32_t capacity() const { return capacity_; }
  // Scatters running now, across the graph's slots (they share the backend's threads).
  std::atomic<int> activeScatters{0};

 private:
  std::shared_ptr<backend::MemoryAccount> memory_;
  uint32_t capacity_;
  std::mutex mutex_;
  std::condition_variable available_;
  uint32_t inFlight_ = 0;
  std::vector<Buffer> free_;
};

class PackingSlot final : public backend::ConstantSlot {
 public:
  PackingSlot(uint64_t byteLength, const BlockedScatter& scatter, uint64_t packedBytes,
              StagingPool& pool, int threads, std::shared_ptr<backend::MemoryAccount> memory);

  uint64_t byteLength() const override { return byteLength_; }
  // One element: distinct source elements land on distinct packed elements.
  uint64_t writeGranularity() const override { return scatter_.sourceElementSize(); }
  std::unique_ptr<backend::StagedWrite> stage(uint64_t byteOffset, uint64_t size) override;
  void write(uint64_t byteOffset, std::span<const std::byte> bytes) override;

  std::byte* packedData() { return packed_.data(); }
  uint64_t packedBytes() const { return packed_.size(); }
  // Whether it widens float16 bytes to float32 as it stores them.
  bool widens() const { return scatter_.widens(); }
  // Whether the packed layout carries int8 weights' compensation, computed by complete().
  bool compensated() const { return scatter_.hasCompensation(); }
  // Every byte of the constant is in (ConstantSlot::complete, once per fill, before any dispatch
  // and before the graph's constantsComplete): writes what depends on all of them (the
  // compensation of int8 weights).
  void complete() override;

 private:
  class Staged;
  // Scatters `bytes`, the constant's bytes from `byteOffset`, into the packed buffer (`parallel`:
  // on the backend's threads, shared with the other scatters running).
  void scatter(uint64_t byteOffset, std::span<const std::byte> bytes, bool parallel);

  uint64_t byteLength_;
  BlockedScatter scatter_;
  HostBuffer packed_;
  bool zeroBeforeFill_;  // the scatter leaves bytes it must find zero (commitZeroed)
  StagingPool& pool_;
  int threads_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  backend::GaugeCharge charge_;
};

// Every constant of one cpu graph: the packing requests of its ops, then its slots.
class CpuConstants {
 public:
  // `arrivesAsFloat16`: per operand, a hollow constant with a float32 descriptor whose bytes
  // arrive as float16 (widen_float16.h): its slot takes float16 bytes and widens them as it stores
  // them, packed or plain (empty: none).
  // `tensors`: hollow constants that are constant tensors' (CpuConstantTensor): read in the
  // tensors' shared layouts, no slot of the graph's own.
  CpuConstants(const graph::GraphIR& ir, const dnnl::engine& engine,
               std::shared_ptr<backend::MemoryAccount> memory, uint32_t numThreads,
               std::vector<bool> arrivesAsFloat16 = {},
               std::map<graph::OperandId, std::shared_ptr<CpuConstantTensor>> tensors = {},
               uint64_t memoryBudget = 0);

  // Whether hollow constant `id` stays in the file's layout (MLContextOptions::
  // constantMemoryBudget): its ops read it as stored, from a plain slot that may adopt a memory
  // map of the file (fileBackedUnderBudget chooses them).
  bool fileBacked(graph::OperandId id) const { return id < fileBacked_.size() && fileBacked_[id]; }

  // An op keeps constant `id` (classic or hollow) in `packed` (OpCompileContext::packedConstant).
  std::shared_ptr<PackedConstant> request(graph::OperandId id, const dnnl::memory::desc& plain,
                                          const dnnl::memory::desc& packed);
  // Every op is compiled (ops that were dropped released their requests): makes the slots.
  void createSlots();
  // After createSlots(): the constant an op keeps `id` in with these layouts, if one does (an op
  // compiled again shares it: compileAloneOp).
  std::shared_ptr<PackedConstant> placed(graph::OperandId id, const dnnl::memory::desc& plain,
                                         const dnnl::memory::desc& packed) const;
  // A copy, in `packed`, of a placed float32 constant of `id` read as `plain`: for an op compiled
  // again for one thread whose primitive wants another layout (squeeze-and-excitation
  // convolutions of one pixel). Null when there is none or the copies of the graph would exceed
  // kAloneCopyBudget (the step then runs on the team).
  static constexpr uint64_t kAloneCopyBudget = 4ull << 20;
  std::shared_ptr<PackedConstant> copyOfPlaced(graph::OperandId id, const dnnl::memory::desc& plain,
                                               const dnnl::memory::desc& packed);
  // The packed layout of the first placed constant of `id`, if any.
  std::optional<dnnl::memory::desc> placedLayout(graph::OperandId id) const;

  backend::ConstantSlot& slot(graph::OperandId id);
  // The plain bytes of a hollow constant (null when it is packed on arrival: nothing reads it
  // plainly).
  std::byte* plainData(graph::OperandId id);
  bool isHollow(graph::OperandId id) const {
    return (id < slots_.size() && slots_[id]) || tensors_.contains(id);
  }
  // Whether hollow constant `id` is read from a constant tensor.
  bool readsTensor(graph::OperandId id) const { return tensors_.contains(id); }
  bool anyHollow() const;
  backend::StagingHints stagingHints() const;
  // Whether hollow constant `id` takes float16 bytes for its float32 descriptor.
  bool arrivesAsFloat16(graph::OperandId id) const {
    return id < arrivesAsFloat16_.size() && arrivesAsFloat16_[id];
  }
  // Whether float16 filter `id` stays 16-bit, widened per dispatch by its convolution
  // (half_weights.h: float16FiltersKept).
  bool keepsFloat16(graph::OperandId id) const {
    return id < keepsFloat16_.size() && keepsFloat16_[id];
  }
  // Every hollow constant is complete (after each fill, before the ops prepare theirs; each
  // packing slot finished its layout, int8 compensation included, when its own constant was):
  // the staging pool's memory goes back.
  void constantsComplete();
  // How each hollow constant is kept, for tests and tools: "<id> <label>: plain" or "<id>
  // <label>: packed on arrival (<bytes> bytes)" (", compensation computed" before the parenthesis
  // closes for int8 weights whose layout carries it).
  std::vector<std::string> describe() const;

 private:
  // MLContextOptions::constantMemoryBudget: while the graph's hollow constants would take more
  // than `budget` bytes, the largest float32 one (not float16, not a constant tensor's) stays in
  // the file's layout. Empty when there is no budget.
  std::vector<bool> fileBackedUnderBudget(uint64_t budget) const;

  struct Request {
    graph::OperandId id;
    std::weak_ptr<PackedConstant> constant;
  };
  const graph::GraphIR& ir_;
  dnnl::engine engine_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  int threads_;
  std::vector<Request> requests_;
  std::vector<Request> placed_;  // the requests createSlots() placed
  uint64_t aloneCopyBytes_ = 0;  // copyOfPlaced()'s copies
  StagingPool pool_;
  std::vector<std::unique_ptr<backend::ConstantSlot>> slots_;  // per operand; null unless hollow
  std::vector<bool> arrivesAsFloat16_;
  std::vector<bool> keepsFloat16_;
  std::vector<bool> fileBacked_;
  std::vector<PackingSlot*> packing_;  // per operand; null unless packing
  std::vector<PackingSlot*> widened_;  // per operand: the plain float32 slot of a float16 one
  std::vector<reference::ReferenceConstantSlot*> plain_;  // per operand; null unless plain
  std::map<graph::OperandId, std::shared_ptr<CpuConstantTensor>> tensors_;
  // Per operand read from a tensor: its plain layout, when something reads it plainly.
  std::map<graph::OperandId, std::shared_ptr<CpuConstantTensor::Layout>> tensorPlain_;
  // Every layout of a tensor the graph reads (held for the graph's life), for describe().
  std::vector<std::pair<graph::OperandId, std::shared_ptr<CpuConstantTensor::Layout>>>
      tensorLayouts_;
  std::vector<backend::GaugeCharge> charges_;
  uint64_t chunkBytes_ = 1ull << 20;
};

}  // namespace webnn::cpu
