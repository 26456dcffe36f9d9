#include "backends/cpu/compiler.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "backends/cpu/cpu_constant_slot.h"
#include "backends/cpu/executable.h"
#include "backends/cpu/fusion.h"
#include "backends/cpu/op_table.h"
#include "backends/cpu/strided_views.h"
#include "backends/reference/reference_backend.h"
#include "webnn/types.h"

namespace webnn::cpu {
namespace {

// A blocked activation reordered to its descriptor's plain layout, for consumers that read plain.
// A plain row-major descriptor of `dims` with the element type of `blocked` (float32, or the
// uint8 a quantized step writes).
dnnl::memory::desc plainDescLike(const dnnl::memory::desc& blocked,
                                 const dnnl::memory::dims& dims) {
  dnnl_memory_desc_t plain = plainFloat32Desc(dims).data;
  plain.data_type = blocked.data.data_type;
  return dnnl::memory::desc(plain);
}

class ToPlainOp final : public CpuOp {
 public:
  ToPlainOp(const dnnl::engine& engine, const dnnl::memory::desc& blocked,
            const MLOperandDescriptor& descriptor, graph::OperandId from, graph::OperandId to)
      : engine_(engine),
        blocked_(blocked),
        plain_(plainDescLike(blocked, dimsOf(descriptor.shape))),
        from_(from),
        to_(to),
        primitiveDesc_(engine, blocked_, engine, plain_),
        primitive_(primitiveDesc_) {}

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    dnnl::memory source(blocked_, engine_, dataOf(tensors, from_));
    dnnl::memory destination(plain_, engine_, dataOf(tensors, to_));
    primitive_.execute(stream, source, destination);
  }
  std::string implementation() const override { return implementationOf(primitiveDesc_); }
  bool fixesThreadCount() const override { return true; }

 private:
  dnnl::engine engine_;
  dnnl::memory::desc blocked_, plain_;
  graph::OperandId from_, to_;
  dnnl::reorder::primitive_desc primitiveDesc_;
  dnnl::reorder primitive_;
};

// An op's implementation, or why there is none of the backend's own.
struct Created {
  std::unique_ptr<CpuOp> op;
  std::string whyNot;
};

Created createOp(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  const CpuOpEntry& entry = cpuOpEntry(operation.type);
  if (!entry.create) return {nullptr, "no implementation of the cpu backend's own"};
  const MLOperandDataType dataType = operationDataType(context.ir, operation);
  if (!entry.dataTypes.contains(dataType)) {
    return {nullptr, "no " + std::string(toString(dataType)) + " implementation"};
  }
  try {
    std::unique_ptr<CpuOp> op = entry.create(context);
    if (!op) return {nullptr, "its implementation declines these attributes, shapes or types"};
    return {std::move(op), ""};
  } catch (const dnnl::error& error) {
    return {nullptr, std::string("oneDNN has no implementation: ") + error.what()};
  }
}

class PlanCompiler {
 public:
  PlanCompiler(const graph::GraphIR& ir, const dnnl::engine& engine, CpuConstants& constants,
               std::shared_ptr<backend::MemoryAccount> memory, const PlanOptions& options)
      : ir_(ir), engine_(engine), constants_(constants), memory_(std::move(memory)) {
    plan_.blockQuantizedInt8Activations = options.blockQuantizedInt8Activations;
  }

  CpuPlan compile() {
    compileSteps();
    planActivations();
    return std::move(plan_);
  }

 private:
  // A new tensor beyond the IR's operands (a plain copy of a blocked operand, a workspace).
  graph::OperandId newTensor(graph::OperandId describedBy) {
    plan_.describedBy.push_back(describedBy);
    plan_.layouts.emplace_back();
    return static_cast<graph::OperandId>(plan_.tensorCount++);
  }

