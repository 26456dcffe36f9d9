// Normalization ONNX ops: BatchNormalization (inference, and training_mode with the batch's
// statistics), InstanceNormalization, LRN, MeanVarianceNormalization,
// LayerNormalization (with its Mean and InvStdDev outputs).
#include <algorithm>

#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

// training_mode=1: normalized with the batch's own statistics (over every axis but the
// channels), and the running statistics updated: input * momentum + batch * (1 - momentum).
void batchNormalizationTraining(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  if (shape.size() < 2) c.failData("the input needs a channel dimension");
  const std::string l = c.label();
  MLReduceOptions reduce;
  std::vector<uint32_t> axes;
  for (uint32_t a = 0; a < shape.size(); ++a) {
    if (a != 1) axes.push_back(a);
  }
  reduce.axes = axes;
  reduce.label = l + "/mean";
  const MLOperand mean = c.builder.reduceMean(x, reduce);  // [C]
  std::vector<uint32_t> channelShape(shape.size(), 1);
  channelShape[1] = shape[1];
  const MLOperand centered = c.builder.sub(x, reshapeTo(c, mean, channelShape), {l + "/centered"});
  reduce.label = l + "/variance";
  const MLOperand variance =
      c.builder.reduceMean(c.builder.mul(centered, centered, {l + "/square"}), reduce);
  MLBatchNormalizationOptions options;
  options.label = l;
  options.epsilon = c.attrFloat("epsilon", 1e-5f);
  options.scale = c.input(1);
  options.bias = c.input(2);
  c.setOutput(0, c.builder.batchNormalization(x, mean, variance, options));
  const double momentum = c.attrFloat("momentum", 0.9f);
  const auto type = x.dataType();
  auto running = [&](size_t input, const MLOperand& batch, const std::string& what) {
    const MLOperand kept = c.builder.mul(c.input(input), c.scalar(type, momentum), {l + what});
    const MLOperand added =
        c.builder.mul(batch, c.scalar(type, 1.0 - momentum), {l + what + "_batch"});
    return c.builder.add(kept, added, {l + what + "_running"});
  };
  if (c.wantsOutput(1)) c.setOutput(1, running(3, mean, "/mean"));
  if (c.wantsOutput(2)) c.setOutput(2, running(4, variance, "/variance"));
}

void batchNormalization(Context& c) {
  if (c.attrInt("training_mode", 0) != 0) {
    batchNormalizationTraining(c);
    return;
  }
  MLBatchNormalizationOptions options;
  options.label = c.label();
  options.epsilon = c.attrFloat("epsilon", 1e-5f);
  options.scale = c.input(1);
  options.bias = c.input(2);
  MLOperand x = c.input(0);
  if (x.shape().size() < 2) c.failData("the input needs a channel dimension");
  c.setOutput(0, c.builder.batchNormalization(x, c.input(3), c.input(4), options));
}

std::string checkBatchNormalization(const ::onnx::NodeProto& node, int64_t) {
  if (intAttribute(node, "training_mode", 0) != 0) {
    return node.output_size() > 3 ? "saved mean/variance outputs (opset 9 training)" : "";
  }
  for (int i = 1; i < node.output_size(); ++i) {
    if (!node.output(i).empty()) return "training outputs";
  }
  return {};
}

// MeanVarianceNormalization: (x - mean) / (standard deviation + 1e-9) over `axes` ([0, 2, 3]).
void meanVarianceNormalization(Context& c) {
  MLOperand x = c.input(0);
  const size_t rank = x.shape().size();
  std::vector<uint32_t> axes;
  for (int64_t a : c.attrInts("axes").value_or(std::vector<int64_t>{0, 2, 3}))
    axes.push_back(c.axis(a, rank));
  const std::string l = c.label();
  MLReduceOptions reduce;
  reduce.axes = axes;
  reduce.keepDimensions = true;
  reduce.label = l + "/mean";
  const MLOperand centered = c.builder.sub(x, c.builder.reduceMean(x, reduce), {l + "/centered"});
  reduce.label = l + "/variance";
  const MLOperand variance =
      c.builder.reduceMean(c.builder.mul(centered, centered, {l + "/square"}), reduce);
  const MLOperand deviation = c.builder.add(c.builder.sqrt(variance, {l + "/sqrt"}),
                                            c.scalar(x.dataType(), 1e-9), {l + "/epsilon"});
  c.setOutput(0, c.builder.div(centered, deviation, {l}));
}

