// gru, gruCell, lstm, lstmCell (recurrent_prepare.comp, gru_step.comp, lstm_step.comp,
// recurrent_finish.comp): the state lives in the graph's scratch buffer as float32 (biases and
// peepholes, two hidden-state slots read and written in turn, the cell state, gru's reset
// gates); each time step of each direction is one step (two for gru with resetAfter false) of
// one invocation per (batch, hidden unit). Directions run one after the other, as the
// reference's.
#include <algorithm>
#include <optional>
#include <string>

#include "backends/vulkan/kernel.h"
#include "graph/ops/recurrent.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;

constexpr uint32_t kNone = 0xffffffffu;

// What a gru/lstm (or cell) is, whichever op it came from.
struct Recurrence {
  bool lstm = false;
  uint32_t steps = 1, directions = 1, batch = 0, inputSize = 0, hiddenSize = 0;
  bool backward = false;  // the only direction walks the steps backwards
  bool resetAfter = true;
  std::vector<uint32_t> gates;  // gru: z, r, n; lstm: i, o, f, g
  std::vector<uint32_t> activations;
  std::optional<graph::OperandId> bias, recurrentBias, peephole, initialHidden, initialCell;
  std::optional<graph::OperandId> hiddenOut, cellOut, sequenceOut;
};

// Offsets (in 32-bit words) of the scratch buffer's regions.
struct ScratchLayout {
  uint32_t bias = 0, recurrentBias = 0, peephole = 0, hidden[2] = {0, 0}, cell = 0, reset = 0;
  uint32_t biasCount = 0, peepholeCount = 0, stateCount = 0;
  uint64_t bytes = 0;
};

ScratchLayout layoutOf(const Recurrence& r) {
  const uint64_t gates = r.lstm ? 4 : 3;
  const uint64_t biasCount = r.directions * gates * r.hiddenSize;
  const uint64_t peepholeCount = r.lstm ? r.directions * 3ull * r.hiddenSize : 0;
  const uint64_t stateCount = uint64_t{r.directions} * r.batch * r.hiddenSize;
  const uint64_t words =
      2 * biasCount + peepholeCount + 3 * stateCount + uint64_t{r.batch} * r.hiddenSize;
  if (words > 0xffffffffull / 4) {
    throw Error(Error::Kind::NotSupportedError,
                "vulkan: the recurrent state needs more than 2^30 words of scratch");
  }
  ScratchLayout s;
  s.biasCount = static_cast<uint32_t>(biasCount);
  s.peepholeCount = static_cast<uint32_t>(peepholeCount);
  s.stateCount = static_cast<uint32_t>(stateCount);
  s.recurrentBias = s.biasCount;
  s.peephole = 2 * s.biasCount;
  s.hidden[0] = s.peephole + s.peepholeCount;
  s.hidden[1] = s.hidden[0] + s.stateCount;
  s.cell = s.hidden[1] + s.stateCount;
  s.reset = s.cell + s.stateCount;
  s.bytes = words * 4;
  return s;
}