  // The plain copy of blocked operand `id`, made by a reorder step the first time it is needed.
  graph::OperandId plainCopyOf(graph::OperandId id) {
    auto it = plainCopies_.find(id);
    if (it != plainCopies_.end()) return it->second;
    const graph::OperandId copy = newTensor(id);
    PlanStep step;
    step.op =
        std::make_unique<ToPlainOp>(engine_, *plan_.layouts[id], ir_.descriptor(id), id, copy);
    step.reads = {id};
    step.writes = {copy};
    step.types = "reorder";
    step.label = ir_.operand(id).name;
    step.recipe.reorder = true;
    step.implementation = step.op->implementation();
    plan_.steps.push_back(std::move(step));
    plainCopies_.emplace(id, copy);
    return copy;
  }

  // Why a step running `chain` (reading `inputs`) cannot write into `residual`'s buffer (a sum
  // post-op), or empty: the buffer must be one an earlier step wrote (in the arena: not a graph
  // input, nor the base of a matmul's strided view), the step must not read it otherwise, and
  // every other reader of it must have run in an earlier step.
  std::string whyNotSummedInto(graph::OperandId residual, const FusionChain& chain,
                               const std::vector<graph::OperandId>& inputs) const {
    bool written = false;
    for (const PlanStep& step : plan_.steps) {
      written = written ||
                std::find(step.writes.begin(), step.writes.end(), residual) != step.writes.end();
    }
    if (!written) return "the residual it would sum into has no buffer of its own";
    if (std::find(inputs.begin(), inputs.end(), residual) != inputs.end()) {
      return "the step reads the residual it would sum into";
    }
    for (const FusedPostOp& postOp : chain.postOps) {
      if (postOp.kind == FusedPostOp::Kind::Binary && postOp.other == residual) {
        return "the step reads the residual it would sum into";
      }
    }
    for (uint32_t consumer : ir_.consumersOf(residual)) {
      if (std::find(chain.operations.begin(), chain.operations.end(), consumer) !=
          chain.operations.end()) {
        continue;
      }
      const OperationPlacement& placement = plan_.operations[consumer];
      const bool ran = placement.kind == OperationPlacement::Kind::Step ||
                       placement.kind == OperationPlacement::Kind::Fused;
      if (!ran || placement.step >= plan_.steps.size()) {
        return "the residual it would sum into is read by a later step";
      }
    }
    return {};
  }

  // Whether every consumer of `id` may read it blocked (and it is not a graph output).
  bool consumersReadBlocked(graph::OperandId id) const {
    if (ir_.isGraphOutput(id)) return false;
    for (uint32_t consumer : ir_.consumersOf(id)) {
      if (fusion_.anchorOf[consumer] >= 0) {
        // The input dequantizeLinear of a quantized conv2d: the conv2d reads the quantized
        // tensor, in the layout its primitive wants when the producer wrote that one.
        const auto anchor = static_cast<size_t>(fusion_.anchorOf[consumer]);
        const auto& chain = fusion_.chains[anchor];
        if (chain && chain->quantized && chain->quantized->inputDequantize == consumer &&
            ir_.operations[anchor].type == graph::OpType::Conv2d) {
          return true;
        }
        // Otherwise it reads it as a post-op operand (any layout) or is not reached here.
        continue;
      }
      if (cpuOpEntry(ir_.operations[consumer].type).readsBlockedLayouts) return true;
    }
    return false;
  }

