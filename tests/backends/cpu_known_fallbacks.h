// The one list of what the cpu backend runs on the reference kernel, with the reason: the op
// suite (backend_ops_suite.cpp) fails on cpu when a case compiles to a fallback step that is not
// listed here, for its op and data type. docs/benchmarks.md ("What falls back on the cpu backend") mirrors it.
#pragma once

#include <optional>
#include <string_view>

#include "graph/ir.h"
#include "webnn/types.h"

namespace webnn::testing {

struct KnownCpuFallback {
  graph::OpType type;
  std::optional<MLOperandDataType> dataType;  // nullopt: every data type
  std::string_view reason;
};

inline constexpr KnownCpuFallback kKnownCpuFallbacks[] = {
#include "cpu_known_fallbacks.inc"
};

// The reason `type` on `dataType` may fall back, or nullopt when it must not.
inline std::optional<std::string_view> knownCpuFallback(graph::OpType type,
                                                        MLOperandDataType dataType) {
  for (const KnownCpuFallback& known : kKnownCpuFallbacks) {
    if (known.type == type && (!known.dataType || *known.dataType == dataType)) return known.reason;
  }
  return std::nullopt;
}

}  // namespace webnn::testing
