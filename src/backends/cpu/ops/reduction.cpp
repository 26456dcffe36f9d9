// reduce*, argMin/argMax and cumulativeSum on the cpu backend, float32, kernels of our own: the
// input seen as [outer, reduced, inner] when the reduced axes are adjacent once unit dimensions are
// dropped (the usual last-axes, channel and spatial reductions), else as alternating groups of
// kept and reduced dimensions that each output walks (any axis set); sums and products accumulate
// in double and round once per output, as the reference does. Other types stay on the reference.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "backends/cpu/cpu_op.h"
#include "core/element.h"
#include "graph/op_limits.h"

namespace webnn::cpu {
namespace {

using graph::OpType;

constexpr int64_t kParallelElements = int64_t{1} << 14;
constexpr int64_t kInnerChunk = 256;

double accumulate(OpType type, double acc, double x) {
  switch (type) {
    case OpType::ReduceL1:
      return acc + std::fabs(x);
    case OpType::ReduceL2:
    case OpType::ReduceSumSquare:
      return acc + x * x;
    case OpType::ReduceProduct:
      return acc * x;
    case OpType::ReduceMax:
      return std::isnan(acc) || std::isnan(x) ? std::numeric_limits<double>::quiet_NaN()
                                              : (x > acc ? x : acc);
    case OpType::ReduceMin:
      return std::isnan(acc) || std::isnan(x) ? std::numeric_limits<double>::quiet_NaN()
                                              : (x < acc ? x : acc);
    default:  // sum, mean, logSum
      return acc + x;
  }
}

double initial(OpType type) {
  switch (type) {
    case OpType::ReduceProduct:
      return 1.0;
    case OpType::ReduceMax:
      return -std::numeric_limits<double>::infinity();
    case OpType::ReduceMin:
      return std::numeric_limits<double>::infinity();
    default:
      return 0.0;
  }
}

float finish(OpType type, double acc, int64_t count) {
  switch (type) {
    case OpType::ReduceMean:
      return static_cast<float>(acc / static_cast<double>(count));
    case OpType::ReduceL2:
      return static_cast<float>(std::sqrt(acc));
    case OpType::ReduceLogSum:
      return static_cast<float>(std::log(acc));
    default:
      return static_cast<float>(acc);
  }
}

template <OpType kType>
void reduceRow(const float* x, int64_t count, float* out) {
  if constexpr (kType == OpType::ReduceLogSumExp) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < count; ++i) m = x[i] > m ? x[i] : m;
    double sum = 0;
    if (std::isinf(m)) {
      for (int64_t i = 0; i < count; ++i) sum += std::exp(double{x[i]});
      *out = static_cast<float>(std::log(sum));
      return;
    }
    for (int64_t i = 0; i < count; ++i) sum += std::exp(double{x[i]} - m);
    *out = static_cast<float>(m + std::log(sum));
  } else if constexpr (kType == OpType::ReduceSum || kType == OpType::ReduceMean ||
                       kType == OpType::ReduceLogSum) {
    double sum = 0;
#pragma omp simd reduction(+ : sum)
    for (int64_t i = 0; i < count; ++i) sum += x[i];
    *out = finish(kType, sum, count);
  } else if constexpr (kType == OpType::ReduceSumSquare || kType == OpType::ReduceL2) {
    double sum = 0;
#pragma omp simd reduction(+ : sum)
    for (int64_t i = 0; i < count; ++i) sum += double{x[i]} * x[i];
    *out = finish(kType, sum, count);
  } else {
    double acc = initial(kType);
    for (int64_t i = 0; i < count; ++i) acc = accumulate(kType, acc, x[i]);
    *out = finish(kType, acc, count);
  }
}

