// Reduction ONNX ops: ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp, ReduceSumSquare, ArgMax, ArgMin (select_last_index through
// reverse), Hardmax (argMax and equal), TopK (rounds of argMax), CumSum.
#include <limits>

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

// TopK with k known at import: k rounds of argMax (argMin for the smallest), each taking the
// first extreme (ONNX orders equal values by index) and masking it out with -inf (+inf).
void topK(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  const uint32_t axis = c.axis(c.attrInt("axis", -1), shape.size());
  const Known& kValue = c.requireKnown(1, "K");
  if (kValue.size() != 1) c.failData("K must hold one value");
  const int64_t k = kValue.integer(0);
  constexpr int64_t kMaxRounds = 64;  // each round is a few ops
  if (k <= 0 || k > shape[axis]) c.failData("K must be in [1, the axis' size]");
  if (k > kMaxRounds) c.fail("K above " + std::to_string(kMaxRounds) + " is not supported");
  if (!isFloatingPoint(x.dataType())) c.fail("TopK of integers is not supported");
  const bool largest = c.attrInt("largest", 1) != 0;
  const std::string l = c.label();
  // Positions 0..n-1 along the axis, to mask the element each round took.
  Known positions;
  positions.type = kInt64;
  positions.shape.assign(shape.size(), 1);
  positions.shape[axis] = shape[axis];
  c.reserveKnown(positions.shape, "the positions along the axis");
  for (uint32_t i = 0; i < shape[axis]; ++i) positions.ints.push_back(i);
  const MLOperand iota = c.constant(positions);
  const MLOperand masked =
      c.scalar(x.dataType(), largest ? -std::numeric_limits<double>::infinity()
                                     : std::numeric_limits<double>::infinity());
  std::vector<MLOperand> values, indices;
  MLOperand remaining = x;
  for (int64_t round = 0; round < k; ++round) {
    const std::string r = l + "/" + std::to_string(round);
    MLArgMinMaxOptions options;
    options.label = r + "/arg";
    options.keepDimensions = true;
    options.outputDataType = MLOperandDataType::Int64;
    const MLOperand index = largest ? c.builder.argMax(remaining, axis, options)
                                    : c.builder.argMin(remaining, axis, options);
    MLGatherOptions along;
    along.label = r + "/value";
    along.axis = axis;
    values.push_back(c.builder.gatherElements(x, index, along));
    indices.push_back(index);
    if (round + 1 < k) {
      const MLOperand taken = c.builder.equal(iota, index, {r + "/taken"});
      remaining = c.builder.where(taken, masked, remaining, {r + "/masked"});
    }
  }
  c.setOutput(0, values.size() == 1 ? values[0] : c.builder.concat(values, axis, {l + "/values"}));
  c.setOutput(1,
              indices.size() == 1 ? indices[0] : c.builder.concat(indices, axis, {l + "/indices"}));
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
  t["TopK"] = {topK};
  t["CumSum"] = {cumSum};
}

}  // namespace webnn::onnx_import