void emit(const OpContext& context, const Recurrence& r, std::vector<Step>& steps) {
  const graph::OperandId x = context.input(0), weight = context.input(1),
                         recurrentWeight = context.input(2), scratch = context.scratch();
  elementCount(context.shape(x), "the input");
  elementCount(context.shape(weight), "the weight");
  elementCount(context.shape(recurrentWeight), "the recurrent weight");
  const ScratchLayout s = layoutOf(r);
  const bool float16 = context.descriptor(x).dataType == T::Float16;
  auto push = [&](Step step) {
    step.float16 = float16;
    step.scratchBytes = s.bytes;
    steps.push_back(std::move(step));
  };

  const uint32_t prepared = std::max({s.biasCount, s.peepholeCount, s.stateCount});
  push(elementwiseStep(
      "recurrent_prepare", prepared,
      {prepared, r.bias ? 1u : 0u, r.recurrentBias ? 1u : 0u, r.peephole ? 1u : 0u,
       r.initialHidden ? 1u : 0u, r.initialCell ? 1u : 0u, s.biasCount, s.peepholeCount,
       s.stateCount, s.bias, s.recurrentBias, s.peephole, s.hidden[0], s.cell},
      {r.bias.value_or(x), r.recurrentBias.value_or(x), r.peephole.value_or(x),
       r.initialHidden.value_or(x), r.initialCell.value_or(x), scratch}));

  const uint32_t units = r.batch * r.hiddenSize;
  const uint32_t gates = r.lstm ? 4 : 3;
  for (uint32_t d = 0; d < r.directions; ++d) {
    const uint32_t state = d * units;
    for (uint32_t step = 0; step < r.steps; ++step) {
      const bool backward = d == 1 || r.backward;
      const uint32_t t = backward ? r.steps - 1 - step : step;
      const uint32_t read = s.hidden[step % 2] + state, write = s.hidden[(step + 1) % 2] + state;
      const uint32_t xOffset = t * r.batch * r.inputSize;
      const uint32_t weightOffset = d * gates * r.hiddenSize * r.inputSize;
      const uint32_t recurrentOffset = d * gates * r.hiddenSize * r.hiddenSize;
      const uint32_t biasOffset = d * gates * r.hiddenSize;
      const uint32_t sequence = r.sequenceOut ? (t * r.directions + d) * units : kNone;
      const std::vector<graph::OperandId> bindings{x, weight, recurrentWeight, scratch,
                                                   r.sequenceOut.value_or(*r.hiddenOut)};
      if (r.lstm) {
        push(elementwiseStep("lstm_step", units,
                             {units,
                              r.inputSize,
                              r.hiddenSize,
                              xOffset,
                              weightOffset,
                              recurrentOffset,
                              read,
                              write,
                              s.cell + state,
                              s.bias + biasOffset,
                              s.recurrentBias + biasOffset,
                              s.peephole + d * 3 * r.hiddenSize,
                              sequence,
                              r.gates[0],
                              r.gates[1],
                              r.gates[2],
                              r.gates[3],
                              r.activations.at(0),
                              r.activations.at(1),
                              r.activations.at(2)},
                             bindings));
        continue;
      }
      auto gruStep = [&](uint32_t mode) {
        return elementwiseStep(
            "gru_step", units,
            {units, r.inputSize, r.hiddenSize, xOffset, weightOffset, recurrentOffset, read, write,
             s.reset, s.bias + biasOffset, s.recurrentBias + biasOffset, sequence, r.gates[0],
             r.gates[1], r.gates[2], r.activations.at(0), r.activations.at(1), mode},
            bindings);
      };
      if (r.resetAfter) {
        push(gruStep(0));
      } else {
        push(gruStep(1));
        push(gruStep(2));
      }
    }
    push(elementwiseStep(
        "recurrent_finish", units,
        {units, s.hidden[r.steps % 2] + state, s.cell + state, state, r.cellOut ? 1u : 0u},
        {scratch, *r.hiddenOut, r.cellOut.value_or(*r.hiddenOut)}));
  }
}

std::vector<uint32_t> activationCodes(const std::vector<MLRecurrentNetworkActivation>& list) {
  std::vector<uint32_t> codes;
  for (auto activation : list) codes.push_back(static_cast<uint32_t>(activation));
  return codes;
}

void compileGru(const OpContext& context, std::vector<Step>& steps) {
  const auto& a = context.operation.attributesAs<graph::GruAttributes>();
  const auto& shape = context.shape(context.input(0));  // [steps, batch, inputSize]
  Recurrence r;
  r.steps = a.steps;
  r.directions = a.direction == MLRecurrentNetworkDirection::Both ? 2 : 1;
  r.backward = a.direction == MLRecurrentNetworkDirection::Backward;
  r.batch = shape.at(1);
  r.inputSize = shape.at(2);
  r.hiddenSize = a.hiddenSize;
  r.resetAfter = a.resetAfter;
  const graph::GruGates g = graph::gruGates(a.layout);
  r.gates = {g.z, g.r, g.n};
  r.activations = activationCodes(a.activations);
  r.bias = a.bias;
  r.recurrentBias = a.recurrentBias;
  r.initialHidden = a.initialHiddenState;
  r.hiddenOut = context.output(0);
  if (a.returnSequence) r.sequenceOut = context.output(1);
  emit(context, r, steps);
}

