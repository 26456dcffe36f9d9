#include "backends/reference/ops/registration.h"

namespace webnn::reference {

void registerAllReferenceKernels(KernelTable& table) {
  registerActivationKernels(table);
  registerCastKernels(table);
  registerComparisonKernels(table);
  registerConv2dKernels(table);
  registerConvTranspose2dKernels(table);
  registerElementwiseBinaryKernels(table);
  registerElementwiseUnaryKernels(table);
  registerGatherScatterKernels(table);
  registerGemmKernels(table);
  registerMatmulKernels(table);
  registerNormalizationKernels(table);
  registerPoolingKernels(table);
  registerQuantizationKernels(table);
  registerRecurrentKernels(table);
  registerReductionKernels(table);
  registerResample2dKernels(table);
  registerShapeOpsKernels(table);
  registerWhereKernels(table);
}

}  // namespace webnn::reference
