// FoldedPostOps (quantized_operands.h): the post-ops of an int8 step with the chain's leading
// affine post-ops folded into its per-channel output scales and bias.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "backends/cpu/ops/quantized_operands.h"

namespace webnn::cpu {
namespace {

using dnnl::memory;

bool isLinear(const FusedPostOp& postOp) {
  return postOp.kind == FusedPostOp::Kind::Eltwise &&
         postOp.algorithm == dnnl::algorithm::eltwise_linear;
}

// The value of a classic float32 constant of one element.
std::optional<float> classicScalar(const OpCompileContext& context, graph::OperandId id) {
  const auto& operand = context.ir.operand(id);
  if (operand.kind != graph::OperandKind::Constant || !operand.data) return std::nullopt;
  if (operand.descriptor.dataType != MLOperandDataType::Float32 ||
      operand.descriptor.elementCount() != 1 || operand.data->size() != sizeof(float)) {
    return std::nullopt;
  }
  float value;
  std::memcpy(&value, operand.data->data(), sizeof value);
  return value;
}

// Whether constant `id` broadcast to `outputDims` (right-aligned) varies along `channelAxis` at
// most: its bytes are then one value, or one per channel in order.
bool perChannelConstant(const OpCompileContext& context, graph::OperandId id,
                        const memory::dims& outputDims, size_t channelAxis) {
  if (!context.isConstant(id) ||
      context.descriptor(id).dataType != MLOperandDataType::Float32) {
    return false;
  }
  const auto& shape = context.descriptor(id).shape;
  if (shape.size() > outputDims.size()) return false;
  const size_t offset = outputDims.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    const memory::dim size = shape[d];
    if (size == 1) continue;
    if (d + offset != channelAxis || size != outputDims[channelAxis]) return false;
  }
  return true;
}

bool foldable(const OpCompileContext& context, const FusedPostOp& postOp,
              const memory::dims& outputDims, size_t channelAxis) {
  using A = dnnl::algorithm;
  switch (postOp.kind) {
    case FusedPostOp::Kind::Eltwise:
      return postOp.algorithm == A::eltwise_linear;
    case FusedPostOp::Kind::BatchNormalization:
      return channelAxis == 1;
    case FusedPostOp::Kind::Binary:
      return (postOp.algorithm == A::binary_add || postOp.algorithm == A::binary_sub ||
              postOp.algorithm == A::binary_mul || postOp.algorithm == A::binary_div) &&
             perChannelConstant(context, postOp.other, outputDims, channelAxis);
    case FusedPostOp::Kind::Sum:  // never in a quantized chain (fusion.cpp)
      return false;
  }
  return false;
}

memory::desc scalarDesc(int rank) {
  return memory::desc(memory::dims(static_cast<size_t>(rank), 1), memory::data_type::f32,
                      rank == 4 ? memory::format_tag::abcd : memory::format_tag::ab);
}

}  // namespace

std::optional<FoldedPostOps> FoldedPostOps::plan(const OpCompileContext& context,
                                                 const memory::dims& outputDims,
                                                 size_t channelAxis, int rank, bool rowsFolded) {
  FoldedPostOps result;
  result.rank_ = rank;
  const FusionChain& chain = *context.fusion;
  size_t first = 0;
  while (first < chain.postOps.size() &&
         foldable(context, chain.postOps[first], outputDims, channelAxis)) {
    ++first;
  }
  result.folded_.assign(chain.postOps.begin(), chain.postOps.begin() + first);
  result.rest_ = chain;
  result.rest_.postOps.assign(chain.postOps.begin() + first, chain.postOps.end());
  std::vector<FusedPostOp>& rest = result.rest_.postOps;
  // A multiply and / or add by classic scalars (made binary by the fusion pass: a second linear
  // then) back into one linear post-op when the rest has none: the last such run.
  if (std::none_of(rest.begin(), rest.end(), isLinear)) {
    auto scalarOf = [&](const FusedPostOp& postOp) -> std::optional<float> {
      if (postOp.kind != FusedPostOp::Kind::Binary) return std::nullopt;
      if (postOp.algorithm != dnnl::algorithm::binary_mul &&
          postOp.algorithm != dnnl::algorithm::binary_add) {
        return std::nullopt;
      }
      return classicScalar(context, postOp.other);
    };
    for (size_t i = rest.size(); i-- > 0;) {
      const auto value = scalarOf(rest[i]);
      if (!value) continue;
      FusedPostOp linear{.kind = FusedPostOp::Kind::Eltwise,
                         .algorithm = dnnl::algorithm::eltwise_linear,
                         .alpha = 1.0f,
                         .beta = 0.0f};
      size_t begin = i;
      if (rest[i].algorithm == dnnl::algorithm::binary_add) {
        linear.beta = *value;
        if (i > 0) {
          const auto multiplier = scalarOf(rest[i - 1]);
          if (multiplier && rest[i - 1].algorithm == dnnl::algorithm::binary_mul) {
            linear.alpha = *multiplier;
            begin = i - 1;
          }
        }
      } else {
        linear.alpha = *value;
      }
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(begin),
                 rest.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      rest.insert(rest.begin() + static_cast<std::ptrdiff_t>(begin), linear);
      break;
    }
  }
  // The quantization's division by its scale.
  bool zeroAsLinear = false;
  if (const auto& output = chain.quantizedOutput) {
    result.quantized_ = true;
    result.scale_[0] = floatConstant(context.ir, output->scale);
    result.zero_[0] = static_cast<float>(integerConstant(context.ir, output->zeroPoint));
    const float reciprocal = 1.0f / result.scale_[0];
    const bool linearLeft = std::any_of(rest.begin(), rest.end(), isLinear);
    if (rest.empty()) {
      result.scaleIntoMultipliers_ = true;
      zeroAsLinear = true;
    } else if (isLinear(rest.back()) && std::isfinite(reciprocal)) {
      rest.back().alpha *= reciprocal;
      rest.back().beta *= reciprocal;
    } else if (!linearLeft && std::isfinite(reciprocal)) {
      rest.push_back({.kind = FusedPostOp::Kind::Eltwise,
                      .algorithm = dnnl::algorithm::eltwise_linear,
                      .alpha = reciprocal,
                      .beta = 0.0f});
    } else {
      result.divisionPosition_ = 0;  // placed below, after the rest
    }
  }
  OpCompileContext restContext = context;
  restContext.fusion = &result.rest_;
  auto arguments = postOpArgumentsOf(restContext, outputDims, {}, rowsFolded);
  if (!arguments) return std::nullopt;
  result.arguments_ = std::move(*arguments);
  if (result.quantized_) {
    dnnl::post_ops& postOps = result.arguments_.postOps;
    if (result.divisionPosition_ >= 0) {
      result.divisionPosition_ = postOps.len();
      postOps.append_binary(dnnl::algorithm::binary_div, scalarDesc(rank));
    }
    postOps.append_eltwise(1.0f, dnnl::algorithm::eltwise_round, 0.0f, 0.0f);
    if (result.zero_[0] != 0.0f) {
      if (zeroAsLinear) {
        postOps.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, 1.0f, result.zero_[0]);
      } else {
        result.zeroPosition_ = postOps.len();
        postOps.append_binary(dnnl::algorithm::binary_add, scalarDesc(rank));
      }
    }
  }
  return result;
}

