// libFuzzer target: the builder API driven by arbitrary bytes. The bytes choose inputs and
// constants (classic and hollow) with arbitrary descriptors, a sequence of builder calls with
// arbitrary operands, axes, shapes and options, the outputs; then the graph is built, its hollow
// constants filled (whole or in chunks), and dispatched on the reference backend. Invalid calls
// must throw webnn::Error; nothing may crash, leak or trip a sanitizer.
// Public API only (include/webnn). Built by the asan preset (WEBNN_BUILD_FUZZERS).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "webnn/webnn.h"

namespace {

using namespace webnn;

// Tensors the fuzzer dispatches with stay small; larger descriptors are built (validation runs)
// but not dispatched.
constexpr uint64_t kMaxDispatchBytes = uint64_t{1} << 16;
// Nor graphs with an intermediate operand above this (until the builder enforces
// maxTensorByteLength, an expand to a huge shape reduced back to a small output is valid, and its
// activations take gigabytes: found by this fuzzer as an out-of-memory, not a defect).
constexpr uint64_t kMaxIntermediateBytes = uint64_t{16} << 20;

class Driver {
 public:
  explicit Driver(FuzzedDataProvider& data) : data_(data) {}

  void run() {
    MLContext context = createContext();
    MLGraphBuilder builder(context);
    const size_t leaves = data_.ConsumeIntegralInRange<size_t>(1, 4);
    for (size_t i = 0; i < leaves; ++i) attempt([&] { addLeaf(builder, i); });
    const size_t calls = data_.ConsumeIntegralInRange<size_t>(0, 12);
    for (size_t i = 0; i < calls && data_.remaining_bytes() > 0; ++i) {
      attempt([&] { call(builder); });
    }
    MLNamedOperands outputs;
    for (size_t i = pool_.size(); i-- > 0 && outputs.size() < 3;) {
      if (!pool_[i].isConstant() && data_.ConsumeBool()) {
        outputs["out" + std::to_string(outputs.size())] = pool_[i];
      }
    }
    if (outputs.empty()) return;
    for (const MLOperand& operand : pool_) {
      const bool small = attempt([&] {
        if (operand.descriptor().byteLength() > kMaxIntermediateBytes)
          throw Error(Error::Kind::DataError, "large");
      });
      if (!small) dispatchable_ = false;
    }
    MLGraph graph;
    if (!attempt([&] { graph = builder.build(outputs); })) return;
    fill(graph);
    attempt([&] { dispatch(context, graph); });
    if (data_.ConsumeBool()) {
      attempt([&] { fill(graph); });  // a re-fill: a new weight set
      attempt([&] { dispatch(context, graph); });
    }
    if (data_.ConsumeBool()) graph.destroy();
    attempt([&] { dispatch(context, graph); });  // on a destroyed graph: InvalidStateError
  }

 private:
  template <class F>
  bool attempt(F f) {
    try {
      f();
      return true;
    } catch (const Error&) {
      return false;
    }
  }

  MLOperandDataType dataType() {
    static constexpr MLOperandDataType kTypes[] = {
        MLOperandDataType::Float32, MLOperandDataType::Float16, MLOperandDataType::Int32,
        MLOperandDataType::Uint32,  MLOperandDataType::Int64,   MLOperandDataType::Uint64,
        MLOperandDataType::Int8,    MLOperandDataType::Uint8,   MLOperandDataType::Int4,
        MLOperandDataType::Uint4};
    return kTypes[data_.ConsumeIntegralInRange<size_t>(0, std::size(kTypes) - 1)];
  }

  // Mostly small dimensions; sometimes 0 or anything up to 2^32 - 1.
  uint32_t dimension() {
    switch (data_.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:
        return data_.ConsumeIntegral<uint32_t>();
      case 1:
        return 0;
      default:
        return data_.ConsumeIntegralInRange<uint32_t>(1, 4);
    }
  }

  std::vector<uint32_t> shape(size_t maxRank = 5) {
    std::vector<uint32_t> s(data_.ConsumeIntegralInRange<size_t>(0, maxRank));
    for (auto& d : s) d = dimension();
    return s;
  }

  std::vector<uint32_t> list(size_t maxLength = 5) {
    std::vector<uint32_t> values(data_.ConsumeIntegralInRange<size_t>(0, maxLength));
    for (auto& v : values)
      v = data_.ConsumeBool() ? dimension() : data_.ConsumeIntegral<uint32_t>();
    return values;
  }

  std::optional<std::vector<uint32_t>> maybeList() {
    if (data_.ConsumeBool()) return std::nullopt;
    return list();
  }

