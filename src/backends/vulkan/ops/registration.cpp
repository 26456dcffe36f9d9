// The one list of the vulkan backend's op families.
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {

const OpTable& vulkanOps() {
  static const OpTable table = [] {
    OpTable ops;
    registerElementwiseOps(ops);
    registerMatmulOps(ops);
    registerConvolutionOps(ops);
    registerPoolingOps(ops);
    registerSoftmaxOps(ops);
    registerReductionOps(ops);
    registerNormalizationOps(ops);
    registerShapeOps(ops);
    registerGatherOps(ops);
    registerWhereOps(ops);
    registerCastOps(ops);
    registerResample2dOps(ops);
    registerConvTranspose2dOps(ops);
    registerComparisonOps(ops);
    registerArgMinMaxOps(ops);
    registerCumulativeSumOps(ops);
    registerScatterOps(ops);
    registerRearrangeOps(ops);
    registerQuantizationOps(ops);
    registerRecurrentOps(ops);
    return ops;
  }();
  return table;
}

}  // namespace webnn::vulkan
