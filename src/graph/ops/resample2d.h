// resample2d: validation and shape inference.
#pragma once

#include <string_view>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Validates resample2d and resolves `options` in place: axes filled ([2, 3] by default), sizes
// filled with the output sizes along the axes, and scales set to the ratio the kernel maps
// coordinates with (the given scales, or outputSize / inputSize when sizes were given).
MLOperandDescriptor validateResample2d(std::string_view label, const MLOperandDescriptor& input,
                                       MLResample2dOptions& options);

}  // namespace webnn::graph
