// gru, gruCell, lstm, lstmCell: the attributes they record and their pure validation /
// shape-inference functions (https://www.w3.org/TR/webnn/#api-mlgraphbuilder-gru and following).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// What each op records as its attributes: the options with `activations` resolved to the spec's
// defaults when absent, plus the scalar arguments.
struct GruAttributes {
  MLGruOptions options;
  uint32_t steps = 0;
  uint32_t hiddenSize = 0;
};
struct GruCellAttributes {
  MLGruCellOptions options;
  uint32_t hiddenSize = 0;
};
struct LstmAttributes {
  MLLstmOptions options;
  uint32_t steps = 0;
  uint32_t hiddenSize = 0;
};
struct LstmCellAttributes {
  MLLstmCellOptions options;
  uint32_t hiddenSize = 0;
};

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

// Each validates the operands (descriptors taken from the operands and from the options in
// `attributes`), throws TypeError naming the op, its label and the problem, resolves
// `attributes.options.activations` and returns the output descriptors in the spec's order:
// gru: [hidden] (+ [sequence] with returnSequence); gruCell: [hidden]; lstm: [hidden, cell]
// (+ [sequence]); lstmCell: [hidden, cell].
std::vector<MLOperandDescriptor> validateGru(std::string_view label,
                                             const MLOperandDescriptor& input,
                                             const MLOperandDescriptor& weight,
                                             const MLOperandDescriptor& recurrentWeight,
                                             GruAttributes& attributes);
std::vector<MLOperandDescriptor> validateGruCell(std::string_view label,
                                                 const MLOperandDescriptor& input,
                                                 const MLOperandDescriptor& weight,
                                                 const MLOperandDescriptor& recurrentWeight,
                                                 const MLOperandDescriptor& hiddenState,
                                                 GruCellAttributes& attributes);
std::vector<MLOperandDescriptor> validateLstm(std::string_view label,
                                              const MLOperandDescriptor& input,
                                              const MLOperandDescriptor& weight,
                                              const MLOperandDescriptor& recurrentWeight,
                                              LstmAttributes& attributes);
std::vector<MLOperandDescriptor> validateLstmCell(
    std::string_view label, const MLOperandDescriptor& input, const MLOperandDescriptor& weight,
    const MLOperandDescriptor& recurrentWeight, const MLOperandDescriptor& hiddenState,
    const MLOperandDescriptor& cellState, LstmCellAttributes& attributes);

}  // namespace webnn::graph
