// The cpu backend: oneDNN primitives for the ops oneDNN runs with the graph's types and
// attributes, the reference kernels for every other op, over host memory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace webnn::cpu {

std::unique_ptr<backend::Backend> createCpuBackend();

// Which implementation runs each operation of a graph this backend compiled, in operation order:
// the oneDNN primitive's implementation name ("brg:avx512_core", ...), a loop of ours, or
// "reference fallback". Empty for a graph of another backend.
std::vector<std::string> operationImplementations(const backend::CompiledGraph& graph);

// How each hollow constant of a graph this backend compiled is kept ("<id> <label>: plain" or
// "<id> <label>: packed on arrival (<bytes> bytes)"; cpu_constant_slot.h). Empty for another
// backend's graph.
std::vector<std::string> constantLayouts(const backend::CompiledGraph& graph);

}  // namespace webnn::cpu
