// Activations: validation, shape inference and option resolution. Each resolve function returns
// the op's options with the spec's casts applied (scalar options cast to the input's data type),
// which is what the op records as its attributes.
#pragma once

#include <cstdint>
#include <string_view>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// The spec's "cast" of a number to a data type, as the value that type holds: floats round to
// nearest (float16 through half precision), integers truncate toward zero and saturate, NaN
// becomes 0 for integer types.
double castNumber(double value, MLOperandDataType type);

// elu, hardSigmoid, leakyRelu, linear: float32/float16 input; options cast to the input's type.
MLEluOptions resolveElu(std::string_view label, const MLOperandDescriptor& input,
                        const MLEluOptions& options);
MLHardSigmoidOptions resolveHardSigmoid(std::string_view label, const MLOperandDescriptor& input,
                                        const MLHardSigmoidOptions& options);
MLLeakyReluOptions resolveLeakyRelu(std::string_view label, const MLOperandDescriptor& input,
                                    const MLLeakyReluOptions& options);
MLLinearOptions resolveLinear(std::string_view label, const MLOperandDescriptor& input,
                              const MLLinearOptions& options);

// clamp: any data type; minValue/maxValue cast to the input's type, then minValue <= maxValue.
MLClampOptions resolveClamp(std::string_view label, const MLOperandDescriptor& input,
                            const MLClampOptions& options);

// prelu: input and slope of the same type, bidirectionally broadcastable (output: the broadcast
// shape, as the spec's steps compute it).
MLOperandDescriptor validatePrelu(std::string_view label, const MLOperandDescriptor& input,
                                  const MLOperandDescriptor& slope);

// softmax: float32/float16, axis < rank.
struct SoftmaxAttributes {
  uint32_t axis = 0;
};
MLOperandDescriptor validateSoftmax(std::string_view label, const MLOperandDescriptor& input,
                                    uint32_t axis);

}  // namespace webnn::graph
