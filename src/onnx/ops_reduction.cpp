// Reduction ONNX ops: ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp, ReduceSumSquare, ArgMax, ArgMin (select_last_index through
// reverse), Hardmax (argMax and equal), CumSum.
#include "onnx/errors.h"
#include "onnx/ops.h"
#include "onnx/shape_logic.h"

namespace webnn::onnx_import {
namespace {

using Reduce = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLReduceOptions&);

// ReduceSum takes its axes as an input since opset 13, the others since opset 18.
template <Reduce op, int64_t kAxesInputSince>
void reduce(Context& c) {
  MLOperand x = c.input(0);
  const auto axes = axesInput(c, 1, "axes", kAxesInputSince);
  MLReduceOptions options;
  options.label = c.label();
  options.keepDimensions = c.attrInt("keepdims", 1) != 0;
  if (axes && !axes->empty()) {
    std::vector<uint32_t> list;
    for (int64_t a : *axes) list.push_back(c.axis(a, x.shape().size()));
    options.axes = list;
  } else if (c.attrInt("noop_with_empty_axes", 0) != 0) {
    c.setOutput(0, x);
    return;
  }
  c.setOutput(0, (c.builder.*op)(x, options));
}

// select_last_index=1: the first extreme of the input reversed along the axis is the last one
// of the input, at index (n - 1) - i.
template <bool kMax>
void argMinMax(Context& c) {
  MLOperand x = c.input(0);
  MLArgMinMaxOptions options;
  options.label = c.label();
  options.keepDimensions = c.attrInt("keepdims", 1) != 0;
  options.outputDataType = MLOperandDataType::Int64;
  const uint32_t axis = c.axis(c.attrInt("axis", 0), x.shape().size());
  const bool last = c.attrInt("select_last_index", 0) != 0;
  if (last) {
    options.label = c.label() + "/reversed";
    x = c.builder.reverse(x, {c.label() + "/reverse", std::vector<uint32_t>{axis}});
  }
  MLOperand index = kMax ? c.builder.argMax(x, axis, options) : c.builder.argMin(x, axis, options);
  if (last) {
    const MLOperand lastIndex = c.scalar(MLOperandDataType::Int64, x.shape()[axis] - 1.0);
    index = c.builder.sub(lastIndex, index, {c.label()});
  }
  c.setOutput(0, index);
}

// 1 at the first largest element along the axis, 0 elsewhere. Before opset 13 the input is seen
// as 2-D, flattened at the axis (default 1); since, the axis (default -1) alone.
void hardmax(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  uint32_t axis = c.axis(c.attrInt("axis", c.opset < 13 ? 1 : -1), shape.size());
  if (c.opset < 13) {
    uint64_t outer = 1, inner = 1;
    for (size_t i = 0; i < shape.size(); ++i) (i < axis ? outer : inner) *= shape[i];
    if (outer > 0xffffffffu || inner > 0xffffffffu) c.failData("the input is too large");
    x = reshapeTo(c, x, {static_cast<uint32_t>(outer), static_cast<uint32_t>(inner)});
    axis = 1;
  }
  MLArgMinMaxOptions options;
  options.label = c.label() + "/argmax";
  options.keepDimensions = true;
  options.outputDataType = MLOperandDataType::Int32;
  const MLOperand index = c.builder.argMax(x, axis, options);
  // 0, 1, ..., n - 1 along the axis, broadcast against the index.
  const uint32_t n = x.shape()[axis];
  Known iota = Known::vectorInts({});
  iota.type = kInt32;
  iota.shape.assign(x.shape().size(), 1);
  iota.shape[axis] = n;
  c.reserveKnown(iota.shape, "the positions along the axis");
  for (uint32_t i = 0; i < n; ++i) iota.ints.push_back(i);
  const MLOperand hot = c.builder.equal(c.constant(iota), index, {c.label() + "/equal"});
  MLOperand result = c.builder.cast(hot, x.dataType(), {c.label()});
  c.setOutput(0, reshapeTo(c, result, shape));
}

void cumSum(Context& c) {
  MLOperand x = c.input(0);
  const Known& axisValue = c.requireKnown(1, "axis");
  if (axisValue.size() != 1) c.failData("axis must hold one value");
  MLCumulativeSumOptions options;
  options.label = c.label();
  options.exclusive = c.attrInt("exclusive", 0) != 0;
  options.reversed = c.attrInt("reverse", 0) != 0;
  const uint32_t axis = c.axis(axisValue.integer(0), x.shape().size());
  c.setOutput(0, c.builder.cumulativeSum(x, axis, options));
}

}  // namespace

void addReductionOps(OpTable& t) {
  t["ReduceMean"] = {reduce<&MLGraphBuilder::reduceMean, 18>};
  t["ReduceSum"] = {reduce<&MLGraphBuilder::reduceSum, 13>};
  t["ReduceMax"] = {reduce<&MLGraphBuilder::reduceMax, 18>};
  t["ReduceMin"] = {reduce<&MLGraphBuilder::reduceMin, 18>};
  t["ReduceProd"] = {reduce<&MLGraphBuilder::reduceProduct, 18>};
  t["ReduceL1"] = {reduce<&MLGraphBuilder::reduceL1, 18>};
  t["ReduceL2"] = {reduce<&MLGraphBuilder::reduceL2, 18>};
  t["ReduceLogSum"] = {reduce<&MLGraphBuilder::reduceLogSum, 18>};
  t["ReduceLogSumExp"] = {reduce<&MLGraphBuilder::reduceLogSumExp, 18>};
  t["ReduceSumSquare"] = {reduce<&MLGraphBuilder::reduceSumSquare, 18>};
  t["ArgMax"] = {argMinMax<true>};
  t["ArgMin"] = {argMinMax<false>};
  t["Hardmax"] = {hardmax};
  t["CumSum"] = {cumSum};
}

}  // namespace webnn::onnx_import
