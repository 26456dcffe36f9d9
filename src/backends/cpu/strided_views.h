// The cpu backend's view pass: reshape, transpose and identity operations that a matmul reads or
// writes through strides (oneDNN's matmul takes arbitrary strides on its source, weights and
// destination), so that no step runs them and their results are never materialized.
// - Read: a matmul's A or B that is a chain of such operations over another tensor (the base: an
//   input or an intermediate, not a constant, which the matmul packs) is read in the base through
//   the chain's strides. An operation of the chain runs no step when nothing else reads its
//   result (a graph output, any other reader, keeps it).
// - Write: the chain of such operations after a matmul's output (its fused chain's), each link
//   that result's only reader and not a graph output, is written by the matmul in the chain's
//   last result through the strides it gives the matmul's output.
// A reshape is a view when its source's strides can be regrouped into the new dimensions (always
// from a plain tensor); each view is checked on oneDNN (`implementationOn`) before it is planned,
// and declined when oneDNN would run the matmul on these strides on its gemm-based implementation
// while it runs the plain one on brgemm: oneDNN 2.6 JIT-compiles the gemm kernels at their first
// run (about 20 ms on PaddleOCR rec's first dispatch), and brgemm is as fast or faster after.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/fusion.h"
#include "graph/ir.h"

namespace webnn::cpu {

struct ViewPlan {
  std::vector<std::optional<MatmulViews>> views;  // per operation: a matmul's views, if any
  std::vector<bool> elided;                       // per operation: a view no step runs
  // Per matmul with an output view: the operations it writes through (elided while it does).
  std::vector<std::vector<uint32_t>> writtenThrough;
  // Per operation: why it is not a view of a matmul that was checked on it (empty otherwise).
  std::vector<std::string> notViewed;
};

// The oneDNN implementation that runs the matmul `operation` with these views (and plain operands
// elsewhere; no views: all plain), nullopt when oneDNN does not run it (or not on its own).
using MatmulViewCheck =
    std::function<std::optional<std::string>(const graph::Operation&, const MatmulViews&)>;

ViewPlan planViews(const graph::GraphIR& ir, const FusionPlan& fusion,
                   const MatmulViewCheck& implementationOn);

// The strides (elements) of `newDims` over the same elements in the same order as `dims` with
// `strides`, when no copy is needed (numpy's rule: each group of merged or split dimensions is
// contiguous in itself).
std::optional<dnnl::memory::dims> reshapedStrides(const dnnl::memory::dims& dims,
                                                  const dnnl::memory::dims& strides,
                                                  const dnnl::memory::dims& newDims);

}  // namespace webnn::cpu
