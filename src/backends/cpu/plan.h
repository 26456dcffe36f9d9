// What the cpu backend's compiler (compiler.h) makes of a graph, and what its executable
// (executable.h) runs: the steps in order, each with the IR operations it runs, its
// implementation (and why the reference kernel runs it, when it does), the tensors it reads and
// writes, the layouts they are in, and where each intermediate lives in the activation arena; per
// IR operation, where it went (a step of its own, fused into another's, or a view no step runs)
// and why it was not fused when a chain was given up. Tensors are the IR's operands, then the
// compiler's own (plain copies of blocked operands, step workspaces).
#pragma once

#include <dnnl.hpp>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/cpu_op.h"
#include "graph/ir.h"
#include "graph/memory_plan.h"

namespace webnn::cpu {

struct PlanStep {
  std::unique_ptr<CpuOp> op;
  // The IR operations it runs: the main one first, then the ones fused into it in chain order.
  // Empty for a reorder of a blocked operand into its plain copy.
  std::vector<uint32_t> operations;
  std::string types;           // their spec names, '+'-joined ("conv2d+relu"), or "reorder"
  std::string label;           // the main operation's label, or the operand's name
  std::string implementation;  // the primitive's implementation name, a kernel of ours, ...
  // Why the reference kernel runs the step (empty: it does not): no implementation of the
  // backend's own, a data type it does not take, or its implementation declined the attributes.
  std::string fallbackReason;
  std::vector<graph::OperandId> reads;   // every tensor it reads (liveness)
  std::vector<graph::OperandId> writes;  // every tensor it writes (its workspace included)
  // Blocked operands the op reads through their plain copies: swapped in for the step.
  std::vector<std::pair<graph::OperandId, graph::OperandId>> plainViews;
  std::vector<graph::OperandId> zeroedOutputs;  // zeroed before the op runs (reference kernels)
  graph::OperandId workspace = 0;               // a tensor of the arena plan, when used
  uint64_t workspaceBytes = 0;
  // The tensor whose buffer the step writes its output into (a residual its conv2d sums into,
  // FusedPostOp::Kind::Sum): the arena gives the two one place.
  std::optional<graph::OperandId> outputInto;

  bool isFallback() const { return !fallbackReason.empty(); }

  // How the op was compiled, to compile it again for the calling thread alone
  // (compileAloneOp): the operation with its fused chain and views and the layouts it was given,
  // or the reorder of a blocked operand into its plain copy.
  struct Recipe {
    bool reorder = false;  // a plain copy: reads[0] into writes[0]
    uint32_t operation = 0;
    std::optional<FusionChain> chain;
    std::optional<MatmulViews> views;
    bool inputsPlain = false, plainOutput = true;
  };
  Recipe recipe;
  // The op compiled for one thread, when `op` fixed the team's thread count when it was compiled
  // (oneDNN primitives cut their work per thread then); made on first need by the executable.
  // Null until then, and when no such op reads the same packed constants, layouts and workspace
  // (the step then runs on the team even in a dispatch that runs alone).
  std::unique_ptr<CpuOp> aloneOp;
};

// Where an IR operation went.
struct OperationPlacement {
  enum class Kind {
    Step,   // the main operation of step `step`
    Fused,  // a post-op of step `step`
    View,   // read or written through a matmul's strides: no step
    Unused  // the graph's outputs do not need it
  } kind = Kind::Unused;
  size_t step = 0;
  // Why it was not fused into the operation before it, when a chain stopped or was given up
  // there, or why a reshape or transpose is not a view of a matmul that was checked on it
  // ("not a view: ..."); empty otherwise.
  std::string notFused;
};

struct CpuPlan {
  std::vector<PlanStep> steps;
  // MLContextOptions::blockQuantizedInt8Activations, as the steps were compiled with it (a step
  // compiled again, compileAloneOp, computes the same way).
  bool blockQuantizedInt8Activations = false;
  std::vector<OperationPlacement> operations;  // per IR operation
  size_t tensorCount = 0;                      // IR operands, then the compiler's tensors
  // Per tensor: the blocked layout it is stored in (nullopt: its descriptor's plain layout).
  std::vector<std::optional<dnnl::memory::desc>> layouts;
  // Per tensor: the IR operand whose descriptor describes it (itself for the IR's operands).
  std::vector<graph::OperandId> describedBy;
  // The arena's tensors: when each is written and last read (in step indices) and its size.
  std::vector<graph::Lifetime> lifetimes;
  // Per tensor: its offset in the activation arena (graph::kNotPlanned: not in the arena).
  graph::ArenaPlan arena;

  // The implementation that runs IR operation `index`, as operationImplementations() reports it:
  // the step's ("fused: " before it for a post-op), or "view: through strides of a matmul".
  std::string implementationOf(size_t index) const;
  // One line per step: index, types, implementation (or the fallback and its reason), layouts
  // of what it writes and their arena offsets, then why its operations were not fused or viewed.
  std::vector<std::string> describe() const;
};

}  // namespace webnn::cpu
