// The reference op files' registration functions: each adds its kernels to the table.
// registerAllReferenceKernels (registration.cpp) calls every one of them: the one place that lists
// the kernel files, so that a static library keeps them all (no static initializers).
#pragma once

#include "backends/reference/kernel.h"

namespace webnn::reference {

void registerActivationKernels(KernelTable& table);
void registerCastKernels(KernelTable& table);
void registerComparisonKernels(KernelTable& table);
void registerConv2dKernels(KernelTable& table);
void registerConvTranspose2dKernels(KernelTable& table);
void registerElementwiseBinaryKernels(KernelTable& table);
void registerElementwiseUnaryKernels(KernelTable& table);
void registerGatherScatterKernels(KernelTable& table);
void registerGemmKernels(KernelTable& table);
void registerMatmulKernels(KernelTable& table);
void registerNormalizationKernels(KernelTable& table);
void registerPoolingKernels(KernelTable& table);
void registerQuantizationKernels(KernelTable& table);
void registerRecurrentKernels(KernelTable& table);
void registerReductionKernels(KernelTable& table);
void registerResample2dKernels(KernelTable& table);
void registerShapeOpsKernels(KernelTable& table);
void registerWhereKernels(KernelTable& table);

void registerAllReferenceKernels(KernelTable& table);

}  // namespace webnn::reference
