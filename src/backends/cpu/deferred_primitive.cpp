#include "backends/cpu/deferred_primitive.h"

#include <omp.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace webnn::cpu {

struct DeferredPrimitive::Slot {
  enum Status { Queued, Making, Made };
  std::function<dnnl::primitive()> make;
  int threads = 1;  // omp_get_max_threads() of the thread that asked
  std::atomic<int> status{Queued};
  dnnl::primitive primitive;
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable made;
};

namespace {

using Slot = DeferredPrimitive::Slot;

// Makes the primitive of a slot this thread claimed (Queued -> Making), under the slot's thread
// count (the calling thread's own restored after).
void makeClaimed(Slot& slot) {
  const int own = omp_get_max_threads();
  if (own != slot.threads) omp_set_num_threads(slot.threads);
  try {
    slot.primitive = slot.make();
  } catch (...) {
    slot.error = std::current_exception();
  }
  if (own != slot.threads) omp_set_num_threads(own);
  slot.make = nullptr;
  {
    std::lock_guard lock(slot.mutex);
    slot.status.store(Slot::Made, std::memory_order_release);
  }
  slot.made.notify_all();
}

bool claim(Slot& slot) {
  int expected = Slot::Queued;
  return slot.status.compare_exchange_strong(expected, Slot::Making, std::memory_order_acq_rel);
}

}  // namespace

struct PrimitiveBatch::State {
  std::mutex mutex;
  std::condition_variable queued;
  std::deque<std::shared_ptr<Slot>> queue;
  std::vector<std::shared_ptr<Slot>> all;  // for finish()'s errors
  bool closing = false;
  std::thread helper;

  void enqueue(std::shared_ptr<Slot> slot) {
    {
      std::lock_guard lock(mutex);
      queue.push_back(slot);
      all.push_back(std::move(slot));
      if (!helper.joinable()) helper = std::thread([this] { run(); });
    }
    queued.notify_one();
  }

  // The next queued slot, or null when closing and the queue is empty (`wait`: block until one).
  std::shared_ptr<Slot> next(bool wait) {
    std::unique_lock lock(mutex);
    if (wait) queued.wait(lock, [this] { return closing || !queue.empty(); });
    if (queue.empty()) return nullptr;
    std::shared_ptr<Slot> slot = std::move(queue.front());
    queue.pop_front();
    return slot;
  }

  void run() {
    while (std::shared_ptr<Slot> slot = next(true)) {
      if (claim(*slot)) makeClaimed(*slot);
    }
  }
};

namespace {
thread_local PrimitiveBatch::State* openBatch = nullptr;
}  // namespace

const dnnl::primitive& DeferredPrimitive::get() const {
  if (!slot_) throw dnnl::error(dnnl_runtime_error, "cpu backend: a primitive was never made");
  Slot& slot = *slot_;
  if (slot.status.load(std::memory_order_acquire) != Slot::Made) {
    if (claim(slot)) {
      makeClaimed(slot);  // still queued: made here rather than waiting for its turn
    } else {
      std::unique_lock lock(slot.mutex);
      slot.made.wait(lock,
                     [&] { return slot.status.load(std::memory_order_acquire) == Slot::Made; });
    }
  }
  if (slot.error) std::rethrow_exception(slot.error);
  return slot.primitive;
}

DeferredPrimitive makeDeferred(std::function<dnnl::primitive()> make) {
  DeferredPrimitive result;
  result.slot_ = std::make_shared<Slot>();
  Slot& slot = *result.slot_;
  if (!openBatch) {  // at once, its errors thrown to the caller as before
    slot.primitive = make();
    slot.status.store(Slot::Made, std::memory_order_release);
    return result;
  }
  slot.make = std::move(make);
  slot.threads = omp_get_max_threads();
  openBatch->enqueue(result.slot_);
  return result;
}

PrimitiveBatch::PrimitiveBatch() {
  if (openBatch || omp_get_num_procs() < 2) return;
  state_ = std::make_shared<State>();
  openBatch = state_.get();
}

PrimitiveBatch::~PrimitiveBatch() {
  try {
    finish();
  } catch (...) {  // the errors stay in their slots: get() rethrows them
  }
}

void PrimitiveBatch::finish() {
  if (!state_) return;
  if (openBatch == state_.get()) openBatch = nullptr;
  // What is still queued is made here too, beside the helper.
  while (std::shared_ptr<Slot> slot = state_->next(false)) {
    if (claim(*slot)) makeClaimed(*slot);
  }
  {
    std::lock_guard lock(state_->mutex);
    state_->closing = true;
  }
  state_->queued.notify_all();
  if (state_->helper.joinable()) state_->helper.join();
  std::vector<std::shared_ptr<Slot>> all = std::move(state_->all);
  state_.reset();
  for (const auto& slot : all) {
    // The helper was joined, but a slot claimed by another thread's get() may still be in the
    // making.
    if (slot->status.load(std::memory_order_acquire) != Slot::Made) {
      std::unique_lock lock(slot->mutex);
      slot->made.wait(lock,
                      [&] { return slot->status.load(std::memory_order_acquire) == Slot::Made; });
    }
    if (slot->error) std::rethrow_exception(slot->error);
  }
}

}  // namespace webnn::cpu
