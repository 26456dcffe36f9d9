// A constant an op keeps in the layout its primitive chose (format_tag::any). Ops get one from
// OpCompileContext::packedConstant() at compile; the graph then decides where its packed bytes
// live (cpu_constant_slot.h):
// - packed on arrival: a hollow constant whose only readers pack it into this one layout. Its
//   slot owns the packed buffer and scatters every chunk of the file straight into it; no plain
//   copy exists. pack() does nothing.
// - identity: the chosen layout is the descriptor's, byte for byte. The op reads the plain bytes
//   (the slot's, or the graph's for a classic constant); pack() just points at them.
// - reordered: the plain bytes stay (another op reads them plainly, or wants another layout, or
//   the layout is not a plain blocked one), and pack() reorders them into a buffer of our own
//   after every fill. A classic constant is reordered once, at compile.
#pragma once

#include <cstdint>
#include <dnnl.hpp>
#include <memory>

#include "backends/memory_account.h"
#include "core/host_buffer.h"

namespace webnn::cpu {

class PackedConstant {
 public:
  enum class Mode { Unresolved, OnArrival, Identity, Reordered, CopyOf };

  PackedConstant(const dnnl::engine& engine, dnnl::memory::desc plain, dnnl::memory::desc packed,
                 std::shared_ptr<backend::MemoryAccount> memory);
  // The constant's bytes are in (its plain bytes at `plainBytes`, unused when packed on arrival):
  // makes memory() hold them in the packed layout.
  void pack(void* plainBytes);
  const dnnl::memory& memory() const { return packed_; }
  const dnnl::memory::desc& plainDesc() const { return plain_; }
  const dnnl::memory::desc& packedDesc() const { return packedDesc_; }
  Mode mode() const { return mode_; }

  // Set once by the graph when it knows every reader of the constant.
  void resolveOnArrival(std::byte* packedBytes);
  // Packed in a constant tensor's layout (cpu_constant_tensor.h), which `holder` keeps alive: as
  // on arrival, the tensor's fill put the bytes there.
  void resolveShared(std::byte* packedBytes, std::shared_ptr<const void> holder);
  void resolveIdentity();
  // `once`: a classic constant, whose bytes never change (packed at the first pack()).
  void resolveReordered(bool once);
  // A copy of `source` (another op's packed constant of the same values) in this layout, made by
  // pack() after every fill, after `source` is packed (an op compiled again for one thread whose
  // primitive wants another layout: compileAloneOp).
  void resolveCopyOf(std::shared_ptr<PackedConstant> source);

 private:
  dnnl::engine engine_;
  dnnl::memory::desc plain_;
  dnnl::memory::desc packedDesc_;
  dnnl::memory packed_;
  std::shared_ptr<backend::MemoryAccount> account_;
  HostBuffer storage_;  // Reordered: the packed bytes
  backend::GaugeCharge charge_;
  Mode mode_ = Mode::Unresolved;
  std::shared_ptr<PackedConstant> source_;  // CopyOf
  std::shared_ptr<const void> holder_;       // a constant tensor's layout
  bool once_ = false;
  bool packedOnce_ = false;
};

// A buffer for packed bytes: huge-page advised when big (HostBuffer), zeroed (the padding of
// blocked layouts must read as zeros).
HostBuffer zeroedPackedBuffer(uint64_t bytes);

}  // namespace webnn::cpu