  // Compiles operation `index` (with `chain` fused into it when given) into a step. Returns false
  // when no implementation takes the chain (the caller then compiles the operations alone), with
  // the reason in `whyNotFused`.
  bool compileOperation(size_t index, const FusionChain* chain,
                        std::string* whyNotFused = nullptr) {
    const graph::Operation& operation = ir_.operations[index];
    OpCompileContext context{ir_, operation, engine_, memory_};
    context.constants = &constants_;
    context.blockQuantizedInt8Activations = plan_.blockQuantizedInt8Activations;
    context.layouts = &plan_.layouts;
    context.fusion = chain;
    const MatmulViews* views = views_.views[index] ? &*views_.views[index] : nullptr;
    context.views = views;
    graph::OperandId output = chain ? chain->output : operation.outputs.at(0);
    if (views && views->output) output = views->output->base;
    // What the step reads: the operation's inputs, or the tensors their views are in.
    std::vector<graph::OperandId> inputs = operation.inputs;
    if (views && views->a) inputs[0] = views->a->base;
    if (views && views->b) inputs[1] = views->b->base;
    // A quantized anchor reads the quantized tensors, not the dequantized ones (never computed).
    if (chain && chain->quantized) {
      const QuantizedOperands& q = *chain->quantized;
      inputs[0] = q.input;
      inputs[1] = q.weights;
      inputs.insert(inputs.end(),
                    {q.inputScale, q.inputZeroPoint, q.weightsScale, q.weightsZeroPoint});
      if (q.bias) inputs.insert(inputs.end(), {q.bias->values, q.bias->scale, q.bias->zeroPoint});
      if (chain->quantizedOutput) {
        inputs.insert(inputs.end(),
                      {chain->quantizedOutput->scale, chain->quantizedOutput->zeroPoint});
      }
    }
    // A matmul on block-quantized weights reads them (and their scales and zero points) as stored.
    if (chain && chain->blockQuantized) {
      const BlockQuantizedWeightsOperand& weights = *chain->blockQuantized;
      inputs[1] = weights.weights;
      inputs.push_back(weights.scale);
      if (weights.zeroPoint) inputs.push_back(*weights.zeroPoint);
    }
    // A residual the step sums into: its buffer must be one a step of its own wrote (not a
    // graph input, nor the base of a matmul's strided view).
    std::optional<graph::OperandId> sumInto;
    if (chain) {
      for (const FusedPostOp& postOp : chain->postOps) {
        if (postOp.kind == FusedPostOp::Kind::Sum) sumInto = postOp.other;
      }
    }
    if (sumInto) {
      if (const std::string whyNot = whyNotSummedInto(*sumInto, *chain, inputs); !whyNot.empty()) {
        if (whyNotFused) *whyNotFused = whyNot;
        return false;
      }
    }
    context.plainOutput = operation.outputs.size() != 1 || !consumersReadBlocked(output);
    const bool readsBlocked = cpuOpEntry(operation.type).readsBlockedLayouts;
    context.inputsPlain = !readsBlocked;
    Created created = createOp(context);
    if (!created.op && readsBlocked) {  // the layouts it was given: retry on plain inputs
      context.inputsPlain = true;
      created = createOp(context);
    }
    if (!created.op && chain) {
      if (whyNotFused) *whyNotFused = created.whyNot;
      return false;
    }
    std::string fallbackReason;
    if (!created.op) {
      const reference::Kernel* kernel = reference::referenceKernels().find(operation.type);
      if (!kernel) {
        missing_.insert(graph::specName(operation.type));
        return true;
      }
      context.inputsPlain = true;
      created.op = createReferenceFallbackOp(context, *kernel);
      fallbackReason = std::move(created.whyNot);
    }
    std::unique_ptr<CpuOp> op = std::move(created.op);

    PlanStep step;
    step.operations = {static_cast<uint32_t>(index)};
    // The spec names of the step's operations in graph order (the operations fused before the
    // anchor produce its operands: dequantizeLinear, reshape, transpose).
    for (size_t fused : chain ? chain->operations : std::vector<size_t>{}) {
      if (fused < index)
        step.types += std::string(graph::specName(ir_.operations[fused].type)) + "+";
    }
    step.types += std::string(graph::specName(operation.type));
    step.label = operation.label;
    step.reads = inputs;
    step.fallbackReason = std::move(fallbackReason);
    if (chain) {
      for (size_t fused : chain->operations) {
        step.operations.push_back(static_cast<uint32_t>(fused));
        if (fused > index)
          step.types += "+" + std::string(graph::specName(ir_.operations[fused].type));
      }
      for (const FusedPostOp& postOp : chain->postOps) {
        if (postOp.kind == FusedPostOp::Kind::Binary || postOp.kind == FusedPostOp::Kind::Sum) {
          step.reads.push_back(postOp.other);
        }
      }
      step.writes = {output};
      step.outputInto = sumInto;
    } else {
      step.writes = views && views->output ? std::vector{output} : operation.outputs;
    }
    // Blocked inputs of an op that got them plain: through their plain copies.
    if (context.inputsPlain) {
      for (graph::OperandId input : inputs) {
        if (!plan_.layouts[input]) continue;
        bool seen = false;
        for (const auto& view : step.plainViews) seen = seen || view.first == input;
        if (seen) continue;
        const graph::OperandId copy = plainCopyOf(input);
        step.plainViews.emplace_back(input, copy);
        step.reads.push_back(copy);
      }
    }
    if (op->needsZeroedOutputs()) step.zeroedOutputs = step.writes;
    if (auto layout = op->outputLayout()) plan_.layouts[output] = *layout;
    step.workspaceBytes = op->workspaceBytes();
    if (step.workspaceBytes > 0) {
      step.workspace = newTensor(output);
      step.writes.push_back(step.workspace);
    }
    const size_t stepIndex = plan_.steps.size();
    plan_.operations[index].kind = OperationPlacement::Kind::Step;
    plan_.operations[index].step = stepIndex;
    if (chain) {
      for (size_t fused : chain->operations) {
        plan_.operations[fused].kind = OperationPlacement::Kind::Fused;
        plan_.operations[fused].step = stepIndex;
      }
    }
    step.implementation = op->implementation();
    step.op = std::move(op);
    step.recipe.operation = static_cast<uint32_t>(index);
    if (chain) step.recipe.chain = *chain;
    if (views) step.recipe.views = *views;
    step.recipe.inputsPlain = context.inputsPlain;
    step.recipe.plainOutput = context.plainOutput;
    plan_.steps.push_back(std::move(step));
    return true;
  }

