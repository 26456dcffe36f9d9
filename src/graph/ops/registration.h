// The op files' registration functions: each adds the spec's limits of its ops to a table.
// registerAllOpLimits (registration.cpp) calls every one of them; it is the one place that lists
// the op files, so that a static library keeps them all (no static initializers).
#pragma once

#include "graph/op_limits.h"

namespace webnn::graph {

void registerActivationLimits(OpLimitsTable& table);
void registerCastLimits(OpLimitsTable& table);
void registerComparisonLimits(OpLimitsTable& table);
void registerConcatSplitLimits(OpLimitsTable& table);
void registerConv2dLimits(OpLimitsTable& table);
void registerConvTranspose2dLimits(OpLimitsTable& table);
void registerElementwiseBinaryLimits(OpLimitsTable& table);
void registerElementwiseUnaryLimits(OpLimitsTable& table);
void registerGatherScatterLimits(OpLimitsTable& table);
void registerGemmLimits(OpLimitsTable& table);
void registerMatmulLimits(OpLimitsTable& table);
void registerNormalizationLimits(OpLimitsTable& table);
void registerPoolingLimits(OpLimitsTable& table);
void registerQuantizationLimits(OpLimitsTable& table);
void registerRecurrentLimits(OpLimitsTable& table);
void registerReductionLimits(OpLimitsTable& table);
void registerResample2dLimits(OpLimitsTable& table);
void registerShapeOpLimits(OpLimitsTable& table);
void registerSlicePadLimits(OpLimitsTable& table);
void registerWhereLimits(OpLimitsTable& table);

void registerAllOpLimits(OpLimitsTable& table);

}  // namespace webnn::graph
