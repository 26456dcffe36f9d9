// The seam between the API layer and the backends. A backend compiles a GraphIR into a
// CompiledGraph that owns one ConstantSlot per hollow constant (the constant's final storage) and
// creates the context's tensors. The API layer keeps the rules (which bytes are written, pending
// lists, dispatch/write exclusion); a backend only stores, transforms and computes.
//
// The path of a weight: a loader asks the slot to stage() a range (the slot decides where the
// bytes land: its final storage when that is in the file's layout, upload memory on a device, a
// bounded chunk buffer on a backend that packs), reads the file straight into that span, then
// commit()s it, and the slot moves the bytes into final storage (nothing to do for final storage,
// a transfer on a device, a reorder into a blocked layout). When every byte of a fill is
// committed the slot is told complete(), and when every constant of the graph is complete the
// graph is told constantsComplete(): the place to pack, fold constants into each other and drop
// anything transient before the first dispatch.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/memory_account.h"
#include "backends/op_profiler.h"
#include "graph/ir.h"
#include "webnn/context.h"
#include "webnn/op_support_limits.h"
#include "webnn/tensor.h"

namespace webnn::backend {

// A range of a constant staged for a loader: bytes() is where the constant's bytes
// [byteOffset, byteOffset + size) go, in the descriptor's layout. commit() hands them to the slot;
// destroying it without commit() drops them (a read failed) and the range stays unwritten.
class StagedWrite {
 public:
  virtual ~StagedWrite() = default;
  virtual std::span<std::byte> bytes() = 0;
  virtual void commit() = 0;
};

// How a backend wants constant bytes delivered; loaders follow it.
struct StagingHints {
  // The largest range one stage() call should cover (loaders cut constants into chunks of at most
  // this size; staging memory is bounded by chunkBytes x maxChunksInFlight).
  uint64_t chunkBytes = 16ull << 20;
  // How many staged writes may be outstanding at once across the graph (0: as many as the loader
  // has threads).
  uint32_t maxChunksInFlight = 0;
  // Whether stage() hands out final storage (no staging memory at all).
  bool direct = false;
  // Whether final storage is device memory (mapped, when direct): such slots cannot adopt a memory
  // map of the file, however direct their staging is.
  bool deviceMemory = false;
};

class ConstantSlot {
 public:
  virtual ~ConstantSlot() = default;
  // Bytes in the layout of the constant's descriptor (what callers write).
  virtual uint64_t byteLength() const = 0;

  // Chunk boundaries that keep two writes from touching one byte of final storage: offsets of
  // concurrent writes must be multiples of this (the end of the constant excepted). 1 where the
  // slot stores bytes as they come; more where it packs (int4 nibbles of two elements per byte, a
  // blocked layout). The API layer serializes writes that do not respect it.
  virtual uint64_t writeGranularity() const { return 1; }

  // Stages [byteOffset, byteOffset + size) for a loader (see StagedWrite). Called concurrently for
  // disjoint ranges of one slot and for different slots. May block while the backend's staging
  // memory is all in flight.
  virtual std::unique_ptr<StagedWrite> stage(uint64_t byteOffset, uint64_t size) = 0;

  // Writes bytes the caller holds (writeConstantData): stage + copy + commit by default. A slot
  // that transforms may override it to transform straight from `bytes` (still one copy).
  virtual void write(uint64_t byteOffset, std::span<const std::byte> bytes);

  // A new fill starts: every byte will be written again (a re-fill, or a retry after a failed
  // load). Called before the fill's first write.
  virtual void beginFill() {}
  // Every byte of the current fill is written: pack, reorder, release transient memory. Called
  // once per fill, with no write of this slot in flight, before any dispatch can see the slot.
  virtual void complete() {}

