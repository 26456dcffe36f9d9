// Reduction ONNX ops: ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp, ReduceSumSquare, ArgMax, ArgMin.
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

template <bool kMax>
void argMinMax(Context& c) {
  MLOperand x = c.input(0);
  MLArgMinMaxOptions options;
  options.label = c.label();
  options.keepDimensions = c.attrInt("keepdims", 1) != 0;
  options.outputDataType = MLOperandDataType::Int64;
  const uint32_t axis = c.axis(c.attrInt("axis", 0), x.shape().size());
  c.setOutput(0, kMax ? c.builder.argMax(x, axis, options) : c.builder.argMin(x, axis, options));
}

std::string checkArg(const ::onnx::NodeProto& node, int64_t) {
  return intAttribute(node, "select_last_index", 0) != 0 ? "select_last_index=1" : "";
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
  t["ArgMax"] = {argMinMax<true>, checkArg};
  t["ArgMin"] = {argMinMax<false>, checkArg};
}

}  // namespace webnn::onnx_import
