#include "backends/reference/ops/registration.h"

namespace webnn::reference {
namespace {

void matmul(const KernelContext& context) {
  const Tensor a = context.input(0);
  const Tensor b = context.input(1);
  const Tensor out = context.output(0);
  const size_t rank = out.rank();
  const uint64_t m = out.shape()[rank - 2];
  const uint64_t n = out.shape()[rank - 1];
  const uint64_t k = a.shape()[a.rank() - 1];
  const std::vector<uint32_t> batchShape(out.shape().begin(), out.shape().end() - 2);
  const std::vector<uint32_t> batchA(a.shape().begin(), a.shape().end() - 2);
  const std::vector<uint32_t> batchB(b.shape().begin(), b.shape().end() - 2);
  BroadcastIterator batches(batchShape, {batchA, batchB});
  std::vector<double> row(n);
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (kIsFloat<T>) {
      const T* pa = a.as<T>();
      const T* pb = b.as<T>();
      T* po = out.as<T>();
      batches.forEach([&](uint64_t batch, const std::vector<uint64_t>& offsets) {
        const T* matrixA = pa + offsets[0] * m * k;
        const T* matrixB = pb + offsets[1] * k * n;
        T* matrixOut = po + batch * m * n;
        for (uint64_t i = 0; i < m; ++i) {
          std::fill(row.begin(), row.end(), 0.0);
          for (uint64_t p = 0; p < k; ++p) {
            const double x = toDouble(matrixA[i * k + p]);
            const T* rowB = matrixB + p * n;
            for (uint64_t j = 0; j < n; ++j) row[j] += x * toDouble(rowB[j]);
          }
          for (uint64_t j = 0; j < n; ++j) matrixOut[i * n + j] = fromDouble<T>(row[j]);
        }
      });
    } else {
      throwOperationError("matmul: only float32 and float16 are supported");
    }
  });
}

}  // namespace

void registerMatmulKernels(KernelTable& table) {
  table.set(graph::OpType::Matmul, matmul);
}

}  // namespace webnn::reference