class ReduceOp final : public CpuOp {
 public:
  ReduceOp(const OpCompileContext& context, int64_t outer, int64_t reduced, int64_t inner)
      : type_(context.operation.type),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        outer_(outer),
        reduced_(reduced),
        inner_(inner) {}

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* x = tensors[input_].as<float>();
    float* y = tensors[output_].as<float>();
    switch (type_) {
      case OpType::ReduceSum:
        return run<OpType::ReduceSum>(x, y);
      case OpType::ReduceMean:
        return run<OpType::ReduceMean>(x, y);
      case OpType::ReduceMax:
        return run<OpType::ReduceMax>(x, y);
      case OpType::ReduceMin:
        return run<OpType::ReduceMin>(x, y);
      case OpType::ReduceProduct:
        return run<OpType::ReduceProduct>(x, y);
      case OpType::ReduceL1:
        return run<OpType::ReduceL1>(x, y);
      case OpType::ReduceL2:
        return run<OpType::ReduceL2>(x, y);
      case OpType::ReduceSumSquare:
        return run<OpType::ReduceSumSquare>(x, y);
      case OpType::ReduceLogSum:
        return run<OpType::ReduceLogSum>(x, y);
      case OpType::ReduceLogSumExp:
        return run<OpType::ReduceLogSumExp>(x, y);
      default:
        return;
    }
  }
  std::string implementation() const override { return "cpu reduction kernel"; }

 private:
  template <OpType kType>
  void run(const float* x, float* y) const {
    const int64_t outer = outer_, reduced = reduced_, inner = inner_;
    const bool parallel = outer * reduced * inner > kParallelElements;
    if (inner == 1) {
#pragma omp parallel for schedule(static) if (parallel && outer > 1)
      for (int64_t o = 0; o < outer; ++o) reduceRow<kType>(x + o * reduced, reduced, y + o);
      return;
    }
    // Reduced axis outside the inner one: accumulate rows of the inner dimension.
    const int64_t chunks = (inner + kInnerChunk - 1) / kInnerChunk;
#pragma omp parallel for schedule(static) if (parallel && outer * chunks > 1)
    for (int64_t task = 0; task < outer * chunks; ++task) {
      const int64_t o = task / chunks, begin = (task % chunks) * kInnerChunk;
      const int64_t count = std::min(kInnerChunk, inner - begin);
      double acc[kInnerChunk];
      for (int64_t i = 0; i < count; ++i) acc[i] = initial(kType);
      const float* base = x + o * reduced * inner + begin;
      for (int64_t r = 0; r < reduced; ++r) {
        const float* row = base + r * inner;
        for (int64_t i = 0; i < count; ++i) acc[i] = accumulate(kType, acc[i], row[i]);
      }
      float* out = y + o * inner + begin;
      for (int64_t i = 0; i < count; ++i) out[i] = finish(kType, acc[i], reduced);
    }
  }

  OpType type_;
  graph::OperandId input_, output_;
  int64_t outer_, reduced_, inner_;
};

// Any axis set: the dimensions (unit ones dropped) merged into alternating groups of kept and
// reduced ones; each output, a row-major index over the kept groups, walks its reduced elements
// with an odometer over the reduced groups (the innermost one a strided run).
class GroupedReduceOp final : public CpuOp {
 public:
  struct Group {
    int64_t size = 1, stride = 1;  // elements; stride in the input
  };
  GroupedReduceOp(const OpCompileContext& context, std::vector<Group> kept,
                  std::vector<Group> reduced)
      : type_(context.operation.type),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        kept_(std::move(kept)),
        reduced_(std::move(reduced)) {
    for (const Group& group : kept_) outputs_ *= group.size;
    for (const Group& group : reduced_) reducedCount_ *= group.size;
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* x = tensors[input_].as<float>();
    float* y = tensors[output_].as<float>();
    switch (type_) {
      case OpType::ReduceSum:
        return run<OpType::ReduceSum>(x, y);
      case OpType::ReduceMean:
        return run<OpType::ReduceMean>(x, y);
      case OpType::ReduceMax:
        return run<OpType::ReduceMax>(x, y);
      case OpType::ReduceMin:
        return run<OpType::ReduceMin>(x, y);
      case OpType::ReduceProduct:
        return run<OpType::ReduceProduct>(x, y);
      case OpType::ReduceL1:
        return run<OpType::ReduceL1>(x, y);
      case OpType::ReduceL2:
        return run<OpType::ReduceL2>(x, y);
      case OpType::ReduceSumSquare:
        return run<OpType::ReduceSumSquare>(x, y);
      case OpType::ReduceLogSum:
        return run<OpType::ReduceLogSum>(x, y);
      case OpType::ReduceLogSumExp:
        return run<OpType::ReduceLogSumExp>(x, y);
      default:
        return;
    }
  }
  std::string implementation() const override { return "cpu reduction kernel (grouped axes)"; }

