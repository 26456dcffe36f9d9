#include "graph/ops/registration.h"

namespace webnn::graph {

void registerAllOpLimits(OpLimitsTable& table) {
  registerActivationLimits(table);
  registerCastLimits(table);
  registerComparisonLimits(table);
  registerConcatSplitLimits(table);
  registerConv2dLimits(table);
  registerConvTranspose2dLimits(table);
  registerElementwiseBinaryLimits(table);
  registerElementwiseUnaryLimits(table);
  registerGatherScatterLimits(table);
  registerGemmLimits(table);
  registerMatmulLimits(table);
  registerNormalizationLimits(table);
  registerPoolingLimits(table);
  registerQuantizationLimits(table);
  registerRecurrentLimits(table);
  registerReductionLimits(table);
  registerResample2dLimits(table);
  registerShapeOpLimits(table);
  registerSlicePadLimits(table);
  registerWhereLimits(table);
}

}  // namespace webnn::graph
