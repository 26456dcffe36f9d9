// MLGraphBuilder: builds a graph op by op; validation and shape inference happen at each call.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "webnn/export.h"
#include "webnn/operand.h"
#include "webnn/tensor.h"
#include "webnn/options.h"
#include "webnn/types.h"

namespace webnn {

class MLContext;
class MLGraph;

namespace detail {
struct BuilderState;
}

class WEBNN_EXPORT MLGraphBuilder {
 public:
  explicit MLGraphBuilder(MLContext& context);
  ~MLGraphBuilder();
  MLGraphBuilder(const MLGraphBuilder&) = delete;
  MLGraphBuilder& operator=(const MLGraphBuilder&) = delete;
  MLGraphBuilder(MLGraphBuilder&&) noexcept;
  MLGraphBuilder& operator=(MLGraphBuilder&&) noexcept;

  MLOperand input(const std::string& name, const MLOperandDescriptor& descriptor);
  // Classic constant: copies `data` now (spec semantics).
  MLOperand constant(const MLOperandDescriptor& descriptor, std::span<const std::byte> data);
  // Scalar constant of `type` holding `value`.
  MLOperand constant(MLOperandDataType type, MLNumber value);
  // Hollow constant: a descriptor and a label, no bytes. Filled after build() through
  // MLGraph::setConstantData / writeConstantData / loadConstants.
  MLOperand constant(const MLOperandDescriptor& descriptor, const MLConstantOptions& options = {});
  // A constant tensor of the builder's context (MLContext::createConstantTensor), filled or not:
  // the graph reads the tensor's one copy, shared with every other graph that reads it. The
  // operand is a hollow constant labelled as the tensor; the same tensor twice gives one operand.
  MLOperand constant(const MLTensor& tensor);

  MLGraph build(const MLNamedOperands& outputs);