 private:
  // Calls f(value) for every reduced element of the output whose first element is at `base`.
  template <class F>
  void visit(const float* base, F&& f) const {
    const size_t groups = reduced_.size();
    const Group inner = reduced_.back();
    std::array<int64_t, graph::kMaxRank> digits{};
    const float* at = base;
    while (true) {
      for (int64_t i = 0; i < inner.size; ++i) f(at[i * inner.stride]);
      size_t g = groups - 1;
      while (g > 0) {
        --g;
        at += reduced_[g].stride;
        if (++digits[g] < reduced_[g].size) break;
        at -= reduced_[g].stride * reduced_[g].size;
        digits[g] = 0;
        if (g == 0) return;
      }
      if (groups == 1) return;
    }
  }

  template <OpType kType>
  void run(const float* x, float* y) const {
    const int64_t outputs = outputs_, count = reducedCount_;
    const bool parallel = outputs > 1 && outputs * count > kParallelElements;
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t o = 0; o < outputs; ++o) {
      int64_t offset = 0, rest = o;
      for (size_t g = kept_.size(); g-- > 0;) {
        offset += (rest % kept_[g].size) * kept_[g].stride;
        rest /= kept_[g].size;
      }
      const float* base = x + offset;
      if constexpr (kType == OpType::ReduceLogSumExp) {
        double m = -std::numeric_limits<double>::infinity();
        visit(base, [&](float v) { m = v > m ? v : m; });
        double sum = 0;
        const double shift = std::isinf(m) ? 0.0 : m;
        visit(base, [&](float v) { sum += std::exp(double{v} - shift); });
        y[o] = static_cast<float>(shift + std::log(sum));
      } else {
        double acc = initial(kType);
        visit(base, [&](float v) { acc = accumulate(kType, acc, v); });
        y[o] = finish(kType, acc, count);
      }
    }
  }

  OpType type_;
  graph::OperandId input_, output_;
  std::vector<Group> kept_, reduced_;
  int64_t outputs_ = 1, reducedCount_ = 1;
};

// argMin/argMax (the first index of the extreme value) and cumulativeSum along one axis, the
// input seen as [outer, axis, inner].
class AlongAxisOp final : public CpuOp {
 public:
  explicit AlongAxisOp(const OpCompileContext& context)
      : type_(context.operation.type),
        input_(context.operation.inputs[0]),
        output_(context.operation.outputs[0]),
        outputType_(context.descriptor(output_).dataType) {
    const auto& shape = context.descriptor(input_).shape;
    const uint32_t axis =
        type_ == OpType::CumulativeSum
            ? context.operation.attributesAs<graph::CumulativeSumAttributes>().axis
            : context.operation.attributesAs<graph::ArgMinMaxAttributes>().axis;
    if (type_ == OpType::CumulativeSum) {
      const auto& attributes = context.operation.attributesAs<graph::CumulativeSumAttributes>();
      exclusive_ = attributes.exclusive;
      reversed_ = attributes.reversed;
    }
    for (uint32_t i = 0; i < axis; ++i) outer_ *= shape[i];
    size_ = shape[axis];
    for (size_t i = axis + 1; i < shape.size(); ++i) inner_ *= shape[i];
  }

