// Activation ONNX ops: Relu, Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, Elu, Selu, Celu,
// ThresholdedRelu, Shrink, PRelu, Clip, Gelu, Softplus, Softsign, Softmax, LogSoftmax.
#include <cmath>
#include <limits>
#include <numeric>

#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

void relu(Context& c) {
  c.setOutput(0, c.builder.relu(c.input(0), {c.label()}));
}
void sigmoid(Context& c) {
  c.setOutput(0, c.builder.sigmoid(c.input(0), {c.label()}));
}
void tanhOp(Context& c) {
  c.setOutput(0, c.builder.tanh(c.input(0), {c.label()}));
}
void hardSwish(Context& c) {
  c.setOutput(0, c.builder.hardSwish(c.input(0), {c.label()}));
}
void softplus(Context& c) {
  c.setOutput(0, c.builder.softplus(c.input(0), {c.label()}));
}
void softsign(Context& c) {
  c.setOutput(0, c.builder.softsign(c.input(0), {c.label()}));
}

void hardSigmoid(Context& c) {
  MLHardSigmoidOptions options;
  options.label = c.label();
  options.alpha = c.attrFloat("alpha", 0.2f);
  options.beta = c.attrFloat("beta", 0.5f);
  c.setOutput(0, c.builder.hardSigmoid(c.input(0), options));
}

void leakyRelu(Context& c) {
  MLLeakyReluOptions options;
  options.label = c.label();
  options.alpha = c.attrFloat("alpha", 0.01f);
  c.setOutput(0, c.builder.leakyRelu(c.input(0), options));
}

void elu(Context& c) {
  MLEluOptions options;
  options.label = c.label();
  options.alpha = c.attrFloat("alpha", 1.0f);
  c.setOutput(0, c.builder.elu(c.input(0), options));
}

void selu(Context& c) {
  MLEluOptions options;
  options.label = c.label() + "/elu";
  options.alpha = c.attrFloat("alpha", 1.67326319217681884765625f);
  MLOperand x = c.input(0);
  const double gamma = c.attrFloat("gamma", 1.05070102214813232421875f);
  c.setOutput(0,
              c.builder.mul(c.builder.elu(x, options), c.scalar(x.dataType(), gamma), {c.label()}));
}

// Celu: alpha * elu(x / alpha).
void celu(Context& c) {
  MLOperand x = c.input(0);
  const double alpha = c.attrFloat("alpha", 1.0f);
  if (!(alpha > 0)) c.failData("alpha must be positive");
  const auto type = x.dataType();
  const MLOperand scaled = c.builder.div(x, c.scalar(type, alpha), {c.label() + "/scaled"});
  MLEluOptions options;
  options.label = c.label() + "/elu";
  c.setOutput(0, c.builder.mul(c.builder.elu(scaled, options), c.scalar(type, alpha), {c.label()}));
}

void thresholdedRelu(Context& c) {
  MLOperand x = c.input(0);
  const MLOperand above =
      c.builder.greater(x, c.scalar(x.dataType(), c.attrFloat("alpha", 1.0f)), {c.label() + "/gt"});
  c.setOutput(0, c.builder.where(above, x, c.scalar(x.dataType(), 0.0), {c.label()}));
}

// x + bias below -lambd, x - bias above lambd, 0 between.
void shrink(Context& c) {
  MLOperand x = c.input(0);
  const auto type = x.dataType();
  const double lambd = c.attrFloat("lambd", 0.5f), bias = c.attrFloat("bias", 0.0f);
  const MLOperand below = c.builder.lesser(x, c.scalar(type, -lambd), {c.label() + "/below"});
  const MLOperand above = c.builder.greater(x, c.scalar(type, lambd), {c.label() + "/above"});
  const MLOperand raised = c.builder.add(x, c.scalar(type, bias), {c.label() + "/raised"});
  const MLOperand lowered = c.builder.sub(x, c.scalar(type, bias), {c.label() + "/lowered"});
  const MLOperand outer =
      c.builder.where(above, lowered, c.scalar(type, 0.0), {c.label() + "/outer"});
  c.setOutput(0, c.builder.where(below, raised, outer, {c.label()}));
}

void prelu(Context& c) {
  c.setOutput(0, c.builder.prelu(c.input(0), c.input(1), {c.label()}));
}

