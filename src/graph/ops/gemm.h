// gemm: validation and shape inference.
#pragma once

#include <optional>
#include <string_view>

#include "graph/attributes.h"
#include "graph/op_limits.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// alpha * A' * B' + beta * C, A' = aTranspose ? A^T : A (likewise B'); returns [M, N]. Fills
// `attributes` with the options (c is left for the caller, who knows its id).
MLOperandDescriptor validateGemm(const OpCall& call, const MLOperandDescriptor& a,
                                 const MLOperandDescriptor& b,
                                 const std::optional<MLOperandDescriptor>& c,
                                 const MLGemmOptions& options, GemmAttributes& attributes);

}  // namespace webnn::graph
