// Activations: validation, shape inference and option resolution. Each resolve function returns
// the op's attributes: its options with the spec's casts applied (scalar options cast to the
// input's data type).
#pragma once

#include <cstdint>
#include <string_view>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/number.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// The spec's "cast" of a number to a data type, as the value that type holds: floats round to
// nearest (float16 through half precision), integers truncate toward zero and saturate, NaN
// becomes 0 for integer types.
double castNumber(double value, MLOperandDataType type);

// The same cast of an MLNumber, exact for int64/uint64 (the result keeps the type's kind: a
// double for float types, an int64 for signed and small integer types, a uint64 for uint64).
MLNumber castNumber(const MLNumber& value, MLOperandDataType type);

// elu, hardSigmoid, leakyRelu, linear: float32/float16 input; options cast to the input's type.
EluAttributes resolveElu(const OpCall& call, const MLOperandDescriptor& input,
                         const MLEluOptions& options);
HardSigmoidAttributes resolveHardSigmoid(const OpCall& call, const MLOperandDescriptor& input,
                                         const MLHardSigmoidOptions& options);
LeakyReluAttributes resolveLeakyRelu(const OpCall& call, const MLOperandDescriptor& input,
                                     const MLLeakyReluOptions& options);
LinearAttributes resolveLinear(const OpCall& call, const MLOperandDescriptor& input,
                               const MLLinearOptions& options);

// clamp: any data type; minValue/maxValue cast to the input's type, then minValue <= maxValue
// (compared exactly for integer types).
ClampAttributes resolveClamp(const OpCall& call, const MLOperandDescriptor& input,
                             const MLClampOptions& options);

// prelu: input and slope of the same type, bidirectionally broadcastable (output: the broadcast
// shape, as the spec's steps compute it).
MLOperandDescriptor validatePrelu(const OpCall& call, const MLOperandDescriptor& input,
                                  const MLOperandDescriptor& slope);

// softmax: float32/float16, axis < rank.
MLOperandDescriptor validateSoftmax(const OpCall& call, const MLOperandDescriptor& input,
                                    uint32_t axis);

}  // namespace webnn::graph