  // Element-wise binary (bidirectional broadcasting).
  MLOperand add(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand sub(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand mul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand div(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand max(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand min(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand pow(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});

  // Element-wise comparison and logical ops (uint8 output).
  MLOperand equal(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand notEqual(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand greater(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand greaterOrEqual(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand lesser(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand lesserOrEqual(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand logicalNot(const MLOperand& a, const MLOperatorOptions& = {});
  MLOperand logicalAnd(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand logicalOr(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand logicalXor(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});

  // Element-wise unary.
  MLOperand abs(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand ceil(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand cos(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand erf(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand exp(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand floor(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand identity(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand isInfinite(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand isNaN(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand log(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand neg(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand reciprocal(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand roundEven(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand sign(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand sin(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand sqrt(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand tan(const MLOperand& input, const MLOperatorOptions& = {});

  // Activations.
  MLOperand elu(const MLOperand& input, const MLEluOptions& = {});
  MLOperand gelu(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand hardSigmoid(const MLOperand& input, const MLHardSigmoidOptions& = {});
  MLOperand hardSwish(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand leakyRelu(const MLOperand& input, const MLLeakyReluOptions& = {});
  MLOperand linear(const MLOperand& input, const MLLinearOptions& = {});
  MLOperand prelu(const MLOperand& input, const MLOperand& slope, const MLOperatorOptions& = {});
  MLOperand relu(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand sigmoid(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand softmax(const MLOperand& input, uint32_t axis, const MLOperatorOptions& = {});
  MLOperand softplus(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand softsign(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand tanh(const MLOperand& input, const MLOperatorOptions& = {});
  MLOperand clamp(const MLOperand& input, const MLClampOptions& = {});

  // Type conversion and quantization.
  MLOperand cast(const MLOperand& input, MLOperandDataType type, const MLOperatorOptions& = {});
  MLOperand quantizeLinear(const MLOperand& input, const MLOperand& scale,
                           const MLOperand& zeroPoint, const MLOperatorOptions& = {});
  MLOperand dequantizeLinear(const MLOperand& input, const MLOperand& scale,
                             const MLOperand& zeroPoint, const MLOperatorOptions& = {});

  // Matrix products and convolutions.
  MLOperand matmul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& = {});
  MLOperand gemm(const MLOperand& a, const MLOperand& b, const MLGemmOptions& = {});
  MLOperand conv2d(const MLOperand& input, const MLOperand& filter, const MLConv2dOptions& = {});
  MLOperand convTranspose2d(const MLOperand& input, const MLOperand& filter,
                            const MLConvTranspose2dOptions& = {});

  // Pooling and resampling.
  MLOperand averagePool2d(const MLOperand& input, const MLPool2dOptions& = {});
  MLOperand l2Pool2d(const MLOperand& input, const MLPool2dOptions& = {});
  MLOperand maxPool2d(const MLOperand& input, const MLPool2dOptions& = {});
  MLOperand resample2d(const MLOperand& input, const MLResample2dOptions& = {});

  // Normalizations.
  MLOperand batchNormalization(const MLOperand& input, const MLOperand& mean,
                               const MLOperand& variance, const MLBatchNormalizationOptions& = {});
  MLOperand instanceNormalization(const MLOperand& input,
                                  const MLInstanceNormalizationOptions& = {});
  MLOperand layerNormalization(const MLOperand& input, const MLLayerNormalizationOptions& = {});

  // Reductions.
  MLOperand reduceL1(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceL2(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceLogSum(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceLogSumExp(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceMax(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceMean(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceMin(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceProduct(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceSum(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand reduceSumSquare(const MLOperand& input, const MLReduceOptions& = {});
  MLOperand argMin(const MLOperand& input, uint32_t axis, const MLArgMinMaxOptions& = {});
  MLOperand argMax(const MLOperand& input, uint32_t axis, const MLArgMinMaxOptions& = {});
  MLOperand cumulativeSum(const MLOperand& input, uint32_t axis,
                          const MLCumulativeSumOptions& = {});

  // Shape and data movement.
  MLOperand concat(const std::vector<MLOperand>& inputs, uint32_t axis,
                   const MLOperatorOptions& = {});
  MLOperand expand(const MLOperand& input, const std::vector<uint32_t>& newShape,
                   const MLOperatorOptions& = {});
  MLOperand pad(const MLOperand& input, const std::vector<uint32_t>& beginningPadding,
                const std::vector<uint32_t>& endingPadding, const MLPadOptions& = {});
  MLOperand reshape(const MLOperand& input, const std::vector<uint32_t>& newShape,
                    const MLOperatorOptions& = {});
  MLOperand reverse(const MLOperand& input, const MLReverseOptions& = {});
  MLOperand slice(const MLOperand& input, const std::vector<uint32_t>& starts,
                  const std::vector<uint32_t>& sizes, const MLSliceOptions& = {});
  std::vector<MLOperand> split(const MLOperand& input, uint32_t splits, const MLSplitOptions& = {});
  std::vector<MLOperand> split(const MLOperand& input, const std::vector<uint32_t>& splits,
                               const MLSplitOptions& = {});
  MLOperand tile(const MLOperand& input, const std::vector<uint32_t>& repetitions,
                 const MLOperatorOptions& = {});
  MLOperand transpose(const MLOperand& input, const MLTransposeOptions& = {});
  MLOperand triangular(const MLOperand& input, const MLTriangularOptions& = {});
  MLOperand where(const MLOperand& condition, const MLOperand& trueValue,
                  const MLOperand& falseValue, const MLOperatorOptions& = {});

  // Gather and scatter.
  MLOperand gather(const MLOperand& input, const MLOperand& indices, const MLGatherOptions& = {});
  MLOperand gatherElements(const MLOperand& input, const MLOperand& indices,
                           const MLGatherOptions& = {});
  MLOperand gatherND(const MLOperand& input, const MLOperand& indices,
                     const MLOperatorOptions& = {});
  MLOperand scatterElements(const MLOperand& input, const MLOperand& indices,
                            const MLOperand& updates, const MLScatterOptions& = {});
  MLOperand scatterND(const MLOperand& input, const MLOperand& indices, const MLOperand& updates,
                      const MLOperatorOptions& = {});

  // Recurrent networks.
  std::vector<MLOperand> gru(const MLOperand& input, const MLOperand& weight,
                             const MLOperand& recurrentWeight, uint32_t steps, uint32_t hiddenSize,
                             const MLGruOptions& = {});
  MLOperand gruCell(const MLOperand& input, const MLOperand& weight,
                    const MLOperand& recurrentWeight, const MLOperand& hiddenState,
                    uint32_t hiddenSize, const MLGruCellOptions& = {});
  std::vector<MLOperand> lstm(const MLOperand& input, const MLOperand& weight,
                              const MLOperand& recurrentWeight, uint32_t steps, uint32_t hiddenSize,
                              const MLLstmOptions& = {});
  std::vector<MLOperand> lstmCell(const MLOperand& input, const MLOperand& weight,
                                  const MLOperand& recurrentWeight, const MLOperand& hiddenState,
                                  const MLOperand& cellState, uint32_t hiddenSize,
                                  const MLLstmCellOptions& = {});

  // Internal: the builder's state (used by the op files in src/graph/ops).
  detail::BuilderState& state();

 private:
  std::unique_ptr<detail::BuilderState> state_;
};

}  // namespace webnn
