// matmul and gemm on oneDNN's matmul primitive, float32. matmul: batched, with the batch
// dimensions broadcast (oneDNN broadcasts dimensions of size 1). gemm: transposes as strides,
// alpha as an output scale, beta x C as a broadcast binary post-op. A constant B is kept in the
// layout the primitive chose (format_tag::any), packed when its bytes are in.
#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>

#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;

memory::dims paddedToRank(const std::vector<uint32_t>& shape, size_t rank) {
  memory::dims dims(rank - shape.size(), 1);
  for (uint32_t d : shape) dims.push_back(d);
  return dims;
}

// A row-major matrix [rows, columns] read transposed: the logical [columns, rows] view.
memory::desc transposedFloat32Desc(memory::dim rows, memory::dim columns) {
  return memory::desc({columns, rows}, memory::data_type::f32, memory::dims{1, columns});
}

struct MatmulOperands {
  graph::OperandId a = 0, b = 0, output = 0;
  std::optional<graph::OperandId> c;  // gemm's C (a binary post-op)
};

class MatmulOp final : public CpuOp {
 public:
  // oneDNN primitives: their work is cut per thread when they are created.
  bool fixesThreadCount() const override { return true; }
  MatmulOp(const OpCompileContext& context, MatmulOperands operands, const memory::desc& aDesc,
           const memory::desc& bDesc, const memory::desc& outputDesc,
           const std::optional<memory::desc>& cDesc, const dnnl::primitive_attr& attributes,
           bool rowsFolded = false, bool mayTakeBias = false)
      : engine_(context.engine),
        operands_(operands),
        aDesc_(aDesc),
        plainBDesc_(bDesc),
        outputDesc_(outputDesc),
        cDesc_(cDesc) {
    const bool packB = context.isConstant(operands.b);
    const memory::desc weightsDesc =
        packB ? context.weightsLayout(
                    operands.b,
                    memory::desc(bDesc.dims(), memory::data_type::f32, memory::format_tag::any),
                    &bDesc)
              : bDesc;
    dnnl::primitive_attr withFusion = attributes;
    if (context.fusion) {
      const memory::dims logicalOutputDims =
          rowsFolded ? dimsOf(context.descriptor(context.operation.outputs[0]).shape)
                     : outputDesc.dims();
      size_t firstPostOp = 0;
      if (mayTakeBias) {
        if (auto bias = fusedBiasRowOf(context, logicalOutputDims)) {
          bias_ = *bias;
          memory::dims biasDims(outputDesc.dims().size(), 1);
          biasDims.back() = outputDesc.dims().back();
          biasDesc_ = plainFloat32Desc(biasDims);
          firstPostOp = 1;
        }
      }
      auto postOps = postOpArgumentsOf(context, logicalOutputDims, attributes.get_post_ops(),
                                       rowsFolded, firstPostOp);
      if (!postOps) throw dnnl::error(dnnl_unimplemented, "post-op operands");
      postOps_ = std::move(*postOps);
      withFusion.set_post_ops(postOps_.postOps);
      operands_.output = context.stepOutput();
    }
    // Written through strides in the tensor its output is a view of.
    if (context.views && context.views->output) operands_.output = context.views->output->base;
    const dnnl::matmul::desc desc =
        bias_ ? dnnl::matmul::desc(aDesc, weightsDesc, *biasDesc_, outputDesc)
              : dnnl::matmul::desc(aDesc, weightsDesc, outputDesc);
    primitiveDesc_ = dnnl::matmul::primitive_desc(desc, withFusion, engine_);
    primitive_ = makePrimitive<dnnl::matmul>(primitiveDesc_);
    if (packB) {
      packedB_ = context.packedConstant(operands.b, plainBDesc_, primitiveDesc_.weights_desc());
    }
  }

  void prepareConstants(const DispatchTensors& tensors) override {
    if (packedB_) packedB_->pack(dataOf(tensors, operands_.b));
    postOps_.prepare(tensors);
  }

  void execute(dnnl::stream& stream, const DispatchTensors& tensors) override {
    executeInWorkspace(stream, tensors, nullptr);
  }

  void executeInWorkspace(dnnl::stream& stream, const DispatchTensors& tensors,
                          std::byte* workspace) override {
    std::unordered_map<int, memory> arguments{
        {DNNL_ARG_SRC, memory(aDesc_, engine_, dataOf(tensors, operands_.a))},
        {DNNL_ARG_WEIGHTS, packedB_ ? packedB_->memory()
                                    : memory(plainBDesc_, engine_, dataOf(tensors, operands_.b))},
        {DNNL_ARG_DST, memory(outputDesc_, engine_, dataOf(tensors, operands_.output))}};
    if (bias_) {
      arguments.emplace(DNNL_ARG_BIAS, memory(*biasDesc_, engine_, dataOf(tensors, *bias_)));
    }
    if (cDesc_) {
      arguments.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                        memory(*cDesc_, engine_, dataOf(tensors, *operands_.c)));
    }
    addPostOpArguments(postOps_, engine_, tensors, arguments);
    executeWithScratchpad(primitive_, primitiveDesc_, stream, std::move(arguments), workspace);
  }

  uint64_t workspaceBytes() const override { return scratchpadBytes(primitiveDesc_); }

  std::string implementation() const override {
    return implementationOf(primitiveDesc_) + (bias_ ? ", bias" : "");
  }

 private:
  dnnl::engine engine_;
  MatmulOperands operands_;
  memory::desc aDesc_, plainBDesc_, outputDesc_;
  std::optional<memory::desc> cDesc_;
  std::optional<graph::OperandId> bias_;  // the chain's first add, as the primitive's bias
  std::optional<memory::desc> biasDesc_;
  PostOpArguments postOps_;
  dnnl::matmul::primitive_desc primitiveDesc_;
  DeferredPrimitive primitive_;  // made beside the compile (deferred_primitive.h)
  std::shared_ptr<PackedConstant> packedB_;
};

