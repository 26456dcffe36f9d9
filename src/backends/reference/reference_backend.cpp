// The reference backend: plain kernels over host memory, the oracle for every other backend.
// Constants live in their slots (hollow) or in the builder's copy (classic: no second copy);
// intermediates are allocated per dispatch and freed after their last use.
#include <atomic>
#include <cstring>
#include <mutex>
#include <set>

#include "backends/backend.h"
#include "backends/reference/kernel.h"
#include "core/host_buffer.h"
#include "graph/op_limits.h"

namespace webnn::reference {
namespace {

class ReferenceConstantSlot final : public backend::ConstantSlot {
 public:
  explicit ReferenceConstantSlot(uint64_t byteLength) : storage_(byteLength) {}

  uint64_t byteLength() const override { return storage_.size(); }

  void write(uint64_t byteOffset, std::span<const std::byte> bytes) override {
    std::memcpy(directStorage().data() + byteOffset, bytes.data(), bytes.size());
  }

  std::span<std::byte> directStorage() override {
    if (adopted_.load(std::memory_order_acquire)) {  // back to our own storage
      std::lock_guard lock(adoptMutex_);
      adoptedOwner_.reset();
      adopted_.store(false, std::memory_order_release);
    }
    return storage_.span();
  }

  bool adopt(std::shared_ptr<const void> owner, std::span<const std::byte> bytes) override {
    if (bytes.size() != storage_.size()) return false;
    std::lock_guard lock(adoptMutex_);
    storage_.discard();
    adoptedOwner_ = std::move(owner);
    adoptedBytes_ = bytes.data();
    adopted_.store(true, std::memory_order_release);
    return true;
  }

  std::byte* data() {
    return adopted_.load(std::memory_order_acquire) ? const_cast<std::byte*>(adoptedBytes_)
                                                    : storage_.data();
  }

 private:
  HostBuffer storage_;
  std::mutex adoptMutex_;
  std::atomic<bool> adopted_{false};
  std::shared_ptr<const void> adoptedOwner_;
  const std::byte* adoptedBytes_ = nullptr;
};

class ReferenceCompiledGraph final : public backend::CompiledGraph {
 public:
  ReferenceCompiledGraph(std::shared_ptr<const graph::GraphIR> ir,
                         std::shared_ptr<backend::MemoryAccount> memory)
      : ir_(std::move(ir)), memory_(std::move(memory)) {
    std::set<std::string> missing;
    for (const auto& operation : ir_->operations) {
      const Kernel* kernel = findKernel(operation.type);
      if (!kernel) missing.insert(operation.type);
      kernels_.push_back(kernel);
    }
    if (!missing.empty()) {
      std::string names;
      for (const auto& name : missing) names += (names.empty() ? "" : ", ") + name;
      throw Error(Error::Kind::NotSupportedError,
                  "the reference backend has no kernel for: " + names);
    }
    const size_t count = ir_->operands.size();
    lastUse_.assign(count, -1);
    isOutput_.assign(count, false);
    for (const auto& [name, id] : ir_->outputs) isOutput_[id] = true;
    for (size_t i = 0; i < ir_->operations.size(); ++i) {
      for (uint32_t input : ir_->operations[i].inputs) lastUse_[input] = static_cast<int64_t>(i);
    }
    slots_.resize(count);
    uint64_t constantBytes = 0;
    std::vector<bool> used(count, false);
    for (const auto& operation : ir_->operations) {
      for (uint32_t input : operation.inputs) used[input] = true;
    }
    for (const auto& operand : ir_->operands) {
      if (!used[operand->id]) continue;
      if (operand->kind == detail::OperandKind::HollowConstant) {
        slots_[operand->id] =
            std::make_unique<ReferenceConstantSlot>(operand->descriptor.byteLength());
        constantBytes += operand->descriptor.byteLength();
      } else if (operand->kind == detail::OperandKind::Constant) {
        constantBytes += operand->data->size();
      }
    }
    constantCharge_ = backend::GaugeCharge(memory_->constants, constantBytes);
  }

  backend::ConstantSlot& constantSlot(uint32_t operandId) override {
    return *slots_.at(operandId);
  }

  void dispatch(const std::map<std::string, std::span<const std::byte>>& inputs,
                const std::map<std::string, std::span<std::byte>>& outputs) override {
    const auto& operands = ir_->operands;
    std::vector<Tensor> tensors(operands.size());
    for (const auto& operand : operands) {
      tensors[operand->id].descriptor = &operand->descriptor;
      if (operand->kind == detail::OperandKind::Constant) {
        tensors[operand->id].data = const_cast<std::byte*>(operand->data->data());
      } else if (slots_[operand->id]) {
        tensors[operand->id].data = slots_[operand->id]->data();
      }
    }
    for (const auto& [name, bytes] : inputs) {
      tensors[ir_->inputs.at(name)].data = const_cast<std::byte*>(bytes.data());
    }
    for (const auto& [name, bytes] : outputs) tensors[ir_->outputs.at(name)].data = bytes.data();

    std::vector<HostBuffer> intermediates(operands.size());
    std::vector<backend::GaugeCharge> charges(operands.size());
    for (size_t i = 0; i < ir_->operations.size(); ++i) {
      const auto& operation = ir_->operations[i];
      for (uint32_t output : operation.outputs) {
        if (tensors[output].data) continue;  // a graph output, bound to the caller's tensor
        const uint64_t bytes = operands[output]->descriptor.byteLength();
        intermediates[output] = HostBuffer(bytes);
        std::memset(intermediates[output].data(), 0, bytes);
        charges[output] = backend::GaugeCharge(memory_->activations, bytes);
        tensors[output].data = intermediates[output].data();
      }
      (*kernels_[i])(KernelContext(operation, tensors));
      for (uint32_t input : operation.inputs) {
        if (lastUse_[input] == static_cast<int64_t>(i) && intermediates[input].data()) {
          intermediates[input] = HostBuffer();
          charges[input] = backend::GaugeCharge();
          tensors[input].data = nullptr;
        }
      }
    }
  }

 private:
  std::shared_ptr<const graph::GraphIR> ir_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  std::vector<const Kernel*> kernels_;
  std::vector<int64_t> lastUse_;
  std::vector<bool> isOutput_;
  std::vector<std::unique_ptr<ReferenceConstantSlot>> slots_;
  backend::GaugeCharge constantCharge_;
};

class ReferenceBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "reference"; }

  MLOpSupportLimits opSupportLimits() const override {
    MLOpSupportLimits limits;
    limits.maxTensorByteLength = std::numeric_limits<int64_t>::max();
    limits.input = graph::anyRank(graph::types::kAll);
    limits.constant = graph::anyRank(graph::types::kAll);
    limits.output = graph::anyRank(graph::types::kAll);
    for (const auto& [op, operands] : graph::allOpLimits()) {
      if (findKernel(op)) limits.ops[op] = operands;
    }
    return limits;
  }

  std::unique_ptr<backend::CompiledGraph> compile(
      std::shared_ptr<const graph::GraphIR> ir,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<ReferenceCompiledGraph>(std::move(ir), std::move(memory));
  }
};

[[maybe_unused]] const bool registered = backend::registerBackend(
    "reference", 0, [] { return std::make_unique<ReferenceBackend>(); });

}  // namespace
}  // namespace webnn::reference
