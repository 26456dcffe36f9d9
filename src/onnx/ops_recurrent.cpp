// LSTM and GRU onto WebNN's lstm and gru (same gate orders: ONNX iofc = WebNN iofg, ONNX zrh =
// WebNN zrn). ONNX's bias input holds the input and recurrent biases end to end; layout=1 (batch
// first) is transposed in and out.
#include "core/checked_math.h"
#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

MLRecurrentNetworkDirection direction(Context& c) {
  const std::string d = c.attrString("direction", "forward");
  if (d == "forward") return MLRecurrentNetworkDirection::Forward;
  if (d == "reverse") return MLRecurrentNetworkDirection::Backward;
  if (d == "bidirectional") return MLRecurrentNetworkDirection::Both;
  c.failData("direction=" + d + " is invalid");
}

std::optional<std::vector<MLRecurrentNetworkActivation>> activations(Context& c,
                                                                     size_t perDirection) {
  const auto names = c.attrStrings("activations");
  if (!names) return std::nullopt;
  std::vector<MLRecurrentNetworkActivation> out;
  for (size_t i = 0; i < names->size() && i < perDirection; ++i) {
    const std::string& n = (*names)[i];
    if (n == "Sigmoid")
      out.push_back(MLRecurrentNetworkActivation::Sigmoid);
    else if (n == "Tanh")
      out.push_back(MLRecurrentNetworkActivation::Tanh);
    else if (n == "Relu")
      out.push_back(MLRecurrentNetworkActivation::Relu);
    else
      c.fail("activation " + n + " is not supported");
  }
  // Both directions must use the same activations.
  for (size_t i = perDirection; i < names->size(); ++i) {
    if ((*names)[i] != (*names)[i - perDirection]) c.fail("different activations per direction");
  }
  return out;
}

uint32_t hiddenSize(Context& c) {
  const int64_t hidden = c.attrInt("hidden_size", 0);
  const auto size = checked::toDimension(hidden);
  if (!size || *size == 0) c.failData("hidden_size " + std::to_string(hidden) + " is invalid");
  return *size;
}

// Splits ONNX's B [dirs, 2 * gates * hidden] into input and recurrent biases.
std::pair<MLOperand, MLOperand> splitBias(Context& c, size_t input) {
  MLSplitOptions options;
  options.label = c.label() + "/bias";
  options.axis = 1;
  c.requireRank(input, 2, 2, "B");
  auto parts = c.builder.split(c.input(input), 2u, options);
  return {parts[0], parts[1]};
}

void checkSequenceLengths(Context& c, uint32_t steps) {
  if (!c.hasInput(4)) return;
  const Known& lengths = c.requireKnown(4, "sequence_lens");
  for (int64_t v : lengths.integers()) {
    if (v != steps) c.fail("sequence_lens shorter than the sequence is not supported");
  }
}

// layout=1 (batch first): X [batch, steps, input] and the initial states [batch, dirs, hidden]
// are transposed to WebNN's [steps, batch, input] and [dirs, batch, hidden] (the same swap of
// the first two axes), and the outputs back.
bool batchFirst(Context& c) {
  const int64_t layout = c.attrInt("layout", 0);
  if (layout != 0 && layout != 1) c.failData("layout must be 0 or 1");
  return layout == 1;
}

MLOperand swapFirstTwo(Context& c, const MLOperand& v, const std::string& what) {
  std::vector<uint32_t> permutation(v.shape().size());
  for (uint32_t i = 0; i < permutation.size(); ++i) permutation[i] = i;
  std::swap(permutation[0], permutation[1]);
  return c.builder.transpose(v, {c.label() + "/" + what, permutation});
}

// WebNN's sequence output [steps, dirs, batch, hidden] as ONNX's layout=1 [batch, steps, dirs,
// hidden].
MLOperand batchFirstSequence(Context& c, const MLOperand& y) {
  return c.builder.transpose(y, {c.label() + "/y_batch_first", std::vector<uint32_t>{2, 0, 1, 3}});
}