// LRN: x / (bias + alpha / size * sum of squares over the `size` nearest channels)^beta; the
// channel sum is a 1x1 convolution of the squares with a band of ones (C x C, built at import).
void localResponseNormalization(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  if (shape.size() < 3) c.failData("the input needs a channel and a spatial dimension");
  const int64_t size = c.attrInt("size", 0);
  if (size <= 0) c.failData("size must be positive");
  const int64_t channels = shape[1];
  constexpr int64_t kMaxChannels = 4096;
  if (channels > kMaxChannels)
    c.fail("more than " + std::to_string(kMaxChannels) + " channels are not supported");
  const std::string l = c.label();
  uint64_t spatial = 1;
  for (size_t i = 2; i < shape.size(); ++i) spatial *= shape[i];
  if (spatial > 0xffffffffu) c.failData("the input is too large");
  const std::vector<uint32_t> nchw = {shape[0], shape[1], static_cast<uint32_t>(spatial), 1};
  MLOperand x4 = reshapeTo(c, x, nchw);
  Known band;
  band.type = isOnnxFloat(c.onnxType(0)) ? c.onnxType(0) : kFloat;
  band.shape = {channels, channels, 1, 1};
  c.reserveKnown(band.shape, "the channel window");
  band.floats.assign(static_cast<size_t>(channels * channels), 0.0);
  const int64_t before = (size - 1) / 2, after = size - 1 - before;
  for (int64_t out = 0; out < channels; ++out) {
    for (int64_t in = std::max<int64_t>(0, out - before);
         in <= std::min<int64_t>(channels - 1, out + after); ++in)
      band.floats[static_cast<size_t>(out * channels + in)] = 1.0;
  }
  const MLOperand squares = c.builder.mul(x4, x4, {l + "/square"});
  MLConv2dOptions sum;
  sum.label = l + "/window";
  const MLOperand windowSum = c.builder.conv2d(squares, c.constant(band), sum);
  const auto type = x.dataType();
  const double alpha = c.attrFloat("alpha", 1e-4f), beta = c.attrFloat("beta", 0.75f);
  const double bias = c.attrFloat("bias", 1.0f);
  const MLOperand base = c.builder.add(
      c.builder.mul(windowSum, c.scalar(type, alpha / static_cast<double>(size)), {l + "/alpha"}),
      c.scalar(type, bias), {l + "/bias"});
  const MLOperand denominator = c.builder.pow(base, c.scalar(type, beta), {l + "/pow"});
  c.setOutput(0, reshapeTo(c, c.builder.div(x4, denominator, {l}), shape));
}

void instanceNormalization(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  if (shape.size() < 3 || shape.size() > 4) c.fail("only 3-D and 4-D inputs are supported");
  MLInstanceNormalizationOptions options;
  options.label = c.label();
  options.epsilon = c.attrFloat("epsilon", 1e-5f);
  options.scale = c.input(1);
  options.bias = c.input(2);
  if (shape.size() == 3)
    x = c.builder.reshape(x, {shape[0], shape[1], shape[2], 1}, {c.label() + "/4d"});
  c.setOutput(0, reshapeTo(c, c.builder.instanceNormalization(x, options), shape));
}

// Scale and bias broadcast to the normalized shape.
MLOperand toNormalizedShape(Context& c, MLOperand v, const std::vector<uint32_t>& shape,
                            const char* what) {
  if (v.shape() == shape) return v;
  uint64_t have = 1, want = 1;
  for (auto d : v.shape()) have *= d;
  for (auto d : shape) want *= d;
  if (have == want) return c.builder.reshape(v, shape, {c.label() + "/" + what});
  std::vector<uint32_t> aligned = v.shape();
  while (aligned.size() > shape.size() && aligned.front() == 1) aligned.erase(aligned.begin());
  if (aligned.size() > shape.size()) c.failData(std::string(what) + " does not broadcast");
  aligned.insert(aligned.begin(), shape.size() - aligned.size(), 1);
  v = reshapeTo(c, v, aligned);
  return c.builder.expand(v, shape, {c.label() + "/" + what});
}

void layerNormalization(Context& c) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  const uint32_t axis = c.axis(c.attrInt("axis", -1), shape.size());
  std::vector<uint32_t> axes, normalized;
  for (uint32_t i = axis; i < shape.size(); ++i) {
    axes.push_back(i);
    normalized.push_back(shape[i]);
  }
  MLLayerNormalizationOptions options;
  options.label = c.label();
  options.epsilon = c.attrFloat("epsilon", 1e-5f);
  options.axes = axes;
  options.scale = toNormalizedShape(c, c.input(1), normalized, "scale");
  if (c.hasInput(2)) options.bias = toNormalizedShape(c, c.input(2), normalized, "bias");
  c.setOutput(0, c.builder.layerNormalization(x, options));
  // Mean and InvStdDev (training outputs that exported graphs sometimes keep): over the same
  // axes, kept as size-1 dimensions, in float32 (stash_type 1, the only one ONNX defines).
  if (!c.wantsOutput(1) && !c.wantsOutput(2)) return;
  if (c.attrInt("stash_type", 1) != 1) c.fail("stash_type other than 1 is not supported");
  const std::string l = c.label();
  MLOperand wide = x.dataType() == MLOperandDataType::Float32
                       ? x
                       : c.builder.cast(x, MLOperandDataType::Float32, {l + "/stash"});
  MLReduceOptions reduce;
  reduce.axes = axes;
  reduce.keepDimensions = true;
  reduce.label = l + "/mean";
  const MLOperand mean = c.builder.reduceMean(wide, reduce);
  if (c.wantsOutput(1)) c.setOutput(1, mean);
  if (!c.wantsOutput(2)) return;
  const MLOperand centered = c.builder.sub(wide, mean, {l + "/centered"});
  reduce.label = l + "/variance";
  const MLOperand variance =
      c.builder.reduceMean(c.builder.mul(centered, centered, {l + "/square"}), reduce);
  const MLOperand shifted = c.builder.add(
      variance, c.scalar(MLOperandDataType::Float32, options.epsilon), {l + "/epsilon"});
  c.setOutput(2, c.builder.reciprocal(c.builder.sqrt(shifted, {l + "/sqrt"}), {l + "/inv"}));
}

}  // namespace

void addNormalizationOps(OpTable& t) {
  t["BatchNormalization"] = {batchNormalization, checkBatchNormalization};
  t["InstanceNormalization"] = {instanceNormalization};
  t["LayerNormalization"] = {layerNormalization};
  t["LRN"] = {localResponseNormalization};
  t["MeanVarianceNormalization"] = {meanVarianceNormalization};
}

}  // namespace webnn::onnx_import
