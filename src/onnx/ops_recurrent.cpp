// LSTM and GRU onto WebNN's lstm and gru, RNN unrolled (same gate orders: ONNX iofc = WebNN iofg,
// ONNX zrh = WebNN zrn). ONNX's bias input holds the input and recurrent biases end to end;
// layout=1 (batch first) is transposed in and out.
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

MLOperand activate(Context& c, const std::string& name, const MLOperand& v,
                   const std::string& label) {
  if (name == "Sigmoid") return c.builder.sigmoid(v, {label});
  if (name == "Tanh") return c.builder.tanh(v, {label});
  if (name == "Relu") return c.builder.relu(v, {label});
  c.fail("activation " + name + " is not supported");
}

// The scaffolding of a recurrence unrolled into builder calls (RNN, which WebNN lacks, and the
// LSTM with ONNX's peephole semantics): per direction, W and R of the direction transposed, the
// input and recurrent biases summed, the initial states; the steps in the direction's order; then
// Y [steps, dirs, batch, hidden] and the last states joined over the directions and laid out as
// the node's layout asks. `x` is [steps, batch, input].
class UnrolledRecurrence {
 public:
  UnrolledRecurrence(Context& c, const MLOperand& x, bool batchFirstLayout, uint32_t hidden,
                     uint32_t gates)
      : c_(c),
        x_(x),
        batchFirstLayout_(batchFirstLayout),
        hidden_(hidden),
        gates_(gates),
        steps_(x.shape()[0]),
        batch_(x.shape()[1]),
        inputSize_(x.shape()[2]),
        direction_(direction(c)),
        label_(c.label()) {
    constexpr uint32_t kMaxSteps = 4096;  // the unrolled graph grows with the steps
    if (steps_ > kMaxSteps) c.fail("more than " + std::to_string(kMaxSteps) + " steps");
    sequence_.resize(steps_);
  }

  uint32_t directions() const { return direction_ == MLRecurrentNetworkDirection::Both ? 2 : 1; }
  uint32_t batch() const { return batch_; }
  const std::string& label() const { return label_; }

  // W (input 1) or R (input 2) of direction d, transposed: [input or hidden, gates * hidden].
  MLOperand transposedWeight(size_t input, uint32_t d) const {
    const uint32_t columns = input == 1 ? inputSize_ : hidden_;
    const std::string what = (input == 1 ? "w" : "r") + std::to_string(d);
    MLOperand part = c_.builder.slice(c_.input(input), {d, 0, 0}, {1, gates_ * hidden_, columns},
                                      MLSliceOptions{});
    part = c_.builder.reshape(part, {gates_ * hidden_, columns}, {label_ + "/" + what});
    return c_.builder.transpose(part, {label_ + "/" + what + "_t", std::vector<uint32_t>{1, 0}});
  }
  // Wb + Rb of direction d from B [dirs, 2 * gates * hidden] (input 3), or none.
  std::optional<MLOperand> summedBias(uint32_t d) const {
    if (!c_.hasInput(3)) return std::nullopt;
    c_.requireRank(3, 2, 2, "B");
    const uint32_t size = gates_ * hidden_;
    const std::string ld = label_ + "/dir" + std::to_string(d);
    return c_.builder.add(row(3, d, 0, size, "wb" + std::to_string(d)),
                          row(3, d, size, size, "rb" + std::to_string(d)), {ld + "/bias"});
  }
  // Elements [begin, begin + size) of direction d's row of a [dirs, *] input: [1, size].
  MLOperand row(size_t input, uint32_t d, uint32_t begin, uint32_t size,
                const std::string& what) const {
    return c_.builder.slice(c_.input(input), {d, begin}, {1, size}, {label_ + "/" + what});
  }
  // The initial state of direction d (input 5: H, 6: C), [batch, hidden]; zeros when absent.
  // layout=1 gives it as [batch, dirs, hidden].
  MLOperand initialState(size_t input, uint32_t d, const std::string& what) const {
    if (!c_.hasInput(input)) {
      return c_.builder.expand(c_.scalar(x_.dataType(), 0.0), {batch_, hidden_},
                               {label_ + "/" + what});
    }
    MLOperand v = c_.input(input);
    if (batchFirstLayout_) v = swapFirstTwo(c_, v, what + "_steps_first");
    v = c_.builder.slice(v, {d, 0, 0}, {1, batch_, hidden_}, MLSliceOptions{});
    return c_.builder.reshape(v, {batch_, hidden_}, {label_ + "/" + what});
  }

