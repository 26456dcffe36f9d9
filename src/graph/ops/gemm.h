// gemm: validation and shape inference.
#pragma once

#include <optional>
#include <string_view>

#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn::graph {

// alpha * A' * B' + beta * C, A' = aTranspose ? A^T : A (likewise B'); returns [M, N].
MLOperandDescriptor validateGemm(std::string_view label, const MLOperandDescriptor& a,
                                 const MLOperandDescriptor& b,
                                 const std::optional<MLOperandDescriptor>& c,
                                 const MLGemmOptions& options);

}  // namespace webnn::graph