  uint32_t axis() {
    return data_.ConsumeBool() ? data_.ConsumeIntegralInRange<uint32_t>(0, 4)
                               : data_.ConsumeIntegral<uint32_t>();
  }

  double number() {
    return data_.ConsumeBool() ? data_.ConsumeFloatingPoint<double>()
                               : data_.ConsumeFloatingPointInRange<double>(-4, 4);
  }

  const MLOperand& pick() {
    return pool_[data_.ConsumeIntegralInRange<size_t>(0, pool_.size() - 1)];
  }

  void addLeaf(MLGraphBuilder& builder, size_t index) {
    const MLOperandDescriptor descriptor{dataType(), shape()};
    switch (data_.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: {
        pool_.push_back(builder.input("in" + std::to_string(index), descriptor));
        break;
      }
      case 1: {  // classic constant with bytes (possibly the wrong number of them)
        const uint64_t length = descriptor.byteLength();
        size_t size = length <= kMaxDispatchBytes ? static_cast<size_t>(length) : 0;
        if (data_.ConsumeIntegralInRange<int>(0, 15) == 0)
          size = data_.ConsumeIntegralInRange<size_t>(0, 64);
        std::vector<std::byte> bytes(size);
        for (auto& b : bytes) b = static_cast<std::byte>(data_.ConsumeIntegral<uint8_t>());
        pool_.push_back(builder.constant(descriptor, bytes));
        break;
      }
      case 2:
        pool_.push_back(builder.constant(descriptor.dataType, number()));
        break;
      default:
        pool_.push_back(
            builder.constant(descriptor, MLConstantOptions{"c" + std::to_string(index)}));
        break;
    }
  }

  void call(MLGraphBuilder& b) {
    if (pool_.empty()) return;
    const MLOperand x = pick();
    MLOperand y;
    switch (data_.ConsumeIntegralInRange<int>(0, 36)) {
      case 0:
        y = b.add(x, pick());
        break;
      case 1:
        y = b.sub(x, pick());
        break;
      case 2:
        y = b.mul(x, pick());
        break;
      case 3:
        y = b.div(x, pick());
        break;
      case 4:
        y = b.pow(x, pick());
        break;
      case 5:
        y = b.max(x, pick());
        break;
      case 6:
        y = b.equal(x, pick());
        break;
      case 7:
        y = b.lesser(x, pick());
        break;
      case 8:
        y = b.logicalAnd(x, pick());
        break;
      case 9:
        y = b.abs(x);
        break;
      case 10:
        y = b.exp(x);
        break;
      case 11:
        y = b.sqrt(x);
        break;
      case 12:
        y = b.relu(x);
        break;
      case 13:
        y = b.softmax(x, axis());
        break;
      case 14:
        y = b.clamp(x, {.minValue = number(), .maxValue = number()});
        break;
      case 15:
        y = b.cast(x, dataType());
        break;
      case 16:
        y = b.matmul(x, pick());
        break;
      case 17: {
        MLGemmOptions o;
        o.aTranspose = data_.ConsumeBool();
        o.bTranspose = data_.ConsumeBool();
        if (data_.ConsumeBool()) o.c = pick();
        o.alpha = number();
        y = b.gemm(x, pick(), o);
        break;
      }
      case 18: {
        MLConv2dOptions o;
        o.padding = list(4);
        o.strides = list(2);
        o.dilations = list(2);
        o.groups = data_.ConsumeBool() ? 1 : data_.ConsumeIntegral<uint32_t>();
        if (data_.ConsumeBool()) o.bias = pick();
        o.inputLayout =
            data_.ConsumeBool() ? MLInputOperandLayout::Nchw : MLInputOperandLayout::Nhwc;
        y = b.conv2d(x, pick(), o);
        break;
      }
      case 19:
      case 20: {
        MLPool2dOptions o;
        o.windowDimensions = maybeList();
        o.padding = list(4);
        o.strides = list(2);
        o.dilations = list(2);
        o.roundingType = data_.ConsumeBool() ? MLRoundingType::Floor : MLRoundingType::Ceil;
        if (data_.ConsumeBool()) o.outputSizes = list(2);
        y = data_.ConsumeBool() ? b.averagePool2d(x, o) : b.maxPool2d(x, o);
        break;
      }
      case 21: {
        MLReduceOptions o;
        o.axes = maybeList();
        o.keepDimensions = data_.ConsumeBool();
        y = data_.ConsumeBool() ? b.reduceSum(x, o) : b.reduceMax(x, o);
        break;
      }
      case 22:
        y = b.argMax(x, axis(), {.keepDimensions = data_.ConsumeBool()});
        break;
      case 23: {
        std::vector<MLOperand> inputs{x};
        const size_t more = data_.ConsumeIntegralInRange<size_t>(0, 3);
        for (size_t i = 0; i < more; ++i) inputs.push_back(pick());
        y = b.concat(inputs, axis());
        break;
      }
      case 24:
        y = b.expand(x, shape());
        break;
      case 25: {
        MLPadOptions o;
        o.mode = static_cast<MLPaddingMode>(data_.ConsumeIntegralInRange<int>(0, 3));
        o.value = number();
        y = b.pad(x, list(), list(), o);
        break;
      }
      case 26:
        y = b.reshape(x, shape());
        break;
      case 27:
        y = b.reverse(x, {.axes = maybeList()});
        break;
      case 28: {
        MLSliceOptions o;
        o.strides = list();
        y = b.slice(x, list(), list(), o);
        break;
      }
      case 29:
        y = b.tile(x, list());
        break;
      case 30:
        y = b.transpose(x, {.permutation = maybeList()});
        break;
      case 31: {
        MLTriangularOptions o;
        o.upper = data_.ConsumeBool();
        o.diagonal = data_.ConsumeIntegral<int32_t>();
        y = b.triangular(x, o);
        break;
      }
      case 32:
        y = b.where(x, pick(), pick());
        break;
      case 33:
        y = b.gather(x, pick(), {.axis = axis()});
        break;
      case 34: {
        MLSplitOptions o;
        o.axis = axis();
        auto parts = data_.ConsumeBool() ? b.split(x, data_.ConsumeIntegral<uint32_t>(), o)
                                         : b.split(x, list(), o);
        for (auto& p : parts) pool_.push_back(p);
        return;
      }
      case 35: {
        MLResample2dOptions o;
        o.mode = data_.ConsumeBool() ? MLInterpolationMode::Linear
                                     : MLInterpolationMode::NearestNeighbor;
        if (data_.ConsumeBool()) {
          o.scales = std::vector<float>{static_cast<float>(number()), static_cast<float>(number())};
        }
        if (data_.ConsumeBool()) o.sizes = list(2);
        o.axes = maybeList();
        y = b.resample2d(x, o);
        break;
      }
      default: {
        MLLayerNormalizationOptions o;
        o.epsilon = number();
        if (data_.ConsumeBool()) o.scale = pick();
        y = b.layerNormalization(x, o);
        break;
      }
    }
    pool_.push_back(y);
  }

