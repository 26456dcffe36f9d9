// The cpu backend's fusion pass: which operations run as post-ops of a conv2d, matmul or gemm
// before it. A chain follows the main operation's output while it has a single consumer that is
// not a graph output: element-wise activations (relu, clamp, sigmoid, tanh, hardSwish,
// hardSigmoid, gelu, leakyRelu, elu, ...) and add / sub / mul / div with another operand (a bias,
// a residual, a scale) that keeps the output's shape.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/cpu_op.h"
#include "graph/ir.h"

namespace webnn::cpu {

struct FusionPlan {
  std::vector<std::optional<FusionChain>> chains;  // per operation: the chain it anchors
  std::vector<int32_t> anchorOf;                   // per operation: its anchor, or -1
  // Per operation: why a chain stopped before it (empty when none did).
  std::vector<std::string> notFused;
};

FusionPlan planFusions(const graph::GraphIR& ir);

}  // namespace webnn::cpu