  // With fusion_.chains[anchor] summing into a residual: compiles the chain up to the add (or the
  // anchor alone, or every operation alone when no implementation takes that either), then the
  // add and the operations after it one by one. False when the chain has no sum.
  bool compileWithoutSum(size_t anchor, const std::string& whyNot) {
    FusionChain& chain = *fusion_.chains[anchor];
    const auto sum = std::find_if(chain.postOps.begin(), chain.postOps.end(),
                                  [](const auto& op) { return op.kind == FusedPostOp::Kind::Sum; });
    if (sum == chain.postOps.end()) return false;
    const graph::OperandId residual = sum->other;
    const auto add = std::find_if(chain.operations.begin(), chain.operations.end(), [&](size_t op) {
      const auto& inputs = ir_.operations[op].inputs;
      return std::find(inputs.begin(), inputs.end(), residual) != inputs.end();
    });
    const std::vector<size_t> rest(add, chain.operations.end());
    const auto& addInputs = ir_.operations[*add].inputs;
    chain.output = addInputs[0] == residual ? addInputs[1] : addInputs[0];
    chain.operations.erase(add, chain.operations.end());
    chain.postOps.erase(sum, chain.postOps.end());
    for (size_t operation : rest) fusion_.anchorOf[operation] = -1;
    plan_.operations[rest.front()].notFused =
        "a whole-tensor operand after conv2d, not summed into: " + whyNot;
    std::string whyNotShorter;
    if (chain.operations.empty() || !compileOperation(anchor, &chain, &whyNotShorter)) {
      std::vector<size_t> operations = chain.operations;
      fusion_.chains[anchor].reset();
      for (size_t fused : operations) fusion_.anchorOf[fused] = -1;
      if (!operations.empty()) {
        plan_.operations[operations.front()].notFused =
            "conv2d with its post-ops: " + whyNotShorter;
      }
      operations.push_back(anchor);
      std::sort(operations.begin(), operations.end());
      for (size_t operation : operations) compileOperation(operation, nullptr);
    }
    for (size_t operation : rest) compileOperation(operation, nullptr);
    return true;
  }

