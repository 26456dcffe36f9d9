// Reference kernels of the reduce* ops, argMin/argMax and cumulativeSum. Floats accumulate in
// double and round once per output element; integers accumulate exactly in int64/uint64 with
// wrapping arithmetic, truncated to the element type on store.
#include <cmath>
#include <limits>

#include "backends/reference/ops/registration.h"
#include "backends/reference/ops/shape_ops.h"
#include "graph/attributes.h"

namespace webnn::reference {
namespace {

// The offsets of the kept positions (in output order) and of the reduced positions of `axes`.
struct ReductionPlan {
  std::vector<uint64_t> kept;
  std::vector<uint64_t> reduced;
};

ReductionPlan planReduction(const std::vector<uint32_t>& shape, const std::vector<uint32_t>& axes) {
  const auto strides = stridesOf(shape);
  std::vector<bool> isReduced(shape.size(), false);
  for (uint32_t axis : axes) isReduced[axis] = true;
  std::vector<uint32_t> keptShape, reducedShape;
  std::vector<uint64_t> keptStrides, reducedStrides;
  for (size_t d = 0; d < shape.size(); ++d) {
    (isReduced[d] ? reducedShape : keptShape).push_back(shape[d]);
    (isReduced[d] ? reducedStrides : keptStrides).push_back(strides[d]);
  }
  return {offsetsOf(keptShape, keptStrides), offsetsOf(reducedShape, reducedStrides)};
}

enum class Reduction { L1, L2, LogSum, LogSumExp, Max, Mean, Min, Product, Sum, SumSquare };

template <class V>
V absolute(V x) {
  if constexpr (std::is_same_v<V, double>) {
    return std::fabs(x);
  } else if constexpr (std::is_same_v<V, int64_t>) {
    return x < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x)) : x;
  } else {
    return x;
  }
}

template <class V>
V wrapAdd(V x, V y) {
  if constexpr (std::is_same_v<V, double>) {
    return x + y;
  } else {
    return static_cast<V>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
  }
}

template <class V>
V wrapMul(V x, V y) {
  if constexpr (std::is_same_v<V, double>) {
    return x * y;
  } else {
    return static_cast<V>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
  }
}

// Reduces the values of one output element.
template <class V>
V reduceValues(Reduction reduction, const std::vector<V>& values) {
  switch (reduction) {
    case Reduction::Max:
    case Reduction::Min: {
      V result = values.front();
      for (V x : values) {
        if constexpr (std::is_same_v<V, double>) {
          if (std::isnan(x)) return x;  // NaN propagates
        }
        if (reduction == Reduction::Max ? x > result : x < result) result = x;
      }
      return result;
    }
    case Reduction::LogSumExp: {
      if constexpr (std::is_same_v<V, double>) {
        // log(sum(exp(x))) = m + log(sum(exp(x - m))), m the largest value: no overflow.
        double m = -std::numeric_limits<double>::infinity();
        for (double x : values) m = x > m ? x : m;
        if (std::isinf(m)) {
          double sum = 0;
          for (double x : values) sum += std::exp(x);
          return std::log(sum);
        }
        double sum = 0;
        for (double x : values) sum += std::exp(x - m);
        return m + std::log(sum);
      } else {
        throwOperationError("reduceLogSumExp: integer types are not supported");
      }
    }
    case Reduction::Product: {
      V result = 1;
      for (V x : values) result = wrapMul(result, x);
      return result;
    }
    default:
      break;
  }
  V sum = 0;
  for (V x : values) {
    switch (reduction) {
      case Reduction::L1:
        sum = wrapAdd(sum, absolute(x));
        break;
      case Reduction::L2:
      case Reduction::SumSquare:
        sum = wrapAdd(sum, wrapMul(x, x));
        break;
      default:
        sum = wrapAdd(sum, x);
        break;
    }
  }
  if constexpr (std::is_same_v<V, double>) {
    switch (reduction) {
      case Reduction::L2:
        return std::sqrt(sum);
      case Reduction::LogSum:
        return std::log(sum);
      case Reduction::Mean:
        return sum / static_cast<double>(values.size());
      default:
        return sum;
    }
  } else {
    if (reduction == Reduction::L2 || reduction == Reduction::LogSum ||
        reduction == Reduction::Mean) {
      throwOperationError("reduction: this reduction supports float types only");
    }
    return sum;
  }
}

