#include "backends/cpu/plan.h"

#include <sstream>

namespace webnn::cpu {
namespace {

std::string layoutName(const std::optional<dnnl::memory::desc>& layout) {
  if (!layout) return "plain";
  // The blocked layout as its inner blocks: "blocked(1:16)" for nChw16c.
  const auto& blocking = layout->data.format_desc.blocking;
  std::string name = "blocked(";
  for (int i = 0; i < blocking.inner_nblks; ++i) {
    if (i > 0) name += ",";
    name += std::to_string(blocking.inner_idxs[i]) + ":" + std::to_string(blocking.inner_blks[i]);
  }
  return name + ")";
}

}  // namespace

std::string CpuPlan::implementationOf(size_t index) const {
  const OperationPlacement& placement = operations.at(index);
  switch (placement.kind) {
    case OperationPlacement::Kind::View:
      return "view: through strides of a matmul";
    case OperationPlacement::Kind::Unused:
      return "";
    case OperationPlacement::Kind::Fused:
      return "fused: " + steps[placement.step].implementation;
    case OperationPlacement::Kind::Step:
      break;
  }
  return steps[placement.step].implementation;
}

std::vector<std::string> CpuPlan::describe() const {
  std::vector<std::string> lines;
  for (size_t s = 0; s < steps.size(); ++s) {
    const PlanStep& step = steps[s];
    std::ostringstream line;
    line << s << " " << step.types << ": ";
    if (step.isFallback()) {
      line << "reference fallback (" << step.fallbackReason << ")";
    } else {
      line << step.implementation;
    }
    line << "; writes";
    for (graph::OperandId id : step.writes) {
      line << " " << id << " "
           << (id == step.workspace && step.workspaceBytes > 0 ? "workspace"
                                                               : layoutName(layouts[id]));
      if (arena.offsets[id] != graph::kNotPlanned) line << " @" << arena.offsets[id];
    }
    for (uint32_t index : step.operations) {
      if (!operations[index].notFused.empty()) line << "; " << operations[index].notFused;
    }
    lines.push_back(line.str());
  }
  return lines;
}

}  // namespace webnn::cpu