  void fill(MLGraph& graph) {
    for (const MLOperand& constant : graph.hollowConstants()) {
      const uint64_t length = constant.descriptor().byteLength();
      if (length > kMaxDispatchBytes) continue;
      std::vector<std::byte> bytes(static_cast<size_t>(length));
      for (auto& byte : bytes) byte = static_cast<std::byte>(data_.ConsumeIntegral<uint8_t>());
      if (data_.ConsumeBool() || bytes.size() < 2) {
        attempt([&] { graph.setConstantData(constant, bytes); });
      } else {
        // Two chunks, in either order, at a possibly misaligned or out-of-range split.
        const uint64_t split = data_.ConsumeIntegralInRange<uint64_t>(0, bytes.size() + 2);
        const auto first =
            std::span<const std::byte>(bytes).first(std::min<size_t>(split, bytes.size()));
        attempt([&] {
          graph.writeConstantData(constant, split,
                                  std::span<const std::byte>(bytes).subspan(first.size()));
        });
        attempt([&] { graph.writeConstantData(constant, 0, first); });
      }
    }
  }

  void dispatch(MLContext& context, MLGraph& graph) {
    if (!dispatchable_) return;
    MLNamedTensors inputs, outputs;
    for (const auto& [name, descriptor] : graph.inputDescriptors()) {
      if (descriptor.byteLength() > kMaxDispatchBytes) return;
      inputs[name] = context.createTensor({descriptor, false, true});
      std::vector<std::byte> bytes(static_cast<size_t>(descriptor.byteLength()));
      for (auto& byte : bytes) byte = static_cast<std::byte>(data_.ConsumeIntegral<uint8_t>());
      context.writeTensor(inputs[name], bytes);
    }
    for (const auto& [name, descriptor] : graph.outputDescriptors()) {
      if (descriptor.byteLength() > kMaxDispatchBytes) return;
      outputs[name] = context.createTensor({descriptor, true, false});
    }
    context.dispatch(graph, inputs, outputs);
    for (const auto& [name, tensor] : outputs) context.readTensor(tensor);
  }

  FuzzedDataProvider& data_;
  std::vector<MLOperand> pool_;
  bool dispatchable_ = true;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  FuzzedDataProvider data(bytes, size);
  Driver(data).run();
  return 0;
}
