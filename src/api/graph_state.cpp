#include "api/graph_state.h"

#include <algorithm>

#include "graph/builder_state.h"

namespace webnn::detail {

bool Coverage::add(uint64_t begin, uint64_t end) {
  const bool wasComplete = complete();
  // Merge [begin, end) with every range it touches.
  auto it = ranges_.upper_bound(begin);
  if (it != ranges_.begin()) {
    auto previous = std::prev(it);
    if (previous->second >= begin) it = previous;
  }
  while (it != ranges_.end() && it->first <= end) {
    begin = std::min(begin, it->first);
    end = std::max(end, it->second);
    coveredBytes_ -= it->second - it->first;
    it = ranges_.erase(it);
  }
  ranges_.emplace(begin, end);
  coveredBytes_ += end - begin;
  return !wasComplete && complete();
}

void Coverage::clear() {
  ranges_.clear();
  coveredBytes_ = 0;
}

void GraphState::checkAlive(std::string_view method) const {
  if (destroyed)
    throwInvalidStateError("MLGraph." + std::string(method) + ": the graph is destroyed");
  if (context->destroyed) {
    throwInvalidStateError("MLGraph." + std::string(method) + ": the context is destroyed");
  }
}

size_t GraphState::hollowConstantIndex(const MLOperand& operand, std::string_view method) const {
  const std::string where = "MLGraph." + std::string(method);
  if (!operand) throwTypeError(where + ": the operand is empty");
  const auto& node = operand.node();
  if (node->builderId != ir->builderId) {
    throwTypeError(where + ": the operand belongs to another graph");
  }
  auto it = hollowIndex.find(node->id);
  if (it == hollowIndex.end()) {
    for (const auto& constant : tensorConstants) {
      if (constant.operandId == node->id) {
        throwTypeError(where + ": constant '" + node->name +
                       "' is a constant tensor's: fill the tensor (MLContext.writeConstantTensor "
                       "or MLContext.loadConstants)");
      }
    }
    if (node->kind == OperandKind::HollowConstant) {
      throwTypeError(where + ": constant '" + node->name +
                     "' is not used by the graph's outputs, so the graph holds no storage for it");
    }
    throwTypeError(where +
                   ": the operand is not a hollow constant (constants with data, inputs "
                   "and intermediate operands cannot be written)");
  }
  return it->second;
}

namespace {
std::string constantName(const OperandNode& node) {
  return node.name.empty() ? "#" + std::to_string(node.id) : "'" + node.name + "'";
}
}  // namespace

GraphState::WriteTicket::Lock::Lock(const WriteTicket& ticket, std::shared_mutex& mutex)
    : mutex_(mutex), shared_(ticket.aligned) {
  if (shared_) {
    mutex_.lock_shared();
  } else {
    mutex_.lock();
  }
}

GraphState::WriteTicket::Lock::~Lock() {
  if (shared_) {
    mutex_.unlock_shared();
  } else {
    mutex_.unlock();
  }
}

void GraphState::startFill(size_t index, bool force) {
  HollowConstant& constant = hollow[index];
  if (constant.coverage.complete()) {  // a full constant written again: a new fill starts
    constant.coverage.clear();
    ++pendingCount;
  } else if (!force && filling[index]) {
    return;  // the current fill goes on
  } else {
    constant.coverage.clear();
  }
  constant.slot->beginFill();
  filling[index] = true;
}

void GraphState::markFilled(size_t index, uint64_t begin, uint64_t end) {
  HollowConstant& constant = hollow[index];
  if (!constant.coverage.add(begin, end)) return;
  // The constant is complete: the slot packs or releases what it staged, before any dispatch
  // (which needs this mutex and pendingCount == 0) can see it.
  constant.slot->complete();
  filling[index] = false;
  // (A constant in a fill counts as pending, so no write is in flight when this reaches 0.)
  // Constant tensors still to come defer it to the dispatch that finds them complete.
  if (--pendingCount == 0 && tensorConstantsReady) compiled->constantsComplete();
}

void GraphState::deliverTensorConstants() {
  if (tensorConstantsReady) return;
  bool ready = true;
  for (TensorConstant& constant : tensorConstants) {
    if (constant.delivered) continue;
    if (!constant.fill->complete.load(std::memory_order_acquire)) {
      ready = false;
      continue;
    }
    if (constant.slot) {
      // Zero copy where the slot can adopt the tensor's bytes (kept alive by the storage).
      std::shared_ptr<const void> owner;
      const auto bytes = constant.fill->storage->hostBytes(&owner);
      if (!owner) owner = constant.fill->storage;
      constant.slot->beginFill();
      if (!constant.slot->adopt(owner, bytes)) constant.slot->write(0, bytes);
      constant.slot->complete();
    }
    constant.delivered = true;
  }
  if (!ready) return;
  tensorConstantsReady = true;
  if (pendingCount == 0) compiled->constantsComplete();
}

GraphState::WriteTicket GraphState::beginWrite(const MLOperand& operand, uint64_t byteOffset,
                                               uint64_t size, bool wholeTensor,
                                               std::string_view method) {
  const std::string where = "MLGraph." + std::string(method);
  std::lock_guard lock(mutex);
  checkAlive(method);
  const size_t index = hollowConstantIndex(operand, method);
  const OperandNode& node = *operand.node();
  const uint64_t length = node.descriptor.byteLength();
  const std::string what = "constant " + constantName(node) + " (" + toString(node.descriptor) +
                           ", " + std::to_string(length) + " bytes)";
  if (wholeTensor) {
    if (size != length) {
      throwTypeError(where + ": " + what + " needs exactly " + std::to_string(length) +
                     " bytes, got " + std::to_string(size));
    }
  } else {
    if (size == 0) throwTypeError(where + ": empty chunk for " + what);
    if (byteOffset > length || size > length - byteOffset) {
      throwTypeError(where + ": bytes [" + std::to_string(byteOffset) + ", " +
                     std::to_string(byteOffset + size) + ") are outside " + what);
    }
    const uint32_t bits = bitsPerElement(node.descriptor.dataType);
    const uint64_t elementBytes = bits >= 8 ? bits / 8 : 1;
    const uint64_t end = byteOffset + size;
    if (byteOffset % elementBytes != 0 || (end % elementBytes != 0 && end != length)) {
      throwTypeError(where + ": chunk [" + std::to_string(byteOffset) + ", " + std::to_string(end) +
                     ") of " + what + " is not aligned to its " + std::to_string(elementBytes) +
                     "-byte elements");
    }
  }
  if (activeDispatches > 0) {
    throwInvalidStateError(where + ": cannot write " + what +
                           " while a dispatch runs on the graph");
  }
  startFill(index, false);
  ++activeWrites;
  HollowConstant& constant = hollow[index];
  const uint64_t end = byteOffset + size;
  const bool aligned =
      byteOffset % constant.granularity == 0 && (end % constant.granularity == 0 || end == length);
  return {index, node.id, byteOffset, end, constant.slot, aligned};
}

void GraphState::endWrite(const WriteTicket& ticket, bool written) {
  std::lock_guard lock(mutex);
  --activeWrites;
  if (written) markFilled(ticket.index, ticket.begin, ticket.end);
}

void GraphState::write(const MLOperand& operand, uint64_t byteOffset,
                       std::span<const std::byte> data, bool wholeTensor) {
  const WriteTicket ticket = beginWrite(operand, byteOffset, data.size(), wholeTensor,
                                        wholeTensor ? "setConstantData" : "writeConstantData");
  try {
    WriteTicket::Lock lock(ticket, *hollow[ticket.index].writeLock);
    ticket.slot->write(byteOffset, data);
  } catch (...) {
    endWrite(ticket, false);
    throw;
  }
  endWrite(ticket, true);
}

bool GraphState::adopt(const MLOperand& operand, std::shared_ptr<const void> owner,
                       std::span<const std::byte> bytes) {
  std::lock_guard lock(mutex);
  checkAlive("loadConstants");
  const size_t index = hollowConstantIndex(operand, "loadConstants");
  const OperandNode& node = *operand.node();
  if (bytes.size() != node.descriptor.byteLength()) return false;
  if (activeDispatches > 0 || activeWrites > 0) {
    throwInvalidStateError("MLGraph.loadConstants: cannot replace constant " + constantName(node) +
                           " while a dispatch or write runs on the graph");
  }
  HollowConstant& constant = hollow[index];
  if (!constant.slot->adopt(std::move(owner), bytes)) return false;
  markFilled(index, 0, bytes.size());
  return true;
}

std::shared_ptr<backend::CompiledGraph> GraphState::beginDispatch() {
  std::lock_guard lock(mutex);
  checkAlive("dispatch");
  deliverTensorConstants();
  if (!tensorConstantsReady) {
    std::string names;
    size_t count = 0;
    for (const auto& constant : tensorConstants) {
      if (constant.delivered) continue;
      if (count < 16) names += (count ? ", " : "") + std::string("'") + constant.fill->label + "'";
      ++count;
    }
    throwInvalidStateError("MLContext.dispatch: the graph reads " + std::to_string(count) +
                           " constant tensor(s) not filled yet: " + names);
  }
  if (pendingCount > 0) {
    std::string names;
    size_t listed = 0;
    for (const auto& constant : hollow) {
      if (constant.coverage.complete()) continue;
      if (listed == 16) {
        names += ", ... (" + std::to_string(pendingCount) + " in all)";
        break;
      }
      names += (listed++ ? ", " : "") + constantName(*ir->operands[constant.operandId]);
    }
    throwInvalidStateError("MLContext.dispatch: the graph has " + std::to_string(pendingCount) +
                           " constant(s) without data: " + names);
  }
  if (activeWrites > 0) {
    throwInvalidStateError("MLContext.dispatch: constants of the graph are being written");
  }
  ++activeDispatches;
  return compiled;
}

void GraphState::endDispatch() {
  std::lock_guard lock(mutex);
  --activeDispatches;
}

std::vector<MLOperand> GraphState::pendingConstants() const {
  std::lock_guard lock(mutex);
  std::vector<MLOperand> pending;
  for (const auto& constant : hollow) {
    if (!constant.coverage.complete()) pending.emplace_back(ir->operands[constant.operandId]);
  }
  return pending;
}

}  // namespace webnn::detail