  void compileSteps() {
    const size_t count = ir_.operations.size();
    plan_.tensorCount = ir_.operands.size();
    plan_.layouts.assign(plan_.tensorCount, std::nullopt);
    plan_.describedBy.resize(plan_.tensorCount);
    for (size_t id = 0; id < plan_.tensorCount; ++id) {
      plan_.describedBy[id] = static_cast<graph::OperandId>(id);
    }
    plan_.operations.assign(count, {});
    fusion_ = planFusions(ir_);
    for (size_t i = 0; i < count; ++i) plan_.operations[i].notFused = fusion_.notFused[i];
    views_ = planViews(ir_, fusion_,
                       [this](const graph::Operation& matmul,
                              const MatmulViews& views) -> std::optional<std::string> {
                         // float16 weights kept 16-bit: a kernel of ours on plain operands.
                         if (runsOnHalfWeights(ir_, matmul, &constants_)) return std::nullopt;
                         // A quantized matmul reads and writes plain tensors.
                         const auto index = static_cast<size_t>(&matmul - ir_.operations.data());
                         if (fusion_.chains[index] && (fusion_.chains[index]->quantized ||
                                                       fusion_.chains[index]->blockQuantized)) {
                           return std::nullopt;
                         }
                         return matmulImplementationOnViews(engine_, ir_, matmul, views);
                       });
    for (size_t i = 0; i < count; ++i) {
      if (!views_.notViewed[i].empty() && plan_.operations[i].notFused.empty()) {
        plan_.operations[i].notFused = views_.notViewed[i];
      }
    }
    // A chain runs where its last operation (or its anchor, after the dequantizeLinear operations
    // of a quantized one) stood: every operand it reads exists by then.
    std::vector<int32_t> chainEndingAt(count, -1);
    for (size_t i = 0; i < count; ++i) {
      if (!fusion_.chains[i]) continue;
      const auto& operations = fusion_.chains[i]->operations;
      chainEndingAt[std::max(i, *std::max_element(operations.begin(), operations.end()))] =
          static_cast<int32_t>(i);
    }
    for (size_t i = 0; i < count; ++i) {
      if (views_.elided[i]) continue;  // read or written through strides: no step
      if (fusion_.chains[i] && chainEndingAt[i] < 0) continue;  // compiled at its chain's end
      if (chainEndingAt[i] >= 0) {
        const size_t anchor = static_cast<size_t>(chainEndingAt[i]);
        std::string whyNot;
        if (compileOperation(anchor, &*fusion_.chains[anchor], &whyNot)) continue;
        if (fusion_.chains[anchor]->quantized) {
          // No quantized implementation: the dequantizeLinear operations (after the reshapes of
          // their scales and zero points) run as steps first, in graph order, then the anchor
          // with its post-ops (if any) as a float chain, then the quantizeLinear.
          FusionChain& chain = *fusion_.chains[anchor];
          const QuantizedOperands q = *chain.quantized;
          const std::optional<QuantizedOutput> output = chain.quantizedOutput;
          chain.quantized.reset();
          chain.quantizedOutput.reset();
          std::vector<size_t> dequantizers{q.inputDequantize, q.weightsDequantize};
          dequantizers.insert(dequantizers.end(), q.reshapes.begin(), q.reshapes.end());
          if (q.bias) {
            dequantizers.push_back(q.bias->dequantize);
            dequantizers.insert(dequantizers.end(), q.bias->reshapes.begin(),
                                q.bias->reshapes.end());
          }
          std::sort(dequantizers.begin(), dequantizers.end());
          std::erase_if(chain.operations, [&](size_t operation) {
            return std::find(dequantizers.begin(), dequantizers.end(), operation) !=
                       dequantizers.end() ||
                   (output && operation == output->operation);
          });
          const std::string why = std::string(graph::specName(ir_.operations[anchor].type)) +
                                  " on its quantized operands: " + whyNot;
          for (size_t dequantize : dequantizers) {
            fusion_.anchorOf[dequantize] = -1;
            plan_.operations[dequantize].notFused = why;
            compileOperation(dequantize, nullptr);
          }
          if (output) {
            fusion_.anchorOf[output->operation] = -1;
            plan_.operations[output->operation].notFused = why;
            chain.output = ir_.operations[output->operation].inputs[0];
          }
          if (chain.operations.empty()) {
            fusion_.chains[anchor].reset();
            compileOperation(anchor, nullptr);
          } else if (!compileOperation(anchor, &chain, &whyNot)) {
            std::vector<size_t> operations = chain.operations;
            fusion_.chains[anchor].reset();
            for (size_t fused : operations) fusion_.anchorOf[fused] = -1;
            operations.push_back(anchor);
            std::sort(operations.begin(), operations.end());
            for (size_t operation : operations) compileOperation(operation, nullptr);
          }
          if (output) compileOperation(output->operation, nullptr);
          continue;
        }
        // A chain summing into a residual that the step cannot take (the conv2d would write a
        // layout its consumers do not read, or oneDNN has no direct convolution writing the
        // residual's): the chain up to the add, then the add and what follows as steps.
        if (compileWithoutSum(anchor, whyNot)) continue;
        // No implementation takes the chain: its operations one by one (the anchor among them, in
        // graph order), and the views after it run as steps (the last one of the chain writes
        // their input).
        std::vector<size_t> operations = fusion_.chains[anchor]->operations;
        fusion_.chains[anchor].reset();
        if (views_.views[anchor] && views_.views[anchor]->output) {
          views_.views[anchor]->output.reset();
          for (uint32_t view : views_.writtenThrough[anchor]) views_.elided[view] = false;
        }
        for (size_t fused : operations) fusion_.anchorOf[fused] = -1;
        plan_.operations[operations.front()].notFused =
            std::string(graph::specName(ir_.operations[anchor].type)) +
            " with its post-ops: " + whyNot;
        operations.push_back(anchor);
        std::sort(operations.begin(), operations.end());
        for (size_t operation : operations) compileOperation(operation, nullptr);
        continue;
      }
      if (fusion_.anchorOf[i] >= 0) continue;  // compiled at its chain's end
      compileOperation(i, nullptr);
    }
    for (size_t i = 0; i < count; ++i) {
      if (views_.elided[i]) plan_.operations[i].kind = OperationPlacement::Kind::View;
    }
    if (!missing_.empty()) {
      std::string names;
      for (const auto& name : missing_) names += (names.empty() ? "" : ", ") + std::string(name);
      throw Error(Error::Kind::NotSupportedError, "the cpu backend cannot run: " + names);
    }
  }

