// Liveness of intermediate operands and an arena planner: the memory planning every backend shares.
// A backend asks for the lifetimes of the intermediates of a graph (first definition, last use, in
// operation indices), then for a plan that gives each one an offset in a single arena, reusing the
// ranges of operands that are dead (greedy by size: biggest first, each at the lowest offset where
// it fits beside every operand it lives alongside).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "graph/ir.h"

namespace webnn::graph {

struct Lifetime {
  OperandId operand = 0;
  uint32_t firstDefinition = 0;  // index of the producing operation
  uint32_t lastUse = 0;          // index of the last operation reading it (>= firstDefinition)
  uint64_t byteLength = 0;
};

// The intermediates of `ir`: operands produced by an operation that are not graph outputs, in
// operand order. Needs ir.uses (GraphIR::indexUses).
std::vector<Lifetime> intermediateLifetimes(const GraphIR& ir);

inline constexpr uint64_t kNotPlanned = std::numeric_limits<uint64_t>::max();

struct ArenaPlan {
  uint64_t arenaBytes = 0;
  std::vector<uint64_t> offsets;  // per operand id; kNotPlanned for operands outside the plan
};

// Places every lifetime in one arena, each offset a multiple of `alignment` (a power of two).
// Two operands whose lifetimes overlap never share a byte.
ArenaPlan planArena(std::span<const Lifetime> lifetimes, size_t operandCount,
                    uint64_t alignment = 64);

// Whether `plan` keeps every pair of overlapping lifetimes apart and inside the arena (for tests
// and for backends that check a plan they were given).
bool isValidPlan(std::span<const Lifetime> lifetimes, const ArenaPlan& plan);

}  // namespace webnn::graph