void clip(Context& c) {
  MLOperand x = c.input(0);
  MLClampOptions options;
  options.label = c.label();
  if (c.opset < 11) {
    options.minValue = c.attrFloat("min", -std::numeric_limits<float>::infinity());
    options.maxValue = c.attrFloat("max", std::numeric_limits<float>::infinity());
    c.setOutput(0, c.builder.clamp(x, options));
    return;
  }
  const Known* low = c.hasInput(1) ? c.known(1) : nullptr;
  const Known* high = c.hasInput(2) ? c.known(2) : nullptr;
  if ((c.hasInput(1) && !low) || (c.hasInput(2) && !high)) {
    // Bounds computed at run time: max then min.
    if (c.hasInput(1)) x = c.builder.max(x, c.input(1), {c.label() + "/min"});
    if (c.hasInput(2)) x = c.builder.min(x, c.input(2), {c.label() + "/max"});
    c.setOutput(0, x);
    return;
  }
  if (low) options.minValue = low->number(0);
  if (high) options.maxValue = high->number(0);
  c.setOutput(0, c.builder.clamp(x, options));
}

void gelu(Context& c) {
  MLOperand x = c.input(0);
  if (c.attrString("approximate", "none") != "tanh") {
    c.setOutput(0, c.builder.gelu(x, {c.label()}));
    return;
  }
  // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
  const auto type = x.dataType();
  const std::string l = c.label();
  MLOperand cube = c.builder.mul(c.builder.mul(x, x, {l + "/x2"}), x, {l + "/x3"});
  MLOperand inner =
      c.builder.add(x, c.builder.mul(cube, c.scalar(type, 0.044715), {l + "/k"}), {l + "/inner"});
  MLOperand t = c.builder.tanh(
      c.builder.mul(inner, c.scalar(type, std::sqrt(2.0 / M_PI)), {l + "/scaled"}), {l + "/tanh"});
  MLOperand half = c.builder.mul(x, c.scalar(type, 0.5), {l + "/half"});
  c.setOutput(0, c.builder.mul(half, c.builder.add(t, c.scalar(type, 1.0), {l + "/1p"}), {l}));
}

// Softmax and LogSoftmax before opset 13 flatten to 2-D at `axis`.
}  // namespace

MLOperand logSoftmax(Context& c, const MLOperand& input, uint32_t axis) {
  // x - max - log(sum(exp(x - max)))
  const std::string l = c.label();
  MLReduceOptions reduce;
  reduce.axes = std::vector<uint32_t>{axis};
  reduce.keepDimensions = true;
  reduce.label = l + "/max";
  MLOperand shifted = c.builder.sub(input, c.builder.reduceMax(input, reduce), {l + "/shift"});
  reduce.label = l + "/sum";
  MLOperand sum = c.builder.reduceSum(c.builder.exp(shifted, {l + "/exp"}), reduce);
  return c.builder.sub(shifted, c.builder.log(sum, {l + "/log"}), {l + "/log_softmax"});
}

namespace {

template <bool kLog>
void softmax(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  const size_t rank = shape.size();
  const int64_t defaultAxis = c.opset < 13 ? 1 : -1;
  uint32_t axis = c.axis(c.attrInt("axis", defaultAxis), rank);
  const std::string l = c.label();
  MLOperand input = x;
  if (c.opset < 13 && axis != rank - 1) {
    const uint32_t outer =
        std::accumulate(shape.begin(), shape.begin() + axis, 1u, std::multiplies<uint32_t>());
    const uint32_t inner =
        std::accumulate(shape.begin() + axis, shape.end(), 1u, std::multiplies<uint32_t>());
    input = c.builder.reshape(x, {outer, inner}, {l + "/flatten"});
    axis = 1;
  }
  MLOperand result;
  if (!kLog) {
    result = c.builder.softmax(input, axis, {l});
  } else {
    result = logSoftmax(c, input, axis);
  }
  c.setOutput(0, reshapeTo(c, result, shape));
}

}  // namespace

void addActivationOps(OpTable& t) {
  t["Relu"] = {relu};
  t["Sigmoid"] = {sigmoid};
  t["Tanh"] = {tanhOp};
  t["HardSigmoid"] = {hardSigmoid};
  t["HardSwish"] = {hardSwish};
  t["LeakyRelu"] = {leakyRelu};
  t["Elu"] = {elu};
  t["Selu"] = {selu};
  t["Celu"] = {celu};
  t["ThresholdedRelu"] = {thresholdedRelu};
  t["Shrink"] = {shrink};
  t["PRelu"] = {prelu};
  t["Softplus"] = {softplus};
  t["Softsign"] = {softsign};
  t["Clip"] = {clip};
  t["Gelu"] = {gelu};
  t["Softmax"] = {softmax<false>};
  t["LogSoftmax"] = {softmax<true>};
}

}  // namespace webnn::onnx_import
