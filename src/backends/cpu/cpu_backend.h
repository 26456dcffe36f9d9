// The cpu backend: oneDNN primitives and kernels of its own for the ops they run with the graph's
// types and attributes, the reference kernels for every other op, over host memory.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/cpu/thread_governor.h"

namespace webnn::cpu {

std::unique_ptr<backend::Backend> createCpuBackend();

struct CpuPlan;  // plan.h
// The plan of a graph this backend compiled (null for another backend's graph): its steps, their
// implementations and fallback reasons, layouts and arena offsets.
const CpuPlan* planOf(const backend::CompiledGraph& graph);
// The IR that plan is of: the graph's own, or its widened form when it has float16 values
// (widen_float16.h: operation and operand indices of the plan refer to it). Null for another
// backend's graph.
const graph::GraphIR* compiledIrOf(const backend::CompiledGraph& graph);

// Which implementation runs each operation of a graph this backend compiled, in operation order:
// the oneDNN primitive's implementation name ("brg:avx512_core", ...), a loop of ours, or
// "reference fallback". One per operation of the graph as built (not of its widened form).
// Empty for a graph of another backend.
std::vector<std::string> operationImplementations(const backend::CompiledGraph& graph);

// How each hollow constant of a graph this backend compiled is kept ("<id> <label>: plain" or
// "<id> <label>: packed on arrival (<bytes> bytes)"; cpu_constant_slot.h). Empty for another
// backend's graph.
std::vector<std::string> constantLayouts(const backend::CompiledGraph& graph);

// How the dispatches of a graph this backend compiled chose their threads so far
// (thread_governor.h). Nullopt for another backend's graph.
std::optional<ThreadGovernor::Figures> threadingOf(const backend::CompiledGraph& graph);

}  // namespace webnn::cpu