// `view` as a descriptor of `rank` dimensions (leading ones of size 1, outermost: strides of the
// whole view, as oneDNN's layouts have them).
memory::desc viewDesc(const StridedView& view, size_t rank) {
  memory::dims dims(rank - view.dims.size(), 1), strides(rank - view.dims.size(), 0);
  memory::dim outer = 1;
  for (size_t i = 0; i < view.dims.size(); ++i) {
    outer = std::max(outer, view.dims[i] * view.strides[i]);
  }
  for (auto& stride : strides) stride = outer;
  dims.insert(dims.end(), view.dims.begin(), view.dims.end());
  strides.insert(strides.end(), view.strides.begin(), view.strides.end());
  return memory::desc(dims, memory::data_type::f32, strides);
}

// A matmul's operands (the bases of its views) and its descriptors, batched to the output's
// rank: plain row-major, or the views' strides.
struct BatchedMatmul {
  MatmulOperands operands;
  memory::desc a, b, output;
};
std::optional<BatchedMatmul> batchedMatmulOf(const graph::GraphIR& ir,
                                             const graph::Operation& operation,
                                             const MatmulViews* views) {
  BatchedMatmul result{
      {operation.inputs[0], operation.inputs[1], operation.outputs[0], {}}, {}, {}, {}};
  const auto& outputShape = ir.descriptor(operation.outputs[0]).shape;
  const size_t rank = outputShape.size();
  if (rank < 2 || ir.descriptor(operation.inputs[0]).shape.size() < 2 ||
      ir.descriptor(operation.inputs[1]).shape.size() < 2) {
    return std::nullopt;
  }
  const MatmulViews none;
  const MatmulViews& viewed = views ? *views : none;
  auto describe = [&](graph::OperandId id, const std::optional<StridedView>& view,
                      graph::OperandId& operand) {
    if (!view) return plainFloat32Desc(paddedToRank(ir.descriptor(id).shape, rank));
    operand = view->base;
    return viewDesc(*view, rank);
  };
  result.a = describe(operation.inputs[0], viewed.a, result.operands.a);
  result.b = describe(operation.inputs[1], viewed.b, result.operands.b);
  result.output = describe(operation.outputs[0], viewed.output, result.operands.output);
  return result;
}

// Whether no view has strides other than its base's plain ones (reshapes only).
bool everyViewIsPlain(const MatmulViews* views) {
  if (!views) return true;
  for (const auto* view : {&views->a, &views->b, &views->output}) {
    if (*view && plainFloat32Desc((*view)->dims) !=
                     memory::desc((*view)->dims, memory::data_type::f32, (*view)->strides)) {
      return false;
    }
  }
  return true;
}

bool allFloat32AndNonEmpty(const OpCompileContext& context) {
  const graph::Operation& operation = context.operation;
  for (const auto& ids : {operation.inputs, operation.outputs}) {
    for (graph::OperandId id : ids) {
      const auto& descriptor = context.descriptor(id);
      if (descriptor.dataType != MLOperandDataType::Float32) return false;
      if (descriptor.elementCount() == 0) return false;
    }
  }
  return true;
}

}  // namespace

std::unique_ptr<CpuOp> createMatmulOp(const OpCompileContext& context) {
  if (context.fusion && context.fusion->quantized) return createQuantizedMatmulOp(context);
  if (context.fusion && context.fusion->blockQuantized)
    return createBlockQuantizedMatmulOp(context);
  if (runsOnHalfWeights(context.ir, context.operation, context.constants)) {
    return createHalfWeightMatmulOp(context);  // null with post-ops: compiled alone then
  }
  if (!allFloat32AndNonEmpty(context)) return nullptr;
  if (auto panels = createFloatMatmulOp(context)) return panels;
  const auto batched = batchedMatmulOf(context.ir, context.operation, context.views);
  if (!batched) return nullptr;
  const MatmulOperands& operands = batched->operands;
  const memory::dims bDims = batched->b.dims();
  const size_t rank = bDims.size();
  if (rank > 2 && everyViewIsPlain(context.views) &&
      std::all_of(bDims.begin(), bDims.end() - 2, [](auto d) { return d == 1; })) {
    // B has no batch: A's batch runs as rows of one 2-D product, which oneDNN's brgemm matmul
    // runs much faster than the batched one with B broadcast (2.4x on 128x768 by 768x3072).
    const memory::dims outputDims = batched->output.dims();
    const memory::dim rows = std::accumulate(outputDims.begin(), outputDims.end() - 1,
                                             memory::dim{1}, std::multiplies<>());
    const memory::dim inner = bDims[rank - 2], columns = bDims[rank - 1];
    try {
      return std::make_unique<MatmulOp>(
          context, operands, plainFloat32Desc({rows, inner}), plainFloat32Desc({inner, columns}),
          plainFloat32Desc({rows, columns}), std::nullopt, opAttributes(), true, true);
    } catch (const dnnl::error&) {
      // A post-op operand that does not fold (broadcast over some of the rows): batched.
    }
  }
  return std::make_unique<MatmulOp>(context, operands, batched->a, batched->b, batched->output,
                                    std::nullopt, opAttributes(), false, true);
}

