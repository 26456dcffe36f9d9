#include "graph/memory_plan.h"

#include <algorithm>

namespace webnn::graph {
namespace {

bool overlapInTime(const Lifetime& a, const Lifetime& b) {
  return a.firstDefinition <= b.lastUse && b.firstDefinition <= a.lastUse;
}

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

std::vector<Lifetime> intermediateLifetimes(const GraphIR& ir) {
  std::vector<Lifetime> lifetimes;
  for (const auto& operand : ir.operands) {
    const OperandId id = operand->id;
    const int32_t producer = ir.uses.producer[id];
    if (producer == kNoProducer || ir.isGraphOutput(id)) continue;
    Lifetime lifetime;
    lifetime.operand = id;
    lifetime.firstDefinition = static_cast<uint32_t>(producer);
    const auto& consumers = ir.uses.consumers[id];
    lifetime.lastUse = consumers.empty() ? lifetime.firstDefinition : consumers.back();
    lifetime.byteLength = operand->descriptor.byteLength();
    lifetimes.push_back(lifetime);
  }
  return lifetimes;
}

ArenaPlan planArena(std::span<const Lifetime> lifetimes, size_t operandCount, uint64_t alignment) {
  ArenaPlan plan;
  plan.offsets.assign(operandCount, kNotPlanned);
  std::vector<size_t> order(lifetimes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return lifetimes[a].byteLength > lifetimes[b].byteLength;
  });

  struct Placed {
    uint64_t begin;
    uint64_t end;
  };
  std::vector<size_t> placed;  // indices into lifetimes, in placement order
  std::vector<Placed> neighbours;
  for (size_t index : order) {
    const Lifetime& lifetime = lifetimes[index];
    const uint64_t size = alignUp(std::max<uint64_t>(lifetime.byteLength, 1), alignment);
    neighbours.clear();
    for (size_t other : placed) {
      if (!overlapInTime(lifetime, lifetimes[other])) continue;
      const uint64_t begin = plan.offsets[lifetimes[other].operand];
      neighbours.push_back(
          {begin, begin + alignUp(std::max<uint64_t>(lifetimes[other].byteLength, 1), alignment)});
    }
    std::sort(neighbours.begin(), neighbours.end(),
              [](const Placed& a, const Placed& b) { return a.begin < b.begin; });
    uint64_t offset = 0;
    for (const Placed& neighbour : neighbours) {
      if (neighbour.begin >= offset + size) break;  // the gap before this neighbour fits
      offset = std::max(offset, neighbour.end);
    }
    plan.offsets[lifetime.operand] = offset;
    plan.arenaBytes = std::max(plan.arenaBytes, offset + size);
    placed.push_back(index);
  }
  return plan;
}

bool isValidPlan(std::span<const Lifetime> lifetimes, const ArenaPlan& plan) {
  for (size_t i = 0; i < lifetimes.size(); ++i) {
    const Lifetime& a = lifetimes[i];
    const uint64_t aBegin = plan.offsets.at(a.operand);
    if (aBegin == kNotPlanned || aBegin + a.byteLength > plan.arenaBytes) return false;
    for (size_t j = i + 1; j < lifetimes.size(); ++j) {
      const Lifetime& b = lifetimes[j];
      if (!overlapInTime(a, b)) continue;
      const uint64_t bBegin = plan.offsets.at(b.operand);
      if (aBegin < bBegin + b.byteLength && bBegin < aBegin + a.byteLength) return false;
    }
  }
  return true;
}

}  // namespace webnn::graph
