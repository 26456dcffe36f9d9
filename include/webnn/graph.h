// MLGraph: a compiled graph. A graph built with hollow constants is usable once every constant has
// its data: setConstantData / writeConstantData copy the caller's bytes once, straight into the
// backend's final storage.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "webnn/export.h"
#include "webnn/operand.h"
#include "webnn/types.h"

namespace webnn {

class WeightSource;
struct TensorInfo;

namespace detail {
struct GraphState;
}

// Options of MLGraph::loadConstants.
struct LoadOptions {
  // Maps a constant's label to the tensor name in the source (identity when empty).
  std::function<std::string(const std::string& label)> nameMapping{};
  // Threads reading in parallel (0: one per core, at most 8).
  uint32_t threads = 0;
  // Called with (bytes done, bytes total) as the load goes, from the loading threads, serialized.
  std::function<void(uint64_t done, uint64_t total)> progress{};
  // When false, constants the source does not hold are left pending silently; when true (default)
  // loadConstants throws TypeError listing them (after loading everything else).
  bool requireAll = true;
  // Load every hollow constant, complete or not (a new weight set for the same graph); by default
  // only the pending ones are loaded.
  bool reload = false;
  // Allow adopting a memory map of the file where the final layout equals the file's layout.
  bool allowMapping = false;
  // Bytes per read in the chunked path.
  uint64_t chunkBytes = 8ull << 20;
  // Limits checked when the load is planned, before any byte is read or any storage allocated:
  // a constant larger than maxTensorBytes, or constants together larger than maxTotalBytes, make
  // loadConstants throw TypeError naming the constant and the limit (nothing changes).
  uint64_t maxTensorBytes = UINT64_MAX;
  uint64_t maxTotalBytes = UINT64_MAX;
};

// Extension: what one executable step of a graph cost over its dispatches (MLGraph::profile). A
// backend that fuses operations runs them as one step ("conv2d+add+relu").
struct MLOperationProfile {
  std::string type;            // the spec names of the step's operations, joined by '+'
  std::string label;           // the first operation's label ("" when none)
  std::string implementation;  // what ran it: a oneDNN primitive, a kernel, "reference fallback"
  uint64_t runs = 0;
  double totalMilliseconds = 0;
};

// Extension: how one executable step of a graph runs (MLGraph::implementations), known from
// build() on, without profiling: the steps of profile(), in the same order.
struct MLStepImplementation {
  std::string type;            // as MLOperationProfile::type ("conv2d+relu")
  std::string label;           // the first operation's label ("" when none)
  std::string dataType;        // the type the graph gives its first operation ("float16")
  std::string implementation;  // as MLOperationProfile::implementation
  // Why the backend runs the step on its reference kernel instead of an implementation of its
  // own ("" when it does not; always "" on the reference backend, whose kernels are its own).
  std::string fallbackReason;
};

class WEBNN_EXPORT MLGraph {
 public:
  MLGraph() = default;
  explicit MLGraph(std::shared_ptr<detail::GraphState> state) : state_(std::move(state)) {}

  // Hollow constants still without (complete) data, in declaration order.
  std::vector<MLOperand> pendingConstants() const;
  // Every hollow constant of the graph, pending or not.
  std::vector<MLOperand> hollowConstants() const;
  // Whole tensor: data.size() must equal the constant's byte length.
  void setConstantData(const MLOperand& constant, std::span<const std::byte> data);
  // A chunk at byteOffset; chunks may arrive in any order; the constant is complete when covered.
  void writeConstantData(const MLOperand& constant, uint64_t byteOffset,
                         std::span<const std::byte> data);
  // Pull: reads every pending hollow constant from `source` by label (see LoadOptions).
  void loadConstants(const WeightSource& source, const LoadOptions& options = {});
  // Names and descriptors of the graph's inputs and outputs.
  std::map<std::string, MLOperandDescriptor> inputDescriptors() const;
  std::map<std::string, MLOperandDescriptor> outputDescriptors() const;
  // Per-step timings of every dispatch so far, in execution order, when the graph's context was
  // created with MLContextOptions::profiling; empty otherwise.
  std::vector<MLOperationProfile> profile() const;
  // Extension: each executable step's implementation and, for a fallback, why (empty for a
  // backend that does not report them).
  std::vector<MLStepImplementation> implementations() const;
  // Releases the graph's memory; later use throws InvalidStateError.
  void destroy();

  const std::shared_ptr<detail::GraphState>& state() const { return state_; }

 private:
  std::shared_ptr<detail::GraphState> state_{};
};

}  // namespace webnn
