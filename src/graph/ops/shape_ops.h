// Shape and data movement ops: reshape, transpose, concat, split, slice, expand, pad, tile,
// reverse, triangular. Pure validation / shape inference (throwing TypeError naming the op and the
// problem) and the attributes each op records, with every default resolved.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Attributes recorded for "concat".
struct ConcatAttributes {
  uint32_t axis = 0;
};

// Attributes recorded for "split": the size of every output along `axis`.
struct SplitAttributes {
  uint32_t axis = 0;
  std::vector<uint32_t> sizes;
};

// Attributes recorded for "slice": strides filled (1s by default).
struct SliceAttributes {
  std::vector<uint32_t> starts;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;
};

// Attributes recorded for "pad"; `value` is already cast to the input's data type.
struct PadAttributes {
  std::vector<uint32_t> beginningPadding;
  std::vector<uint32_t> endingPadding;
  MLPaddingMode mode = MLPaddingMode::Constant;
  double value = 0.0;
};

// Attributes recorded for "tile".
struct TileAttributes {
  std::vector<uint32_t> repetitions;
};

// "reshape" records the new shape (the output's shape) and "expand" records nothing: the output
// descriptor says it all. "transpose" records MLTransposeOptions with the permutation filled,
// "reverse" MLReverseOptions with the axes filled, "triangular" MLTriangularOptions.

MLOperandDescriptor validateReshape(std::string_view label, const MLOperandDescriptor& input,
                                    const std::vector<uint32_t>& newShape);
// Fills options.permutation when absent.
MLOperandDescriptor validateTranspose(const MLOperandDescriptor& input,
                                      MLTransposeOptions& options);
MLOperandDescriptor validateConcat(std::string_view label,
                                   const std::vector<MLOperandDescriptor>& inputs, uint32_t axis);
// Returns the sizes of the outputs along `axis` (splits == the number of equal outputs).
std::vector<uint32_t> splitSizes(std::string_view label, const MLOperandDescriptor& input,
                                 uint32_t splits, uint32_t axis);
std::vector<MLOperandDescriptor> validateSplit(std::string_view label,
                                               const MLOperandDescriptor& input,
                                               const std::vector<uint32_t>& sizes, uint32_t axis);
// Fills attributes.strides when empty.
MLOperandDescriptor validateSlice(std::string_view label, const MLOperandDescriptor& input,
                                  SliceAttributes& attributes);
MLOperandDescriptor validateExpand(std::string_view label, const MLOperandDescriptor& input,
                                   const std::vector<uint32_t>& newShape);
// Casts attributes.value to the input's data type.
MLOperandDescriptor validatePad(std::string_view label, const MLOperandDescriptor& input,
                                PadAttributes& attributes);
MLOperandDescriptor validateTile(std::string_view label, const MLOperandDescriptor& input,
                                 const std::vector<uint32_t>& repetitions);
// Fills options.axes when absent.
MLOperandDescriptor validateReverse(const MLOperandDescriptor& input, MLReverseOptions& options);
MLOperandDescriptor validateTriangular(std::string_view label, const MLOperandDescriptor& input);

// Checks an output descriptor: rank within the op's limits and a byte length that fits.
void checkOutputDescriptor(std::string_view type, std::string_view label,
                           const MLOperandDescriptor& output);

}  // namespace webnn::graph