void reduce(const KernelContext& context, Reduction reduction) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const auto plan = planReduction(in.shape(), context.attributes<graph::ReduceAttributes>().axes);
  visitDomain(in.dataType(), [&]<class V>(TypeTag<V>) {
    std::vector<V> values(plan.reduced.size());
    for (size_t o = 0; o < plan.kept.size(); ++o) {
      for (size_t r = 0; r < plan.reduced.size(); ++r) {
        values[r] = loadAs<V>(in, plan.kept[o] + plan.reduced[r]);
      }
      storeAs<V>(out, o, reduceValues(reduction, values));
    }
  });
}

// argMin/argMax: the first index of the smallest/largest value along the axis.
void argMinMax(const KernelContext& context, bool isMax) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const uint32_t axis = context.attributes<graph::ArgMinMaxAttributes>().axis;
  const auto plan = planReduction(in.shape(), {axis});
  visitDomain(in.dataType(), [&]<class V>(TypeTag<V>) {
    for (size_t o = 0; o < plan.kept.size(); ++o) {
      uint64_t best = 0;
      V bestValue = loadAs<V>(in, plan.kept[o]);
      for (size_t r = 1; r < plan.reduced.size(); ++r) {
        const V value = loadAs<V>(in, plan.kept[o] + plan.reduced[r]);
        if (isMax ? value > bestValue : value < bestValue) {
          best = r;
          bestValue = value;
        }
      }
      storeInteger(out.dataType(), out.data, o, static_cast<int64_t>(best));
    }
  });
}

void cumulativeSum(const KernelContext& context) {
  const Tensor in = context.input(0);
  const Tensor out = context.output(0);
  const auto& attributes = context.attributes<graph::CumulativeSumAttributes>();
  const auto plan = planReduction(in.shape(), {attributes.axis});
  const size_t length = plan.reduced.size();
  visitDomain(in.dataType(), [&]<class V>(TypeTag<V>) {
    for (uint64_t base : plan.kept) {
      V sum = 0;
      for (size_t step = 0; step < length; ++step) {
        const uint64_t offset = base + plan.reduced[attributes.reversed ? length - 1 - step : step];
        const V value = loadAs<V>(in, offset);
        if (!attributes.exclusive) sum = wrapAdd(sum, value);
        storeAs<V>(out, offset, sum);
        if (attributes.exclusive) sum = wrapAdd(sum, value);
      }
    }
  });
}

}  // namespace

void registerReductionKernels(KernelTable& table) {
  using graph::OpType;
  const std::pair<OpType, Reduction> reductions[] = {
      {OpType::ReduceL1, Reduction::L1},         {OpType::ReduceL2, Reduction::L2},
      {OpType::ReduceLogSum, Reduction::LogSum}, {OpType::ReduceLogSumExp, Reduction::LogSumExp},
      {OpType::ReduceMax, Reduction::Max},       {OpType::ReduceMean, Reduction::Mean},
      {OpType::ReduceMin, Reduction::Min},       {OpType::ReduceProduct, Reduction::Product},
      {OpType::ReduceSum, Reduction::Sum},       {OpType::ReduceSumSquare, Reduction::SumSquare}};
  for (const auto& entry : reductions) {
    const Reduction reduction = entry.second;  // (clang 14 cannot capture structured bindings)
    table.set(entry.first, [reduction](const KernelContext& c) { reduce(c, reduction); });
  }
  table.set(graph::OpType::ArgMin, [](const KernelContext& c) { argMinMax(c, false); });
  table.set(graph::OpType::ArgMax, [](const KernelContext& c) { argMinMax(c, true); });
  table.set(graph::OpType::CumulativeSum, cumulativeSum);
}

}  // namespace webnn::reference
