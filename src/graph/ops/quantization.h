// quantizeLinear / dequantizeLinear: scale and zeroPoint share a shape (of the input's rank, or
// lower with leading 1s implied) that is blockwise broadcastable to the input (each dimension of
// scale divides the input's).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "graph/op_limits.h"
#include "webnn/types.h"

namespace webnn::graph {

// Output: zeroPoint's data type, input's shape.
MLOperandDescriptor validateQuantizeLinear(const OpCall& call, const MLOperandDescriptor& input,
                                           const MLOperandDescriptor& scale,
                                           const MLOperandDescriptor& zeroPoint);
// Output: scale's data type, input's shape.
MLOperandDescriptor validateDequantizeLinear(const OpCall& call, const MLOperandDescriptor& input,
                                             const MLOperandDescriptor& scale,
                                             const MLOperandDescriptor& zeroPoint);

// `shape` with leading 1s up to `rank` (how a lower-rank scale/zeroPoint is read).
std::vector<uint32_t> padToRank(const std::vector<uint32_t>& shape, size_t rank);
// Whether `from` is blockwise broadcastable to `to`: same rank, each to[i] % from[i] == 0.
bool isBlockwiseBroadcastable(const std::vector<uint32_t>& from, const std::vector<uint32_t>& to);

}  // namespace webnn::graph
