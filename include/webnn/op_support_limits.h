// MLOpSupportLimits: what a context accepts, per op and per operand (data types and ranks).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "webnn/export.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn {

struct MLRankRange {
  uint32_t min = 0;
  uint32_t max = 0;
};

struct WEBNN_EXPORT MLTensorLimits {
  std::vector<MLOperandDataType> dataTypes{};
  MLRankRange rankRange{};
  bool supports(MLOperandDataType type) const;
};

struct MLOpSupportLimits {
  MLInputOperandLayout preferredInputLayout = MLInputOperandLayout::Nchw;
  uint64_t maxTensorByteLength = 0;
  MLTensorLimits input{};
  MLTensorLimits constant{};
  MLTensorLimits output{};
  // op name -> operand name (spec's parameter or option name, e.g. "input", "filter", "bias",
  // "output") -> limits.
  std::map<std::string, std::map<std::string, MLTensorLimits>> ops{};
};

}  // namespace webnn
