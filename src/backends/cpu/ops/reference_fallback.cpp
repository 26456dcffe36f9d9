// The reference kernel of an operation, for ops (or types, attributes) oneDNN does not run. The
// activations are plain row-major, the reference kernels' layout, so no conversion is needed.
#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {
namespace {

class ReferenceFallbackOp final : public CpuOp {
 public:
  ReferenceFallbackOp(const graph::Operation& operation, const reference::Kernel& kernel)
      : operation_(operation), kernel_(kernel) {}

  bool needsZeroedOutputs() const override { return true; }
  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    kernel_(reference::KernelContext(operation_, tensors));
  }
  std::string implementation() const override { return "reference fallback"; }

 private:
  const graph::Operation& operation_;  // owned by the graph's IR, which outlives the op
  const reference::Kernel& kernel_;    // in referenceKernels(), a static table
};

}  // namespace

std::unique_ptr<CpuOp> createReferenceFallbackOp(const OpCompileContext& context,
                                                 const reference::Kernel& kernel) {
  return std::make_unique<ReferenceFallbackOp>(context.operation, kernel);
}

}  // namespace webnn::cpu
