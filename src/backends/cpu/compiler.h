// The cpu backend's compiler: the typed IR in, a CpuPlan (plan.h) out, once per graph at build().
// - fusion (fusion.h): activations, binary ops and batchNormalization after a conv2d / matmul /
//   gemm become its oneDNN post-ops, one step;
// - views (strided_views.h): reshapes and transposes a matmul reads or writes through strides
//   run no step;
// - each step gets the implementation its op's entry in the op table (op_table.h) creates for
//   its data type, attributes and layouts, else the reference kernel (the step says why);
// - layouts: convolutions pick their activation layouts (nChw16c on AVX-512), which flow on
//   through the ops that read blocked layouts; a consumer that reads plain gets a plain copy made
//   once by a reorder step; graph outputs are always plain;
// - memory: intermediates (in the size of their layouts), plain copies and per-step workspaces
//   share one arena planned with the shared liveness planner (graph/memory_plan.h).
// The ops ask `constants` for the constants they keep packed (OpCompileContext::packedConstant);
// the caller places the constants' slots once the plan is made.
#pragma once

#include <dnnl.hpp>
#include <memory>

#include "backends/cpu/plan.h"
#include "backends/memory_account.h"
#include "graph/ir.h"

namespace webnn::cpu {

class CpuConstants;

// What the context asks of every step's numerics (backend::BackendOptions).
struct PlanOptions {
  bool blockQuantizedInt8Activations = false;  // MLContextOptions::blockQuantizedInt8Activations
};

// Throws NotSupportedError naming every op neither the backend nor the reference kernels run.
CpuPlan compilePlan(const graph::GraphIR& ir, const dnnl::engine& engine, CpuConstants& constants,
                    std::shared_ptr<backend::MemoryAccount> memory,
                    const PlanOptions& options = {});

// Step `index` of `plan` compiled again from its recipe with one OpenMP thread (the executable's
// alone mode, thread_governor.h), reading the constants the step's op packed (shared, no second
// copy), writing the same output layout, within the step's workspace. Null when the step's op does
// not fix its thread count at compile (it runs alone as it is) or no such op can be made.
std::unique_ptr<CpuOp> compileAloneOp(const graph::GraphIR& ir, const dnnl::engine& engine,
                                      CpuConstants& constants,
                                      std::shared_ptr<backend::MemoryAccount> memory,
                                      const CpuPlan& plan, size_t index);

}  // namespace webnn::cpu
