// reduce* over any set of axes, floats (reduce.comp) and integers (reduce_int.comp): one
// invocation per output element walks the reduced coordinates by strides.
#include <algorithm>

#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;

uint32_t reduceCode(OpType type) {
  switch (type) {
    case OpType::ReduceSum:
      return 0;
    case OpType::ReduceMean:
      return 1;
    case OpType::ReduceMax:
      return 2;
    case OpType::ReduceMin:
      return 3;
    case OpType::ReduceProduct:
      return 4;
    case OpType::ReduceL1:
      return 5;
    case OpType::ReduceL2:
      return 6;
    case OpType::ReduceLogSum:
      return 7;
    case OpType::ReduceLogSumExp:
      return 8;
    default:
      return 9;  // reduceSumSquare
  }
}

void compileReduce(const OpContext& context, std::vector<Step>& steps) {
  const auto& axes = context.operation.attributesAs<graph::ReduceAttributes>().axes;
  const auto& shape = context.shape(context.input(0));
  elementCount(shape, "the reduction input");
  const auto strides = contiguousStrides(shape);
  std::vector<uint32_t> keptShape, keptStrides, reducedShape, reducedStrides;
  for (uint32_t d = 0; d < shape.size(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
      keptShape.push_back(shape[d]);
      keptStrides.push_back(strides[d]);
    }
  }
  for (uint32_t axis : axes) {
    reducedShape.push_back(shape.at(axis));
    reducedStrides.push_back(strides.at(axis));
  }
  const uint32_t count = elementCount(keptShape, "the reduction output");
  const uint32_t reducedCount = elementCount(reducedShape, "the reduced axes");
  const T type = context.descriptor(context.output()).dataType;
  const uint32_t code = reduceCode(context.operation.type);
  std::vector<uint32_t> params;
  if (isFloatingPoint(type)) {
    params = {count,
              static_cast<uint32_t>(keptShape.size()),
              code,
              reducedCount,
              static_cast<uint32_t>(reducedShape.size()),
              0,
              0,
              0};
  } else {
    params = {code,
              shaderTypeCode(type),
              reducedCount,
              static_cast<uint32_t>(keptShape.size()),
              static_cast<uint32_t>(reducedShape.size()),
              0};
  }
  appendPadded(params, keptShape, 1);
  appendPadded(params, keptStrides);
  appendPadded(params, reducedShape, 1);
  appendPadded(params, reducedStrides);
  if (!isFloatingPoint(type)) {
    steps.push_back(elementsStep("reduce_int", count, bitsPerElement(type), std::move(params),
                                 {context.input(0), context.output()}));
    return;
  }
  Step step =
      elementwiseStep("reduce", count, std::move(params), {context.input(0), context.output()});
  step.float16 = type == T::Float16;
  steps.push_back(std::move(step));
}

}  // namespace

void registerReductionOps(OpTable& table) {
  for (OpType type : {OpType::ReduceSum, OpType::ReduceMean, OpType::ReduceMax, OpType::ReduceMin,
                      OpType::ReduceProduct, OpType::ReduceL1, OpType::ReduceL2,
                      OpType::ReduceLogSum, OpType::ReduceLogSumExp, OpType::ReduceSumSquare}) {
    // Integers too (reduce_int.comp) where the spec's limits allow them: sum, product, l1,
    // sumSquare, max, min.
    table.set(type, {compileReduce, kElementTypes, {}});
  }
}

}  // namespace webnn::vulkan
