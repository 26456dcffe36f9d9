#include "backends/cpu/half_weights.h"

#include <omp.h>

#include <algorithm>

#include "backends/cpu/cpu_constant_slot.h"
#include "core/float16_convert.h"
#include "webnn/types.h"

namespace webnn::cpu {

dnnl::memory::desc withHalfElements(const dnnl::memory::desc& desc) {
  dnnl_memory_desc_t half = desc.data;
  half.data_type = dnnl_f16;
  return dnnl::memory::desc(half);
}

uint64_t paddedFilterElements(uint64_t elements, uint64_t inputChannels, uint64_t outputChannels,
                              uint64_t groups) {
  auto roundUp = [](uint64_t value, uint64_t block) { return (value + block - 1) / block * block; };
  if (groups == 0 || inputChannels % groups != 0 || outputChannels % groups != 0) return elements;
  const uint64_t perGroupIn = inputChannels / groups, perGroupOut = outputChannels / groups;
  if (perGroupIn == 0 || perGroupOut == 0 || elements % (groups * perGroupIn * perGroupOut) != 0) {
    return elements;
  }
  const uint64_t kernel = elements / (groups * perGroupIn * perGroupOut);
  if (perGroupIn == 1 && perGroupOut == 1) {  // depthwise: the groups are blocked
    return std::max(elements, roundUp(groups, kHalfFilterOuterBlock) * kernel);
  }
  return std::max(elements, groups * roundUp(perGroupOut, kHalfFilterOuterBlock) *
                                roundUp(perGroupIn, kHalfFilterInnerBlock) * kernel);
}

std::vector<bool> float16FiltersKept(const graph::GraphIR& ir,
                                     const std::vector<bool>& arrivesAsFloat16) {
  std::vector<bool> kept(ir.operands.size(), false);
  auto arrivesHalf = [&](graph::OperandId id) {
    return id < arrivesAsFloat16.size() && arrivesAsFloat16[id] &&
           ir.operand(id).kind == graph::OperandKind::HollowConstant;
  };
  uint64_t halfBytes = 0;
  for (const auto& operand : ir.operands) {
    if (arrivesHalf(operand->id)) halfBytes += operand->descriptor.elementCount() * 2;
  }
  // Each candidate filter with the float16 bytes it takes packed (channels padded to blocks).
  struct Candidate {
    graph::OperandId filter;
    uint64_t bytes;
  };
  std::vector<Candidate> candidates;
  auto channels = [&](graph::OperandId activation, MLInputOperandLayout layout) -> uint64_t {
    const auto& shape = ir.descriptor(activation).shape;
    if (shape.size() != 4) return 0;
    return layout == MLInputOperandLayout::Nchw ? shape[1] : shape[3];
  };
  for (const auto& operation : ir.operations) {
    uint32_t groups = 0;
    MLInputOperandLayout layout{};
    if (operation.type == graph::OpType::Conv2d) {
      const auto& attributes = operation.attributesAs<graph::Conv2dAttributes>();
      groups = attributes.groups, layout = attributes.inputLayout;
    } else if (operation.type == graph::OpType::ConvTranspose2d) {
      const auto& attributes = operation.attributesAs<graph::ConvTranspose2dAttributes>();
      groups = attributes.groups, layout = attributes.inputLayout;
    } else {
      continue;
    }
    const graph::OperandId filter = operation.inputs.at(1);
    const auto& inputs = operation.inputs;
    // Read by this operation only, at one position: the graph then packs it on arrival.
    if (!arrivesHalf(filter) || ir.isGraphOutput(filter) || ir.consumersOf(filter).size() != 1 ||
        std::count(inputs.begin(), inputs.end(), filter) != 1) {
      continue;
    }
    const uint64_t elements = ir.descriptor(filter).elementCount();
    const uint64_t padded = paddedFilterElements(elements, channels(operation.inputs.at(0), layout),
                                                 channels(operation.outputs.at(0), layout), groups);
    candidates.push_back({filter, padded * 2});
    kept[filter] = true;
  }
  // Smallest first: the fixed price of a widening is paid once per filter.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.bytes < b.bytes; });
  uint64_t budget = kHalfFiltersWidenedBytes + halfBytes / 20;
  for (const Candidate& candidate : candidates) {
    if (candidate.bytes > budget) break;
    budget -= candidate.bytes;  // its widened copy takes twice its float16 bytes
    kept[candidate.filter] = false;
  }
  return kept;
}

std::unique_ptr<HalfPackedWeights> HalfPackedWeights::create(
    const OpCompileContext& context, graph::OperandId id, const dnnl::memory::desc& plain,
    const dnnl::memory::desc& packedFloat) {
  if (!context.constants || !context.constants->keepsFloat16(id)) return nullptr;
  if (packedFloat.data.format_kind != dnnl_blocked ||
      plain.data_type() != dnnl::memory::data_type::f32 ||
      packedFloat.data_type() != dnnl::memory::data_type::f32) {
    return nullptr;
  }
  auto half = context.packedConstant(id, plain, withHalfElements(packedFloat));
  return std::unique_ptr<HalfPackedWeights>(new HalfPackedWeights(std::move(half), packedFloat));
}

dnnl::memory HalfPackedWeights::widen(const dnnl::engine& engine, std::byte* workspace) const {
  dnnl::memory widened = workspace ? dnnl::memory(packedFloat_, engine, workspace)
                                   : dnnl::memory(packedFloat_, engine);
  widenInto(static_cast<std::byte*>(widened.get_data_handle()));
  return widened;
}

void HalfPackedWeights::widenInto(std::byte* destination) const {
  if (half_->mode() != PackedConstant::Mode::OnArrival) {
    throw Error(Error::Kind::OperationError,
                "cpu backend: a float16 filter was not packed on arrival");
  }
  const auto* from = static_cast<const uint16_t*>(half_->memory().get_data_handle());
  auto* to = reinterpret_cast<float*>(destination);
  // Every element of the padded buffer: the padding is zero in both.
  const uint64_t count = packedFloat_.get_size() / sizeof(float);
  constexpr uint64_t kPiece = 1u << 16;
  const uint64_t pieces = (count + kPiece - 1) / kPiece;
  const int threads = static_cast<int>(
      std::min<uint64_t>(pieces, std::min(omp_get_max_threads(), omp_get_thread_limit())));
  // One piece: no OpenMP region (a serialized one still allocates a team, at every call).
  if (threads <= 1) {
    convertHalfToFloat(from, to, count);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (uint64_t piece = 0; piece < pieces; ++piece) {
    const uint64_t first = piece * kPiece;
    convertHalfToFloat(from + first, to + first, std::min(kPiece, count - first));
  }
}

}  // namespace webnn::cpu