  // Liveness over the steps (a fused chain reads its operands at its own step), sizes in the
  // layouts the steps write, workspaces alive for their step only; one arena for all.
  void planActivations() {
    std::vector<graph::Lifetime> lifetimes;
    std::vector<int64_t> lifetimeOf(plan_.tensorCount, -1);
    // A step's output written into a residual's buffer (outputInto): one lifetime for both,
    // from the residual's definition to the output's last reader.
    std::vector<std::pair<graph::OperandId, graph::OperandId>> sharing;
    for (size_t s = 0; s < plan_.steps.size(); ++s) {
      const PlanStep& step = plan_.steps[s];
      const uint32_t index = static_cast<uint32_t>(s);
      for (graph::OperandId id : step.writes) {
        if (step.outputInto && id == step.writes.front()) {
          const auto residual = lifetimeOf.at(*step.outputInto);
          if (residual < 0)
            throw std::logic_error("cpu plan: a sum into a tensor outside the arena");
          lifetimeOf[id] = residual;
          sharing.emplace_back(id, *step.outputInto);
          continue;
        }
        const bool ownOperand = id < ir_.operands.size();
        if (ownOperand &&
            (ir_.operand(id).kind != graph::OperandKind::Intermediate || ir_.isGraphOutput(id))) {
          continue;
        }
        uint64_t bytes;
        if (id == step.workspace && step.workspaceBytes > 0) {
          bytes = step.workspaceBytes;
        } else if (plan_.layouts[id]) {
          bytes = plan_.layouts[id]->get_size();
        } else {
          bytes = ir_.descriptor(plan_.describedBy[id]).byteLength();
        }
        lifetimeOf[id] = static_cast<int64_t>(lifetimes.size());
        lifetimes.push_back({id, index, index, bytes});
      }
      for (graph::OperandId id : step.reads) {
        if (lifetimeOf[id] >= 0) lifetimes[static_cast<size_t>(lifetimeOf[id])].lastUse = index;
      }
    }
    plan_.arena = graph::planArena(lifetimes, plan_.tensorCount);
    for (const auto& [output, residual] : sharing) {
      plan_.arena.offsets[output] = plan_.arena.offsets[residual];
    }
    plan_.lifetimes = std::move(lifetimes);
  }

