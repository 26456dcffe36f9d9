// The mapping table: ONNX op type -> the function that maps a node to builder calls, with an
// optional check of its attributes (run on every node before anything is built or read), and the
// folding table: op type -> the function computing known outputs from known inputs.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "onnx/context.h"

namespace webnn::onnx_import {

struct OpMapping {
  void (*convert)(Context&) = nullptr;
  // Empty when the node's attributes are supported; else what is not (e.g. "mode=cubic").
  std::string (*check)(const ::onnx::NodeProto&, int64_t opset) = nullptr;
};

using OpTable = std::unordered_map<std::string, OpMapping>;
using FoldTable = std::unordered_map<std::string, void (*)(Context&)>;

const OpTable& opTable();
const FoldTable& foldTable();

// A node of the default domain ("" or "ai.onnx").
bool isDefaultDomain(const ::onnx::NodeProto& node);
// The node's key in the op table: its op type in the default domain, "domain:OpType" in another
// (ONNX Runtime's contrib ops: "com.microsoft:MatMulNBits").
std::string opKey(const ::onnx::NodeProto& node);

// com.microsoft MatMulNBits with bits=4 reads its B (uint8 [N, n_blocks, blob_size] in the file)
// as WebNN uint4 [N, n_blocks, block_size]: the same bytes, two values a byte, low nibble first.
// That descriptor for `node` and a B of ONNX type `type` and `dims`, or nullopt when the node is
// no 4-bit MatMulNBits or its attributes and B's dims disagree (its mapping then says why).
std::optional<MLOperandDescriptor> matMulNBitsPackedWeight(const ::onnx::NodeProto& node,
                                                           int32_t type,
                                                           const std::vector<int64_t>& dims);

// One file per op family adds its mappings.
void addElementwiseOps(OpTable&);
void addActivationOps(OpTable&);
void addConvolutionOps(OpTable&);
void addPoolingOps(OpTable&);
void addNormalizationOps(OpTable&);
void addShapeOps(OpTable&);
void addSliceOps(OpTable&);
void addReductionOps(OpTable&);
void addResizeOps(OpTable&);
void addRecurrentOps(OpTable&);
void addQuantizationOps(OpTable&);
void addLossOps(OpTable&);
void addControlOps(OpTable&);
void addEinsumOps(OpTable&);

// Attribute lookups for check functions.
const ::onnx::AttributeProto* findAttribute(const ::onnx::NodeProto& node, const std::string& name);
std::string stringAttribute(const ::onnx::NodeProto& node, const std::string& name,
                            const std::string& fallback);
int64_t intAttribute(const ::onnx::NodeProto& node, const std::string& name, int64_t fallback);

// Shared helpers.
// ONNX auto_pad / pads for `spatial` dims -> WebNN padding [b0, e0, b1, e1]. `kernel` already
// dilated ((k - 1) * d + 1).
std::vector<uint32_t> convPadding(Context& c, const std::vector<uint32_t>& inputSpatial,
                                  const std::vector<uint32_t>& kernel,
                                  const std::vector<uint32_t>& strides);
std::vector<uint32_t> toU32(Context& c, const std::vector<int64_t>& values, const char* what);
// Conv's mapping on given operands (1-D and 2-D; strides, pads, dilations, group from the node).
MLOperand convolve(Context& c, MLOperand x, MLOperand w, std::optional<MLOperand> bias);
// log(softmax(input)) along `axis`, computed stably (x - max - log(sum(exp(x - max)))).
MLOperand logSoftmax(Context& c, const MLOperand& input, uint32_t axis);
// Reshape that keeps the operand when the shape already matches.
MLOperand reshapeTo(Context& c, const MLOperand& x, const std::vector<uint32_t>& shape);

}  // namespace webnn::onnx_import
