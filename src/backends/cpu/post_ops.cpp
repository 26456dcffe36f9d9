// oneDNN post-ops of a fusion chain: what a conv2d / matmul / gemm step appends to its primitive
// attributes, and the binary operands it binds at execute.
#include <algorithm>
#include <cmath>

#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {
namespace {

// `dims` (broadcast to `outputDims`, same rank) with all but the last dimension merged, when it
// spans all of them or none.
std::optional<dnnl::memory::dims> foldedRows(const dnnl::memory::dims& dims,
                                             const dnnl::memory::dims& outputDims) {
  bool all = true, none = true;
  dnnl::memory::dim rows = 1;
  for (size_t i = 0; i + 1 < dims.size(); ++i) {
    all = all && dims[i] == outputDims[i];
    none = none && dims[i] == 1;
    rows *= outputDims[i];
  }
  if (!all && !none) return std::nullopt;
  return dnnl::memory::dims{none ? 1 : rows, dims.back()};
}

}  // namespace

std::optional<graph::OperandId> fusedBiasRowOf(const OpCompileContext& context,
                                               const dnnl::memory::dims& logicalOutputDims) {
  if (!context.fusion || context.fusion->postOps.empty()) return std::nullopt;
  const FusedPostOp& first = context.fusion->postOps.front();
  if (first.kind != FusedPostOp::Kind::Binary || first.algorithm != dnnl::algorithm::binary_add) {
    return std::nullopt;
  }
  if (context.storedLayoutOf(first.other)) return std::nullopt;
  const MLOperandDescriptor& descriptor = context.descriptor(first.other);
  const auto& shape = descriptor.shape;
  if (descriptor.dataType != MLOperandDataType::Float32 || shape.empty() ||
      shape.size() > logicalOutputDims.size() ||
      static_cast<dnnl::memory::dim>(shape.back()) != logicalOutputDims.back() ||
      !std::all_of(shape.begin(), shape.end() - 1, [](uint32_t d) { return d == 1; })) {
    return std::nullopt;
  }
  return first.other;
}

