// The mapping and folding tables, and helpers the op families share.
#include "onnx/ops.h"

#include "onnx/errors.h"

namespace webnn::onnx_import {

const OpTable& opTable() {
  static const OpTable table = [] {
    OpTable t;
    addElementwiseOps(t);
    addActivationOps(t);
    addConvolutionOps(t);
    addPoolingOps(t);
    addNormalizationOps(t);
    addShapeOps(t);
    addSliceOps(t);
    addReductionOps(t);
    addResizeOps(t);
    addRecurrentOps(t);
    addQuantizationOps(t);
    addLossOps(t);
    addControlOps(t);
    addEinsumOps(t);
    return t;
  }();
  return table;
}

bool isDefaultDomain(const ::onnx::NodeProto& node) {
  return node.domain().empty() || node.domain() == "ai.onnx";
}

std::string opKey(const ::onnx::NodeProto& node) {
  return isDefaultDomain(node) ? node.op_type() : node.domain() + ":" + node.op_type();
}

const ::onnx::AttributeProto* findAttribute(const ::onnx::NodeProto& node,
                                            const std::string& name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

std::string stringAttribute(const ::onnx::NodeProto& node, const std::string& name,
                            const std::string& fallback) {
  const auto* a = findAttribute(node, name);
  return a ? a->s() : fallback;
}

int64_t intAttribute(const ::onnx::NodeProto& node, const std::string& name, int64_t fallback) {
  const auto* a = findAttribute(node, name);
  return a ? a->i() : fallback;
}

std::vector<uint32_t> toU32(Context& c, const std::vector<int64_t>& values, const char* what) {
  std::vector<uint32_t> out;
  for (int64_t v : values) {
    if (v < 0 || v > 0xffffffffll) {
      c.fail(std::string(what) + " value " + std::to_string(v) + " is not supported");
    }
    out.push_back(static_cast<uint32_t>(v));
  }
  return out;
}

std::vector<uint32_t> convPadding(Context& c, const std::vector<uint32_t>& inputSpatial,
                                  const std::vector<uint32_t>& kernel,
                                  const std::vector<uint32_t>& strides) {
  const size_t n = inputSpatial.size();
  const std::string autoPad = c.attrString("auto_pad", "NOTSET");
  std::vector<uint32_t> padding(2 * n, 0);
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t i = 0; i < n; ++i) {
      const int64_t out = (static_cast<int64_t>(inputSpatial[i]) + strides[i] - 1) / strides[i];
      const int64_t total = std::max<int64_t>(
          0, (out - 1) * strides[i] + kernel[i] - static_cast<int64_t>(inputSpatial[i]));
      const auto small = static_cast<uint32_t>(total / 2);
      const auto big = static_cast<uint32_t>(total - total / 2);
      padding[2 * i] = autoPad == "SAME_UPPER" ? small : big;
      padding[2 * i + 1] = autoPad == "SAME_UPPER" ? big : small;
    }
  } else if (autoPad == "NOTSET") {
    if (auto pads = c.attrInts("pads")) {
      if (pads->size() != 2 * n) c.failData("pads must have " + std::to_string(2 * n) + " values");
      const auto p = toU32(c, *pads, "pads");
      for (size_t i = 0; i < n; ++i) {
        padding[2 * i] = p[i];
        padding[2 * i + 1] = p[n + i];
      }
    }
  } else if (autoPad != "VALID") {
    c.fail("auto_pad=" + autoPad + " is not supported");
  }
  return padding;
}

MLOperand reshapeTo(Context& c, const MLOperand& x, const std::vector<uint32_t>& shape) {
  if (x.shape() == shape) return x;
  return c.builder.reshape(x, shape, {{c.label() + "/reshape"}});
}

}  // namespace webnn::onnx_import
