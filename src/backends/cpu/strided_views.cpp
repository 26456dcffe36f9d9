#include "backends/cpu/strided_views.h"

#include <algorithm>

namespace webnn::cpu {
namespace {

using dnnl::memory;

bool isViewOperation(const graph::Operation& operation) {
  using graph::OpType;
  return (operation.type == OpType::Reshape || operation.type == OpType::Transpose ||
          operation.type == OpType::Identity) &&
         operation.inputs.size() == 1 && operation.outputs.size() == 1;
}

bool isMatmulOnFloat32(const graph::GraphIR& ir, const graph::Operation& operation) {
  if (operation.type != graph::OpType::Matmul) return false;
  for (const auto& ids : {operation.inputs, operation.outputs}) {
    for (graph::OperandId id : ids) {
      if (ir.descriptor(id).dataType != MLOperandDataType::Float32) return false;
    }
  }
  return true;
}

bool isConstant(const graph::GraphIR& ir, graph::OperandId id) {
  const auto kind = ir.operand(id).kind;
  return kind == graph::OperandKind::Constant || kind == graph::OperandKind::HollowConstant;
}

memory::dims dimsOfOperand(const graph::GraphIR& ir, graph::OperandId id) {
  const auto& shape = ir.descriptor(id).shape;
  return memory::dims(shape.begin(), shape.end());
}

memory::dims contiguousStrides(const memory::dims& dims) {
  memory::dims strides(dims.size());
  memory::dim stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i];
  }
  return strides;
}

// Strides of dimensions of size 1 do not address anything, but oneDNN 2.6 matches layouts on every
// stride (its brgemm matmul takes abcd, abdc, acbd, adbc: [1, 4, 8, 8] acbd only with 256 as the
// first stride; anything else, its gemm-based matmul): each gets the stride of the dense layout
// that orders the other dimensions by their strides and places a dimension of size 1 right before
// the first one after it in logical order (row-major for a plain tensor, outermost for a leading
// batch of 1).
void normalizeUnitStrides(const memory::dims& dims, memory::dims& strides) {
  std::vector<size_t> sized;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != 1) sized.push_back(i);
  }
  std::stable_sort(sized.begin(), sized.end(),
                   [&](size_t left, size_t right) { return strides[left] > strides[right]; });
  std::vector<size_t> order;  // outermost first
  std::vector<bool> placed(dims.size(), false);
  auto placeUnitsBefore = [&](size_t end) {
    for (size_t i = 0; i < end; ++i) {
      if (dims[i] == 1 && !placed[i]) order.push_back(i), placed[i] = true;
    }
  };
  for (size_t i : sized) {
    placeUnitsBefore(i);
    order.push_back(i);
  }
  placeUnitsBefore(dims.size());
  for (size_t k = order.size(); k-- > 0;) {
    if (dims[order[k]] != 1) continue;
    strides[order[k]] = k + 1 < order.size() ? strides[order[k + 1]] * dims[order[k + 1]] : 1;
  }
}

// The strides of operation `operation`'s output, a view of its input with `inputStrides`.
std::optional<memory::dims> outputStridesOf(const graph::GraphIR& ir,
                                            const graph::Operation& operation,
                                            const memory::dims& inputStrides) {
  const memory::dims inputDims = dimsOfOperand(ir, operation.inputs[0]);
  const memory::dims outputDims = dimsOfOperand(ir, operation.outputs[0]);
  if (operation.type != graph::OpType::Transpose) {
    return reshapedStrides(inputDims, inputStrides, outputDims);
  }
  const auto& permutation = operation.attributesAs<graph::TransposeAttributes>().permutation;
  if (permutation.size() != inputDims.size()) return std::nullopt;
  memory::dims strides(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) strides[i] = inputStrides[permutation[i]];
  return strides;
}

// The strides of operation `operation`'s input, given its output's (the inverse of the above).
std::optional<memory::dims> inputStridesOf(const graph::GraphIR& ir,
                                           const graph::Operation& operation,
                                           const memory::dims& outputStrides) {
  const memory::dims inputDims = dimsOfOperand(ir, operation.inputs[0]);
  const memory::dims outputDims = dimsOfOperand(ir, operation.outputs[0]);
  if (operation.type != graph::OpType::Transpose) {
    return reshapedStrides(outputDims, outputStrides, inputDims);
  }
  const auto& permutation = operation.attributesAs<graph::TransposeAttributes>().permutation;
  if (permutation.size() != inputDims.size()) return std::nullopt;
  memory::dims strides(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) strides[permutation[i]] = outputStrides[i];
  return strides;
}