void lstm(Context& c) {
  const bool batch = batchFirst(c);
  if (c.attrInt("input_forget", 0) != 0) c.fail("input_forget=1 is not supported");
  c.requireRank(0, 3, 3, "X");
  MLOperand x = c.input(0);
  if (batch) x = swapFirstTwo(c, x, "x_steps_first");
  const uint32_t steps = x.shape()[0];
  const uint32_t hidden = hiddenSize(c);
  checkSequenceLengths(c, steps);
  MLLstmOptions options;
  options.label = c.label();
  options.direction = direction(c);
  options.layout = MLLstmWeightLayout::Iofg;
  options.returnSequence = c.wantsOutput(0);
  options.activations = activations(c, 3);
  if (c.hasInput(3)) std::tie(options.bias, options.recurrentBias) = splitBias(c, 3);
  if (c.hasInput(5)) {
    options.initialHiddenState = batch ? swapFirstTwo(c, c.input(5), "initial_h") : c.input(5);
  }
  if (c.hasInput(6))
    options.initialCellState = batch ? swapFirstTwo(c, c.input(6), "initial_c") : c.input(6);
  if (c.hasInput(7)) {
    // ONNX's output gate peeks at the new cell state, WebNN's at the previous one: the same
    // only where the output gate's peephole weights (P[iof], the middle third) are all zero.
    const Known* peephole = &c.requireKnown(7, "P");
    const auto values = peephole->isFloat() ? peephole->floats : std::vector<double>{};
    for (size_t d = 0; d < values.size() / (3 * hidden); ++d) {
      for (size_t j = 0; j < hidden; ++j) {
        if (values[d * 3 * hidden + hidden + j] != 0.0) {
          c.fail(
              "output-gate peephole weights are not supported (ONNX's output gate reads the "
              "new cell state, WebNN's lstm the previous one)");
        }
      }
    }
    options.peepholeWeight = c.input(7);
  }
  auto outputs = c.builder.lstm(x, c.input(1), c.input(2), steps, hidden, options);
  c.setOutput(1, batch ? swapFirstTwo(c, outputs[0], "y_h") : outputs[0]);
  c.setOutput(2, batch ? swapFirstTwo(c, outputs[1], "y_c") : outputs[1]);
  if (options.returnSequence)
    c.setOutput(0, batch ? batchFirstSequence(c, outputs[2]) : outputs[2]);
}

void gru(Context& c) {
  const bool batch = batchFirst(c);
  c.requireRank(0, 3, 3, "X");
  MLOperand x = c.input(0);
  if (batch) x = swapFirstTwo(c, x, "x_steps_first");
  const uint32_t steps = x.shape()[0];
  const uint32_t hidden = hiddenSize(c);
  checkSequenceLengths(c, steps);
  MLGruOptions options;
  options.label = c.label();
  options.direction = direction(c);
  options.layout = MLGruWeightLayout::Zrn;
  options.resetAfter = c.attrInt("linear_before_reset", 0) != 0;
  options.returnSequence = c.wantsOutput(0);
  options.activations = activations(c, 2);
  if (c.hasInput(3)) std::tie(options.bias, options.recurrentBias) = splitBias(c, 3);
  if (c.hasInput(5)) {
    options.initialHiddenState = batch ? swapFirstTwo(c, c.input(5), "initial_h") : c.input(5);
  }
  auto outputs = c.builder.gru(x, c.input(1), c.input(2), steps, hidden, options);
  c.setOutput(1, batch ? swapFirstTwo(c, outputs[0], "y_h") : outputs[0]);
  if (options.returnSequence)
    c.setOutput(0, batch ? batchFirstSequence(c, outputs[1]) : outputs[1]);
}

std::string checkRecurrent(const ::onnx::NodeProto& node, int64_t) {
  if (findAttribute(node, "clip")) return "clip";
  if (findAttribute(node, "activation_alpha") || findAttribute(node, "activation_beta")) {
    return "activation_alpha/beta";
  }
  return {};
}

}  // namespace

void addRecurrentOps(OpTable& t) {
  t["LSTM"] = {lstm, checkRecurrent};
  t["GRU"] = {gru, checkRecurrent};
}

}  // namespace webnn::onnx_import