  // Runs direction d: step(xt [batch, input], label) returns the new H for each step, in the
  // direction's order; collected for Y.
  template <class Step>
  void run(uint32_t d, Step&& step) {
    const bool backward = direction_ == MLRecurrentNetworkDirection::Backward || d == 1;
    const std::string ld = label_ + "/dir" + std::to_string(d);
    for (uint32_t i = 0; i < steps_; ++i) {
      const uint32_t t = backward ? steps_ - 1 - i : i;
      const std::string lt = ld + "/t" + std::to_string(t);
      MLOperand xt = c_.builder.slice(x_, {t, 0, 0}, {1, batch_, inputSize_}, MLSliceOptions{});
      xt = c_.builder.reshape(xt, {batch_, inputSize_}, {lt + "/x"});
      const MLOperand h = step(xt, lt);
      sequence_[t].push_back(c_.builder.reshape(h, {1, 1, batch_, hidden_}, {lt + "/y"}));
    }
  }

  // Output `index` (1: Y_h, 2: Y_c): the last states of the directions, [dirs, batch, hidden].
  void setLastStates(size_t index, const std::vector<MLOperand>& last, const std::string& what) {
    std::vector<MLOperand> parts;
    for (size_t d = 0; d < last.size(); ++d) {
      parts.push_back(c_.builder.reshape(last[d], {1, batch_, hidden_},
                                         {label_ + "/dir" + std::to_string(d) + "/" + what}));
    }
    const MLOperand joined = this->joined(parts, 0, what);
    c_.setOutput(index,
                 batchFirstLayout_ ? swapFirstTwo(c_, joined, what + "_batch_first") : joined);
  }
  // Output 0, Y, when the node's consumers want it.
  void setSequence() {
    if (!c_.wantsOutput(0)) return;
    std::vector<MLOperand> perStep;
    for (uint32_t t = 0; t < steps_; ++t) {
      perStep.push_back(joined(sequence_[t], 1, "step" + std::to_string(t)));
    }
    const MLOperand y = joined(perStep, 0, "y");
    c_.setOutput(0, batchFirstLayout_ ? batchFirstSequence(c_, y) : y);
  }

 private:
  MLOperand joined(const std::vector<MLOperand>& parts, uint32_t axis,
                   const std::string& what) const {
    return parts.size() == 1 ? parts[0] : c_.builder.concat(parts, axis, {label_ + "/" + what});
  }

  Context& c_;
  MLOperand x_;
  bool batchFirstLayout_;
  uint32_t hidden_, gates_, steps_, batch_, inputSize_;
  MLRecurrentNetworkDirection direction_;
  std::string label_;
  std::vector<std::vector<MLOperand>> sequence_;  // per step, its H per direction
};