void compileGruCell(const OpContext& context, std::vector<Step>& steps) {
  const auto& a = context.operation.attributesAs<graph::GruCellAttributes>();
  const auto& shape = context.shape(context.input(0));  // [batch, inputSize]
  Recurrence r;
  r.batch = shape.at(0);
  r.inputSize = shape.at(1);
  r.hiddenSize = a.hiddenSize;
  r.resetAfter = a.resetAfter;
  const graph::GruGates g = graph::gruGates(a.layout);
  r.gates = {g.z, g.r, g.n};
  r.activations = activationCodes(a.activations);
  r.bias = a.bias;
  r.recurrentBias = a.recurrentBias;
  r.initialHidden = context.input(3);
  r.hiddenOut = context.output(0);
  emit(context, r, steps);
}

void compileLstm(const OpContext& context, std::vector<Step>& steps) {
  const auto& a = context.operation.attributesAs<graph::LstmAttributes>();
  const auto& shape = context.shape(context.input(0));  // [steps, batch, inputSize]
  Recurrence r;
  r.lstm = true;
  r.steps = a.steps;
  r.directions = a.direction == MLRecurrentNetworkDirection::Both ? 2 : 1;
  r.backward = a.direction == MLRecurrentNetworkDirection::Backward;
  r.batch = shape.at(1);
  r.inputSize = shape.at(2);
  r.hiddenSize = a.hiddenSize;
  const graph::LstmGates g = graph::lstmGates(a.layout);
  r.gates = {g.i, g.o, g.f, g.g};
  r.activations = activationCodes(a.activations);
  r.bias = a.bias;
  r.recurrentBias = a.recurrentBias;
  r.peephole = a.peepholeWeight;
  r.initialHidden = a.initialHiddenState;
  r.initialCell = a.initialCellState;
  r.hiddenOut = context.output(0);
  r.cellOut = context.output(1);
  if (a.returnSequence) r.sequenceOut = context.output(2);
  emit(context, r, steps);
}

void compileLstmCell(const OpContext& context, std::vector<Step>& steps) {
  const auto& a = context.operation.attributesAs<graph::LstmCellAttributes>();
  const auto& shape = context.shape(context.input(0));  // [batch, inputSize]
  Recurrence r;
  r.lstm = true;
  r.batch = shape.at(0);
  r.inputSize = shape.at(1);
  r.hiddenSize = a.hiddenSize;
  const graph::LstmGates g = graph::lstmGates(a.layout);
  r.gates = {g.i, g.o, g.f, g.g};
  r.activations = activationCodes(a.activations);
  r.bias = a.bias;
  r.recurrentBias = a.recurrentBias;
  r.peephole = a.peepholeWeight;
  r.initialHidden = context.input(3);
  r.initialCell = context.input(4);
  r.hiddenOut = context.output(0);
  r.cellOut = context.output(1);
  emit(context, r, steps);
}

}  // namespace

void registerRecurrentOps(OpTable& table) {
  table.set(OpType::Gru, {compileGru, {T::Float32, T::Float16}, {}});
  table.set(OpType::GruCell, {compileGruCell, {T::Float32, T::Float16}, {}});
  table.set(OpType::Lstm, {compileLstm, {T::Float32, T::Float16}, {}});
  table.set(OpType::LstmCell, {compileLstmCell, {T::Float32, T::Float16}, {}});
}

}  // namespace webnn::vulkan