std::optional<std::string> matmulImplementationOnViews(const dnnl::engine& engine,
                                                       const graph::GraphIR& ir,
                                                       const graph::Operation& operation,
                                                       const MatmulViews& views) {
  const auto batched = batchedMatmulOf(ir, operation, &views);
  if (!batched) return std::nullopt;
  const auto kind = ir.operand(batched->operands.b).kind;
  const bool packB =
      kind == graph::OperandKind::Constant || kind == graph::OperandKind::HollowConstant;
  memory::desc a = batched->a, b = batched->b, output = batched->output;
  // The descriptors createMatmulOp gives the primitive: A's batch as rows when B has none.
  const memory::dims bDims = b.dims();
  const size_t rank = bDims.size();
  if (rank > 2 && everyViewIsPlain(&views) &&
      std::all_of(bDims.begin(), bDims.end() - 2, [](auto d) { return d == 1; })) {
    const memory::dims outputDims = output.dims();
    const memory::dim rows = std::accumulate(outputDims.begin(), outputDims.end() - 1,
                                             memory::dim{1}, std::multiplies<>());
    const memory::dim inner = bDims[rank - 2], columns = bDims[rank - 1];
    a = plainFloat32Desc({rows, inner});
    b = plainFloat32Desc({inner, columns});
    output = plainFloat32Desc({rows, columns});
  }
  const memory::desc weights =
      packB ? memory::desc(b.dims(), memory::data_type::f32, memory::format_tag::any) : b;
  try {
    const dnnl::matmul::primitive_desc descriptor(dnnl::matmul::desc(a, weights, output),
                                                  opAttributes(), engine);
    std::string implementation = implementationOf(descriptor);
    if (implementation.rfind("ref", 0) == 0) return std::nullopt;
    return implementation;
  } catch (const dnnl::error&) {
    return std::nullopt;
  }
}

std::unique_ptr<CpuOp> createGemmOp(const OpCompileContext& context) {
  if (runsOnHalfWeights(context.ir, context.operation, context.constants)) {
    return createHalfWeightMatmulOp(context);  // null with post-ops: compiled alone then
  }
  if (!allFloat32AndNonEmpty(context)) return nullptr;
  if (auto panels = createFloatMatmulOp(context)) return panels;
  const graph::Operation& operation = context.operation;
  const auto& attributes = operation.attributesAs<graph::GemmAttributes>();
  MatmulOperands operands{operation.inputs[0], operation.inputs[1], operation.outputs[0], {}};
  const auto& aShape = context.descriptor(operands.a).shape;
  const auto& bShape = context.descriptor(operands.b).shape;
  const memory::desc aDesc = attributes.aTranspose ? transposedFloat32Desc(aShape[0], aShape[1])
                                                   : plainFloat32Desc(dimsOf(aShape));
  const memory::desc bDesc = attributes.bTranspose ? transposedFloat32Desc(bShape[0], bShape[1])
                                                   : plainFloat32Desc(dimsOf(bShape));
  const memory::desc outputDesc =
      plainFloat32Desc(dimsOf(context.descriptor(operands.output).shape));

  // alpha A B + beta C = beta (alpha / beta A B + C): the output scale, then C added, then scaled.
  dnnl::primitive_attr attributesWithPostOps = opAttributes();
  const bool addC = attributes.c && attributes.beta != 0.0;
  float outputScale = static_cast<float>(attributes.alpha);
  std::optional<memory::desc> cDesc;
  if (addC) {
    operands.c = attributes.c;
    cDesc = plainFloat32Desc(paddedToRank(context.descriptor(*attributes.c).shape, 2));
    outputScale = static_cast<float>(attributes.alpha / attributes.beta);
    dnnl::post_ops postOps;
    postOps.append_binary(dnnl::algorithm::binary_add, *cDesc);
    if (attributes.beta != 1.0) {
      postOps.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear,
                             static_cast<float>(attributes.beta), 0.0f);
    }
    attributesWithPostOps.set_post_ops(postOps);
  }
  if (outputScale != 1.0f) attributesWithPostOps.set_output_scales(0, {outputScale});
  return std::make_unique<MatmulOp>(context, operands, aDesc, bDesc, outputDesc, cDesc,
                                    attributesWithPostOps);
}

}  // namespace webnn::cpu
