// oneDNN primitives made beside a graph's compile. Making a primitive from its descriptor is where
// oneDNN generates its code (JIT): 27 of PaddleOCR det's 62 ms build (103 primitives), against
// 11 ms for their descriptors, whose layouts the compile needs at once to go on (the next step
// reads the layout this one writes). So while a PrimitiveBatch is open on the compiling thread,
// makePrimitive() queues the making on a helper thread and returns at once; the compiler goes on
// with the next descriptors, and PrimitiveBatch::finish() (before build() returns) helps with what
// is still queued and waits for the rest. Without a batch (an op compiled again for one thread in
// a dispatch, int8 ops made when their scales arrive) the primitive is made at once.
//
// A primitive is made for the thread count of the thread that asked for it (omp_get_max_threads()
// there: oneDNN cuts its work per thread when it makes a primitive), set on the helper before it
// makes it. A primitive that fails to be made rethrows its error from finish() and from get().
#pragma once

#include <dnnl.hpp>
#include <functional>
#include <memory>
#include <unordered_map>

namespace webnn::cpu {

class DeferredPrimitive {
 public:
  DeferredPrimitive() = default;

  // Whether a primitive was asked for (it may still be in the making).
  explicit operator bool() const { return slot_ != nullptr; }

  // The primitive, waiting for it if it is still in the making.
  const dnnl::primitive& get() const;
  operator const dnnl::primitive&() const { return get(); }  // NOLINT: as the primitive itself
  void execute(const dnnl::stream& stream,
               const std::unordered_map<int, dnnl::memory>& arguments) const {
    get().execute(stream, arguments);
  }

  struct Slot;

 private:
  friend DeferredPrimitive makeDeferred(std::function<dnnl::primitive()> make);
  std::shared_ptr<Slot> slot_;
};

// `make` run at once, or queued on the batch open on this thread.
DeferredPrimitive makeDeferred(std::function<dnnl::primitive()> make);

// Primitive (dnnl::convolution_forward, dnnl::matmul, ...) made from `descriptor`, through a
// descriptor of its own: copies of a dnnl descriptor share one oneDNN object, which the compiling
// thread goes on querying (layouts, workspace sizes) while the helper makes the primitive, and
// oneDNN does not promise that making a primitive leaves its descriptor untouched
// (ThreadSanitizer saw a write there in CI). Made from the C handle, the descriptor is a clone.
template <class Primitive, class Descriptor>
DeferredPrimitive makePrimitive(const Descriptor& descriptor) {
  return makeDeferred(
      [own = Descriptor(descriptor.get())] { return dnnl::primitive(Primitive(own)); });
}

// While alive, makePrimitive() calls on the thread that opened it are queued for a helper thread
// (when the machine has more than one core). finish() (also run by the destructor, which swallows
// errors) makes what is still queued on the calling thread, waits for the helper and rethrows the
// first error. Batches do not nest: an inner one leaves the outer one in place.
class PrimitiveBatch {
 public:
  PrimitiveBatch();
  ~PrimitiveBatch();
  PrimitiveBatch(const PrimitiveBatch&) = delete;
  PrimitiveBatch& operator=(const PrimitiveBatch&) = delete;

  void finish();

  struct State;

 private:
  std::shared_ptr<State> state_;  // null: an outer batch is open, or one core
};

}  // namespace webnn::cpu
