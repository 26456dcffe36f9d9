// float16 graphs on the cpu backend's float32 implementations: a pass that rewrites the IR the
// compiler sees so that every float16 value is computed and kept in float32, rounded to float16
// only where the graph says so (graph outputs, casts to float16).
//
// - Intermediates (and classic constants, whose bytes are widened here) become float32.
// - A float16 graph input keeps its name on a new float16 operand, and a cast to float32 at the
//   start gives the old operand id its value; a float16 graph output likewise gets a new float16
//   operand written by a cast at the end.
// - A cast to float16 whose result the graph reads on is followed by a cast back to float32, so
//   that the value is rounded (and overflows to infinity) as float16 would.
// - A hollow float16 constant keeps its operand id with a float32 descriptor; its bytes still
//   arrive as float16 and are widened as they are stored (CpuConstants), packed or plain.
//
// Results are float16 values computed in float32: within the spec's float16 tolerances, and closer
// to the exact results than a float16 computation. Weights take float32 memory (2x the file).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "graph/ir.h"

namespace webnn::cpu {

struct WidenedGraph {
  std::shared_ptr<const graph::GraphIR> ir;  // the input IR itself when it has no float16 operand
  // Per operation of the input IR: its index in `ir`.
  std::vector<uint32_t> operationIndex;
  // Per operand of `ir`: a hollow constant whose float32 values arrive as float16 bytes.
  std::vector<bool> arrivesAsFloat16;
  bool widened = false;
};

WidenedGraph widenFloat16(std::shared_ptr<const graph::GraphIR> ir);

}  // namespace webnn::cpu
