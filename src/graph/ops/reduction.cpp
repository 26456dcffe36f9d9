// The reduce* ops, argMin/argMax and cumulativeSum: validation, limits and builder methods.
#include "graph/ops/reduction.h"

#include <algorithm>

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/shape_ops.h"
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

MLOperandDescriptor validateReduce(std::string_view type, const MLOperandDescriptor& input,
                                   const MLReduceOptions& options, ReduceAttributes& attributes) {
  checkOperandLimits(type, options.label, "input", input);
  const size_t rank = input.shape.size();
  if (options.axes) {
    checkAxes(type, options.label, *options.axes, rank);
    attributes.axes = *options.axes;
    std::sort(attributes.axes.begin(), attributes.axes.end());
  } else {
    attributes.axes.clear();
    for (size_t d = 0; d < rank; ++d) attributes.axes.push_back(static_cast<uint32_t>(d));
  }
  attributes.keepDimensions = options.keepDimensions;
  return {input.dataType, reducedShape(input.shape, attributes.axes, options.keepDimensions)};
}

MLOperandDescriptor validateArgMinMax(std::string_view type, const MLOperandDescriptor& input,
                                      uint32_t axis, const MLArgMinMaxOptions& options) {
  checkOperandLimits(type, options.label, "input", input);
  const size_t rank = input.shape.size();
  if (axis >= rank) {
    fail(type, options.label,
         "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  MLOperandDescriptor output{options.outputDataType,
                             reducedShape(input.shape, {axis}, options.keepDimensions)};
  if (options.outputDataType != MLOperandDataType::Int32 &&
      options.outputDataType != MLOperandDataType::Int64) {
    fail(type, options.label,
         "outputDataType " + std::string(toString(options.outputDataType)) +
             " must be int32 or int64");
  }
  checkOperandLimits(type, options.label, "output", output);
  return output;
}

MLOperandDescriptor validateCumulativeSum(std::string_view label, const MLOperandDescriptor& input,
                                          uint32_t axis) {
  constexpr std::string_view type = "cumulativeSum";
  checkOperandLimits(type, label, "input", input);
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

[[maybe_unused]] const bool registered = [] {
  for (const char* type : {"reduceL1", "reduceProduct", "reduceSum", "reduceSumSquare"}) {
    registerOpLimits(type, {{"input", anyRank(kSumTypes)}, {"output", anyRank(kSumTypes)}});
  }
  for (const char* type : {"reduceL2", "reduceLogSum", "reduceLogSumExp", "reduceMean"}) {
    registerOpLimits(type, {{"input", anyRank(types::kFloat)}, {"output", anyRank(types::kFloat)}});
  }
  for (const char* type : {"reduceMax", "reduceMin"}) {
    registerOpLimits(type,
                     {{"input", anyRank(types::kNumeric)}, {"output", anyRank(types::kNumeric)}});
  }
  for (const char* type : {"argMin", "argMax"}) {
    registerOpLimits(type, {{"input", rank(types::kNumeric, 1, kMaxRank)},
                            {"output", anyRank({T::Int32, T::Int64})}});
  }
  registerOpLimits("cumulativeSum", {{"input", rank(types::kNumeric, 1, kMaxRank)},
                                     {"output", rank(types::kNumeric, 1, kMaxRank)}});
  return true;
}();

MLOperand reduce(MLGraphBuilder& builder, std::string_view type, const MLOperand& input,
                 const MLReduceOptions& options) {
  auto& state = beginOp(builder, type, options.label, {&input});
  ReduceAttributes attributes;
  auto output = validateReduce(type, input.descriptor(), options, attributes);
  return state.addOperation(std::string(type), options.label, {input}, attributes, output);
}

MLOperand argMinMax(MLGraphBuilder& builder, std::string_view type, const MLOperand& input,
                    uint32_t axis, const MLArgMinMaxOptions& options) {
  auto& state = beginOp(builder, type, options.label, {&input});
  auto output = validateArgMinMax(type, input.descriptor(), axis, options);
  return state.addOperation(
      std::string(type), options.label, {input},
      ArgMinMaxAttributes{axis, options.keepDimensions, options.outputDataType}, output);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::reduceL1(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceL1", input, options);
}
MLOperand MLGraphBuilder::reduceL2(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceL2", input, options);
}
MLOperand MLGraphBuilder::reduceLogSum(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceLogSum", input, options);
}
MLOperand MLGraphBuilder::reduceLogSumExp(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceLogSumExp", input, options);
}
MLOperand MLGraphBuilder::reduceMax(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceMax", input, options);
}
MLOperand MLGraphBuilder::reduceMean(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceMean", input, options);
}
MLOperand MLGraphBuilder::reduceMin(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceMin", input, options);
}
MLOperand MLGraphBuilder::reduceProduct(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceProduct", input, options);
}
MLOperand MLGraphBuilder::reduceSum(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceSum", input, options);
}
MLOperand MLGraphBuilder::reduceSumSquare(const MLOperand& input, const MLReduceOptions& options) {
  return graph::reduce(*this, "reduceSumSquare", input, options);
}

MLOperand MLGraphBuilder::argMin(const MLOperand& input, uint32_t axis,
                                 const MLArgMinMaxOptions& options) {
  return graph::argMinMax(*this, "argMin", input, axis, options);
}
MLOperand MLGraphBuilder::argMax(const MLOperand& input, uint32_t axis,
                                 const MLArgMinMaxOptions& options) {
  return graph::argMinMax(*this, "argMax", input, axis, options);
}

MLOperand MLGraphBuilder::cumulativeSum(const MLOperand& input, uint32_t axis,
                                        const MLCumulativeSumOptions& options) {
  auto& state = graph::beginOp(*this, "cumulativeSum", options.label, {&input});
  auto output = graph::validateCumulativeSum(options.label, input.descriptor(), axis);
  return state.addOperation(
      "cumulativeSum", options.label, {input},
      graph::CumulativeSumAttributes{axis, options.exclusive, options.reversed}, output);
}

}  // namespace webnn
