// MLContext: the backend a graph runs on, and the owner of MLTensors.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "webnn/export.h"
#include "webnn/graph.h"
#include "webnn/op_support_limits.h"
#include "webnn/options.h"
#include "webnn/tensor.h"
#include "webnn/types.h"

namespace webnn {

enum class MLPowerPreference { Default, HighPerformance, LowPower };

struct MLContextOptions {
  MLPowerPreference powerPreference = MLPowerPreference::Default;
  // Extension: the backend by name ("reference"; empty picks the default backend).
  std::string backend{};
  // Extension: how many threads a backend that computes in parallel may use (0: all cores).
  uint32_t numThreads = 0;
  // Extension: time every operation of every dispatch (MLGraph::profile; `webnn run --profile`).
  bool profiling = false;
  // Extension: the most bytes of weights a backend keeps in memory of its own (0: no limit).
  // Beyond it, the largest float32 weights stay in the file's layout, read by their ops as they are
  // stored, so that loadConstants with LoadOptions::allowMapping leaves them file-backed: the
  // system drops their pages under memory pressure and reads them again when an op needs them (a
  // model larger than memory runs, slower). The cpu backend follows it; others ignore it.
  uint64_t constantMemoryBudget = 0;
  // Extension: matrix products on 4-bit block-quantized weights (dequantizeLinear of int4/uint4
  // with block scales, then matmul: ONNX Runtime's MatMulNBits, GGUF's q4_0) may quantize their
  // float32 activations to int8, per block of 32 along K (scale = the block's largest magnitude /
  // 127), and multiply them with the 4-bit weights as integers: llama.cpp's q4_0 x q8_0 and ONNX
  // Runtime's MatMulNBits accuracy_level 4. Faster (byte dot products), at about 1e-2 relative
  // from the float result; products of 20 rows or more stay float (they run as float GEMMs). The
  // cpu backend follows it where the CPU has AVX-512 VNNI; others ignore it.
  bool blockQuantizedInt8Activations = false;
};

// Where the context's memory goes (bytes). Constants: final storage of every constant of live
// graphs (classic and hollow). Activations: intermediate buffers of dispatches (a backend may keep
// an arena per concurrent dispatch for the next one; those count until the graph is destroyed).
// Staging: transient buffers used on the way from a source to final storage (bounded chunks,
// never whole models).
struct MLMemoryStats {
  uint64_t constantBytes = 0;
  uint64_t constantBytesPeak = 0;
  uint64_t activationBytes = 0;
  uint64_t activationBytesPeak = 0;
  uint64_t tensorBytes = 0;
  uint64_t stagingBytes = 0;
  uint64_t stagingBytesPeak = 0;
  // Extension: the part of constantBytes read from memory maps of weight files
  // (MLGraph::loadConstants with LoadOptions::allowMapping): file pages, which the system may drop
  // under memory pressure and read again, not memory of the backend's own.
  uint64_t mappedConstantBytes = 0;
};

namespace detail {
struct ContextState;
}

class WEBNN_EXPORT MLContext {
 public:
  MLContext() = default;
  explicit MLContext(std::shared_ptr<detail::ContextState> state) : state_(std::move(state)) {}

  MLTensor createTensor(const MLTensorDescriptor& descriptor);
  void writeTensor(const MLTensor& tensor, std::span<const std::byte> data);
  void readTensor(const MLTensor& tensor, std::span<std::byte> destination);
  std::vector<std::byte> readTensor(const MLTensor& tensor);
  // Constant tensors (the spec's createConstantTensor): one copy of a constant that several graphs
  // read (MLGraphBuilder::constant(tensor)), neither readable nor writable, never bound to a
  // dispatch. With `data`: filled now. With options (a label, no bytes): hollow, filled once
  // afterwards by writeConstantTensor (chunks in any order) or loadConstants, before or after the
  // graphs that read it are built; a graph dispatches once its tensors are complete, and a complete
  // tensor never changes.
  MLTensor createConstantTensor(const MLOperandDescriptor& descriptor,
                                std::span<const std::byte> data);
  MLTensor createConstantTensor(const MLOperandDescriptor& descriptor,
                                const MLConstantOptions& options);
  void writeConstantTensor(const MLTensor& tensor, uint64_t byteOffset,
                           std::span<const std::byte> data);
  // Pull: reads every one of `tensors` not yet complete from `source`, by label (LoadOptions as for
  // MLGraph::loadConstants; `reload` does not apply: a complete tensor never changes).
  void loadConstants(const std::vector<MLTensor>& tensors, const WeightSource& source,
                     const LoadOptions& options = {});
  void dispatch(const MLGraph& graph, const MLNamedTensors& inputs, const MLNamedTensors& outputs);
  MLOpSupportLimits opSupportLimits() const;
  MLMemoryStats memoryStats() const;
  // The backend's name ("reference", ...).
  std::string backendName() const;
  void destroy();

  const std::shared_ptr<detail::ContextState>& state() const { return state_; }

 private:
  std::shared_ptr<detail::ContextState> state_{};
};

WEBNN_EXPORT MLContext createContext(const MLContextOptions& options = {});
// Names of the backends this build can create contexts on.
WEBNN_EXPORT std::vector<std::string> availableBackends();
// Extension: what backend `name` would run on with `powerPreference` (a device backend names its
// device; empty for a host backend). Throws what creating the backend throws.
WEBNN_EXPORT std::string describeBackend(
    const std::string& name, MLPowerPreference powerPreference = MLPowerPreference::Default);

}  // namespace webnn
