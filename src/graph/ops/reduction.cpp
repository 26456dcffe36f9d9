// The reduce* ops, argMin/argMax and cumulativeSum: validation, limits and builder methods.
#include "graph/ops/reduction.h"

#include <algorithm>

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {
namespace {

// Output shape of reducing `axes` of `shape`.
std::vector<uint32_t> reducedShape(const std::vector<uint32_t>& shape,
                                   const std::vector<uint32_t>& axes, bool keepDimensions) {
  std::vector<uint32_t> output;
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!reduced) {
      output.push_back(shape[d]);
    } else if (keepDimensions) {
      output.push_back(1);
    }
  }
  return output;
}

}  // namespace

MLOperandDescriptor validateReduce(const OpCall& call, const MLOperandDescriptor& input,
                                   const MLReduceOptions& options, ReduceAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  const size_t rank = input.shape.size();
  if (options.axes) {
    checkAxes(type, label, *options.axes, rank);
    attributes.axes = *options.axes;
    std::sort(attributes.axes.begin(), attributes.axes.end());
  } else {
    attributes.axes.clear();
    for (size_t d = 0; d < rank; ++d) attributes.axes.push_back(static_cast<uint32_t>(d));
  }
  attributes.keepDimensions = options.keepDimensions;
  return {input.dataType, reducedShape(input.shape, attributes.axes, options.keepDimensions)};
}

MLOperandDescriptor validateArgMinMax(const OpCall& call, const MLOperandDescriptor& input,
                                      uint32_t axis, const MLArgMinMaxOptions& options) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  const size_t rank = input.shape.size();
  if (axis >= rank) {
    fail(type, label,
         "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  MLOperandDescriptor output{options.outputDataType,
                             reducedShape(input.shape, {axis}, options.keepDimensions)};
  if (options.outputDataType != MLOperandDataType::Int32 &&
      options.outputDataType != MLOperandDataType::Int64) {
    fail(type, label,
         "outputDataType " + std::string(toString(options.outputDataType)) +
             " must be int32 or int64");
  }
  checkOperandLimits(call, "output", output);
  return output;
}

MLOperandDescriptor validateCumulativeSum(const OpCall& call, const MLOperandDescriptor& input,
                                          uint32_t axis) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  const size_t rank = input.shape.size();
  if (axis >= rank) {
    fail(type, label,
         "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return input;
}

namespace {
using T = MLOperandDataType;
// reduceL1/Product/Sum/SumSquare: the spec's float32, float16, int32, uint32, plus the 64-bit
// integers; reduceMax/Min take every numeric type; the rest are float only.
const std::vector<T> kSumTypes = {T::Float32, T::Float16, T::Int32, T::Uint32, T::Int64, T::Uint64};
}  // namespace

void registerReductionLimits(OpLimitsTable& table) {
  for (OpType type :
       {OpType::ReduceL1, OpType::ReduceProduct, OpType::ReduceSum, OpType::ReduceSumSquare}) {
    table.set(type, {{"input", anyRank(kSumTypes)}, {"output", anyRank(kSumTypes)}});
  }
  for (OpType type :
       {OpType::ReduceL2, OpType::ReduceLogSum, OpType::ReduceLogSumExp, OpType::ReduceMean}) {
    table.set(type, {{"input", anyRank(types::kFloat)}, {"output", anyRank(types::kFloat)}});
  }
  for (OpType type : {OpType::ReduceMax, OpType::ReduceMin}) {
    table.set(type, {{"input", anyRank(types::kNumeric)}, {"output", anyRank(types::kNumeric)}});
  }
  for (OpType type : {OpType::ArgMin, OpType::ArgMax}) {
    table.set(type, {{"input", rank(types::kNumeric, 1, kMaxRank)},
                     {"output", anyRank({T::Int32, T::Int64})}});
  }
  table.set(OpType::CumulativeSum, {{"input", rank(types::kNumeric, 1, kMaxRank)},
                                    {"output", rank(types::kNumeric, 1, kMaxRank)}});
}

namespace {
MLOperand reduce(MLGraphBuilder& builder, OpType type, const MLOperand& input,
                 const MLReduceOptions& options) {
  OpBuilder op(builder, type, options.label, {&input});
  ReduceAttributes attributes;
  auto output = validateReduce(op.call(), input.descriptor(), options, attributes);
  return op.record({input}, attributes, output);
}

MLOperand argMinMax(MLGraphBuilder& builder, OpType type, const MLOperand& input, uint32_t axis,
                    const MLArgMinMaxOptions& options) {
  OpBuilder op(builder, type, options.label, {&input});
  auto output = validateArgMinMax(op.call(), input.descriptor(), axis, options);
  return op.record(
      {input}, ArgMinMaxAttributes{axis, options.keepDimensions, options.outputDataType}, output);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::reduceL1(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceL1, input, options);
}
MLOperand MLGraphBuilder::reduceL2(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceL2, input, options);
}
MLOperand MLGraphBuilder::reduceLogSum(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceLogSum, input, options);
}
MLOperand MLGraphBuilder::reduceLogSumExp(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceLogSumExp, input, options);
}
MLOperand MLGraphBuilder::reduceMax(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceMax, input, options);
}
MLOperand MLGraphBuilder::reduceMean(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceMean, input, options);
}
MLOperand MLGraphBuilder::reduceMin(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceMin, input, options);
}
MLOperand MLGraphBuilder::reduceProduct(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceProduct, input, options);
}
MLOperand MLGraphBuilder::reduceSum(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceSum, input, options);
}
MLOperand MLGraphBuilder::reduceSumSquare(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, graph::OpType::ReduceSumSquare, input, options);
}

MLOperand MLGraphBuilder::argMin(const MLOperand& input, uint32_t axis,
                                 const MLArgMinMaxOptions& options) {
  return graph::argMinMax(*this, graph::OpType::ArgMin, input, axis, options);
}
MLOperand MLGraphBuilder::argMax(const MLOperand& input, uint32_t axis,
                                 const MLArgMinMaxOptions& options) {
  return graph::argMinMax(*this, graph::OpType::ArgMax, input, axis, options);
}

MLOperand MLGraphBuilder::cumulativeSum(const MLOperand& input, uint32_t axis,
                                        const MLCumulativeSumOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::CumulativeSum, options.label, {&input});
  auto output = graph::validateCumulativeSum(op.call(), input.descriptor(), axis);
  return op.record(
      {input}, graph::CumulativeSumAttributes{axis, options.exclusive, options.reversed}, output);
}

}  // namespace webnn