  const graph::GraphIR& ir_;
  const dnnl::engine& engine_;
  CpuConstants& constants_;
  std::shared_ptr<backend::MemoryAccount> memory_;

  FusionPlan fusion_;
  ViewPlan views_;
  CpuPlan plan_;
  std::unordered_map<graph::OperandId, graph::OperandId> plainCopies_;
  std::set<std::string_view> missing_;
};

}  // namespace

CpuPlan compilePlan(const graph::GraphIR& ir, const dnnl::engine& engine, CpuConstants& constants,
                    std::shared_ptr<backend::MemoryAccount> memory, const PlanOptions& options) {
  // The steps' oneDNN primitives are made on a helper thread while the compiler goes on to the
  // next steps' descriptors (deferred_primitive.h); all of them are made when this returns.
  PrimitiveBatch primitives;
  CpuPlan plan = PlanCompiler(ir, engine, constants, std::move(memory), options).compile();
  primitives.finish();
  return plan;
}

std::unique_ptr<CpuOp> compileAloneOp(const graph::GraphIR& ir, const dnnl::engine& engine,
                                      CpuConstants& constants,
                                      std::shared_ptr<backend::MemoryAccount> memory,
                                      const CpuPlan& plan, size_t index) {
  const PlanStep& step = plan.steps.at(index);
  if (!step.op->fixesThreadCount()) return nullptr;
  ThreadCountScope one(1);
  const PlanStep::Recipe& recipe = step.recipe;
  // It must be the same step: its output layout, its workspace within the step's; and as fast
  // a kind of implementation (with the team's layouts oneDNN may only have its reference one,
  // thousands of times slower: det's first convolution).
  const auto isReference = [](const std::string& name) { return name.rfind("ref", 0) == 0; };
  const auto fits = [&](const std::unique_ptr<CpuOp>& alone) {
    return alone && !alone->implementation().empty() &&
           !(isReference(alone->implementation()) && !isReference(step.implementation)) &&
           alone->outputLayout() == step.op->outputLayout() &&
           alone->workspaceBytes() <= step.workspaceBytes;
  };
  if (recipe.reorder) {
    const graph::OperandId from = step.reads.at(0), to = step.writes.at(0);
    if (!plan.layouts.at(from)) return nullptr;
    try {
      std::unique_ptr<CpuOp> alone = std::make_unique<ToPlainOp>(
          engine, *plan.layouts[from], ir.descriptor(plan.describedBy.at(to)), from, to);
      return fits(alone) ? std::move(alone) : nullptr;
    } catch (const dnnl::error&) {
      return nullptr;
    }
  }
  OpCompileContext context{ir, ir.operations.at(recipe.operation), engine, std::move(memory)};
  context.constants = &constants;
  context.blockQuantizedInt8Activations = plan.blockQuantizedInt8Activations;
  context.shareConstants = true;
  context.layouts = &plan.layouts;
  context.fusion = recipe.chain ? &*recipe.chain : nullptr;
  context.views = recipe.views ? &*recipe.views : nullptr;
  context.inputsPlain = recipe.inputsPlain;
  context.plainOutput = recipe.plainOutput;
  // First on the team op's packed constants; else on copies in the layouts it picks itself.
  std::unique_ptr<CpuOp> alone = createOp(context).op;
  if (fits(alone)) return alone;
  alone.reset();
  context.forceSharedLayouts = false;
  context.copyConstants = true;
  alone = createOp(context).op;
  return fits(alone) ? std::move(alone) : nullptr;
}

}  // namespace webnn::cpu
