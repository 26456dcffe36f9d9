// gemm reference kernel: alpha * sum_k A'[i, k] * B'[k, j] + beta * C[i, j], in double.
#include "backends/reference/ops/registration.h"
#include "graph/attributes.h"

namespace webnn::reference {
namespace {

void gemm(const KernelContext& context) {
  const auto& options = context.attributes<graph::GemmAttributes>();
  const Tensor a = context.input(0);
  const Tensor b = context.input(1);
  const Tensor output = context.output(0);
  const uint64_t m = output.shape()[0];
  const uint64_t n = output.shape()[1];
  const uint64_t k = options.aTranspose ? a.shape()[0] : a.shape()[1];
  // Element (row, column) of A' and B' as offsets into the stored matrices.
  auto offsetA = [&](uint64_t i, uint64_t p) { return options.aTranspose ? p * m + i : i * k + p; };
  auto offsetB = [&](uint64_t p, uint64_t j) { return options.bTranspose ? j * k + p : p * n + j; };
  std::vector<uint64_t> cStrides;
  std::optional<Tensor> c;
  if (options.c) {
    c = context.operand(*options.c);
    cStrides = broadcastStrides(c->shape(), output.shape());
  }
  for (uint64_t i = 0; i < m; ++i) {
    for (uint64_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (uint64_t p = 0; p < k; ++p) sum += a.load(offsetA(i, p)) * b.load(offsetB(p, j));
      double value = options.alpha * sum;
      if (c) value += options.beta * c->load(i * cStrides[0] + j * cStrides[1]);
      output.store(i * n + j, value);
    }
  }
}

}  // namespace

void registerGemmKernels(KernelTable& table) {
  table.set(graph::OpType::Gemm, gemm);
}

}  // namespace webnn::reference
