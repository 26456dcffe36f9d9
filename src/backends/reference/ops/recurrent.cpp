// gru, gruCell, lstm, lstmCell: the spec's emulation computed in double (every state carried in
// double across the steps), rounded once per output element.
#include <cmath>
#include <optional>

#include "backends/reference/ops/registration.h"
#include "graph/ops/recurrent.h"

namespace webnn::reference {
namespace {

using Activation = MLRecurrentNetworkActivation;
using Activations = std::vector<Activation>;
using Values = std::vector<double>;

double activate(Activation activation, double x) {
  switch (activation) {
    case Activation::Relu:
      return x > 0 ? x : 0.0;
    case Activation::Sigmoid:
      return 1.0 / (1.0 + std::exp(-x));
    case Activation::Tanh:
      return std::tanh(x);
  }
  return x;
}

Values load(const Tensor& tensor) {
  Values values(tensor.elementCount());
  for (uint64_t i = 0; i < values.size(); ++i) values[i] = tensor.load(i);
  return values;
}

// An optional operand's values, or an empty vector when absent.
Values loadOptional(const KernelContext& context, const std::optional<graph::OperandId>& operand) {
  return operand ? load(context.operand(*operand)) : Values{};
}

void store(const Tensor& tensor, uint64_t offset, const Values& values) {
  for (uint64_t i = 0; i < values.size(); ++i) tensor.store(offset + i, values[i]);
}

// Row-major views into weights: `rows` x `columns` matrices, one per direction; bias vectors
// (nullptr when absent) of `gates * hiddenSize` per direction.
struct CellWeights {
  const double* weight = nullptr;           // [gates * hiddenSize, inputSize]
  const double* recurrentWeight = nullptr;  // [gates * hiddenSize, hiddenSize]
  const double* bias = nullptr;             // [gates * hiddenSize] or nullptr
  const double* recurrentBias = nullptr;    // [gates * hiddenSize] or nullptr
  const double* peepholeWeight = nullptr;   // [3 * hiddenSize] or nullptr (lstm)
};

CellWeights directionWeights(const Values& weight, const Values& recurrentWeight,
                             const Values& bias, const Values& recurrentBias,
                             const Values& peepholeWeight, uint64_t direction, uint64_t gates,
                             uint64_t hiddenSize, uint64_t inputSize) {
  const uint64_t rows = gates * hiddenSize;
  CellWeights w;
  w.weight = weight.data() + direction * rows * inputSize;
  w.recurrentWeight = recurrentWeight.data() + direction * rows * hiddenSize;
  if (!bias.empty()) w.bias = bias.data() + direction * rows;
  if (!recurrentBias.empty()) w.recurrentBias = recurrentBias.data() + direction * rows;
  if (!peepholeWeight.empty())
    w.peepholeWeight = peepholeWeight.data() + direction * 3 * hiddenSize;
  return w;
}

double dot(const double* a, const double* b, uint64_t n) {
  double sum = 0;
  for (uint64_t k = 0; k < n; ++k) sum += a[k] * b[k];
  return sum;
}

double at(const double* vector, uint64_t index) {
  return vector ? vector[index] : 0.0;
}

struct Sizes {
  uint64_t batchSize, inputSize, hiddenSize;
};

// One gruCell step: `hidden` ([batchSize, hiddenSize]) is replaced by the new hidden state.
void gruStep(const Sizes& s, const CellWeights& w, const double* input, Values& hidden,
             const graph::GruGates& gates, bool resetAfter, const Activations& activations) {
  const uint64_t hs = s.hiddenSize;
  const auto& [gz, gr, gn] = gates;
  Values next(s.batchSize * hs);
  Values reset(hs);
  for (uint64_t b = 0; b < s.batchSize; ++b) {
    const double* x = input + b * s.inputSize;
    const double* h = hidden.data() + b * hs;
    // x . W[row] + h . R[row] for gate row `row`.
    auto inputPart = [&](uint64_t row) {
      return dot(x, w.weight + row * s.inputSize, s.inputSize);
    };
    auto recurrentPart = [&](uint64_t row) { return dot(h, w.recurrentWeight + row * hs, hs); };
    for (uint64_t j = 0; j < hs; ++j) {
      const uint64_t row = gr * hs + j;
      reset[j] = activate(activations[0], at(w.bias, row) + at(w.recurrentBias, row) +
                                              inputPart(row) + recurrentPart(row));
    }
    for (uint64_t j = 0; j < hs; ++j) {
      const uint64_t zRow = gz * hs + j;
      const uint64_t nRow = gn * hs + j;
      const double z = activate(activations[0], at(w.bias, zRow) + at(w.recurrentBias, zRow) +
                                                    inputPart(zRow) + recurrentPart(zRow));
      double n;
      if (resetAfter) {
        n = at(w.bias, nRow) + inputPart(nRow) +
            reset[j] * (at(w.recurrentBias, nRow) + recurrentPart(nRow));
      } else {
        const double* r = w.recurrentWeight + nRow * hs;
        double resetHidden = 0;
        for (uint64_t k = 0; k < hs; ++k) resetHidden += reset[k] * h[k] * r[k];
        n = at(w.bias, nRow) + at(w.recurrentBias, nRow) + inputPart(nRow) + resetHidden;
      }
      n = activate(activations[1], n);
      next[b * hs + j] = z * h[j] + (1.0 - z) * n;
    }
  }
  hidden = std::move(next);
}

// One lstmCell step: `hidden` and `cell` ([batchSize, hiddenSize]) are replaced.
void lstmStep(const Sizes& s, const CellWeights& w, const double* input, Values& hidden,
              Values& cell, const graph::LstmGates& gates, const Activations& activations) {
  const uint64_t hs = s.hiddenSize;
  Values nextHidden(s.batchSize * hs);
  Values nextCell(s.batchSize * hs);
  for (uint64_t b = 0; b < s.batchSize; ++b) {
    const double* x = input + b * s.inputSize;
    const double* h = hidden.data() + b * hs;
    const double* c = cell.data() + b * hs;
    for (uint64_t j = 0; j < hs; ++j) {
      // The pre-activation of the gate at position `gate`, with peephole slot `peephole`.
      auto gate = [&](uint32_t position, std::optional<uint32_t> peephole) {
        const uint64_t row = position * hs + j;
        double sum = at(w.bias, row) + at(w.recurrentBias, row) +
                     dot(x, w.weight + row * s.inputSize, s.inputSize) +
                     dot(h, w.recurrentWeight + row * hs, hs);
        if (peephole) sum += c[j] * at(w.peepholeWeight, *peephole * hs + j);
        return sum;
      };
      const double i = activate(activations[0], gate(gates.i, 0));
      const double f = activate(activations[0], gate(gates.f, 2));
      const double g = activate(activations[1], gate(gates.g, std::nullopt));
      const double o = activate(activations[0], gate(gates.o, 1));
      const double ct = f * c[j] + i * g;
      nextCell[b * hs + j] = ct;
      nextHidden[b * hs + j] = o * activate(activations[2], ct);
    }
  }
  hidden = std::move(nextHidden);
  cell = std::move(nextCell);
}

void gruCell(const KernelContext& context) {
  const auto& a = context.attributes<graph::GruCellAttributes>();
  const Tensor input = context.input(0);
  const Sizes s{input.shape()[0], input.shape()[1], a.hiddenSize};
  const Values x = load(input), weight = load(context.input(1)),
               recurrentWeight = load(context.input(2));
  Values hidden = load(context.input(3));
  const Values bias = loadOptional(context, a.bias),
               recurrentBias = loadOptional(context, a.recurrentBias);
  const CellWeights w = directionWeights(weight, recurrentWeight, bias, recurrentBias, {}, 0, 3,
                                         s.hiddenSize, s.inputSize);
  gruStep(s, w, x.data(), hidden, graph::gruGates(a.layout), a.resetAfter, a.activations);
  store(context.output(0), 0, hidden);
}

void lstmCell(const KernelContext& context) {
  const auto& a = context.attributes<graph::LstmCellAttributes>();
  const Tensor input = context.input(0);
  const Sizes s{input.shape()[0], input.shape()[1], a.hiddenSize};
  const Values x = load(input), weight = load(context.input(1)),
               recurrentWeight = load(context.input(2));
  Values hidden = load(context.input(3));
  Values cell = load(context.input(4));
  const Values bias = loadOptional(context, a.bias),
               recurrentBias = loadOptional(context, a.recurrentBias),
               peephole = loadOptional(context, a.peepholeWeight);
  const CellWeights w = directionWeights(weight, recurrentWeight, bias, recurrentBias, peephole, 0,
                                         4, s.hiddenSize, s.inputSize);
  lstmStep(s, w, x.data(), hidden, cell, graph::lstmGates(a.layout), a.activations);
  store(context.output(0), 0, hidden);
  store(context.output(1), 0, cell);
}

// The time step that step number `step` of direction `direction` reads (and writes in the
// sequence output): forward walks 0..steps-1, backward (and the second direction of "both")
// walks steps-1..0.
uint64_t timeIndex(MLRecurrentNetworkDirection mode, uint64_t direction, uint64_t step,
                   uint64_t steps) {
  const bool backward = direction == 1 || mode == MLRecurrentNetworkDirection::Backward;
  return backward ? steps - step - 1 : step;
}

// Initial state of one direction: a slice of the given [numDirections, batch, hidden] state, or
// zeros.
Values initialState(const Values& given, uint64_t direction, uint64_t size) {
  if (given.empty()) return Values(size, 0.0);
  return Values(given.begin() + direction * size, given.begin() + (direction + 1) * size);
}

void gru(const KernelContext& context) {
  const auto& a = context.attributes<graph::GruAttributes>();
  const Tensor input = context.input(0);
  const Sizes s{input.shape()[1], input.shape()[2], a.hiddenSize};
  const uint64_t directions = a.direction == MLRecurrentNetworkDirection::Both ? 2 : 1;
  const uint64_t stateSize = s.batchSize * s.hiddenSize;
  const Values x = load(input), weight = load(context.input(1)),
               recurrentWeight = load(context.input(2));
  const Values bias = loadOptional(context, a.bias),
               recurrentBias = loadOptional(context, a.recurrentBias),
               initialHidden = loadOptional(context, a.initialHiddenState);
  for (uint64_t d = 0; d < directions; ++d) {
    const CellWeights w = directionWeights(weight, recurrentWeight, bias, recurrentBias, {}, d, 3,
                                           s.hiddenSize, s.inputSize);
    Values hidden = initialState(initialHidden, d, stateSize);
    for (uint64_t step = 0; step < a.steps; ++step) {
      const uint64_t t = timeIndex(a.direction, d, step, a.steps);
      gruStep(s, w, x.data() + t * s.batchSize * s.inputSize, hidden, graph::gruGates(a.layout),
              a.resetAfter, a.activations);
      if (a.returnSequence) store(context.output(1), (t * directions + d) * stateSize, hidden);
    }
    store(context.output(0), d * stateSize, hidden);
  }
}

void lstm(const KernelContext& context) {
  const auto& a = context.attributes<graph::LstmAttributes>();
  const Tensor input = context.input(0);
  const Sizes s{input.shape()[1], input.shape()[2], a.hiddenSize};
  const uint64_t directions = a.direction == MLRecurrentNetworkDirection::Both ? 2 : 1;
  const uint64_t stateSize = s.batchSize * s.hiddenSize;
  const Values x = load(input), weight = load(context.input(1)),
               recurrentWeight = load(context.input(2));
  const Values bias = loadOptional(context, a.bias),
               recurrentBias = loadOptional(context, a.recurrentBias),
               peephole = loadOptional(context, a.peepholeWeight),
               initialHidden = loadOptional(context, a.initialHiddenState),
               initialCell = loadOptional(context, a.initialCellState);
  for (uint64_t d = 0; d < directions; ++d) {
    const CellWeights w = directionWeights(weight, recurrentWeight, bias, recurrentBias, peephole,
                                           d, 4, s.hiddenSize, s.inputSize);
    Values hidden = initialState(initialHidden, d, stateSize);
    Values cell = initialState(initialCell, d, stateSize);
    for (uint64_t step = 0; step < a.steps; ++step) {
      const uint64_t t = timeIndex(a.direction, d, step, a.steps);
      lstmStep(s, w, x.data() + t * s.batchSize * s.inputSize, hidden, cell,
               graph::lstmGates(a.layout), a.activations);
      if (a.returnSequence) store(context.output(2), (t * directions + d) * stateSize, hidden);
    }
    store(context.output(0), d * stateSize, hidden);
    store(context.output(1), d * stateSize, cell);
  }
}

}  // namespace

void registerRecurrentKernels(KernelTable& table) {
  table.set(graph::OpType::Gru, gru);
  table.set(graph::OpType::GruCell, gruCell);
  table.set(graph::OpType::Lstm, lstm);
  table.set(graph::OpType::LstmCell, lstmCell);
}

}  // namespace webnn::reference