// The view of `id` in the input of the first operation of `chain` (each operation reads the
// previous one's output; the last one produces `id`), when every link is a view.
std::optional<StridedView> readView(const graph::GraphIR& ir, const std::vector<uint32_t>& chain) {
  const graph::OperandId base = ir.operations[chain.front()].inputs[0];
  memory::dims strides = contiguousStrides(dimsOfOperand(ir, base));
  for (uint32_t index : chain) {
    auto next = outputStridesOf(ir, ir.operations[index], strides);
    if (!next) return std::nullopt;
    strides = std::move(*next);
  }
  const graph::OperandId viewed = ir.operations[chain.back()].outputs[0];
  StridedView view{base, dimsOfOperand(ir, viewed), std::move(strides)};
  normalizeUnitStrides(view.dims, view.strides);
  return view;
}

// The view of the first operation's input of `chain` in the last one's output.
std::optional<StridedView> writeView(const graph::GraphIR& ir, const std::vector<uint32_t>& chain) {
  const graph::OperandId base = ir.operations[chain.back()].outputs[0];
  memory::dims strides = contiguousStrides(dimsOfOperand(ir, base));
  for (size_t i = chain.size(); i-- > 0;) {
    auto previous = inputStridesOf(ir, ir.operations[chain[i]], strides);
    if (!previous) return std::nullopt;
    strides = std::move(*previous);
  }
  const graph::OperandId written = ir.operations[chain.front()].inputs[0];
  StridedView view{base, dimsOfOperand(ir, written), std::move(strides)};
  normalizeUnitStrides(view.dims, view.strides);
  return view;
}

}  // namespace

std::optional<memory::dims> reshapedStrides(const memory::dims& dims, const memory::dims& strides,
                                            const memory::dims& newDims) {
  // Dimensions of size 1 carry no stride: drop them, then match groups of equal products.
  memory::dims oldDims, oldStrides;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0) return std::nullopt;
    if (dims[i] != 1) oldDims.push_back(dims[i]), oldStrides.push_back(strides[i]);
  }
  memory::dims result(newDims.size(), 0);
  size_t oldAt = 0, newAt = 0;
  while (oldAt < oldDims.size() && newAt < newDims.size()) {
    size_t oldEnd = oldAt + 1, newEnd = newAt + 1;
    memory::dim oldProduct = oldDims[oldAt], newProduct = newDims[newAt];
    while (oldProduct != newProduct) {
      if (newProduct < oldProduct) {
        if (newEnd == newDims.size()) return std::nullopt;
        newProduct *= newDims[newEnd++];
      } else {
        if (oldEnd == oldDims.size()) return std::nullopt;
        oldProduct *= oldDims[oldEnd++];
      }
    }
    // The old group must be contiguous in itself to be regrouped.
    for (size_t k = oldAt; k + 1 < oldEnd; ++k) {
      if (oldStrides[k] != oldDims[k + 1] * oldStrides[k + 1]) return std::nullopt;
    }
    result[newEnd - 1] = oldStrides[oldEnd - 1];
    for (size_t k = newEnd - 1; k > newAt; --k) result[k - 1] = result[k] * newDims[k];
    oldAt = oldEnd;
    newAt = newEnd;
  }
  if (oldAt != oldDims.size()) return std::nullopt;
  for (size_t k = newAt; k < newDims.size(); ++k) {
    if (newDims[k] != 1) return std::nullopt;
  }
  normalizeUnitStrides(newDims, result);
  return result;
}

