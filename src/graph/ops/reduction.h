// Reductions (reduceL1 ... reduceSumSquare), argMin/argMax and cumulativeSum: pure validation /
// shape inference and the attributes they record.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Attributes recorded for the reduce* ops: axes resolved (every axis by default), sorted.
struct ReduceAttributes {
  std::vector<uint32_t> axes;
  bool keepDimensions = false;
};

// Attributes recorded for argMin/argMax.
struct ArgMinMaxAttributes {
  uint32_t axis = 0;
  bool keepDimensions = false;
  MLOperandDataType outputDataType = MLOperandDataType::Int32;
};

// Attributes recorded for cumulativeSum.
struct CumulativeSumAttributes {
  uint32_t axis = 0;
  bool exclusive = false;
  bool reversed = false;
};

// `type` is the reduce op's name ("reduceSum", ...). Fills attributes.axes.
MLOperandDescriptor validateReduce(std::string_view type, const MLOperandDescriptor& input,
                                   const MLReduceOptions& options, ReduceAttributes& attributes);
// `type` is "argMin" or "argMax".
MLOperandDescriptor validateArgMinMax(std::string_view type, const MLOperandDescriptor& input,
                                      uint32_t axis, const MLArgMinMaxOptions& options);
MLOperandDescriptor validateCumulativeSum(std::string_view label, const MLOperandDescriptor& input,
                                          uint32_t axis);

}  // namespace webnn::graph