  // Zero copy: makes the slot use `bytes` (the whole constant, in descriptor layout, alive as long
  // as `owner` is). Returns false when the backend needs its own storage.
  virtual bool adopt(std::shared_ptr<const void> owner, std::span<const std::byte> bytes) {
    (void)owner;
    (void)bytes;
    return false;
  }
};

// An MLTensor's storage, owned by the backend (host memory, or device memory with host staging).
// write/read are whole-tensor copies the API layer has checked. A dispatch holds a reference to
// every tensor it binds, so destroying an MLTensor while a dispatch reads it is safe.
class BackendTensor {
 public:
  virtual ~BackendTensor() = default;
  virtual uint64_t byteLength() const = 0;
  virtual void write(std::span<const std::byte> bytes) = 0;
  virtual void read(std::span<std::byte> destination) const = 0;
};

using BoundTensors = std::map<std::string, BackendTensor*, std::less<>>;

// A constant MLTensor's storage (MLContext::createConstantTensor): one copy of a constant that
// several graphs read. It is filled once, through its slot, like a graph's hollow constant (the
// API layer keeps the coverage rules); afterwards it never changes.
class BackendConstantTensor {
 public:
  virtual ~BackendConstantTensor() = default;
  virtual ConstantSlot& slot() = 0;
  virtual StagingHints stagingHints() const { return {}; }
  // Its bytes in the descriptor's layout, once complete: what a graph that does not read the
  // tensor itself (CompiledGraph::readsConstantTensor) is given, adopted or copied into its own
  // slot. `owner` keeps them alive.
  virtual std::span<const std::byte> hostBytes(std::shared_ptr<const void>* owner) = 0;
};

// The constant tensors a graph reads: hollow constant operand id -> its tensor.
using ConstantTensors = std::map<graph::OperandId, std::shared_ptr<BackendConstantTensor>>;

class CompiledGraph {
 public:
  virtual ~CompiledGraph() = default;
  // The slot of hollow constant `operandId`.
  virtual ConstantSlot& constantSlot(graph::OperandId operandId) = 0;
  virtual StagingHints stagingHints() const { return {}; }
  // Every hollow constant is complete (after the last pending one completes; again after each
  // re-fill completes). Called with no write or dispatch in flight.
  virtual void constantsComplete() {}
  // Whether dispatch() may run concurrently with itself. When false, the API layer serializes
  // dispatches of this graph (a backend with one planned activation arena says false).
  virtual bool concurrentDispatch() const { return true; }
  // Runs the graph on tensors this backend created. Inputs and outputs are validated by the caller
  // (names, descriptors, no tensor bound twice).
  virtual void dispatch(const BoundTensors& inputs, const BoundTensors& outputs) = 0;
  // Per-step totals of every dispatch so far, when the context profiles (BackendOptions::
  // profiling); empty otherwise.
  virtual std::vector<OperationProfile> profile() const { return {}; }
  // How each step runs (the steps of profile(), in order), whether profiling or not; empty when
  // the backend does not say.
  virtual std::vector<StepImplementation> implementations() const { return {}; }
  // Whether hollow constant `operandId`, a constant tensor's (Backend::compileReading's
  // `constantTensors`), is read from the tensor itself. When false the graph has a slot of its
  // own for it, which the API layer fills from the tensor's hostBytes() once the tensor is
  // complete (adopting them where the slot can: no copy).
  virtual bool readsConstantTensor(graph::OperandId operandId) const {
    (void)operandId;
    return false;
  }
};

// What a context asks of its backend (MLContextOptions extensions a backend may use).
struct BackendOptions {
  uint32_t numThreads = 0;  // threads a backend may compute with (0: all cores)
  MLPowerPreference powerPreference = MLPowerPreference::Default;  // a device backend's choice
  bool profiling = false;             // time every step of every dispatch (CompiledGraph::profile)
  uint64_t constantMemoryBudget = 0;  // MLContextOptions::constantMemoryBudget
  bool blockQuantizedInt8Activations = false;  // MLContextOptions::blockQuantizedInt8Activations
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // Called once, right after the backend is created for a context. A backend ignores what it has
  // no use for.
  virtual void configure(const BackendOptions& options) { (void)options; }
  // What it runs on, for `webnn backends` ("llvmpipe (LLVM 15.0.6, 256 bits), CPU device"); empty
  // for a host backend with nothing to add to its name.
  virtual std::string description() const { return {}; }
  // What the backend accepts. Read once per context; every builder call checks against it.
  virtual MLOpSupportLimits opSupportLimits() const = 0;
  // Throws NotSupportedError (naming the op) when the backend cannot run an operation.
  virtual std::unique_ptr<CompiledGraph> compile(std::shared_ptr<const graph::GraphIR> ir,
                                                 std::shared_ptr<MemoryAccount> memory) = 0;
  // A graph some of whose hollow constants are constant tensors' (`constantTensors`, created by
  // this backend). By default the graph keeps its own slots for them (see
  // CompiledGraph::readsConstantTensor); a backend that reads the tensors' storage overrides this.
  virtual std::unique_ptr<CompiledGraph> compileReading(std::shared_ptr<const graph::GraphIR> ir,
                                                        std::shared_ptr<MemoryAccount> memory,
                                                        const ConstantTensors& constantTensors) {
    (void)constantTensors;
    return compile(std::move(ir), std::move(memory));
  }
  // The storage of a constant tensor of `descriptor`, charged to memory.constants. By default
  // host memory in the descriptor's layout (HostConstantTensor, host_storage.h).
  virtual std::shared_ptr<BackendConstantTensor> createConstantTensor(
      const MLOperandDescriptor& descriptor, std::shared_ptr<MemoryAccount> memory);
  // A zero-filled tensor of `descriptor` (spec: tensors start zeroed), charged to memory.tensors.
  virtual std::unique_ptr<BackendTensor> createTensor(const MLTensorDescriptor& descriptor,
                                                      std::shared_ptr<MemoryAccount> memory) = 0;
};

using BackendFactory = std::function<std::unique_ptr<Backend>()>;
// Adds a backend to the registry (the highest priority is the default). The built-in backends are
// registered by registerBuiltinBackends (registration.cpp), the one place that lists them.
void registerBackend(std::string name, int priority, BackendFactory factory);
// Creates the backend `name` (empty: the default) and configures it with `options`.
std::unique_ptr<Backend> createBackend(std::string_view name, const BackendOptions& options = {});
std::vector<std::string> backendNames();

}  // namespace webnn::backend
