// Shape and data movement ops: reshape, transpose, concat, split, slice, expand, pad, tile,
// reverse, triangular. Pure validation / shape inference (throwing TypeError naming the op and the
// problem), filling the attributes each op records with every default resolved.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// What each op records (attributes.h): "concat" ConcatAttributes, "split" SplitAttributes (the
// size of every output along the axis), "slice" SliceAttributes (strides filled, 1s by default),
// "pad" PadAttributes (value cast to the input's data type), "tile" TileAttributes, "transpose"
// TransposeAttributes (the permutation filled), "reverse" ReverseAttributes (the axes filled),
// "triangular" TriangularAttributes. "reshape" and "expand" record nothing: the output
// descriptor says it all.

MLOperandDescriptor validateReshape(const OpCall& call, const MLOperandDescriptor& input,
                                    const std::vector<uint32_t>& newShape);
// Fills attributes.permutation (the reversed axes when options.permutation is absent).
MLOperandDescriptor validateTranspose(const OpCall& call, const MLOperandDescriptor& input,
                                      const MLTransposeOptions& options,
                                      TransposeAttributes& attributes);
MLOperandDescriptor validateConcat(const OpCall& call,
                                   const std::vector<MLOperandDescriptor>& inputs, uint32_t axis);
// Returns the sizes of the outputs along `axis` (splits == the number of equal outputs).
std::vector<uint32_t> splitSizes(const OpCall& call, const MLOperandDescriptor& input,
                                 uint32_t splits, uint32_t axis);
std::vector<MLOperandDescriptor> validateSplit(const OpCall& call, const MLOperandDescriptor& input,
                                               const std::vector<uint32_t>& sizes, uint32_t axis);
// Fills attributes.strides when empty.
MLOperandDescriptor validateSlice(const OpCall& call, const MLOperandDescriptor& input,
                                  SliceAttributes& attributes);
MLOperandDescriptor validateExpand(const OpCall& call, const MLOperandDescriptor& input,
                                   const std::vector<uint32_t>& newShape);
// Casts attributes.value to the input's data type.
// The input coordinate that output coordinate `coordinate` of pad reads along an axis of `size`
// (coordinate = output coordinate - beginning padding), or -1 for the constant value: the one
// mapping every backend's pad kernel uses.
inline int64_t padSourceCoordinate(int64_t coordinate, int64_t size, MLPaddingMode mode) {
  if (coordinate >= 0 && coordinate < size) return coordinate;
  switch (mode) {
    case MLPaddingMode::Constant:
      return -1;
    case MLPaddingMode::Edge:
      return coordinate < 0 ? 0 : size - 1;
    case MLPaddingMode::Reflection:  // mirrored without the edge: [.., 2, 1 | 0, 1, 2 | 1, 0 ..]
      return coordinate < 0 ? -coordinate : 2 * (size - 1) - coordinate;
    case MLPaddingMode::Symmetric:  // mirrored with the edge: [.., 1, 0 | 0, 1, 2 | 2, 1 ..]
      return coordinate < 0 ? -coordinate - 1 : 2 * size - 1 - coordinate;
  }
  return -1;
}
MLOperandDescriptor validatePad(const OpCall& call, const MLOperandDescriptor& input,
                                PadAttributes& attributes);
MLOperandDescriptor validateTile(const OpCall& call, const MLOperandDescriptor& input,
                                 const std::vector<uint32_t>& repetitions);
// Fills attributes.axes (every axis when options.axes is absent).
MLOperandDescriptor validateReverse(const OpCall& call, const MLOperandDescriptor& input,
                                    const MLReverseOptions& options, ReverseAttributes& attributes);
MLOperandDescriptor validateTriangular(const OpCall& call, const MLOperandDescriptor& input);

// Checks an output descriptor: rank within the op's limits and a byte length that fits.
void checkOutputDescriptor(const OpCall& call, const MLOperandDescriptor& output);

}  // namespace webnn::graph
