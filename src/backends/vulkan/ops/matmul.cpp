// matmul (batched, broadcasting batch dimensions) and gemm on the tiled matmul shader
// (matmul.comp): transposes and broadcasting are strides, nothing is copied.
#include <string>

#include "backends/vulkan/kernel.h"
#include "webnn/types.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;
constexpr uint32_t kTile = 16;
constexpr uint32_t kMaxBatchRank = 6;

struct MatmulParams {
  uint32_t m = 0, n = 0, k = 0;
  float alpha = 1, beta = 0;
  bool hasC = false;
  uint32_t aRow = 0, aCol = 0, bRow = 0, bCol = 0, cRow = 0, cCol = 0;
  std::vector<uint32_t> batchShape, aBatch, bBatch, cBatch;
};

Step matmulStep(const MatmulParams& m, graph::OperandId a, graph::OperandId b, graph::OperandId c,
                graph::OperandId out) {
  if (m.batchShape.size() > kMaxBatchRank) {
    throw Error(
        Error::Kind::NotSupportedError,
        "vulkan: matmul supports at most " + std::to_string(kMaxBatchRank) + " batch dimensions");
  }
  const uint32_t batches = elementCount(m.batchShape, "the matmul batch");
  if (batches > 65535) {
    throw Error(Error::Kind::NotSupportedError,
                "vulkan: matmul has " + std::to_string(batches) + " batches (at most 65535)");
  }
  std::vector<uint32_t> params{m.m,
                               m.n,
                               m.k,
                               static_cast<uint32_t>(m.batchShape.size()),
                               floatBits(m.alpha),
                               floatBits(m.beta),
                               m.hasC ? 1u : 0u,
                               0,
                               m.aRow,
                               m.aCol,
                               m.bRow,
                               m.bCol,
                               m.cRow,
                               m.cCol,
                               0,
                               0};
  for (const auto* values : {&m.batchShape, &m.aBatch, &m.bBatch, &m.cBatch}) {
    for (uint32_t d = 0; d < kMaxBatchRank; ++d) {
      params.push_back(d < values->size() ? (*values)[d] : (values == &m.batchShape ? 1 : 0));
    }
  }
  if (m.m < kTile) {
    // Few rows: one invocation per output element (a tile would idle most of its threads).
    const uint32_t count =
        elementCount(std::vector<uint32_t>{batches, m.m, m.n}, "the matmul output");
    params.push_back(count);
    return elementwiseStep("matmul_rows", count, std::move(params), {a, b, c, out});
  }
  Step step{"matmul", std::move(params), {a, b, c, out}};
  const uint32_t groupsX = m.n / kTile + (m.n % kTile ? 1 : 0);
  const uint32_t groupsY = m.m / kTile + (m.m % kTile ? 1 : 0);
  if (groupsX > 65535 || groupsY > 65535) {
    throw Error(Error::Kind::NotSupportedError, "vulkan: matmul output is too large");
  }
  step.groups = {groupsX, groupsY, batches};
  if (groupsX == 0 || groupsY == 0 || batches == 0) step.groups = {0, 0, 0};
  return step;
}

// Strides (in elements) of the batch dimensions of an operand of `shape` (rank >= 2) read at the
// batch coordinates of `batchShape`.
std::vector<uint32_t> batchStrides(const std::vector<uint32_t>& shape,
                                   const std::vector<uint32_t>& batchShape) {
  const std::vector<uint32_t> batch(shape.begin(), shape.end() - 2);
  std::vector<uint32_t> strides = broadcastStrides(batch, batchShape);
  const uint32_t matrix = shape[shape.size() - 2] * shape[shape.size() - 1];
  for (uint32_t& stride : strides) stride *= matrix;
  return strides;
}

void compileMatmul(const OpContext& context, std::vector<Step>& steps) {
  const auto& a = context.shape(context.input(0));
  const auto& b = context.shape(context.input(1));
  const auto& out = context.shape(context.output());
  elementCount(a, "matmul input a");
  elementCount(b, "matmul input b");
  elementCount(out, "the matmul output");
  MatmulParams m;
  m.m = out[out.size() - 2];
  m.n = out[out.size() - 1];
  m.k = a[a.size() - 1];
  m.aRow = m.k;
  m.aCol = 1;
  m.bRow = m.n;
  m.bCol = 1;
  m.batchShape.assign(out.begin(), out.end() - 2);
  m.aBatch = batchStrides(a, m.batchShape);
  m.bBatch = batchStrides(b, m.batchShape);
  m.cBatch.assign(m.batchShape.size(), 0);
  steps.push_back(
      matmulStep(m, context.input(0), context.input(1), context.input(0), context.output()));
  steps.back().float16 = context.float16();
}

void compileGemm(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::GemmAttributes>();
  const auto& out = context.shape(context.output());
  elementCount(out, "the gemm output");
  MatmulParams m;
  m.m = out[0];
  m.n = out[1];
  m.k = context.shape(context.input(0))[attributes.aTranspose ? 0 : 1];
  m.alpha = static_cast<float>(attributes.alpha);
  m.beta = static_cast<float>(attributes.beta);
  m.aRow = attributes.aTranspose ? 1 : m.k;
  m.aCol = attributes.aTranspose ? m.m : 1;
  m.bRow = attributes.bTranspose ? 1 : m.n;
  m.bCol = attributes.bTranspose ? m.k : 1;
  graph::OperandId c = context.input(0);
  if (attributes.c) {
    c = *attributes.c;
    m.hasC = true;
    const auto strides = broadcastStrides(context.shape(c), out);
    m.cRow = strides[0];
    m.cCol = strides[1];
  }
  steps.push_back(matmulStep(m, context.input(0), context.input(1), c, context.output()));
  steps.back().float16 = context.float16();
}

}  // namespace

void registerMatmulOps(OpTable& table) {
  table.set(OpType::Matmul, {compileMatmul, {T::Float32, T::Float16}, {}});
  table.set(OpType::Gemm, {compileGemm, {T::Float32, T::Float16}, {}});
}

}  // namespace webnn::vulkan
