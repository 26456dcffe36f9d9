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