std::optional<PostOpArguments> postOpArgumentsOf(const OpCompileContext& context,
                                                 const dnnl::memory::dims& outputDims,
                                                 dnnl::post_ops base, bool rowsFolded,
                                                 size_t firstPostOp) {
  PostOpArguments result;
  result.postOps = std::move(base);
  if (!context.fusion) return result;
  const auto& chain = context.fusion->postOps;
  for (size_t i = std::min(firstPostOp, chain.size()); i < chain.size(); ++i) {
    const FusedPostOp& postOp = chain[i];
    if (postOp.kind == FusedPostOp::Kind::Eltwise) {
      result.postOps.append_eltwise(1.0f, postOp.algorithm, postOp.alpha, postOp.beta);
      continue;
    }
    if (postOp.kind == FusedPostOp::Kind::Sum) {  // what the destination holds, added
      if (rowsFolded) return std::nullopt;
      result.postOps.append_sum(1.0f);
      continue;
    }
    if (postOp.kind == FusedPostOp::Kind::BatchNormalization) {
      if (rowsFolded) return std::nullopt;
      // Channels on dimension 1 of the output: [1, C, 1, ...].
      if (outputDims.size() < 2) return std::nullopt;
      dnnl::memory::dims dims(outputDims.size(), 1);
      dims[1] = outputDims[1];
      const dnnl::memory::desc desc = plainFloat32Desc(dims);
      const int index = static_cast<int>(result.folded.size());
      result.folded.push_back({postOp, {}, {}});
      for (int factor = 0; factor < 2; ++factor) {
        result.binaryInputs.push_back({0, 2 * index + factor, desc, result.postOps.len()});
        result.postOps.append_binary(
            factor == 0 ? dnnl::algorithm::binary_mul : dnnl::algorithm::binary_add, desc);
      }
      continue;
    }
    // The other operand, broadcast to the output (right-aligned, each dimension equal or 1), in
    // its own layout when blocked (then it has the output's dimensions).
    dnnl::memory::desc otherDesc;
    // Where the step reads it: in its stored layout, except that an input of the main op that
    // the op reads plain is swapped for its plain copy during the step.
    const dnnl::memory::desc* layout = context.storedLayoutOf(postOp.other);
    const auto& inputs = context.operation.inputs;
    if (context.inputsPlain &&
        std::find(inputs.begin(), inputs.end(), postOp.other) != inputs.end()) {
      layout = nullptr;
    }
    if (layout) {
      if (layout->dims() != outputDims || rowsFolded) return std::nullopt;
      otherDesc = *layout;
    } else {
      const auto& shape = context.descriptor(postOp.other).shape;
      if (shape.size() > outputDims.size()) return std::nullopt;
      dnnl::memory::dims dims(outputDims.size() - shape.size(), 1);
      for (uint32_t d : shape) dims.push_back(d);
      for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] != 1 && dims[i] != outputDims[i]) return std::nullopt;
      }
      if (rowsFolded) {
        auto folded = foldedRows(dims, outputDims);
        if (!folded) return std::nullopt;
        dims = std::move(*folded);
      }
      otherDesc = plainFloat32Desc(dims);
    }
    result.binaryInputs.push_back({postOp.other, -1, otherDesc, result.postOps.len()});
    result.postOps.append_binary(postOp.algorithm, otherDesc);
  }
  // oneDNN 2.6 runs a second element-wise linear post-op wrong (fusion.cpp merges adjacent ones).
  int linears = 0;
  for (int i = 0; i < result.postOps.len(); ++i) {
    if (result.postOps.kind(i) != dnnl::primitive::kind::eltwise) continue;
    float scale, alpha, beta;
    dnnl::algorithm algorithm;
    result.postOps.get_params_eltwise(i, scale, algorithm, alpha, beta);
    linears += algorithm == dnnl::algorithm::eltwise_linear ? 1 : 0;
  }
  if (linears > 1) return std::nullopt;
  return result;
}

void addPostOpArguments(const PostOpArguments& postOps, const dnnl::engine& engine,
                        const DispatchTensors& tensors,
                        std::unordered_map<int, dnnl::memory>& arguments) {
  for (const auto& input : postOps.binaryInputs) {
    void* data;
    if (input.foldedIndex >= 0) {
      auto& folded = postOps.folded[static_cast<size_t>(input.foldedIndex / 2)];
      const auto& factors = input.foldedIndex % 2 == 0 ? folded.multiplier : folded.shift;
      data = const_cast<float*>(factors.data());
    } else {
      data = dataOf(tensors, input.operand);
    }
    arguments.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(input.position) | DNNL_ARG_SRC_1,
                      dnnl::memory(input.desc, engine, data));
  }
}

void PostOpArguments::prepare(const DispatchTensors& tensors) {
  for (auto& folded : this->folded) {
    const FusedPostOp& postOp = folded.postOp;
    const size_t channels = tensors[postOp.other].descriptor->elementCount();
    const float* mean = tensors[postOp.other].as<float>();
    const float* variance = tensors[postOp.variance].as<float>();
    const float* scale = postOp.scale ? tensors[*postOp.scale].as<float>() : nullptr;
    const float* bias = postOp.bias ? tensors[*postOp.bias].as<float>() : nullptr;
    folded.multiplier.resize(channels);
    folded.shift.resize(channels);
    for (size_t c = 0; c < channels; ++c) {
      // In double, as the reference computes (x - mean) / sqrt(variance + epsilon) * scale + bias.
      const double multiplier =
          (scale ? scale[c] : 1.0) / std::sqrt(static_cast<double>(variance[c]) + postOp.alpha);
      folded.multiplier[c] = static_cast<float>(multiplier);
      folded.shift[c] = static_cast<float>((bias ? bias[c] : 0.0) - mean[c] * multiplier);
    }
  }
}

}  // namespace webnn::cpu