void FoldedPostOps::fold(const DispatchTensors& tensors, std::vector<float>& multipliers,
                         std::vector<float>& bias) const {
  using A = dnnl::algorithm;
  const size_t channels = multipliers.size();
  for (const FusedPostOp& postOp : folded_) {
    if (postOp.kind == FusedPostOp::Kind::Eltwise) {  // linear
      for (size_t c = 0; c < channels; ++c) {
        multipliers[c] *= postOp.alpha;
        bias[c] = bias[c] * postOp.alpha + postOp.beta;
      }
      continue;
    }
    if (postOp.kind == FusedPostOp::Kind::BatchNormalization) {
      // x * multiplier + shift: multiplier = scale / sqrt(variance + epsilon), shift = bias -
      // mean * multiplier (in double, as PostOpArguments::prepare).
      const float* mean = tensors[postOp.other].as<float>();
      const float* variance = tensors[postOp.variance].as<float>();
      const float* scale = postOp.scale ? tensors[*postOp.scale].as<float>() : nullptr;
      const float* shift = postOp.bias ? tensors[*postOp.bias].as<float>() : nullptr;
      for (size_t c = 0; c < channels; ++c) {
        const double multiplier =
            (scale ? scale[c] : 1.0) / std::sqrt(static_cast<double>(variance[c]) + postOp.alpha);
        const auto m = static_cast<float>(multiplier);
        const auto s = static_cast<float>((shift ? shift[c] : 0.0) - mean[c] * multiplier);
        multipliers[c] *= m;
        bias[c] = bias[c] * m + s;
      }
      continue;
    }
    const float* values = tensors[postOp.other].as<float>();
    const bool perChannel = tensors[postOp.other].elementCount() > 1;
    for (size_t c = 0; c < channels; ++c) {
      const float v = values[perChannel ? c : 0];
      switch (postOp.algorithm) {
        case A::binary_mul:
          multipliers[c] *= v, bias[c] *= v;
          break;
        case A::binary_div:
          multipliers[c] /= v, bias[c] /= v;
          break;
        case A::binary_add:
          bias[c] += v;
          break;
        default:  // binary_sub
          bias[c] -= v;
          break;
      }
    }
  }
  if (scaleIntoMultipliers_) {
    for (size_t c = 0; c < channels; ++c) {
      multipliers[c] /= scale_[0];
      bias[c] /= scale_[0];
    }
  }
}

void FoldedPostOps::addArguments(const dnnl::engine& engine, const DispatchTensors& tensors,
                                 std::unordered_map<int, memory>& arguments) const {
  addPostOpArguments(arguments_, engine, tensors, arguments);
  if (divisionPosition_ >= 0) {
    arguments.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(divisionPosition_) | DNNL_ARG_SRC_1,
                      memory(scalarDesc(rank_), engine, const_cast<float*>(scale_)));
  }
  if (zeroPosition_ >= 0) {
    arguments.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(zeroPosition_) | DNNL_ARG_SRC_1,
                      memory(scalarDesc(rank_), engine, const_cast<float*>(zero_)));
  }
}

}  // namespace webnn::cpu
