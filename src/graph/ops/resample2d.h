// resample2d: validation and shape inference.
#pragma once

#include <string_view>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// Validates resample2d and fills `attributes` with the resolved options: axes ([2, 3] by
// default), sizes (the output sizes along the axes), and scales (the ratio the kernel maps
// coordinates with: the given scales, or outputSize / inputSize when sizes were given).
MLOperandDescriptor validateResample2d(const OpCall& call, const MLOperandDescriptor& input,
                                       const MLResample2dOptions& options,
                                       Resample2dAttributes& attributes);

}  // namespace webnn::graph