ViewPlan planViews(const graph::GraphIR& ir, const FusionPlan& fusion,
                   const MatmulViewCheck& implementationOn) {
  const size_t count = ir.operations.size();
  ViewPlan plan{std::vector<std::optional<MatmulViews>>(count), std::vector<bool>(count, false),
                std::vector<std::vector<uint32_t>>(count), std::vector<std::string>(count)};
  auto isFree = [&](uint32_t index) {
    return isViewOperation(ir.operations[index]) && fusion.anchorOf[index] < 0 &&
           !fusion.chains[index] && !plan.elided[index];
  };
  // Per matmul: the implementation that runs it on plain operands, asked once.
  std::vector<std::optional<std::optional<std::string>>> plainImplementations(count);
  auto isBrgemm = [](const std::optional<std::string>& implementation) {
    return implementation && implementation->rfind("brg", 0) == 0;
  };
  // Whether matmul `m` runs on oneDNN with `views` (`chain`: the operations they stand for), and
  // not on its gemm-based implementation where plain operands run on brgemm: oneDNN 2.6
  // JIT-compiles the gemm kernels at their first run (tens of milliseconds on a model's first
  // dispatch), and brgemm runs as fast or faster after it. Else the reason, on the chain.
  auto runsOnViews = [&](uint32_t m, const MatmulViews& views, const std::vector<uint32_t>& chain) {
    const graph::Operation& matmul = ir.operations[m];
    auto& plain = plainImplementations[m];
    if (!plain) plain = implementationOn(matmul, MatmulViews{});
    const std::optional<std::string> viewed = implementationOn(matmul, views);
    if (viewed && (isBrgemm(viewed) || !isBrgemm(*plain))) return true;
    if (!*plain) return false;  // no views for this matmul at all (it runs none of oneDNN's)
    const std::string name = matmul.label.empty() ? "the matmul" : "matmul '" + matmul.label + "'";
    const std::string why =
        viewed ? "not a view: " + name + " would run " + *viewed +
                     " on these strides (JIT-compiled at its first run) and runs " + **plain +
                     " on plain operands"
               : "not a view: oneDNN's matmul does not run " + name + " on these strides";
    for (uint32_t index : chain) {
      if (plan.notViewed[index].empty()) plan.notViewed[index] = why;
    }
    return false;
  };

  // Writes first: a read view stops at a tensor a matmul writes through strides.
  for (uint32_t m = 0; m < count; ++m) {
    const graph::Operation& matmul = ir.operations[m];
    if (!isMatmulOnFloat32(ir, matmul)) continue;
    // oneDNN 2.6's matmul on a strided destination (its gemm implementation) crashes in its
    // binary post-ops: only element-wise ones with an output view.
    const auto& fused = fusion.chains[m];
    if (fused && std::any_of(fused->postOps.begin(), fused->postOps.end(), [](const auto& postOp) {
          return postOp.kind != FusedPostOp::Kind::Eltwise;
        })) {
      continue;
    }
    graph::OperandId value = fused ? fused->output : matmul.outputs[0];
    std::vector<uint32_t> chain;
    for (;;) {
      if (ir.isGraphOutput(value)) break;
      const auto consumers = ir.consumersOf(value);
      if (consumers.size() != 1 || !isFree(consumers[0])) break;
      chain.push_back(consumers[0]);
      value = ir.operations[consumers[0]].outputs[0];
    }
    // The longest prefix of the chain that is a view oneDNN runs.
    for (; !chain.empty(); chain.pop_back()) {
      auto view = writeView(ir, chain);
      if (!view) continue;
      MatmulViews views{.output = std::move(view)};
      if (!runsOnViews(m, views, chain)) continue;
      plan.views[m] = std::move(views);
      plan.writtenThrough[m] = chain;
      for (uint32_t index : chain) plan.elided[index] = true;
      break;
    }
  }

  // Reads.
  for (uint32_t m = 0; m < count; ++m) {
    const graph::Operation& matmul = ir.operations[m];
    if (!isMatmulOnFloat32(ir, matmul)) continue;
    for (int position = 0; position < 2; ++position) {
      // The operations that make the operand, first to last.
      std::vector<uint32_t> chain;
      for (graph::OperandId value = matmul.inputs[static_cast<size_t>(position)];;) {
        const int32_t producer = ir.uses.producer[value];
        if (producer < 0 || !isFree(static_cast<uint32_t>(producer))) break;
        chain.insert(chain.begin(), static_cast<uint32_t>(producer));
        value = ir.operations[static_cast<size_t>(producer)].inputs[0];
      }
      // The longest suffix of it over a tensor that is not a constant, that oneDNN runs.
      for (; !chain.empty(); chain.erase(chain.begin())) {
        if (isConstant(ir, ir.operations[chain.front()].inputs[0])) continue;
        auto view = readView(ir, chain);
        if (!view) continue;
        MatmulViews views = plan.views[m].value_or(MatmulViews{});
        (position == 0 ? views.a : views.b) = std::move(view);
        if (!runsOnViews(m, views, chain)) continue;
        plan.views[m] = std::move(views);
        break;
      }
    }
  }

  // A view operation runs no step when every reader of its result reads through it (a matmul
  // reading it by a view, every operand position it has there, or another such operation) and no
  // view reads in its result.
  std::vector<bool> isBase(ir.operands.size(), false);
  for (const auto& views : plan.views) {
    if (!views) continue;
    for (const auto* view : {&views->a, &views->b, &views->output}) {
      if (*view) isBase[(*view)->base] = true;
    }
  }
  auto readsThroughView = [&](uint32_t consumer, graph::OperandId value) {
    const graph::Operation& operation = ir.operations[consumer];
    if (!plan.views[consumer] || fusion.anchorOf[consumer] >= 0) return false;
    const MatmulViews& views = *plan.views[consumer];
    for (size_t position = 0; position < operation.inputs.size(); ++position) {
      if (operation.inputs[position] != value) continue;
      const auto& view = position == 0 ? views.a : position == 1 ? views.b : std::nullopt;
      if (!view) return false;
    }
    return true;
  };
  for (size_t index = count; index-- > 0;) {
    const graph::Operation& operation = ir.operations[index];
    if (plan.elided[index] || !isFree(static_cast<uint32_t>(index))) continue;
    const graph::OperandId value = operation.outputs[0];
    if (ir.isGraphOutput(value) || isBase[value]) continue;
    bool elided = !ir.consumersOf(value).empty();
    for (uint32_t consumer : ir.consumersOf(value)) {
      elided = elided && (readsThroughView(consumer, value) ||
                          (isViewOperation(ir.operations[consumer]) && plan.elided[consumer]));
    }
    plan.elided[index] = elided;
  }
  for (size_t index = 0; index < count; ++index) {
    if (plan.elided[index]) plan.notViewed[index].clear();
  }
  return plan;
}

}  // namespace webnn::cpu
