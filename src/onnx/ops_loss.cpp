// Loss ONNX ops (exported with training graphs, and used for scoring): NegativeLogLikelihoodLoss
// and SoftmaxCrossEntropyLoss, from gatherElements, gather, where and reductions.
#include "onnx/errors.h"
#include "onnx/ops.h"
#include "onnx/shape_logic.h"

namespace webnn::onnx_import {
namespace {

// -input[n, target[n, d...], d...] * weight[target], with ignore_index's positions 0, reduced as
// `reduction` says (mean: divided by the sum of the weights taken). `input` is [N, C, d...].
MLOperand negativeLogLikelihood(Context& c, const MLOperand& input, size_t targetInput,
                                size_t weightInput, const std::string& l) {
  const auto inputShape = input.shape();
  if (inputShape.size() < 2) c.failData("the input must be [N, C, ...]");
  const auto type = input.dataType();
  MLOperand target = c.input(targetInput);
  auto targetShape = target.shape();
  std::vector<uint32_t> expected = inputShape;
  expected.erase(expected.begin() + 1);
  if (targetShape != expected) c.failData("the target's shape must be the input's without C");
  const std::string reduction = c.attrString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    c.fail("reduction=" + reduction + " is not supported");
  const auto* ignoreAttribute = c.attribute("ignore_index");
  const auto targetType = target.dataType();
  std::optional<MLOperand> kept;  // where the target is not ignore_index
  if (ignoreAttribute) {
    const MLOperand ignore = c.scalar(targetType, static_cast<double>(ignoreAttribute->i()));
    kept = c.builder.notEqual(target, ignore, {l + "/kept"});
    target = c.builder.where(*kept, target, c.scalar(targetType, 0.0), {l + "/safe_target"});
  }
  // Along C: the target as [N, 1, d...] picks one element per position.
  std::vector<uint32_t> withChannel = targetShape;
  withChannel.insert(withChannel.begin() + 1, 1);
  MLGatherOptions alongChannels;
  alongChannels.label = l + "/pick";
  alongChannels.axis = 1;
  MLOperand picked = c.builder.gatherElements(
      input, c.builder.reshape(target, withChannel, {l + "/target"}), alongChannels);
  picked = c.builder.reshape(picked, targetShape, {l + "/picked"});
  std::optional<MLOperand> weights;  // per position
  if (c.hasInput(weightInput)) {
    MLGatherOptions byClass;
    byClass.label = l + "/weights";
    weights = c.builder.gather(c.input(weightInput), target, byClass);
  }
  if (kept) {
    const MLOperand keptWeight = c.builder.cast(*kept, type, {l + "/kept_weight"});
    weights = weights ? c.builder.mul(*weights, keptWeight, {l + "/kept_weights"}) : keptWeight;
  }
  MLOperand loss = c.builder.neg(picked, {l + "/neg"});
  if (weights) loss = c.builder.mul(loss, *weights, {l + "/weighted"});
  if (reduction == "none") return loss;
  MLReduceOptions all;
  all.label = l + "/sum";
  const MLOperand sum = c.builder.reduceSum(loss, all);
  if (reduction == "sum") return sum;
  if (!weights) {
    uint64_t count = 1;
    for (uint32_t d : targetShape) count *= d;
    return c.builder.div(sum, c.scalar(type, static_cast<double>(count)), {l + "/mean"});
  }
  all.label = l + "/weight_sum";
  return c.builder.div(sum, c.builder.reduceSum(*weights, all), {l + "/mean"});
}

void negativeLogLikelihoodLoss(Context& c) {
  c.setOutput(0, negativeLogLikelihood(c, c.input(0), 1, 2, c.label()));
}

void softmaxCrossEntropyLoss(Context& c) {
  MLOperand scores = c.input(0);
  if (scores.shape().size() < 2) c.failData("scores must be [N, C, ...]");
  const MLOperand logProbabilities = logSoftmax(c, scores, 1);
  c.setOutput(0, negativeLogLikelihood(c, logProbabilities, 1, 2, c.label()));
  if (c.wantsOutput(1)) c.setOutput(1, logProbabilities);
}

}  // namespace

void addLossOps(OpTable& t) {
  t["NegativeLogLikelihoodLoss"] = {negativeLogLikelihoodLoss};
  t["SoftmaxCrossEntropyLoss"] = {softmaxCrossEntropyLoss};
}

}  // namespace webnn::onnx_import
