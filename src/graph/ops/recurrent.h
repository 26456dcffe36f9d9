// gru, gruCell, lstm, lstmCell: their gate layouts and their pure validation /
// shape-inference functions (https://www.w3.org/TR/webnn/#api-mlgraphbuilder-gru and following).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Gate positions in the weight and bias tensors, by layout: gru's update (z), reset (r) and new
// (n) gates; lstm's input (i), output (o), forget (f) and cell (g) gates. Peephole weights are
// always packed i, o, f (offsets 0, 1, 2), whatever the layout.
struct GruGates {
  uint32_t z, r, n;
};
struct LstmGates {
  uint32_t i, o, f, g;
};
GruGates gruGates(MLGruWeightLayout layout);
LstmGates lstmGates(MLLstmWeightLayout layout);

// Each validates the operands (descriptors taken from the operands and from the optional operands
// of `options`), throws TypeError naming the op, its label and the problem, fills `attributes`
// with the resolved options (activations defaulted to the spec's; the optional operands' ids are
// left for the caller) and returns the output descriptors in the spec's order: gru: [hidden]
// (+ [sequence] with returnSequence); gruCell: [hidden]; lstm: [hidden, cell] (+ [sequence]);
// lstmCell: [hidden, cell].
std::vector<MLOperandDescriptor> validateGru(const OpCall& call, const MLOperandDescriptor& input,
                                             const MLOperandDescriptor& weight,
                                             const MLOperandDescriptor& recurrentWeight,
                                             uint32_t steps, uint32_t hiddenSize,
                                             const MLGruOptions& options,
                                             GruAttributes& attributes);
std::vector<MLOperandDescriptor> validateGruCell(
    const OpCall& call, const MLOperandDescriptor& input, const MLOperandDescriptor& weight,
    const MLOperandDescriptor& recurrentWeight, const MLOperandDescriptor& hiddenState,
    uint32_t hiddenSize, const MLGruCellOptions& options, GruCellAttributes& attributes);
std::vector<MLOperandDescriptor> validateLstm(const OpCall& call, const MLOperandDescriptor& input,
                                              const MLOperandDescriptor& weight,
                                              const MLOperandDescriptor& recurrentWeight,
                                              uint32_t steps, uint32_t hiddenSize,
                                              const MLLstmOptions& options,
                                              LstmAttributes& attributes);
std::vector<MLOperandDescriptor> validateLstmCell(
    const OpCall& call, const MLOperandDescriptor& input, const MLOperandDescriptor& weight,
    const MLOperandDescriptor& recurrentWeight, const MLOperandDescriptor& hiddenState,
    const MLOperandDescriptor& cellState, uint32_t hiddenSize, const MLLstmCellOptions& options,
    LstmCellAttributes& attributes);

}  // namespace webnn::graph
