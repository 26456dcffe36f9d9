#include "backends/cpu/packed_constant.h"

#include <cstring>

#include "webnn/types.h"

namespace webnn::cpu {

HostBuffer zeroedPackedBuffer(uint64_t bytes) {
  // Big buffers come from mmap, zeroed by the system and committed as they are written: a graph is
  // built weightless, and a constant that never arrives takes no memory. (Committing them here made
  // the encoder's build + load 590 -> 410 ms, but a built graph of huge hollow constants then took
  // their whole size at build(): builder_api_fuzzer ran out of memory.) Small ones from the heap.
  HostBuffer buffer(bytes);
  if (bytes > 0 && bytes < (1ull << 20)) std::memset(buffer.data(), 0, bytes);
  return buffer;
}

PackedConstant::PackedConstant(const dnnl::engine& engine, dnnl::memory::desc plain,
                               dnnl::memory::desc packed,
                               std::shared_ptr<backend::MemoryAccount> memory)
    : engine_(engine),
      plain_(std::move(plain)),
      packedDesc_(std::move(packed)),
      account_(std::move(memory)) {}

void PackedConstant::resolveOnArrival(std::byte* packedBytes) {
  mode_ = Mode::OnArrival;
  packed_ = dnnl::memory(packedDesc_, engine_, packedBytes);
}

void PackedConstant::resolveShared(std::byte* packedBytes, std::shared_ptr<const void> holder) {
  resolveOnArrival(packedBytes);
  holder_ = std::move(holder);
}

void PackedConstant::resolveIdentity() {
  mode_ = Mode::Identity;
}

void PackedConstant::resolveReordered(bool once) {
  mode_ = Mode::Reordered;
  once_ = once;
  storage_ = zeroedPackedBuffer(packedDesc_.get_size());
  charge_ = backend::GaugeCharge(account_->constants, packedDesc_.get_size());
  packed_ = dnnl::memory(packedDesc_, engine_, storage_.data());
}

void PackedConstant::resolveCopyOf(std::shared_ptr<PackedConstant> source) {
  mode_ = Mode::CopyOf;
  source_ = std::move(source);
  storage_ = zeroedPackedBuffer(packedDesc_.get_size());
  charge_ = backend::GaugeCharge(account_->constants, packedDesc_.get_size());
  packed_ = dnnl::memory(packedDesc_, engine_, storage_.data());
}

void PackedConstant::pack(void* plainBytes) {
  switch (mode_) {
    case Mode::Unresolved:
      throw Error(Error::Kind::OperationError, "cpu backend: a packed constant was never placed");
    case Mode::OnArrival:
      return;  // the slot scattered every chunk into place
    case Mode::CopyOf: {
      if (!source_->memory().get_data_handle()) return;  // its bytes are not in yet
      dnnl::memory from = source_->memory();
      storage_.commit();  // the reorder writes it whole
      dnnl::stream stream(engine_);
      dnnl::reorder(from, packed_).execute(stream, from, packed_);
      stream.wait();
      return;
    }
    default:
      break;
  }
  if (!plainBytes) return;  // a hollow constant not yet filled (the compile-time call)
  switch (mode_) {
    case Mode::Unresolved:
    case Mode::OnArrival:
    case Mode::CopyOf:
      return;
    case Mode::Identity:
      packed_ = dnnl::memory(packedDesc_, engine_, plainBytes);
      return;
    case Mode::Reordered: {
      if (once_ && packedOnce_) return;
      storage_.commit();  // the reorder writes it whole
      dnnl::memory source(plain_, engine_, plainBytes);
      dnnl::stream stream(engine_);
      dnnl::reorder(source, packed_).execute(stream, source, packed_);
      stream.wait();
      packedOnce_ = true;
      return;
    }
  }
}

}  // namespace webnn::cpu
