// Reads a vector's `options` entry into the API's option structs. Unknown keys and values of the
// wrong kind throw RunnerError, so nothing a vector asks for is silently dropped.
#pragma once

#include <webnn/webnn.h>

#include "conformance/op_table.h"

namespace webnn::conformance {

MLOperatorOptions operatorOptions(const OpCall& call);
MLArgMinMaxOptions argMinMaxOptions(const OpCall& call);
MLBatchNormalizationOptions batchNormalizationOptions(const OpCall& call);
MLClampOptions clampOptions(const OpCall& call);
MLConv2dOptions conv2dOptions(const OpCall& call);
MLConvTranspose2dOptions convTranspose2dOptions(const OpCall& call);
MLCumulativeSumOptions cumulativeSumOptions(const OpCall& call);
MLEluOptions eluOptions(const OpCall& call);
MLGatherOptions gatherOptions(const OpCall& call);
MLGemmOptions gemmOptions(const OpCall& call);
MLGruOptions gruOptions(const OpCall& call);
MLGruCellOptions gruCellOptions(const OpCall& call);
MLHardSigmoidOptions hardSigmoidOptions(const OpCall& call);
MLInstanceNormalizationOptions instanceNormalizationOptions(const OpCall& call);
MLLayerNormalizationOptions layerNormalizationOptions(const OpCall& call);
MLLeakyReluOptions leakyReluOptions(const OpCall& call);
MLLinearOptions linearOptions(const OpCall& call);
MLLstmOptions lstmOptions(const OpCall& call);
MLLstmCellOptions lstmCellOptions(const OpCall& call);
MLPadOptions padOptions(const OpCall& call);
MLPool2dOptions pool2dOptions(const OpCall& call);
MLReduceOptions reduceOptions(const OpCall& call);
MLResample2dOptions resample2dOptions(const OpCall& call);
MLReverseOptions reverseOptions(const OpCall& call);
MLScatterOptions scatterOptions(const OpCall& call);
MLSliceOptions sliceOptions(const OpCall& call);
MLSplitOptions splitOptions(const OpCall& call);
MLTransposeOptions transposeOptions(const OpCall& call);
MLTriangularOptions triangularOptions(const OpCall& call);

// A data type named by its spec string ("int32"); throws RunnerError for other strings.
MLOperandDataType dataTypeNamed(const Json& value, const std::string& what);

}  // namespace webnn::conformance