  void execute(dnnl::stream&, const DispatchTensors& tensors) override {
    const float* x = tensors[input_].as<float>();
    const int64_t outer = outer_, size = size_, inner = inner_;
    const bool parallel = outer * inner > 1 && outer * size * inner > kParallelElements;
    if (type_ == OpType::CumulativeSum) {
      float* y = tensors[output_].as<float>();
#pragma omp parallel for schedule(static) if (parallel)
      for (int64_t task = 0; task < outer * inner; ++task) {
        const float* xs = x + (task / inner) * size * inner + task % inner;
        float* ys = y + (task / inner) * size * inner + task % inner;
        double sum = 0;
        for (int64_t step = 0; step < size; ++step) {
          const int64_t at = (reversed_ ? size - 1 - step : step) * inner;
          if (!exclusive_) sum += xs[at];
          ys[at] = static_cast<float>(sum);
          if (exclusive_) sum += xs[at];
        }
      }
      return;
    }
    const bool isMax = type_ == OpType::ArgMax;
    std::byte* out = tensors[output_].data;
    const MLOperandDataType outputType = outputType_;
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t task = 0; task < outer * inner; ++task) {
      const float* xs = x + (task / inner) * size * inner + task % inner;
      int64_t best = 0;
      float bestValue = xs[0];
      for (int64_t r = 1; r < size; ++r) {
        const float value = xs[r * inner];
        if (isMax ? value > bestValue : value < bestValue) {
          best = r;
          bestValue = value;
        }
      }
      storeInteger(outputType, out, static_cast<uint64_t>(task), best);
    }
  }
  std::string implementation() const override {
    return type_ == OpType::CumulativeSum ? "cpu cumulativeSum kernel" : "cpu argMinMax kernel";
  }

 private:
  OpType type_;
  graph::OperandId input_, output_;
  MLOperandDataType outputType_;
  bool exclusive_ = false, reversed_ = false;
  int64_t outer_ = 1, size_ = 1, inner_ = 1;
};

}  // namespace

std::unique_ptr<CpuOp> createReductionOp(const OpCompileContext& context) {
  const auto& input = context.descriptor(context.operation.inputs[0]);
  const auto& output = context.descriptor(context.operation.outputs[0]);
  const bool indices =
      context.operation.type == OpType::ArgMin || context.operation.type == OpType::ArgMax;
  if (input.dataType != MLOperandDataType::Float32 || input.elementCount() == 0 ||
      (!indices && output.dataType != MLOperandDataType::Float32)) {
    return nullptr;
  }
  if (context.operation.type == OpType::ArgMin || context.operation.type == OpType::ArgMax ||
      context.operation.type == OpType::CumulativeSum) {
    if (input.shape.empty()) return nullptr;
    return std::make_unique<AlongAxisOp>(context);
  }
  const auto& axes = context.operation.attributesAs<graph::ReduceAttributes>().axes;
  std::vector<bool> isReduced(input.shape.size(), false);
  for (uint32_t axis : axes) isReduced[axis] = true;
  // Groups of kept / reduced dimensions, unit dimensions dropped, adjacent ones of a kind merged.
  struct Run {
    bool reduced;
    GroupedReduceOp::Group group;
  };
  std::vector<Run> runs;
  int64_t stride = 1;
  for (size_t d = input.shape.size(); d-- > 0;) {
    const int64_t size = input.shape[d];
    if (size == 1) continue;
    if (!runs.empty() && runs.front().reduced == isReduced[d] &&
        runs.front().group.stride * runs.front().group.size == stride) {
      runs.front().group.size *= size;
    } else {
      runs.insert(runs.begin(), Run{isReduced[d], {size, stride}});
    }
    stride *= size;
  }
  std::vector<GroupedReduceOp::Group> kept, reduced;
  for (const Run& run : runs) (run.reduced ? reduced : kept).push_back(run.group);
  // [outer, reduced, inner]: at most one reduced group (none: every output reduces one element).
  if (reduced.size() <= 1) {
    const int64_t count = reduced.empty() ? 1 : reduced[0].size;
    const int64_t inner = reduced.empty() ? 1 : reduced[0].stride;
    const int64_t outer = static_cast<int64_t>(input.elementCount()) / (count * inner);
    if (context.operation.type != OpType::ReduceLogSumExp || inner == 1) {
      return std::make_unique<ReduceOp>(context, outer, count, inner);
    }
  }
  return std::make_unique<GroupedReduceOp>(context, std::move(kept), std::move(reduced));
}

}  // namespace webnn::cpu
