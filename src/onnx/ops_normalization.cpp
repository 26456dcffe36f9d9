// Normalization ONNX ops: BatchNormalization (inference), InstanceNormalization,
// LayerNormalization (with its Mean and InvStdDev outputs).
#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

void batchNormalization(Context& c) {
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
  if (intAttribute(node, "training_mode", 0) != 0) return "training_mode=1";
  for (int i = 1; i < node.output_size(); ++i) {
    if (!node.output(i).empty()) return "training outputs";
  }
  return {};
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
}

}  // namespace webnn::onnx_import
