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

// An LSTM with ONNX's peephole semantics, unrolled (WebNN's lstm peeks at the previous cell
// state for the output gate, ONNX at the new one): per direction and step, gates = X_t W^T +
// H R^T + Wb + Rb in ONNX's iofc order, C = f * C + i * g(c), o = f(... + Po * C), H = o * h(C).
// `x` is [steps, batch, input]; outputs as ONNX lays them out for `batchFirstLayout`.
void lstmUnrolled(Context& c, const MLOperand& x, bool batchFirstLayout, uint32_t hidden) {
  const uint32_t steps = x.shape()[0], batchSize = x.shape()[1], inputSize = x.shape()[2];
  constexpr uint32_t kMaxSteps = 4096;  // the unrolled graph grows with the steps
  if (steps > kMaxSteps) c.fail("more than " + std::to_string(kMaxSteps) + " steps");
  const MLRecurrentNetworkDirection dir = direction(c);
  const uint32_t directions = dir == MLRecurrentNetworkDirection::Both ? 2 : 1;
  const auto names = c.attrStrings("activations").value_or(std::vector<std::string>{});
  const std::string l = c.label();
  const auto type = x.dataType();
  auto matrix = [&](size_t input, uint32_t d, uint32_t rows, uint32_t columns,
                    const std::string& what) {
    MLOperand part =
        c.builder.slice(c.input(input), {d, 0, 0}, {1, rows, columns}, MLSliceOptions{});
    part = c.builder.reshape(part, {rows, columns}, {l + "/" + what});
    return c.builder.transpose(part, {l + "/" + what + "_t", std::vector<uint32_t>{1, 0}});
  };
  auto row = [&](size_t input, uint32_t d, uint32_t begin, uint32_t size, const std::string& what) {
    return c.builder.slice(c.input(input), {d, begin}, {1, size}, {l + "/" + what});
  };
  auto state = [&](size_t input, uint32_t d, const std::string& what) {
    if (!c.hasInput(input))
      return c.builder.expand(c.scalar(type, 0.0), {batchSize, hidden}, {l + "/" + what});
    MLOperand v = c.input(input);
    if (batchFirstLayout) v = swapFirstTwo(c, v, what + "_steps_first");
    v = c.builder.slice(v, {d, 0, 0}, {1, batchSize, hidden}, MLSliceOptions{});
    return c.builder.reshape(v, {batchSize, hidden}, {l + "/" + what});
  };
  std::vector<std::vector<MLOperand>> sequence(steps);
  std::vector<MLOperand> lastH, lastC;
  for (uint32_t d = 0; d < directions; ++d) {
    auto name = [&](size_t k, const char* fallback) {
      return names.size() > 3 * d + k ? names[3 * d + k] : std::string(fallback);
    };
    const std::string f = name(0, "Sigmoid"), g = name(1, "Tanh"), h = name(2, "Tanh");
    const std::string ld = l + "/dir" + std::to_string(d);
    const MLOperand wT = matrix(1, d, 4 * hidden, inputSize, "w" + std::to_string(d));
    const MLOperand rT = matrix(2, d, 4 * hidden, hidden, "r" + std::to_string(d));
    std::optional<MLOperand> bias;
    if (c.hasInput(3)) {
      bias = c.builder.add(row(3, d, 0, 4 * hidden, "wb" + std::to_string(d)),
                           row(3, d, 4 * hidden, 4 * hidden, "rb" + std::to_string(d)),
                           {ld + "/bias"});
    }
    std::optional<MLOperand> pi, po, pf;
    if (c.hasInput(7)) {
      pi = row(7, d, 0, hidden, "pi" + std::to_string(d));
      po = row(7, d, hidden, hidden, "po" + std::to_string(d));
      pf = row(7, d, 2 * hidden, hidden, "pf" + std::to_string(d));
    }
    MLOperand hState = state(5, d, "h0_" + std::to_string(d));
    MLOperand cState = state(6, d, "c0_" + std::to_string(d));
    const bool backward = dir == MLRecurrentNetworkDirection::Backward || d == 1;
    for (uint32_t i = 0; i < steps; ++i) {
      const uint32_t t = backward ? steps - 1 - i : i;
      const std::string lt = ld + "/t" + std::to_string(t);
      MLOperand xt = c.builder.slice(x, {t, 0, 0}, {1, batchSize, inputSize}, MLSliceOptions{});
      xt = c.builder.reshape(xt, {batchSize, inputSize}, {lt + "/x"});
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
      sequence[t].push_back(c.builder.reshape(hState, {1, 1, batchSize, hidden}, {lt + "/y"}));
    }
    lastH.push_back(c.builder.reshape(hState, {1, batchSize, hidden}, {ld + "/y_h"}));
    lastC.push_back(c.builder.reshape(cState, {1, batchSize, hidden}, {ld + "/y_c"}));
  }
  auto joined = [&](const std::vector<MLOperand>& parts, uint32_t axis, const std::string& what) {
    return parts.size() == 1 ? parts[0] : c.builder.concat(parts, axis, {l + "/" + what});
  };
  const MLOperand yh = joined(lastH, 0, "y_h"), yc = joined(lastC, 0, "y_c");
  c.setOutput(1, batchFirstLayout ? swapFirstTwo(c, yh, "y_h_batch_first") : yh);
  c.setOutput(2, batchFirstLayout ? swapFirstTwo(c, yc, "y_c_batch_first") : yc);
  if (c.wantsOutput(0)) {
    std::vector<MLOperand> perStep;
    for (uint32_t t = 0; t < steps; ++t)
      perStep.push_back(joined(sequence[t], 1, "step" + std::to_string(t)));
    const MLOperand y = joined(perStep, 0, "y");
    c.setOutput(0, batchFirstLayout ? batchFirstSequence(c, y) : y);
  }
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
  const uint32_t steps = x.shape()[0], batchSize = x.shape()[1], inputSize = x.shape()[2];
  const uint32_t hidden = hiddenSize(c);
  checkSequenceLengths(c, steps);
  constexpr uint32_t kMaxSteps = 4096;  // the unrolled graph grows with the steps
  if (steps > kMaxSteps) c.fail("more than " + std::to_string(kMaxSteps) + " steps");
  const MLRecurrentNetworkDirection dir = direction(c);
  const uint32_t directions = dir == MLRecurrentNetworkDirection::Both ? 2 : 1;
  const auto names = c.attrStrings("activations").value_or(std::vector<std::string>{});
  const std::string l = c.label();
  const auto type = x.dataType();
  auto slice2d = [&](const MLOperand& v, uint32_t index, uint32_t rows, uint32_t columns,
                     const std::string& what) {
    MLOperand part = c.builder.slice(v, {index, 0, 0}, {1, rows, columns}, MLSliceOptions{});
    return c.builder.reshape(part, {rows, columns}, {l + "/" + what});
  };
  std::vector<std::vector<MLOperand>> outputs(steps);  // [step][direction]
  std::vector<MLOperand> last;
  for (uint32_t d = 0; d < directions; ++d) {
    const std::string name = names.size() > d ? names[d] : std::string("Tanh");
    if (name != "Tanh" && name != "Relu" && name != "Sigmoid")
      c.fail("activation " + name + " is not supported");
    const std::string ld = l + "/dir" + std::to_string(d);
    MLTransposeOptions transposed;
    transposed.label = ld + "/wt";
    const MLOperand wT =
        c.builder.transpose(slice2d(c.input(1), d, hidden, inputSize, "w"), transposed);
    transposed.label = ld + "/rt";
    const MLOperand rT =
        c.builder.transpose(slice2d(c.input(2), d, hidden, hidden, "r"), transposed);
    std::optional<MLOperand> bias;
    if (c.hasInput(3)) {
      c.requireRank(3, 2, 2, "B");
      const MLOperand both = c.builder.slice(c.input(3), {d, 0}, {1, 2 * hidden}, MLSliceOptions{});
      const MLOperand wb = c.builder.slice(both, {0, 0}, {1, hidden}, MLSliceOptions{});
      const MLOperand rb = c.builder.slice(both, {0, hidden}, {1, hidden}, MLSliceOptions{});
      bias = c.builder.add(wb, rb, {ld + "/bias"});
    }
    MLOperand h = c.hasInput(5)
                      ? slice2d(c.input(5), d, batchSize, hidden, "initial_h")
                      : c.builder.expand(c.scalar(type, 0.0), {batchSize, hidden}, {ld + "/h0"});
    const bool backward = dir == MLRecurrentNetworkDirection::Backward || d == 1;
    for (uint32_t i = 0; i < steps; ++i) {
      const uint32_t t = backward ? steps - 1 - i : i;
      const std::string lt = ld + "/t" + std::to_string(t);
      const MLOperand xt = slice2d(x, t, batchSize, inputSize, "x" + std::to_string(t));
      MLOperand sum = c.builder.add(c.builder.matmul(xt, wT, {lt + "/xw"}),
                                    c.builder.matmul(h, rT, {lt + "/hr"}), {lt + "/sum"});
      if (bias) sum = c.builder.add(sum, *bias, {lt + "/biased"});
      h = name == "Tanh"   ? c.builder.tanh(sum, {lt})
          : name == "Relu" ? c.builder.relu(sum, {lt})
                           : c.builder.sigmoid(sum, {lt});
      outputs[t].push_back(c.builder.reshape(h, {1, 1, batchSize, hidden}, {lt + "/y"}));
    }
    last.push_back(c.builder.reshape(h, {1, batchSize, hidden}, {ld + "/y_h"}));
  }
  MLOperand yh = last.size() == 1 ? last[0] : c.builder.concat(last, 0, {l + "/y_h"});
  c.setOutput(1, batch ? swapFirstTwo(c, yh, "y_h_batch_first") : yh);
  if (c.wantsOutput(0)) {
    std::vector<MLOperand> perStep;
    for (uint32_t t = 0; t < steps; ++t) {
      perStep.push_back(outputs[t].size() == 1
                            ? outputs[t][0]
                            : c.builder.concat(outputs[t], 1, {l + "/step" + std::to_string(t)}));
    }
    MLOperand y = perStep.size() == 1 ? perStep[0] : c.builder.concat(perStep, 0, {l + "/y"});
    c.setOutput(0, batch ? batchFirstSequence(c, y) : y);
  }
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