// An LSTM with ONNX's peephole semantics, unrolled (WebNN's lstm peeks at the previous cell
// state for the output gate, ONNX at the new one): per direction and step, gates = X_t W^T +
// H R^T + Wb + Rb in ONNX's iofc order, C = f * C + i * g(c), o = f(... + Po * C), H = o * h(C).
void lstmUnrolled(Context& c, const MLOperand& x, bool batchFirstLayout, uint32_t hidden) {
  UnrolledRecurrence recurrence(c, x, batchFirstLayout, hidden, 4);
  const auto names = c.attrStrings("activations").value_or(std::vector<std::string>{});
  const uint32_t batchSize = recurrence.batch();
  std::vector<MLOperand> lastH, lastC;
  for (uint32_t d = 0; d < recurrence.directions(); ++d) {
    auto name = [&](size_t k, const char* fallback) {
      return names.size() > 3 * d + k ? names[3 * d + k] : std::string(fallback);
    };
    const std::string f = name(0, "Sigmoid"), g = name(1, "Tanh"), h = name(2, "Tanh");
    const MLOperand wT = recurrence.transposedWeight(1, d);
    const MLOperand rT = recurrence.transposedWeight(2, d);
    const std::optional<MLOperand> bias = recurrence.summedBias(d);
    std::optional<MLOperand> pi, po, pf;
    if (c.hasInput(7)) {
      pi = recurrence.row(7, d, 0, hidden, "pi" + std::to_string(d));
      po = recurrence.row(7, d, hidden, hidden, "po" + std::to_string(d));
      pf = recurrence.row(7, d, 2 * hidden, hidden, "pf" + std::to_string(d));
    }
    MLOperand hState = recurrence.initialState(5, d, "h0_" + std::to_string(d));
    MLOperand cState = recurrence.initialState(6, d, "c0_" + std::to_string(d));
    recurrence.run(d, [&](const MLOperand& xt, const std::string& lt) {
      MLOperand gates = c.builder.add(c.builder.matmul(xt, wT, {lt + "/xw"}),
                                      c.builder.matmul(hState, rT, {lt + "/hr"}), {lt + "/sum"});
      if (bias) gates = c.builder.add(gates, *bias, {lt + "/biased"});
      auto gate = [&](uint32_t k, const char* what) {
        return c.builder.slice(gates, {0, k * hidden}, {batchSize, hidden}, {lt + "/" + what});
      };
      MLOperand in = gate(0, "i"), out = gate(1, "o"), forget = gate(2, "f"), cell = gate(3, "c");
      if (pi) in = c.builder.add(in, c.builder.mul(*pi, cState, {lt + "/pic"}), {lt + "/ip"});
      if (pf)
        forget = c.builder.add(forget, c.builder.mul(*pf, cState, {lt + "/pfc"}), {lt + "/fp"});
      in = activate(c, f, in, lt + "/ia");
      forget = activate(c, f, forget, lt + "/fa");
      cell = activate(c, g, cell, lt + "/ca");
      cState = c.builder.add(c.builder.mul(forget, cState, {lt + "/keep"}),
                             c.builder.mul(in, cell, {lt + "/write"}), {lt + "/C"});
      if (po) out = c.builder.add(out, c.builder.mul(*po, cState, {lt + "/poc"}), {lt + "/op"});
      out = activate(c, f, out, lt + "/oa");
      hState = c.builder.mul(out, activate(c, h, cState, lt + "/ha"), {lt + "/H"});
      return hState;
    });
    lastH.push_back(hState);
    lastC.push_back(cState);
  }
  recurrence.setLastStates(1, lastH, "y_h");
  recurrence.setLastStates(2, lastC, "y_c");
  recurrence.setSequence();
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
    // only where the output gate's peephole weights (P[iof], the middle third) are all zero;
    // otherwise the LSTM is unrolled with ONNX's equations.
    const Known* peephole = &c.requireKnown(7, "P");
    const auto values = peephole->isFloat() ? peephole->floats : std::vector<double>{};
    for (size_t d = 0; d < values.size() / (3 * hidden); ++d) {
      for (size_t j = 0; j < hidden; ++j) {
        if (values[d * 3 * hidden + hidden + j] != 0.0) {
          lstmUnrolled(c, x, batch, hidden);
          return;
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

// RNN (WebNN has no plain recurrent op): unrolled over the steps, H_t = f(X_t W^T + H_{t-1} R^T
// + Wb + Rb) per direction, with matmul, add and the activation.
void rnn(Context& c) {
  const bool batch = batchFirst(c);
  c.requireRank(0, 3, 3, "X");
  MLOperand x = c.input(0);
  if (batch) x = swapFirstTwo(c, x, "x_steps_first");
  const uint32_t hidden = hiddenSize(c);
  checkSequenceLengths(c, x.shape()[0]);
  UnrolledRecurrence recurrence(c, x, batch, hidden, 1);
  const auto names = c.attrStrings("activations").value_or(std::vector<std::string>{});
  std::vector<MLOperand> last;
  for (uint32_t d = 0; d < recurrence.directions(); ++d) {
    const std::string name = names.size() > d ? names[d] : std::string("Tanh");
    if (name != "Tanh" && name != "Relu" && name != "Sigmoid")
      c.fail("activation " + name + " is not supported");
    const MLOperand wT = recurrence.transposedWeight(1, d);
    const MLOperand rT = recurrence.transposedWeight(2, d);
    const std::optional<MLOperand> bias = recurrence.summedBias(d);
    MLOperand h = recurrence.initialState(5, d, "h0_" + std::to_string(d));
    recurrence.run(d, [&](const MLOperand& xt, const std::string& lt) {
      MLOperand sum = c.builder.add(c.builder.matmul(xt, wT, {lt + "/xw"}),
                                    c.builder.matmul(h, rT, {lt + "/hr"}), {lt + "/sum"});
      if (bias) sum = c.builder.add(sum, *bias, {lt + "/biased"});
      h = activate(c, name, sum, lt);
      return h;
    });
    last.push_back(h);
  }
  recurrence.setLastStates(1, last, "y_h");
  recurrence.setSequence();
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
  t["RNN"] = {rnn, checkRecurrent};
}

}  // namespace webnn::onnx_import
