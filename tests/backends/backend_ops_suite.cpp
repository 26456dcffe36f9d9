// Every backend against the reference backend (ggml's test-backend-ops is the model): each case
// builds one op on random inputs, for every data type the backend under test accepts for it, with
// its second operands as hollow constants filled after build(), and compares the output with the
// reference backend's on the same data: exact for integer outputs, within a relative tolerance
// for float outputs. A new backend gets all of it by registering (and adding its name to
// WEBNN_TEST_BACKENDS); on the reference backend itself it checks that results are deterministic
// and that hollow constants behave like classic ones.
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <stdexcept>

#include "core/element.h"
#include "core/float16.h"
#include "graph/ir.h"
#include "test_helpers.h"
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU
#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/op_table.h"
#include "backends/cpu/plan.h"
#include "cpu_known_fallbacks.h"
#endif

namespace webnn {
namespace {

using T = MLOperandDataType;
using Shape = std::vector<uint32_t>;

// Values an input is drawn from (integers are rounded; unsigned types clamp at 0).
struct Range {
  double low = -2.0;
  double high = 2.0;
};

// What one case's build function uses: inputs and hollow constants of random data. The same seed
// gives the same data, so the backend under test and the reference see identical graphs.
class CaseBuilder {
 public:
  CaseBuilder(MLGraphBuilder& builder, uint32_t seed) : builder_(builder), random_(seed) {}

  MLOperand input(T type, Shape shape, Range range = {}) {
    const std::string name = "in" + std::to_string(feeds_.size());
    MLOperandDescriptor descriptor{type, std::move(shape)};
    feeds_.push_back({name, descriptor, randomBytes(descriptor, range)});
    return builder_.input(name, descriptor);
  }
  // An input holding `values` (stored with the cast rules: saturating, NaN 0 for integers).
  MLOperand inputWith(T type, Shape shape, const std::vector<double>& values) {
    const std::string name = "in" + std::to_string(feeds_.size());
    MLOperandDescriptor descriptor{type, std::move(shape)};
    if (values.size() > descriptor.elementCount()) {
      throw std::logic_error("CaseBuilder::inputWith: more values than the shape holds");
    }
    std::vector<std::byte> bytes(descriptor.byteLength());
    for (size_t i = 0; i < values.size(); ++i) storeElement(type, bytes.data(), i, values[i]);
    feeds_.push_back({name, descriptor, std::move(bytes)});
    return builder_.input(name, descriptor);
  }
  // A hollow constant, filled after build().
  MLOperand constant(T type, Shape shape, Range range = {}) {
    MLOperandDescriptor descriptor{type, std::move(shape)};
    const std::string label = "c" + std::to_string(constants_.size());
    MLOperand operand = builder_.constant(descriptor, {.label = label});
    constants_.push_back({operand, randomBytes(descriptor, range)});
    return operand;
  }
  // A classic constant holding `values`.
  MLOperand values(T type, Shape shape, const std::vector<double>& values) {
    MLOperandDescriptor descriptor{type, std::move(shape)};
    if (values.size() > descriptor.elementCount()) {
      throw std::logic_error("CaseBuilder::values: more values than the shape holds");
    }
    std::vector<std::byte> bytes(descriptor.byteLength());
    for (size_t i = 0; i < values.size(); ++i) storeElement(type, bytes.data(), i, values[i]);
    return builder_.constant(descriptor, bytes);
  }
  MLGraphBuilder& builder() { return builder_; }

  struct Feed {
    std::string name;
    MLOperandDescriptor descriptor;
    std::vector<std::byte> bytes;
  };
  struct Hollow {
    MLOperand operand;
    std::vector<std::byte> bytes;
  };
  const std::vector<Feed>& feeds() const { return feeds_; }
  const std::vector<Hollow>& constants() const { return constants_; }

 private:
  std::vector<std::byte> randomBytes(const MLOperandDescriptor& descriptor, Range range) {
    std::vector<std::byte> bytes(descriptor.byteLength());
    const uint64_t count = descriptor.elementCount();
    std::uniform_real_distribution<double> uniform(range.low, range.high);
    for (uint64_t i = 0; i < count; ++i) {
      double value = uniform(random_);
      if (!isFloatingPoint(descriptor.dataType)) {
        value = std::round(value);
        if (!isSigned(descriptor.dataType)) value = std::max(0.0, value);
      }
      storeElement(descriptor.dataType, bytes.data(), i, value);
    }
    return bytes;
  }

  MLGraphBuilder& builder_;
  std::mt19937 random_;
  std::vector<Feed> feeds_;
  std::vector<Hollow> constants_;
};

struct OpCase {
  std::string name;
  graph::OpType type;
  // The data types to try: those the backend accepts for `typedOperand` of `type`, and of these
  // only `types` when given.
  std::string typedOperand = "input";
  std::vector<T> types = {};
  std::function<MLOperand(CaseBuilder&, T)> build;
};

struct Output {
  MLOperandDescriptor descriptor;
  std::vector<std::byte> bytes;
};

// On cpu: every float32 or float16 step of the graph that runs the reference kernel is listed in
// cpu_known_fallbacks.inc for its op and data type.
void expectOnlyKnownFallbacks(const MLGraph& graph) {
#ifdef WEBNN_HAVE_CPU
  const cpu::CpuPlan* plan = cpu::planOf(*graph.state()->compiled);
  if (!plan) return;  // another backend's graph
  // The IR the plan is of (a float16 graph's widened form: float16 values computed in float32).
  const graph::GraphIR& ir = *cpu::compiledIrOf(*graph.state()->compiled);
  for (const cpu::PlanStep& step : plan->steps) {
    if (!step.isFallback()) continue;
    const graph::Operation& operation = ir.operations[step.operations.at(0)];
    const MLOperandDataType type = cpu::operationDataType(ir, operation);
    if (type != MLOperandDataType::Float32 && type != MLOperandDataType::Float16) continue;
    EXPECT_TRUE(testing::knownCpuFallback(operation.type, type))
        << step.types << " on " << toString(type) << " runs the reference kernel ("
        << step.fallbackReason << ") and is not in tests/backends/cpu_known_fallbacks.inc";
  }
#else
  (void)graph;
#endif
}

Output runCase(const OpCase& opCase, T type, const std::string& backend) {
  MLContext context = createContext({.backend = backend});
  MLGraphBuilder builder(context);
  CaseBuilder cases(builder, 1234);
  MLOperand output = opCase.build(cases, type);
  MLGraph graph = builder.build({{"out", output}});
  expectOnlyKnownFallbacks(graph);
  for (const auto& constant : cases.constants()) {
    graph.setConstantData(constant.operand, constant.bytes);
  }
  MLNamedTensors inputs;
  for (const auto& feed : cases.feeds()) {
    MLTensor tensor = testing::inputTensor(context, feed.descriptor);
    context.writeTensor(tensor, feed.bytes);
    inputs.emplace(feed.name, tensor);
  }
  const MLOperandDescriptor descriptor = graph.outputDescriptors().at("out");
  MLTensor out = testing::outputTensor(context, descriptor);
  context.dispatch(graph, inputs, {{"out", out}});
  return {descriptor, context.readTensor(out)};
}

void expectSame(const Output& actual, const Output& expected) {
  ASSERT_EQ(actual.descriptor, expected.descriptor);
  const T type = expected.descriptor.dataType;
  if (!isFloatingPoint(type)) {
    EXPECT_EQ(actual.bytes, expected.bytes);
    return;
  }
  const double tolerance = type == T::Float16 ? 1e-2 : 1e-5;
  const uint64_t count = expected.descriptor.elementCount();
  uint64_t mismatches = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const double a = loadElement(type, actual.bytes.data(), i);
    const double e = loadElement(type, expected.bytes.data(), i);
    if (a == e) continue;  // (infinities too)
    if (std::isnan(e) ? std::isnan(a) : std::abs(a - e) <= tolerance * std::max(1.0, std::abs(e)))
      continue;
    if (++mismatches <= 5) ADD_FAILURE() << "element " << i << ": " << a << ", expected " << e;
  }
  EXPECT_EQ(mismatches, 0u) << "of " << count;
}

// ---- the cases ----

using Build = std::function<MLOperand(CaseBuilder&, T)>;
std::vector<OpCase> cases;

void add(std::string name, graph::OpType type, Build build, std::vector<T> types = {},
         std::string typedOperand = "input") {
  cases.push_back(
      {std::move(name), type, std::move(typedOperand), std::move(types), std::move(build)});
}

const Range kPositive{0.25, 3.0};
const Range kSmall{-0.8, 0.8};

void addElementwiseCases() {
  using O = graph::OpType;
  using Unary = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperatorOptions&);
  struct UnaryCase {
    const char* name;
    O type;
    Unary method;
    Range range;
  };
  const UnaryCase unary[] = {
      {"abs", O::Abs, &MLGraphBuilder::abs, {}},
      {"ceil", O::Ceil, &MLGraphBuilder::ceil, {}},
      {"cos", O::Cos, &MLGraphBuilder::cos, {}},
      {"erf", O::Erf, &MLGraphBuilder::erf, {}},
      {"exp", O::Exp, &MLGraphBuilder::exp, {}},
      {"floor", O::Floor, &MLGraphBuilder::floor, {}},
      {"identity", O::Identity, &MLGraphBuilder::identity, {}},
      {"isInfinite", O::IsInfinite, &MLGraphBuilder::isInfinite, {}},
      {"isNaN", O::IsNaN, &MLGraphBuilder::isNaN, {}},
      {"log", O::Log, &MLGraphBuilder::log, kPositive},
      {"neg", O::Neg, &MLGraphBuilder::neg, {}},
      {"reciprocal", O::Reciprocal, &MLGraphBuilder::reciprocal, kPositive},
      {"roundEven", O::RoundEven, &MLGraphBuilder::roundEven, {-4, 4}},
      {"sign", O::Sign, &MLGraphBuilder::sign, {}},
      {"sin", O::Sin, &MLGraphBuilder::sin, {}},
      {"sqrt", O::Sqrt, &MLGraphBuilder::sqrt, kPositive},
      {"tan", O::Tan, &MLGraphBuilder::tan, kSmall},
      {"gelu", O::Gelu, &MLGraphBuilder::gelu, {}},
      {"hardSwish", O::HardSwish, &MLGraphBuilder::hardSwish, {-4, 4}},
      {"relu", O::Relu, &MLGraphBuilder::relu, {}},
      {"sigmoid", O::Sigmoid, &MLGraphBuilder::sigmoid, {}},
      {"softplus", O::Softplus, &MLGraphBuilder::softplus, {}},
      {"softsign", O::Softsign, &MLGraphBuilder::softsign, {}},
      {"tanh", O::Tanh, &MLGraphBuilder::tanh, {}},
  };
  for (const auto& u : unary) {
    for (const Shape& shape :
         {Shape{}, Shape{7}, Shape{2, 3, 5}, Shape{1, 3, 4, 4}, Shape{2, 3, 40, 50}}) {
      const UnaryCase c = u;
      add(
          std::string(c.name) + " " + std::to_string(shape.size()) + "d" +
              (shape.size() == 4 && shape[2] == 40 ? " large" : ""),
          c.type,
          [c, shape](CaseBuilder& b, T type) {
            return (b.builder().*c.method)(b.input(type, shape, c.range), {});
          },
          {}, c.type == O::IsNaN || c.type == O::IsInfinite ? "a" : "input");
    }
  }
  add(
      "logicalNot", O::LogicalNot,
      [](CaseBuilder& b, T type) {
        return b.builder().logicalNot(b.input(type, {4, 5}, {0, 2}));
      },
      {}, "a");
  add("elu", O::Elu, [](CaseBuilder& b, T t) {
    return b.builder().elu(b.input(t, {3, 7}), {.alpha = 0.7});
  });
  add("leakyRelu", O::LeakyRelu, [](CaseBuilder& b, T t) {
    return b.builder().leakyRelu(b.input(t, {3, 7}), {.alpha = 0.2});
  });
  add("hardSigmoid large", O::HardSigmoid, [](CaseBuilder& b, T t) {
    return b.builder().hardSigmoid(b.input(t, {1, 16, 40, 40}, {-8, 8}),
                                   {.alpha = 0.1667, .beta = 0.5});
  });
  add("hardSigmoid", O::HardSigmoid, [](CaseBuilder& b, T t) {
    return b.builder().hardSigmoid(b.input(t, {3, 7}, {-4, 4}), {.alpha = 0.3, .beta = 0.4});
  });
  add("linear", O::Linear, [](CaseBuilder& b, T t) {
    return b.builder().linear(b.input(t, {3, 7}), {.alpha = 1.5, .beta = -0.5});
  });
  add("clamp", O::Clamp, [](CaseBuilder& b, T t) {
    return b.builder().clamp(b.input(t, {4, 6}, {-5, 5}), {.minValue = -1, .maxValue = 2});
  });
  add("clamp relu6", O::Clamp, [](CaseBuilder& b, T t) {
    return b.builder().clamp(b.input(t, {1, 8, 3, 3}, {-3, 9}), {.minValue = 0, .maxValue = 6});
  });
  for (uint32_t axis : {0u, 1u, 2u}) {
    add("softmax axis " + std::to_string(axis), O::Softmax, [axis](CaseBuilder& b, T t) {
      return b.builder().softmax(b.input(t, {3, 4, 5}, {-4, 4}), axis);
    });
  }
  add("prelu per channel 4d", O::Prelu, [](CaseBuilder& b, T t) {
    return b.builder().prelu(b.input(t, {2, 5, 20, 30}), b.constant(t, {5, 1, 1}));
  });
  add("prelu scalar slope", O::Prelu,
      [](CaseBuilder& b, T t) { return b.builder().prelu(b.input(t, {7}), b.constant(t, {})); });
  add("prelu broadcast slope", O::Prelu, [](CaseBuilder& b, T t) {
    return b.builder().prelu(b.input(t, {2, 3, 4}), b.constant(t, {3, 1}));
  });

  using Binary =
      MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperand&, const MLOperatorOptions&);
  struct BinaryCase {
    const char* name;
    O type;
    Binary method;
    Range b;
  };
  const BinaryCase binary[] = {
      {"add", O::Add, &MLGraphBuilder::add, {}},
      {"sub", O::Sub, &MLGraphBuilder::sub, {}},
      {"mul", O::Mul, &MLGraphBuilder::mul, {}},
      {"div", O::Div, &MLGraphBuilder::div, {1, 4}},
      {"max", O::Max, &MLGraphBuilder::max, {}},
      {"min", O::Min, &MLGraphBuilder::min, {}},
      {"equal", O::Equal, &MLGraphBuilder::equal, {}},
      {"notEqual", O::NotEqual, &MLGraphBuilder::notEqual, {}},
      {"greater", O::Greater, &MLGraphBuilder::greater, {}},
      {"greaterOrEqual", O::GreaterOrEqual, &MLGraphBuilder::greaterOrEqual, {}},
      {"lesser", O::Lesser, &MLGraphBuilder::lesser, {}},
      {"lesserOrEqual", O::LesserOrEqual, &MLGraphBuilder::lesserOrEqual, {}},
      {"logicalAnd", O::LogicalAnd, &MLGraphBuilder::logicalAnd, {0, 2}},
      {"logicalOr", O::LogicalOr, &MLGraphBuilder::logicalOr, {0, 2}},
      {"logicalXor", O::LogicalXor, &MLGraphBuilder::logicalXor, {0, 2}},
  };
  struct Shapes {
    Shape a, b;
  };
  for (const auto& bc : binary) {
    for (const Shapes& shapes : {Shapes{{5, 6}, {5, 6}}, Shapes{{2, 3, 4}, {4}},
                                 Shapes{{3, 1, 5}, {1, 4, 1}}, Shapes{{}, {2, 2}}}) {
      const BinaryCase c = bc;
      const Range a = c.b.low == 0 ? c.b : Range{};
      add(
          std::string(c.name) + " " + std::to_string(shapes.a.size()) + "d x " +
              std::to_string(shapes.b.size()) + "d",
          c.type,
          [c, shapes, a](CaseBuilder& b, T type) {
            return (b.builder().*c.method)(b.input(type, shapes.a, a),
                                           b.constant(type, shapes.b, c.b), {});
          },
          {}, "a");
    }
  }
  add(
      "pow", O::Pow,
      [](CaseBuilder& b, T t) {
        return b.builder().pow(b.input(t, {4, 5}, kPositive), b.constant(t, {5}, {-2, 2}));
      },
      {T::Float32, T::Float16}, "a");
  // Broadcasting shapes for the cpu backend's binary kernels: rank 5, a scalar on either side,
  // both sides broadcast, large enough for several threads; pow by a scalar 2 (x * x).
  for (const auto& bc : binary) {
    for (const Shapes& shapes : {Shapes{{2, 1, 3, 1, 4}, {1, 5, 3, 2, 1}}, Shapes{{}, {3, 50, 40}},
                                 Shapes{{3, 50, 40}, {}}, Shapes{{3, 1, 40}, {1, 50, 40}}}) {
      const BinaryCase c = bc;
      const Range a = c.b.low == 0 ? c.b : Range{};
      add(
          std::string(c.name) + " broadcast " + std::to_string(shapes.a.size()) + "d x " +
              std::to_string(shapes.b.size()) + "d (" +
              std::to_string(shapes.a.empty() ? 0 : shapes.a.back()) + ")",
          c.type,
          [c, shapes, a](CaseBuilder& b, T type) {
            return (b.builder().*c.method)(b.input(type, shapes.a, a), b.input(type, shapes.b, c.b),
                                           {});
          },
          {}, "a");
    }
  }
  add(
      "pow integers, negative and wrapping exponents", O::Pow,
      [](CaseBuilder& b, T t) {
        return b.builder().pow(b.input(t, {3, 6}, {-3, 3}),
                               b.values(t, {6}, {-2, -1, 0, 3, 7, 33}));
      },
      {T::Int32, T::Uint32, T::Int64, T::Uint64, T::Int8, T::Uint8}, "a");
  add(
      "pow by scalar 2", O::Pow,
      [](CaseBuilder& b, T t) {
        return b.builder().pow(b.input(t, {3, 50, 40}), b.values(t, {}, {2.0}));
      },
      {T::Float32, T::Float16}, "a");
  add(
      "pow broadcast rows", O::Pow,
      [](CaseBuilder& b, T t) {
        return b.builder().pow(b.input(t, {1, 3, 1}, kPositive), b.constant(t, {2, 1, 7}, {-2, 2}));
      },
      {T::Float32, T::Float16}, "a");
  add(
      "where", O::Where,
      [](CaseBuilder& b, T t) {
        return b.builder().where(b.input(T::Uint8, {3, 1, 4}, {0, 1}), b.input(t, {2, 4}),
                                 b.constant(t, {3, 2, 4}));
      },
      {}, "trueValue");
  for (T to : {T::Float32, T::Float16, T::Int32, T::Uint32, T::Int8, T::Uint64}) {
    add("cast large to " + std::string(toString(to)), O::Cast, [to](CaseBuilder& b, T t) {
      return b.builder().cast(b.input(t, {3, 40, 50}, {-1000, 60000}), to);
    });
  }
  for (T to : {T::Float32, T::Float16, T::Int32, T::Uint8, T::Int64, T::Int4, T::Uint4}) {
    add("cast to " + std::string(toString(to)), O::Cast, [to](CaseBuilder& b, T t) {
      return b.builder().cast(b.input(t, {3, 5}, {-3, 300}), to);
    });
  }
  // Casts to int4 / uint4 (two a byte, low nibble first; an odd count's last high nibble kept):
  // floats truncate and saturate (NaN 0), integers keep their low 4 bits; large enough for
  // several threads. And back from them to every type.
  for (T to : {T::Int4, T::Uint4}) {
    add("cast edge values to " + std::string(toString(to)), O::Cast, [to](CaseBuilder& b, T t) {
      std::vector<double> values = {
          -INFINITY, -1e30, -2147483649.0, -129, -128, -17,     -9,           -8.5, -8,       -7.9,
          -1,        -0.5,  -0.0,          0,    0.5,  1,       7.9,          8,    15.5,     16,
          17,        127,   128,           255,  256,  65504.0, 4294967296.0, 1e30, INFINITY, NAN};
      if (values.size() % 2 == 0) values.push_back(-3.0);
      const auto n = static_cast<uint32_t>(values.size());
      return b.builder().cast(b.inputWith(t, {n}, values), to);
    });
    add("cast large to " + std::string(toString(to)), O::Cast, [to](CaseBuilder& b, T t) {
      return b.builder().cast(b.input(t, {3, 101, 131}, {-40, 40}), to);
    });
  }
  for (T to : {T::Float32, T::Float16, T::Int32, T::Int8, T::Uint8, T::Uint32, T::Int64, T::Uint64,
               T::Int4, T::Uint4}) {
    add("cast 4-bit to " + std::string(toString(to)), O::Cast,
        [to](CaseBuilder& b, T t) {
          return b.builder().cast(b.input(t, {3, 5, 7}, {-9, 16}), to);
        },
        {T::Int4, T::Uint4});
  }
  add("cast 4-bit large to float32", O::Cast,
      [](CaseBuilder& b, T t) {
        return b.builder().cast(b.input(t, {3, 101, 131}, {-9, 16}), T::Float32);
      },
      {T::Int4, T::Uint4});
}

void addMatrixCases() {
  using O = graph::OpType;
  add(
      "matmul 2d", O::Matmul,
      [](CaseBuilder& b, T t) {
        return b.builder().matmul(b.input(t, {5, 7}), b.constant(t, {7, 3}));
      },
      {}, "a");
  add(
      "matmul batched broadcast", O::Matmul,
      [](CaseBuilder& b, T t) {
        return b.builder().matmul(b.input(t, {2, 3, 4, 6}), b.constant(t, {6, 5}));
      },
      {}, "a");
  add(
      "matmul 1x1", O::Matmul,
      [](CaseBuilder& b, T t) {
        return b.builder().matmul(b.input(t, {1, 1}), b.constant(t, {1, 1}));
      },
      {}, "a");
  add(
      "gemm", O::Gemm,
      [](CaseBuilder& b, T t) {
        return b.builder().gemm(b.input(t, {4, 6}), b.constant(t, {6, 3}));
      },
      {}, "a");
  add(
      "gemm transposed with c", O::Gemm,
      [](CaseBuilder& b, T t) {
        return b.builder().gemm(b.input(t, {6, 4}), b.constant(t, {3, 6}),
                                {.c = b.constant(t, {3}),
                                 .alpha = 0.5,
                                 .beta = 2.0,
                                 .aTranspose = true,
                                 .bTranspose = true});
      },
      {}, "a");
}

void addConvolutionCases() {
  using O = graph::OpType;
  using L = MLInputOperandLayout;
  add("conv2d 3x3", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(b.input(t, {1, 3, 6, 6}), b.constant(t, {4, 3, 3, 3}));
  });
  add("conv2d 1x1 bias", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(b.input(t, {2, 5, 3, 4}), b.constant(t, {7, 5, 1, 1}),
                              {.bias = b.constant(t, {7})});
  });
  add("conv2d stride, dilation, asymmetric padding", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(b.input(t, {1, 2, 9, 8}), b.constant(t, {3, 2, 3, 2}),
                              {.padding = {1, 2, 0, 1}, .strides = {2, 1}, .dilations = {1, 2}});
  });
  add("conv2d groups", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(b.input(t, {1, 6, 5, 5}), b.constant(t, {4, 3, 3, 3}),
                              {.padding = {1, 1, 1, 1}, .groups = 2});
  });
  add("conv2d depthwise", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(b.input(t, {1, 5, 7, 7}), b.constant(t, {5, 1, 3, 3}),
                              {.padding = {1, 1, 1, 1}, .groups = 5, .bias = b.constant(t, {5})});
  });
  add("conv2d nhwc hwio, 17 channels", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(
        b.input(t, {1, 5, 5, 17}), b.constant(t, {3, 3, 17, 19}),
        {.inputLayout = L::Nhwc, .filterLayout = MLConv2dFilterOperandLayout::Hwio});
  });
  // Enough output channels per group for the vulkan backend's implicit GEMM (conv2d_gemm.comp):
  // partial tiles of pixels and channels, batch 2, stride, dilation, asymmetric padding, groups
  // of 10 outputs, a pointwise convolution.
  add("conv2d implicit gemm, partial tiles", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(b.input(t, {2, 12, 11, 9}), b.constant(t, {20, 12, 3, 3}),
                              {.padding = {1, 0, 2, 1},
                               .strides = {2, 1},
                               .dilations = {1, 2},
                               .bias = b.constant(t, {20})});
  });
  add("conv2d implicit gemm, groups", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(b.input(t, {1, 8, 10, 10}), b.constant(t, {20, 4, 3, 3}),
                              {.padding = {1, 1, 1, 1}, .groups = 2, .bias = b.constant(t, {20})});
  });
  add("conv2d implicit gemm, pointwise", O::Conv2d, [](CaseBuilder& b, T t) {
    return b.builder().conv2d(b.input(t, {1, 32, 7, 5}), b.constant(t, {24, 32, 1, 1}));
  });
  // Residual adds after a conv2d (the cpu backend sums into the residual's buffer when nothing
  // reads it after): an inverted residual block with a batchNormalization and a relu after the
  // add; the residual read again after the add; and a residual in a plain layout (a concat's
  // result) with the add's result a graph output.
  add("conv2d summed into an inverted residual block's input", O::Conv2d, [](CaseBuilder& b, T t) {
    MLGraphBuilder& g = b.builder();
    const MLOperand x = g.conv2d(b.input(t, {1, 8, 9, 11}), b.constant(t, {16, 8, 3, 3}, kSmall),
                                 {.padding = {1, 1, 1, 1}});
    const MLOperand expanded = g.relu(g.conv2d(x, b.constant(t, {32, 16, 1, 1}, kSmall)));
    const MLOperand projected =
        g.batchNormalization(g.conv2d(expanded, b.constant(t, {16, 32, 1, 1}, kSmall)),
                             b.constant(t, {16}), b.constant(t, {16}, {0.5, 2}));
    return g.averagePool2d(g.relu(g.add(x, projected)));
  });
  add("conv2d with a residual read again after the add", O::Conv2d, [](CaseBuilder& b, T t) {
    MLGraphBuilder& g = b.builder();
    const MLOperand x = g.conv2d(b.input(t, {1, 8, 6, 7}), b.constant(t, {16, 8, 3, 3}, kSmall),
                                 {.padding = {1, 1, 1, 1}});
    // (Small weights: the add does not cancel, which would amplify rounding differences.)
    const MLOperand summed = g.add(g.conv2d(x, b.constant(t, {16, 16, 1, 1}, {-0.05, 0.05})), x);
    return g.mul(g.relu(summed), x);
  });
  // A squeeze-and-excitation gate (a [1, C, 1, 1] conv2d result the cpu backend keeps blocked,
  // C not a multiple of the block) times the convolution's result, then PaddleOCR det's shortcut
  // c + c * gate; and the gate first in the multiply.
  for (bool gateFirst : {false, true}) {
    add(std::string("mul by a squeeze-and-excitation gate, 24 channels") +
            (gateFirst ? ", gate first" : ""),
        O::Mul, [gateFirst](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const MLOperand c =
              g.conv2d(b.input(t, {1, 8, 7, 9}), b.constant(t, {24, 8, 3, 3}, kSmall),
                       {.padding = {1, 1, 1, 1}});
          const MLOperand gate =
              g.hardSigmoid(g.conv2d(g.averagePool2d(c), b.constant(t, {24, 24, 1, 1}, kSmall)));
          const MLOperand scaled = gateFirst ? g.mul(gate, c) : g.mul(c, gate);
          return g.relu(g.add(c, scaled));
        },
        {}, "a");
  }
  add("conv2d with a plain residual, into a graph output", O::Conv2d, [](CaseBuilder& b, T t) {
    MLGraphBuilder& g = b.builder();
    const MLOperand x = g.concat({b.input(t, {1, 8, 5, 6}), b.input(t, {1, 8, 5, 6})}, 1);
    const MLOperand s = g.relu(g.add(g.conv2d(x, b.constant(t, {16, 16, 1, 1}, kSmall)), x));
    return g.add(g.conv2d(s, b.constant(t, {16, 16, 3, 3}, kSmall), {.padding = {1, 1, 1, 1}}), s);
  });
  add("convTranspose2d", O::ConvTranspose2d, [](CaseBuilder& b, T t) {
    return b.builder().convTranspose2d(b.input(t, {1, 3, 4, 4}), b.constant(t, {3, 2, 3, 3}));
  });
  add("convTranspose2d stride 2, output padding, bias", O::ConvTranspose2d,
      [](CaseBuilder& b, T t) {
        return b.builder().convTranspose2d(b.input(t, {1, 4, 3, 3}), b.constant(t, {4, 3, 3, 3}),
                                           {.padding = {1, 1, 1, 1},
                                            .strides = {2, 2},
                                            .outputPadding = {1, 1},
                                            .bias = b.constant(t, {3})});
      });
  // For the cpu backend's deconvolution: groups, dilations, asymmetric padding, output sizes,
  // nhwc and the other filter layouts, channels not a multiple of 8, the 2x2 stride-2 upsampling
  // of PaddleOCR's detector.
  add("convTranspose2d groups, dilations, asymmetric padding", O::ConvTranspose2d,
      [](CaseBuilder& b, T t) {
        return b.builder().convTranspose2d(b.input(t, {2, 6, 5, 4}), b.constant(t, {6, 2, 3, 2}),
                                           {.padding = {0, 2, 1, 0},
                                            .strides = {1, 2},
                                            .dilations = {2, 1},
                                            .groups = 3,
                                            .bias = b.constant(t, {6})});
      });
  add("convTranspose2d output sizes", O::ConvTranspose2d, [](CaseBuilder& b, T t) {
    return b.builder().convTranspose2d(
        b.input(t, {1, 3, 4, 5}), b.constant(t, {3, 5, 3, 3}),
        {.strides = {3, 2}, .outputSizes = std::vector<uint32_t>{12, 12}});
  });
  add("convTranspose2d nhwc ohwi groups", O::ConvTranspose2d, [](CaseBuilder& b, T t) {
    return b.builder().convTranspose2d(
        b.input(t, {1, 4, 3, 4}), b.constant(t, {3, 2, 2, 4}),
        {.strides = {2, 2},
         .groups = 2,
         .inputLayout = MLInputOperandLayout::Nhwc,
         .filterLayout = MLConvTranspose2dFilterOperandLayout::Ohwi});
  });
  add("convTranspose2d nhwc hwoi output padding", O::ConvTranspose2d, [](CaseBuilder& b, T t) {
    return b.builder().convTranspose2d(b.input(t, {1, 3, 3, 5}), b.constant(t, {3, 3, 7, 5}),
                                       {.padding = {1, 1, 1, 1},
                                        .strides = {2, 2},
                                        .outputPadding = {1, 0},
                                        .inputLayout = MLInputOperandLayout::Nhwc,
                                        .filterLayout = MLConvTranspose2dFilterOperandLayout::Hwoi,
                                        .bias = b.constant(t, {7})});
  });
  add("convTranspose2d 2x2 stride 2, 17 channels", O::ConvTranspose2d, [](CaseBuilder& b, T t) {
    return b.builder().convTranspose2d(b.input(t, {1, 17, 10, 21}),
                                       b.constant(t, {17, 9, 2, 2}, kSmall),
                                       {.strides = {2, 2}, .bias = b.constant(t, {9})});
  });
  // Strides equal to the kernel, no padding, at most 32 channels, rows of 16 or more (the cpu
  // backend's patch kernel): each kernel width it has a path for (1 to 4 in registers, 5 on the
  // portable loop), rows not a multiple of 16, two batches, a filter computed in the graph, a bias.
  add("convTranspose2d patches 3x1 stride 3x1, computed filter, 2 batches", O::ConvTranspose2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand filter = g.relu(b.input(t, {5, 3, 3, 1}, kSmall));
        return g.convTranspose2d(b.input(t, {2, 5, 3, 37}), filter, {.strides = {3, 1}});
      });
  add("convTranspose2d patches 3x3 stride 3, bias", O::ConvTranspose2d, [](CaseBuilder& b, T t) {
    return b.builder().convTranspose2d(b.input(t, {1, 6, 4, 21}),
                                       b.constant(t, {6, 2, 3, 3}, kSmall),
                                       {.strides = {3, 3}, .bias = b.constant(t, {2})});
  });
  add("convTranspose2d patches 4x4 stride 4, 70 columns", O::ConvTranspose2d,
      [](CaseBuilder& b, T t) {
        return b.builder().convTranspose2d(
            b.input(t, {1, 3, 2, 70}), b.constant(t, {3, 2, 4, 4}, kSmall), {.strides = {4, 4}});
      });
  add("convTranspose2d patches 1x5 stride 1x5", O::ConvTranspose2d, [](CaseBuilder& b, T t) {
    return b.builder().convTranspose2d(b.input(t, {1, 4, 3, 17}),
                                       b.constant(t, {4, 3, 1, 5}, kSmall),
                                       {.strides = {1, 5}, .bias = b.constant(t, {3})});
  });
  // Followed by the add of a per-channel constant (PaddleOCR det's head), after a conv2d (whose
  // result the cpu backend may keep blocked), then a relu; the same on nhwc; and a constant that
  // is not per channel.
  add("convTranspose2d after conv2d, then a per-channel add and relu", O::ConvTranspose2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand x = g.conv2d(b.input(t, {1, 8, 9, 7}), b.constant(t, {16, 8, 3, 3}, kSmall),
                                     {.padding = {1, 1, 1, 1}});
        const MLOperand up =
            g.convTranspose2d(x, b.constant(t, {16, 16, 2, 2}, kSmall), {.strides = {2, 2}});
        return g.relu(g.add(up, b.constant(t, {16, 1, 1}, {-1, 1})));
      });
  add("convTranspose2d nhwc, then a per-channel add", O::ConvTranspose2d, [](CaseBuilder& b, T t) {
    MLGraphBuilder& g = b.builder();
    const MLOperand up =
        g.convTranspose2d(b.input(t, {1, 5, 6, 16}), b.constant(t, {3, 2, 2, 16}, kSmall),
                          {.strides = {2, 2},
                           .inputLayout = MLInputOperandLayout::Nhwc,
                           .filterLayout = MLConvTranspose2dFilterOperandLayout::Ohwi});
    return g.add(b.constant(t, {3}, {-1, 1}), up);
  });
  add("convTranspose2d, then an add of a constant per row", O::ConvTranspose2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand up = g.convTranspose2d(
            b.input(t, {1, 16, 5, 6}), b.constant(t, {16, 3, 2, 2}, kSmall), {.strides = {2, 2}});
        return g.add(up, b.constant(t, {10, 1}, {-1, 1}));
      });
  using Pool = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLPool2dOptions&);
  const std::pair<O, Pool> pools[] = {{O::AveragePool2d, &MLGraphBuilder::averagePool2d},
                                      {O::MaxPool2d, &MLGraphBuilder::maxPool2d},
                                      {O::L2Pool2d, &MLGraphBuilder::l2Pool2d}};
  for (const auto& pool : pools) {
    const auto type = pool.first;
    const auto method = pool.second;  // (clang 14 cannot capture structured bindings)
    const std::string name(graph::specName(type));
    add(name + " 2x2 stride 2", type, [method](CaseBuilder& b, T t) {
      return (b.builder().*method)(
          b.input(t, {1, 3, 6, 6}),
          {.windowDimensions = std::vector<uint32_t>{2, 2}, .strides = {2, 2}});
    });
    add(name + " 3x3 padded, ceil", type, [method](CaseBuilder& b, T t) {
      return (b.builder().*method)(b.input(t, {1, 2, 7, 7}),
                                   {.windowDimensions = std::vector<uint32_t>{3, 3},
                                    .padding = {1, 1, 1, 1},
                                    .strides = {2, 2},
                                    .roundingType = MLRoundingType::Ceil});
    });
    add(name + " global", type, [method](CaseBuilder& b, T t) {
      return (b.builder().*method)(b.input(t, {2, 4, 5, 3}), {});
    });
  }
  add("resample2d nearest x2", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(b.input(t, {1, 2, 3, 4}),
                                  {.scales = std::vector<float>{2.0f, 2.0f}});
  });
  // For the cpu backend's resample kernel: upsampling as in PaddleOCR's detector, downsampling,
  // odd sizes, nhwc axes, large enough for several threads.
  add("resample2d linear x2 large", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(
        b.input(t, {1, 8, 20, 30}),
        {.mode = MLInterpolationMode::Linear, .scales = std::vector<float>{2.0f, 2.0f}});
  });
  add("resample2d linear down, odd sizes", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(
        b.input(t, {2, 3, 9, 11}),
        {.mode = MLInterpolationMode::Linear, .sizes = std::vector<uint32_t>{4, 6}});
  });
  add("resample2d nearest x4 large", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(b.input(t, {1, 4, 20, 25}),
                                  {.scales = std::vector<float>{4.0f, 4.0f}});
  });
  add("resample2d nearest nhwc sizes", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(b.input(t, {1, 5, 4, 3}), {.sizes = std::vector<uint32_t>{7, 9},
                                                             .axes = std::vector<uint32_t>{1, 2}});
  });
  add("resample2d linear nhwc scales", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(b.input(t, {2, 5, 4, 3}),
                                  {.mode = MLInterpolationMode::Linear,
                                   .scales = std::vector<float>{1.5f, 3.0f},
                                   .axes = std::vector<uint32_t>{1, 2}});
  });
  add("resample2d nearest axes 0 1", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(
        b.input(t, {3, 2, 4, 2}),
        {.scales = std::vector<float>{2.0f, 0.5f}, .axes = std::vector<uint32_t>{0, 1}});
  });
  // An inner axis longer than the cpu kernel tables (65536): its taps are computed where used.
  // A scale of 2, and one that is no power of two (70001 / 40000: a float32 quotient of the
  // source coordinate loses its fraction's low bits at position 70000; the vulkan shader corrects
  // it with an exact remainder).
  add("resample2d linear long inner axis", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(
        b.input(t, {1, 1, 2, 40000}),
        {.mode = MLInterpolationMode::Linear, .sizes = std::vector<uint32_t>{3, 80000}});
  });
  add("resample2d linear long inner axis, odd scale", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(
        b.input(t, {1, 1, 2, 40000}),
        {.mode = MLInterpolationMode::Linear, .sizes = std::vector<uint32_t>{3, 70001}});
  });
  add("resample2d nearest long inner axis", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(b.input(t, {1, 1, 1, 50000}),
                                  {.sizes = std::vector<uint32_t>{2, 66000}});
  });
  add("resample2d linear sizes", O::Resample2d, [](CaseBuilder& b, T t) {
    return b.builder().resample2d(b.input(t, {1, 2, 3, 4}), {.mode = MLInterpolationMode::Linear,
                                                             .sizes = std::vector<uint32_t>{5, 7}});
  });
}

void addNormalizationCases() {
  using O = graph::OpType;
  add("batchNormalization", O::BatchNormalization, [](CaseBuilder& b, T t) {
    return b.builder().batchNormalization(
        b.input(t, {2, 3, 4, 4}), b.constant(t, {3}), b.constant(t, {3}, kPositive),
        {.scale = b.constant(t, {3}), .bias = b.constant(t, {3})});
  });
  add("instanceNormalization", O::InstanceNormalization, [](CaseBuilder& b, T t) {
    return b.builder().instanceNormalization(
        b.input(t, {2, 3, 4, 5}), {.scale = b.constant(t, {3}), .bias = b.constant(t, {3})});
  });
  add("layerNormalization last axis", O::LayerNormalization, [](CaseBuilder& b, T t) {
    return b.builder().layerNormalization(b.input(t, {2, 5, 8}),
                                          {.scale = b.constant(t, {8}),
                                           .bias = b.constant(t, {8}),
                                           .axes = std::vector<uint32_t>{2}});
  });
  // Shapes that stress the cpu backend's normalization kernels: channel axis not 1, rank 1 and
  // 5, no scale or bias, nhwc, rows long enough for several threads, several trailing axes, and
  // axes that are not the trailing ones in order (the strided layerNormalization kernel).
  add("batchNormalization axis 2 rank 5 no bias", O::BatchNormalization, [](CaseBuilder& b, T t) {
    return b.builder().batchNormalization(
        b.input(t, {2, 3, 5, 2, 3}), b.constant(t, {5}), b.constant(t, {5}, kPositive),
        {.scale = b.constant(t, {5}), .axis = 2, .epsilon = 1e-3});
  });
  add("batchNormalization 1d no scale", O::BatchNormalization, [](CaseBuilder& b, T t) {
    return b.builder().batchNormalization(b.input(t, {7}), b.constant(t, {7}),
                                          b.constant(t, {7}, kPositive),
                                          {.bias = b.constant(t, {7}), .axis = 0});
  });
  add("batchNormalization large", O::BatchNormalization, [](CaseBuilder& b, T t) {
    return b.builder().batchNormalization(
        b.input(t, {1, 17, 30, 40}), b.constant(t, {17}), b.constant(t, {17}, kPositive),
        {.scale = b.constant(t, {17}), .bias = b.constant(t, {17})});
  });
  add("instanceNormalization nhwc, no scale", O::InstanceNormalization, [](CaseBuilder& b, T t) {
    return b.builder().instanceNormalization(
        b.input(t, {2, 5, 4, 3}),
        {.bias = b.constant(t, {3}), .layout = MLInputOperandLayout::Nhwc});
  });
  add("instanceNormalization large", O::InstanceNormalization, [](CaseBuilder& b, T t) {
    return b.builder().instanceNormalization(b.input(t, {1, 6, 40, 50}), {.epsilon = 1e-2});
  });
  add("layerNormalization two trailing axes", O::LayerNormalization, [](CaseBuilder& b, T t) {
    return b.builder().layerNormalization(
        b.input(t, {3, 4, 5, 6}),
        {.scale = b.constant(t, {5, 6}), .axes = std::vector<uint32_t>{2, 3}});
  });
  add("layerNormalization rows of 768", O::LayerNormalization, [](CaseBuilder& b, T t) {
    return b.builder().layerNormalization(b.input(t, {1, 40, 768}),
                                          {.scale = b.constant(t, {768}),
                                           .bias = b.constant(t, {768}),
                                           .axes = std::vector<uint32_t>{2}});
  });
  add("layerNormalization 1d default axes", O::LayerNormalization,
      [](CaseBuilder& b, T t) { return b.builder().layerNormalization(b.input(t, {9})); });
  add("layerNormalization middle axis", O::LayerNormalization, [](CaseBuilder& b, T t) {
    return b.builder().layerNormalization(
        b.input(t, {2, 5, 3}), {.bias = b.constant(t, {5}), .axes = std::vector<uint32_t>{1}});
  });
  add("layerNormalization axes reversed", O::LayerNormalization, [](CaseBuilder& b, T t) {
    return b.builder().layerNormalization(b.input(t, {2, 3, 4}),
                                          {.scale = b.constant(t, {4, 3}),
                                           .bias = b.constant(t, {4, 3}),
                                           .axes = std::vector<uint32_t>{2, 1}});
  });
  add("layerNormalization no axes", O::LayerNormalization, [](CaseBuilder& b, T t) {
    return b.builder().layerNormalization(
        b.input(t, {3, 4}),
        {.scale = b.constant(t, {}), .bias = b.constant(t, {}), .axes = std::vector<uint32_t>{}});
  });
  add("layerNormalization outer axes large", O::LayerNormalization, [](CaseBuilder& b, T t) {
    return b.builder().layerNormalization(
        b.input(t, {6, 70, 50}),
        {.scale = b.constant(t, {6, 50}), .axes = std::vector<uint32_t>{0, 2}});
  });
}

void addReductionCases() {
  using O = graph::OpType;
  using Reduce = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLReduceOptions&);
  const std::pair<O, Reduce> reductions[] = {
      {O::ReduceL1, &MLGraphBuilder::reduceL1},
      {O::ReduceL2, &MLGraphBuilder::reduceL2},
      {O::ReduceLogSum, &MLGraphBuilder::reduceLogSum},
      {O::ReduceLogSumExp, &MLGraphBuilder::reduceLogSumExp},
      {O::ReduceMax, &MLGraphBuilder::reduceMax},
      {O::ReduceMean, &MLGraphBuilder::reduceMean},
      {O::ReduceMin, &MLGraphBuilder::reduceMin},
      {O::ReduceProduct, &MLGraphBuilder::reduceProduct},
      {O::ReduceSum, &MLGraphBuilder::reduceSum},
      {O::ReduceSumSquare, &MLGraphBuilder::reduceSumSquare}};
  for (const auto& reduction : reductions) {
    const auto type = reduction.first;
    const auto method = reduction.second;
    const Range range = type == O::ReduceLogSum ? kPositive : Range{};
    const std::string name(graph::specName(type));
    add(name + " axis 1 keep", type, [method, range](CaseBuilder& b, T t) {
      return (b.builder().*method)(b.input(t, {3, 4, 5}, range),
                                   {.axes = std::vector<uint32_t>{1}, .keepDimensions = true});
    });
    add(name + " all axes", type, [method, range](CaseBuilder& b, T t) {
      return (b.builder().*method)(b.input(t, {2, 3, 4}, range), {});
    });
    // For the cpu backend's reduction kernel: rows, a middle run of axes, unit dimensions,
    // rank 1, no axes, axes that are not adjacent (grouped), long reductions.
    struct Shaped {
      const char* label;
      Shape shape;
      std::vector<uint32_t> axes;
    };
    for (const Shaped& shaped :
         {Shaped{"middle axes 4d", {2, 3, 4, 5}, {1, 2}},
          Shaped{"unit dims", {2, 1, 3, 1, 4}, {1, 2, 3}}, Shaped{"1d", {11}, {0}},
          Shaped{"no axes", {3, 4}, {}}, Shaped{"axes 0 and 2", {3, 4, 5}, {0, 2}},
          Shaped{"last axis long rows", {1, 30, 300}, {2}},
          Shaped{"spatial", {1, 8, 30, 40}, {2, 3}},
          Shaped{"channels wide inner", {2, 16, 700}, {1}},
          Shaped{"axes 1 and 3 of 5d", {2, 9, 3, 8, 5}, {1, 3}},
          Shaped{"axes 0 2 and 3 unordered", {4, 6, 3, 40}, {3, 0, 2}}}) {
      const bool large = shaped.shape.size() > 2 && shaped.shape.back() >= 40;
      if (large && type == O::ReduceProduct) continue;  // overflows/underflows either way
      add(name + " " + shaped.label, type, [method, range, shaped](CaseBuilder& b, T t) {
        return (b.builder().*method)(b.input(t, shaped.shape, range), {.axes = shaped.axes});
      });
    }
  }
  add("argMax last axis large", O::ArgMax, [](CaseBuilder& b, T t) {
    return b.builder().argMax(b.input(t, {40, 30, 50}), 2);
  });
  add("argMin 1d", O::ArgMin,
      [](CaseBuilder& b, T t) { return b.builder().argMin(b.input(t, {13}), 0); });
  add("argMax axis 0 keep, wide inner", O::ArgMax, [](CaseBuilder& b, T t) {
    return b.builder().argMax(b.input(t, {6, 40, 70}), 0,
                              {.keepDimensions = true, .outputDataType = T::Int64});
  });
  add("cumulativeSum axis 0 large", O::CumulativeSum, [](CaseBuilder& b, T t) {
    return b.builder().cumulativeSum(b.input(t, {30, 40, 30}), 0);
  });
  add("cumulativeSum 1d exclusive", O::CumulativeSum, [](CaseBuilder& b, T t) {
    return b.builder().cumulativeSum(b.input(t, {17}), 0, {.exclusive = true});
  });
  add("cumulativeSum middle axis reversed", O::CumulativeSum, [](CaseBuilder& b, T t) {
    return b.builder().cumulativeSum(b.input(t, {2, 9, 5}), 1, {.reversed = true});
  });
  add("argMax axis 1", O::ArgMax, [](CaseBuilder& b, T t) {
    return b.builder().argMax(b.input(t, {3, 6, 2}), 1);
  });
  add("argMin axis 0 keep int64", O::ArgMin, [](CaseBuilder& b, T t) {
    return b.builder().argMin(b.input(t, {5, 3}), 0,
                              {.keepDimensions = true, .outputDataType = T::Int64});
  });
  add("cumulativeSum exclusive reversed", O::CumulativeSum, [](CaseBuilder& b, T t) {
    return b.builder().cumulativeSum(b.input(t, {3, 5}), 1, {.exclusive = true, .reversed = true});
  });
}

void addShapeCases() {
  using O = graph::OpType;
  add(
      "concat axis 1", O::Concat,
      [](CaseBuilder& b, T t) {
        return b.builder().concat(
            {b.input(t, {2, 3, 2}), b.constant(t, {2, 1, 2}), b.input(t, {2, 4, 2})}, 1);
      },
      {}, "inputs");
  add("split 3 and take the last", O::Split, [](CaseBuilder& b, T t) {
    return b.builder().split(b.input(t, {6, 4}), 3, {.axis = 0}).back();
  });
  add("slice with strides", O::Slice, [](CaseBuilder& b, T t) {
    return b.builder().slice(b.input(t, {6, 7, 3}), {1, 0, 1}, {4, 3, 2}, {.strides = {1, 3, 1}});
  });
  for (MLPaddingMode mode : {MLPaddingMode::Constant, MLPaddingMode::Edge,
                             MLPaddingMode::Reflection, MLPaddingMode::Symmetric}) {
    add("pad mode " + std::to_string(static_cast<int>(mode)), O::Pad, [mode](CaseBuilder& b, T t) {
      return b.builder().pad(b.input(t, {3, 4}), {1, 2}, {2, 1}, {.mode = mode, .value = 3});
    });
  }
  add("transpose", O::Transpose, [](CaseBuilder& b, T t) {
    return b.builder().transpose(b.input(t, {2, 3, 4}),
                                 {.permutation = std::vector<uint32_t>{2, 0, 1}});
  });
  add("reshape", O::Reshape, [](CaseBuilder& b, T t) {
    return b.builder().reshape(b.input(t, {2, 3, 4}), {4, 6});
  });
  add("expand", O::Expand, [](CaseBuilder& b, T t) {
    return b.builder().expand(b.input(t, {3, 1}), {2, 3, 4});
  });
  add("tile", O::Tile, [](CaseBuilder& b, T t) {
    return b.builder().tile(b.input(t, {2, 3}), {2, 2});
  });
  add("reverse", O::Reverse, [](CaseBuilder& b, T t) {
    return b.builder().reverse(b.input(t, {3, 4, 2}), {.axes = std::vector<uint32_t>{0, 2}});
  });
  // Shapes that stress the cpu backend's data movement kernels: merged and unit dimensions, the
  // blocked 2-D transpose with sizes that are not multiples of its tile, rank 0, 1 and 5,
  // broadcasting, large enough to run on several threads.
  add("transpose 5d", O::Transpose, [](CaseBuilder& b, T t) {
    return b.builder().transpose(b.input(t, {2, 1, 3, 4, 5}),
                                 {.permutation = std::vector<uint32_t>{4, 2, 1, 0, 3}});
  });
  add("transpose 2d 67x45", O::Transpose, [](CaseBuilder& b, T t) {
    return b.builder().transpose(b.input(t, {67, 45}));
  });
  add("transpose heads 1x37x4x33", O::Transpose, [](CaseBuilder& b, T t) {
    return b.builder().transpose(b.input(t, {1, 37, 4, 33}),
                                 {.permutation = std::vector<uint32_t>{0, 2, 1, 3}});
  });
  add("transpose inner 3x70x90", O::Transpose, [](CaseBuilder& b, T t) {
    return b.builder().transpose(b.input(t, {3, 70, 90}),
                                 {.permutation = std::vector<uint32_t>{0, 2, 1}});
  });
  add("transpose 0d", O::Transpose,
      [](CaseBuilder& b, T t) { return b.builder().transpose(b.input(t, {})); });
  add("reshape 1d to 0d", O::Reshape,
      [](CaseBuilder& b, T t) { return b.builder().reshape(b.input(t, {1}), {}); });
  add("reshape large", O::Reshape, [](CaseBuilder& b, T t) {
    return b.builder().reshape(b.input(t, {3, 200, 100}), {600, 100});
  });
  add("slice 5d strides", O::Slice, [](CaseBuilder& b, T t) {
    return b.builder().slice(b.input(t, {3, 4, 5, 6, 7}), {1, 0, 2, 1, 0}, {2, 2, 3, 5, 3},
                             {.strides = {1, 2, 1, 1, 3}});
  });
  add("slice 1d", O::Slice,
      [](CaseBuilder& b, T t) { return b.builder().slice(b.input(t, {9}), {2}, {5}); });
  add("slice large inner rows", O::Slice, [](CaseBuilder& b, T t) {
    return b.builder().slice(b.input(t, {1, 40, 64, 40}), {0, 3, 1, 0}, {1, 30, 60, 40});
  });
  add(
      "concat axis 0 1d", O::Concat,
      [](CaseBuilder& b, T t) {
        return b.builder().concat({b.input(t, {3}), b.constant(t, {1}), b.input(t, {5})}, 0);
      },
      {}, "inputs");
  add(
      "concat last axis 4d", O::Concat,
      [](CaseBuilder& b, T t) {
        return b.builder().concat(
            {b.input(t, {2, 3, 40, 7}), b.input(t, {2, 3, 40, 1}), b.constant(t, {2, 3, 40, 9})},
            3);
      },
      {}, "inputs");
  add("split unequal 3d axis 2", O::Split, [](CaseBuilder& b, T t) {
    auto pieces =
        b.builder().split(b.input(t, {2, 3, 11}), std::vector<uint32_t>{4, 2, 5}, {.axis = 2});
    return b.builder().concat({pieces[2], pieces[0], pieces[1]}, 2);
  });
  add("expand 0d to 3d", O::Expand, [](CaseBuilder& b, T t) {
    return b.builder().expand(b.input(t, {}), {2, 3, 4});
  });
  add("expand middle 5d", O::Expand, [](CaseBuilder& b, T t) {
    return b.builder().expand(b.input(t, {2, 1, 3, 1, 5}), {2, 4, 3, 6, 5});
  });
  add("expand large", O::Expand, [](CaseBuilder& b, T t) {
    return b.builder().expand(b.input(t, {1, 64, 1}), {8, 64, 100});
  });
  add("tile 3d", O::Tile, [](CaseBuilder& b, T t) {
    return b.builder().tile(b.input(t, {2, 1, 3}), {3, 4, 1});
  });
  add("reverse all 1d", O::Reverse,
      [](CaseBuilder& b, T t) { return b.builder().reverse(b.input(t, {13})); });
  add("reverse inner 5d", O::Reverse, [](CaseBuilder& b, T t) {
    return b.builder().reverse(b.input(t, {2, 3, 1, 4, 5}), {.axes = std::vector<uint32_t>{1, 4}});
  });
  for (MLPaddingMode mode : {MLPaddingMode::Constant, MLPaddingMode::Edge,
                             MLPaddingMode::Reflection, MLPaddingMode::Symmetric}) {
    add("pad 4d mode " + std::to_string(static_cast<int>(mode)), O::Pad,
        [mode](CaseBuilder& b, T t) {
          return b.builder().pad(b.input(t, {1, 3, 20, 30}), {0, 1, 3, 2}, {0, 2, 1, 4},
                                 {.mode = mode, .value = -1.5});
        });
  }
  // Axes longer than the cpu kernel tables (65536 positions), outer and inner: computed mappings.
  for (MLPaddingMode mode : {MLPaddingMode::Constant, MLPaddingMode::Reflection}) {
    add("pad long outer axis mode " + std::to_string(static_cast<int>(mode)), O::Pad,
        [mode](CaseBuilder& b, T t) {
          return b.builder().pad(b.input(t, {70000, 2}), {3, 1}, {2, 0}, {.mode = mode});
        });
    add("pad long inner axis mode " + std::to_string(static_cast<int>(mode)), O::Pad,
        [mode](CaseBuilder& b, T t) {
          return b.builder().pad(b.input(t, {2, 70000}), {1, 3}, {0, 2}, {.mode = mode});
        });
  }
  add("pad 1d", O::Pad, [](CaseBuilder& b, T t) {
    return b.builder().pad(b.input(t, {5}), {3}, {0}, {.mode = MLPaddingMode::Reflection});
  });
  add("gather axis 0 int64 negative", O::Gather, [](CaseBuilder& b, T t) {
    return b.builder().gather(b.input(t, {4, 3}), b.values(T::Int64, {3}, {-1, 0, 2}));
  });
  add("gather scalar index last axis", O::Gather, [](CaseBuilder& b, T t) {
    return b.builder().gather(b.input(t, {2, 3, 5}), b.values(T::Uint32, {}, {3}), {.axis = 2});
  });
  add("gather rows of a table", O::Gather, [](CaseBuilder& b, T t) {
    return b.builder().gather(b.input(t, {50, 64}),
                              b.values(T::Int32, {2, 20}, std::vector<double>(40, 7.0)));
  });
  add(
      "where same shapes", O::Where,
      [](CaseBuilder& b, T t) {
        return b.builder().where(b.input(T::Uint8, {3, 100, 200}, {0, 1}),
                                 b.input(t, {3, 100, 200}), b.input(t, {3, 100, 200}));
      },
      {}, "trueValue");
  add(
      "where 0d condition, 5d values", O::Where,
      [](CaseBuilder& b, T t) {
        return b.builder().where(b.input(T::Uint8, {}, {0, 1}), b.input(t, {2, 1, 3, 1, 2}),
                                 b.constant(t, {1, 2, 1, 4, 1}));
      },
      {}, "trueValue");
  add("triangular lower", O::Triangular, [](CaseBuilder& b, T t) {
    return b.builder().triangular(b.input(t, {4, 5}), {.upper = false, .diagonal = 1});
  });
  add("gather axis 1", O::Gather, [](CaseBuilder& b, T t) {
    return b.builder().gather(b.input(t, {3, 5, 2}), b.values(T::Int32, {2, 2}, {4, 0, 2, 2}),
                              {.axis = 1});
  });
  add("gatherElements last axis int64 negative", O::GatherElements, [](CaseBuilder& b, T t) {
    return b.builder().gatherElements(
        b.input(t, {2, 3, 4}),
        b.values(T::Int64, {2, 3, 2}, {-1, 0, 3, 2, 1, -4, 0, 0, 2, 3, 1, -2}), {.axis = 2});
  });
  add("gatherElements middle axis, fewer indices", O::GatherElements, [](CaseBuilder& b, T t) {
    return b.builder().gatherElements(
        b.input(t, {2, 5, 3}), b.values(T::Int32, {2, 2, 3}, {4, 0, 1, 2, 3, 4, 0, 0, 1, 1, 2, 2}),
        {.axis = 1});
  });
  add("gatherND full tuples", O::GatherND, [](CaseBuilder& b, T t) {
    return b.builder().gatherND(
        b.input(t, {3, 4, 2}),
        b.values(T::Int64, {2, 2, 3}, {0, 3, 1, 2, 0, 0, -1, -1, -1, 1, 2, 1}));
  });
  add("gatherND rows of a table", O::GatherND, [](CaseBuilder& b, T t) {
    return b.builder().gatherND(b.input(t, {40, 50, 30}),
                                b.values(T::Int32, {6, 1}, {39, 0, 7, 7, 20, 1}));
  });
  add("triangular upper 3d negative diagonal", O::Triangular, [](CaseBuilder& b, T t) {
    return b.builder().triangular(b.input(t, {2, 5, 4}), {.upper = true, .diagonal = -2});
  });
  add("triangular large", O::Triangular, [](CaseBuilder& b, T t) {
    return b.builder().triangular(b.input(t, {4, 100, 90}), {.upper = false, .diagonal = 3});
  });
  add("gatherElements", O::GatherElements, [](CaseBuilder& b, T t) {
    return b.builder().gatherElements(
        b.input(t, {3, 4}), b.values(T::Int32, {2, 4}, {0, 2, 1, 0, 2, 2, 0, 1}), {.axis = 0});
  });
  add("gatherND", O::GatherND, [](CaseBuilder& b, T t) {
    return b.builder().gatherND(b.input(t, {3, 4, 2}), b.values(T::Int32, {2, 2}, {0, 3, 2, 1}));
  });
  add("scatterElements last axis, duplicates, int64 negative", O::ScatterElements,
      [](CaseBuilder& b, T t) {
        return b.builder().scatterElements(
            b.input(t, {2, 2, 5}),
            b.values(T::Int64, {2, 2, 3}, {-1, 0, 4, 2, 2, 1, 0, -5, 3, 1, 1, 1}),
            b.constant(t, {2, 2, 3}), {.axis = 2});
      });
  add("scatterND element tuples, duplicates", O::ScatterND, [](CaseBuilder& b, T t) {
    return b.builder().scatterND(
        b.input(t, {3, 4, 2}), b.values(T::Int32, {4, 3}, {0, 3, 1, 2, 0, 0, 0, 3, 1, -1, -1, -1}),
        b.constant(t, {4}));
  });
  add("scatterND rows of a table", O::ScatterND, [](CaseBuilder& b, T t) {
    return b.builder().scatterND(b.input(t, {50, 40, 30}), b.values(T::Int32, {3, 1}, {49, 0, 7}),
                                 b.constant(t, {3, 40, 30}));
  });
  add("scatterElements", O::ScatterElements, [](CaseBuilder& b, T t) {
    return b.builder().scatterElements(b.input(t, {3, 3}),
                                       b.values(T::Int32, {2, 3}, {1, 0, 2, 0, 2, 1}),
                                       b.constant(t, {2, 3}), {.axis = 0});
  });
  add("scatterND", O::ScatterND, [](CaseBuilder& b, T t) {
    return b.builder().scatterND(b.input(t, {4, 3}), b.values(T::Int32, {2, 1}, {3, 1}),
                                 b.constant(t, {2, 3}));
  });
}

// Values where kernels go wrong: exact ties, signed zeros, NaN, infinities, values past 2^32 (a
// 64-bit integer's high word) and past every type's range (stored saturated, so each integer
// type also gets its extremes, repeated); index values that are negative, out of range on
// either side and past 32 bits, for each index type; unit dimensions and scalars.
const std::vector<double> kEdgeValues = {-INFINITY,
                                         -1e30,
                                         -1099511627776.0,
                                         -4294967296.0,
                                         -2147483649.0,
                                         -129,
                                         -128,
                                         -1,
                                         -0.0,
                                         0,
                                         1,
                                         1,
                                         127,
                                         128,
                                         255,
                                         256,
                                         4294967295.0,
                                         4294967296.0,
                                         1099511627776.0,
                                         1e30,
                                         INFINITY,
                                         NAN};
const std::vector<double> kEdgeIndices = {-10, -4, -1, 0, 2, 3, 9, 8589934592.0, -8589934592.0};

// `count` values of `pool`, in a scrambled order that repeats.
std::vector<double> drawn(const std::vector<double>& pool, size_t count) {
  std::vector<double> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = pool[(i * 5 + 3) % pool.size()];
  return values;
}

void addEdgeValueCases() {
  using O = graph::OpType;
  using Binary =
      MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperand&, const MLOperatorOptions&);
  const std::pair<O, Binary> predicates[] = {{O::Equal, &MLGraphBuilder::equal},
                                             {O::NotEqual, &MLGraphBuilder::notEqual},
                                             {O::Greater, &MLGraphBuilder::greater},
                                             {O::GreaterOrEqual, &MLGraphBuilder::greaterOrEqual},
                                             {O::Lesser, &MLGraphBuilder::lesser},
                                             {O::LesserOrEqual, &MLGraphBuilder::lesserOrEqual},
                                             {O::LogicalAnd, &MLGraphBuilder::logicalAnd},
                                             {O::LogicalOr, &MLGraphBuilder::logicalOr},
                                             {O::LogicalXor, &MLGraphBuilder::logicalXor}};
  const uint32_t n = static_cast<uint32_t>(kEdgeValues.size());
  for (const auto& predicate : predicates) {
    const Binary method = predicate.second;
    // Every edge value against every other (a column against a row).
    add(
        std::string(graph::specName(predicate.first)) + " edge values, every pair", predicate.first,
        [method, n](CaseBuilder& b, T t) {
          return (b.builder().*method)(b.inputWith(t, {n, 1}, kEdgeValues),
                                       b.values(t, {1, n}, kEdgeValues), {});
        },
        {}, "a");
    add(
        std::string(graph::specName(predicate.first)) + " 0d x 0d", predicate.first,
        [method](CaseBuilder& b, T t) {
          return (b.builder().*method)(b.inputWith(t, {}, {1}), b.values(t, {}, {1}), {});
        },
        {}, "a");
  }
  add(
      "logicalNot edge values", O::LogicalNot,
      [n](CaseBuilder& b, T t) { return b.builder().logicalNot(b.inputWith(t, {n}, kEdgeValues)); },
      {}, "a");
  add(
      "isNaN edge values", O::IsNaN,
      [n](CaseBuilder& b, T t) { return b.builder().isNaN(b.inputWith(t, {n}, kEdgeValues)); }, {},
      "a");
  add(
      "isInfinite edge values", O::IsInfinite,
      [n](CaseBuilder& b, T t) {
        return b.builder().isInfinite(b.inputWith(t, {1, n, 1}, kEdgeValues));
      },
      {}, "a");

  // abs, neg, sign, relu, clamp at the extremes (integers wrap: abs and neg of the smallest).
  using Unary = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperatorOptions&);
  const std::pair<O, Unary> unary[] = {{O::Abs, &MLGraphBuilder::abs},
                                       {O::Neg, &MLGraphBuilder::neg},
                                       {O::Sign, &MLGraphBuilder::sign},
                                       {O::Relu, &MLGraphBuilder::relu}};
  for (const auto& u : unary) {
    const Unary method = u.second;
    add(std::string(graph::specName(u.first)) + " edge values", u.first,
        [method, n](CaseBuilder& b, T t) {
          return (b.builder().*method)(b.inputWith(t, {n}, kEdgeValues), {});
        });
  }
  add("clamp edge values", O::Clamp, [n](CaseBuilder& b, T t) {
    return b.builder().clamp(b.inputWith(t, {2, n / 2}, kEdgeValues),
                             {.minValue = 1, .maxValue = 100});
  });
  add("clamp no bounds, edge values", O::Clamp,
      [n](CaseBuilder& b, T t) { return b.builder().clamp(b.inputWith(t, {n}, kEdgeValues), {}); });

  // argMin/argMax: ties (the first wins), NaN first (it stays) and later (it never wins).
  std::vector<double> rows = kEdgeValues;
  rows.insert(rows.end(), kEdgeValues.rbegin(), kEdgeValues.rend());
  for (uint32_t axis : {0u, 1u}) {
    add("argMax edge values axis " + std::to_string(axis), O::ArgMax,
        [rows, n, axis](CaseBuilder& b, T t) {
          return b.builder().argMax(b.inputWith(t, {2, n}, rows), axis);
        });
    add("argMin edge values axis " + std::to_string(axis) + " keep int64", O::ArgMin,
        [rows, n, axis](CaseBuilder& b, T t) {
          return b.builder().argMin(b.inputWith(t, {2, n}, rows), axis,
                                    {.keepDimensions = true, .outputDataType = T::Int64});
        });
  }
  add("argMax unit axis 4d", O::ArgMax, [](CaseBuilder& b, T t) {
    return b.builder().argMax(b.input(t, {3, 1, 2, 5}), 1);
  });
  add("argMin 1-element 1d", O::ArgMin,
      [](CaseBuilder& b, T t) { return b.builder().argMin(b.input(t, {1}), 0); });

  // cumulativeSum: integer sums that wrap (int8, uint8), runs of one, odd inner extents.
  add("cumulativeSum wraps", O::CumulativeSum, [](CaseBuilder& b, T t) {
    return b.builder().cumulativeSum(b.input(t, {4, 9}, {-120, 120}), 1);
  });
  add("cumulativeSum axis of 1", O::CumulativeSum, [](CaseBuilder& b, T t) {
    return b.builder().cumulativeSum(b.input(t, {1, 1, 5}), 0, {.exclusive = true});
  });
  add("cumulativeSum 4d odd inner exclusive reversed", O::CumulativeSum, [](CaseBuilder& b, T t) {
    return b.builder().cumulativeSum(b.input(t, {2, 3, 7, 3}), 2,
                                     {.exclusive = true, .reversed = true});
  });

  // gather*/scatter* with every index type and edge indices (wrapped once, then clamped).
  const uint32_t k = static_cast<uint32_t>(kEdgeIndices.size());
  for (T indexType : {T::Int32, T::Uint32, T::Int64}) {
    const std::string suffix = " edge indices " + std::string(toString(indexType));
    add("gather" + suffix, O::Gather, [indexType, k](CaseBuilder& b, T t) {
      return b.builder().gather(b.input(t, {2, 4, 3}), b.values(indexType, {k}, kEdgeIndices),
                                {.axis = 1});
    });
    for (uint32_t axis : {0u, 1u}) {
      add("gatherElements axis " + std::to_string(axis) + suffix, O::GatherElements,
          [indexType, k, axis](CaseBuilder& b, T t) {
            const Shape input = axis == 0 ? Shape{4, 3} : Shape{3, 4};
            const Shape indices = axis == 0 ? Shape{k, 3} : Shape{3, k};
            return b.builder().gatherElements(
                b.input(t, input), b.values(indexType, indices, drawn(kEdgeIndices, 3 * k)),
                {.axis = axis});
          });
      add("scatterElements axis " + std::to_string(axis) + suffix, O::ScatterElements,
          [indexType, k, axis](CaseBuilder& b, T t) {
            const Shape input = axis == 0 ? Shape{4, 3} : Shape{3, 4};
            const Shape indices = axis == 0 ? Shape{k, 3} : Shape{3, k};
            return b.builder().scatterElements(
                b.input(t, input), b.values(indexType, indices, drawn(kEdgeIndices, 3 * k)),
                b.constant(t, indices), {.axis = axis});
          });
    }
    add("gatherND pairs" + suffix, O::GatherND, [indexType](CaseBuilder& b, T t) {
      return b.builder().gatherND(b.input(t, {4, 5, 3}),
                                  b.values(indexType, {6, 2}, drawn(kEdgeIndices, 12)));
    });
    add("gatherND one tuple, 1d indices" + suffix, O::GatherND, [indexType](CaseBuilder& b, T t) {
      return b.builder().gatherND(b.input(t, {4, 5, 3}), b.values(indexType, {3}, {-1, 9, 1}));
    });
    add("scatterND pairs" + suffix, O::ScatterND, [indexType](CaseBuilder& b, T t) {
      return b.builder().scatterND(b.input(t, {4, 5, 3}),
                                   b.values(indexType, {6, 2}, drawn(kEdgeIndices, 12)),
                                   b.constant(t, {6, 3}));
    });
    add("scatterND one slice, 1d indices" + suffix, O::ScatterND, [indexType](CaseBuilder& b, T t) {
      return b.builder().scatterND(b.input(t, {4, 5, 3}), b.values(indexType, {1}, {-2}),
                                   b.constant(t, {5, 3}));
    });
  }

  // tile, reverse, triangular: unit dimensions, odd extents (words of narrow types straddle
  // rows), diagonals beyond the matrix.
  add("tile unit dims 4d", O::Tile, [](CaseBuilder& b, T t) {
    return b.builder().tile(b.input(t, {1, 3, 1, 5}), {2, 1, 3, 1});
  });
  add("tile 1d", O::Tile,
      [](CaseBuilder& b, T t) { return b.builder().tile(b.input(t, {3}), {5}); });
  add("tile 0d", O::Tile, [](CaseBuilder& b, T t) { return b.builder().tile(b.input(t, {}), {}); });
  add("reverse no axes", O::Reverse, [](CaseBuilder& b, T t) {
    return b.builder().reverse(b.input(t, {3, 5}), {.axes = std::vector<uint32_t>{}});
  });
  add("reverse odd 3d middle axis", O::Reverse, [](CaseBuilder& b, T t) {
    return b.builder().reverse(b.input(t, {3, 7, 5}), {.axes = std::vector<uint32_t>{1}});
  });
  for (int32_t diagonal : {-7, 9}) {
    for (bool upper : {true, false}) {
      add("triangular " + std::string(upper ? "upper" : "lower") + " diagonal " +
              std::to_string(diagonal),
          O::Triangular, [diagonal, upper](CaseBuilder& b, T t) {
            return b.builder().triangular(b.input(t, {2, 5, 7}),
                                          {.upper = upper, .diagonal = diagonal});
          });
    }
  }
  // concat of more inputs than one step binds (five), with odd extents, so that narrow
  // elements of neighbouring inputs share words across steps.
  for (uint32_t axis : {1u, 2u}) {
    add(
        "concat 7 inputs odd extents axis " + std::to_string(axis), O::Concat,
        [axis](CaseBuilder& b, T t) {
          std::vector<MLOperand> inputs;
          const uint32_t extents[] = {1, 2, 1, 3, 1, 1, 2};
          for (size_t i = 0; i < 7; ++i) {
            Shape shape{2, 3, 3};
            shape[axis] = extents[i];
            inputs.push_back(i % 2 ? b.constant(t, shape) : b.input(t, shape));
          }
          return b.builder().concat(inputs, axis);
        },
        {}, "inputs");
  }
  add("triangular 1x1", O::Triangular, [](CaseBuilder& b, T t) {
    return b.builder().triangular(b.input(t, {1, 1}), {.upper = false, .diagonal = -1});
  });

  // quantizeLinear: ties to even, saturation at both ends, NaN, infinities; blocks of 2 x 3.
  for (T zeroType : {T::Int8, T::Uint8, T::Int32, T::Uint32}) {
    add("quantizeLinear edge values, blocks, zeroPoint " + std::string(toString(zeroType)),
        O::QuantizeLinear, [zeroType, n](CaseBuilder& b, T t) {
          std::vector<double> values = kEdgeValues;
          for (double tie : {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5}) values.push_back(tie);
          values.resize(2 * 2 * n, 3.75);
          return b.builder().quantizeLinear(b.inputWith(t, {4, n}, values),
                                            b.values(t, {2, 1}, {1.0, 0.5}),
                                            b.values(zeroType, {2, 1}, {3, -200}));
        });
    add(
        "dequantizeLinear extremes, blocks, " + std::string(toString(zeroType)),
        O::DequantizeLinear,
        [zeroType, n](CaseBuilder& b, T t) {
          return b.builder().dequantizeLinear(b.inputWith(zeroType, {2, n}, kEdgeValues),
                                              b.values(t, {1, 2}, {0.25, -3.0}),
                                              b.values(zeroType, {1, 2}, {-7, 1e12}));
        },
        {}, "scale");
  }
}

void addQuantizationAndRecurrentCases() {
  using O = graph::OpType;
  add("quantizeLinear per channel", O::QuantizeLinear, [](CaseBuilder& b, T t) {
    return b.builder().quantizeLinear(b.input(t, {2, 4}, {-20, 20}),
                                      b.constant(t, {2, 1}, {0.1, 0.5}),
                                      b.values(T::Uint8, {2, 1}, {128, 10}));
  });
  add("dequantizeLinear", O::DequantizeLinear, [](CaseBuilder& b, T t) {
    return b.builder().dequantizeLinear(b.input(t, {2, 4}, {0, 40}),
                                        b.constant(T::Float32, {2, 1}, {0.1, 0.5}),
                                        b.values(t, {2, 1}, {3, 5}));
  });
  // Blockwise scales (blocks of 2 x 3 over a [4, 6] input), saturation and ties to even, each
  // quantized type the cpu kernel takes (dequantize: the case's type is the quantized one).
  for (T q : {T::Int8, T::Uint8, T::Int32, T::Uint32}) {
    add("quantizeLinear blockwise " + std::string(toString(q)), O::QuantizeLinear,
        [q](CaseBuilder& b, T t) {
          const bool isSigned = q == T::Int8 || q == T::Int32;
          return b.builder().quantizeLinear(b.input(t, {3, 4, 6}, {-300, 300}),
                                            b.values(t, {2, 2}, {0.5, 2.0, 1.0, 0.25}),
                                            b.values(q, {2, 2}, {isSigned ? -3.0 : 3.0, 0, 7, 1}));
        });
  }
  add("dequantizeLinear blockwise", O::DequantizeLinear, [](CaseBuilder& b, T t) {
    return b.builder().dequantizeLinear(b.input(t, {3, 4, 6}, {0, 100}),
                                        b.values(T::Float32, {1, 2, 3}, {0.5, 2, 1, 0.25, 3, 0.1}),
                                        b.values(t, {1, 2, 3}, {1, 0, 2, 5, 9, 100}));
  });
  // int4 / uint4 (two a byte, low nibble first): dequantizeLinear per tensor, per axis, in blocks
  // along the last and a middle axis, odd element counts and runs that start on a high nibble,
  // large enough for several threads; scales at the float32 extremes (the cpu kernel multiplies in
  // float32: the same value as the reference's double product, rounded once).
  struct FourBitDequantize {
    const char* name;
    Shape input, scale;
  };
  for (const FourBitDequantize& c : {
           FourBitDequantize{"per tensor, odd count", {3, 5, 7}, {}},
           FourBitDequantize{"per tensor, large", {3, 101, 131}, {1}},
           FourBitDequantize{"per axis, first", {4, 6, 5}, {4, 1, 1}},
           FourBitDequantize{"per axis, middle", {3, 6, 5}, {6, 1}},
           FourBitDequantize{"per axis, last", {3, 7}, {7}},
           FourBitDequantize{"blocks of 32 along the last axis", {5, 64}, {5, 2}},
           FourBitDequantize{"blocks of 3 along the last axis, odd", {3, 5, 9}, {3, 1, 3}},
           FourBitDequantize{"blocks of 13 along the last axis, large", {3, 101, 130}, {3, 1, 10}},
           FourBitDequantize{"blocks of 2 along a middle axis", {2, 6, 5}, {2, 3, 1}},
           FourBitDequantize{"blocks along a middle axis, per element last", {3, 6, 5}, {1, 2, 5}},
           FourBitDequantize{"blocks along every axis", {4, 6, 9}, {2, 3, 3}},
       }) {
    add(std::string("dequantizeLinear 4-bit ") + c.name, O::DequantizeLinear,
        [c](CaseBuilder& b, T t) {
          return b.builder().dequantizeLinear(b.input(t, c.input, {-9, 16}),
                                              b.constant(T::Float32, c.scale, {-2, 2}),
                                              b.constant(t, c.scale, {-9, 16}));
        },
        {T::Int4, T::Uint4});
  }
  // quantizeLinear to int4 / uint4: saturation, ties to even, NaN; per axis and in blocks of 3
  // along the last axis (runs that start on a high nibble), an odd count, several threads.
  struct FourBitQuantize {
    const char* name;
    Shape input, scale;
  };
  for (const FourBitQuantize& c :
       {FourBitQuantize{"per tensor, odd count", {3, 5, 7}, {}},
        FourBitQuantize{"per tensor, large", {3, 101, 131}, {}},
        FourBitQuantize{"per axis, middle", {3, 6, 5}, {6, 1}},
        FourBitQuantize{"blocks of 3 along the last axis", {3, 5, 9}, {3, 1, 3}}}) {
    for (T q : {T::Int4, T::Uint4}) {
      add(std::string("quantizeLinear to ") + std::string(toString(q)) + " " + c.name,
          O::QuantizeLinear, [c, q](CaseBuilder& b, T t) {
            return b.builder().quantizeLinear(b.input(t, c.input, {-20, 20}),
                                              b.constant(t, c.scale, {0.5, 3}),
                                              b.constant(q, c.scale, {-9, 16}));
          });
    }
  }
  for (T q : {T::Int4, T::Uint4}) {
    add("quantizeLinear to " + std::string(toString(q)) + " edge values", O::QuantizeLinear,
        [q](CaseBuilder& b, T t) {
          return b.builder().quantizeLinear(
              b.inputWith(t, {11},
                          {-INFINITY, -100, -8.5, -2.5, -0.5, 0.5, 1.5, 7.5, 100, INFINITY, NAN}),
              b.values(t, {}, {1.0}), b.values(q, {}, {q == T::Int4 ? -1.0 : 3.0}));
        });
  }
  add(
      "dequantizeLinear 4-bit blocks, scale of each float type", O::DequantizeLinear,
      [](CaseBuilder& b, T t) {
        return b.builder().dequantizeLinear(b.input(T::Int4, {4, 6, 9}, {-9, 16}),
                                            b.constant(t, {2, 3, 3}, {-2, 2}),
                                            b.constant(T::Int4, {2, 3, 3}, {-9, 16}));
      },
      {}, "scale");
  add("dequantizeLinear 4-bit extreme scales", O::DequantizeLinear,
      [](CaseBuilder& b, T t) {
        return b.builder().dequantizeLinear(
            b.input(t, {3, 8}, {-9, 16}),
            b.values(T::Float32, {8},
                     {1e-45, -1.17549435e-38, 3.4028234e38, -1e38, INFINITY, NAN, 0.1, -0.0}),
            b.values(t, {8}, {0, 1, -8, 7, 15, 3, -1, 8}));
      },
      {T::Int4, T::Uint4});
  // conv2d on dequantizeLinear'd operands (a QDQ model's convolution; the cpu backend runs it on
  // an int8 primitive): uint8 and int8 activations with their zero points, per-channel and
  // per-tensor filter scales, a bias, a fused relu, groups, strides, and a filter zero point that
  // is not 0 (oneDNN has none: the cpu backend's float path).
  struct QuantizedConv {
    const char* label;
    T activations;
    double zeroPoint;
    uint32_t groups, stride;
    bool perChannel, bias, relu, filterZeroPoints;
  };
  for (const QuantizedConv& c :
       {QuantizedConv{"uint8 per channel, bias, relu", T::Uint8, 128, 1, 1, true, true, true,
                      false},
        QuantizedConv{"int8 per tensor, stride 2", T::Int8, 0, 1, 2, false, false, false, false},
        QuantizedConv{"uint8 depthwise, zero point 3", T::Uint8, 3, 8, 1, true, true, false, false},
        QuantizedConv{"int8 zero point -5, grouped", T::Int8, -5, 2, 1, true, false, true, false},
        QuantizedConv{"filter zero points", T::Uint8, 100, 1, 1, true, true, true, true},
        // No input zero point: the filter is packed on arrival (no compensation), and the float
        // path reads it back from the packed layout.
        QuantizedConv{"uint8 zero point 0, filter zero points", T::Uint8, 0, 1, 1, true, true,
                      false, true}}) {
    add(std::string("conv2d on quantized operands, ") + c.label, O::Conv2d,
        [c](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const MLOperand scale = b.values(t, {}, {0.04});
          const MLOperand zero = b.values(c.activations, {}, {c.zeroPoint});
          const MLOperand x = g.dequantizeLinear(
              g.quantizeLinear(b.input(t, {1, 8, 11, 10}, {-5, 5}), scale, zero), scale, zero);
          const uint32_t out = 16, perGroup = 8 / c.groups;
          const Shape scaleShape = c.perChannel ? Shape{out, 1, 1, 1} : Shape{1, 1, 1, 1};
          const MLOperand filterScale = b.constant(t, scaleShape, {0.001, 0.02});
          const MLOperand filterZero =
              c.filterZeroPoints
                  ? b.constant(T::Int8, scaleShape, {-20, 20})
                  : b.values(T::Int8, scaleShape, std::vector<double>(c.perChannel ? out : 1, 0.0));
          const MLOperand filter = g.dequantizeLinear(
              b.constant(T::Int8, {out, perGroup, 3, 3}, {-127, 127}), filterScale, filterZero);
          MLConv2dOptions options{
              .padding = {1, 1, 0, 1}, .strides = {c.stride, c.stride}, .groups = c.groups};
          if (c.bias) options.bias = b.constant(t, {out}, {-1, 1});
          const MLOperand y = g.conv2d(x, filter, options);
          return c.relu ? g.relu(y) : y;
        },
        {T::Float32});
  }
  // matmul on dequantizeLinear'd operands (a QDQ model's linear layer: the cpu backend's int8
  // matmul): A's batch folded into rows, per-column and per-tensor B scales, a bias add and relu
  // fused after, a B zero point that is not 0 (the float path).
  struct QuantizedMatmul {
    const char* label;
    T activations;
    double zeroPoint;
    Shape a;
    bool perColumn, biasRelu, weightZeroPoints;
  };
  for (const QuantizedMatmul& c :
       {QuantizedMatmul{
            "uint8 3-d, per column, bias, relu", T::Uint8, 120, {2, 5, 24}, true, true, false},
        QuantizedMatmul{"int8 2-d, per tensor", T::Int8, 0, {7, 24}, false, false, false},
        QuantizedMatmul{"int8 zero point 9, bias", T::Int8, 9, {1, 3, 24}, true, true, false},
        QuantizedMatmul{"B zero points", T::Uint8, 100, {2, 3, 24}, true, true, true},
        QuantizedMatmul{
            "uint8 zero point 0, B zero points", T::Uint8, 0, {4, 24}, true, false, true}}) {
    add(
        std::string("matmul on quantized operands, ") + c.label, O::Matmul,
        [c](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const MLOperand scale = b.values(t, {}, {0.03});
          const MLOperand zero = b.values(c.activations, {}, {c.zeroPoint});
          const MLOperand a = g.dequantizeLinear(
              g.quantizeLinear(b.input(t, c.a, {-3, 3}), scale, zero), scale, zero);
          const uint32_t n = 16;
          const Shape scaleShape = c.perColumn ? Shape{1, n} : Shape{1, 1};
          const MLOperand bScale = b.constant(t, scaleShape, {0.001, 0.02});
          const MLOperand bZero =
              c.weightZeroPoints
                  ? b.constant(T::Int8, scaleShape, {-20, 20})
                  : b.values(T::Int8, scaleShape, std::vector<double>(c.perColumn ? n : 1, 0.0));
          const MLOperand weights =
              g.dequantizeLinear(b.constant(T::Int8, {24, n}, {-127, 127}), bScale, bZero);
          MLOperand y = g.matmul(a, weights);
          if (c.biasRelu) y = g.relu(g.add(y, b.constant(t, {n}, {-1, 1})));
          return y;
        },
        {T::Float32}, "a");
  }
  // The quantized products followed by a quantizeLinear into uint8 (the next layer's input: the
  // cpu backend's step writes uint8), as the graph's output and dequantized again.
  for (bool dequantizedAgain : {false, true}) {
    const std::string how = dequantizedAgain ? ", dequantized again" : "";
    add("conv2d on quantized operands, quantized output" + how, O::Conv2d,
        [dequantizedAgain](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const MLOperand scale = b.values(t, {}, {0.04});
          const MLOperand zero = b.values(T::Uint8, {}, {128});
          const MLOperand x = g.dequantizeLinear(
              g.quantizeLinear(b.input(t, {1, 8, 9, 12}, {-5, 5}), scale, zero), scale, zero);
          const MLOperand filter =
              g.dequantizeLinear(b.constant(T::Int8, {16, 8, 3, 3}, {-127, 127}),
                                 b.constant(t, {16, 1, 1, 1}, {0.001, 0.02}),
                                 b.values(T::Int8, {16, 1, 1, 1}, std::vector<double>(16, 0.0)));
          const MLOperand y = g.relu(
              g.conv2d(x, filter, {.padding = {1, 1, 1, 1}, .bias = b.constant(t, {16}, {-1, 1})}));
          const MLOperand outScale = b.values(t, {}, {0.05});
          const MLOperand outZero = b.values(T::Uint8, {}, {3});
          const MLOperand q = g.quantizeLinear(y, outScale, outZero);
          return dequantizedAgain ? g.dequantizeLinear(q, outScale, outZero) : q;
        },
        {T::Float32});
    add(
        "matmul on quantized operands, quantized output" + how, O::Matmul,
        [dequantizedAgain](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const MLOperand scale = b.values(t, {}, {0.03});
          const MLOperand zero = b.values(T::Uint8, {}, {120});
          const MLOperand a = g.dequantizeLinear(
              g.quantizeLinear(b.input(t, {2, 5, 24}, {-3, 3}), scale, zero), scale, zero);
          const MLOperand weights = g.dequantizeLinear(
              b.constant(T::Int8, {24, 16}, {-127, 127}), b.constant(t, {1, 16}, {0.001, 0.02}),
              b.values(T::Int8, {1, 16}, std::vector<double>(16, 0.0)));
          const MLOperand y = g.add(g.matmul(a, weights), b.constant(t, {16}, {-1, 1}));
          const MLOperand outScale = b.values(t, {}, {0.02});
          const MLOperand outZero = b.values(T::Uint8, {}, {90});
          const MLOperand q = g.quantizeLinear(y, outScale, outZero);
          return dequantizedAgain ? g.dequantizeLinear(q, outScale, outZero) : q;
        },
        {T::Float32}, "a");
  }
  // Two quantized convolutions in a row as a QDQ detector starts: 3 channels at stride 2, the
  // uint8 result quantized and read by a depthwise one.
  add("conv2d on quantized operands, two in a row", O::Conv2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        auto quantized = [&](const MLOperand& value, double scale, double zero) {
          const MLOperand s = b.values(t, {}, {scale});
          const MLOperand z = b.values(T::Uint8, {}, {zero});
          return g.dequantizeLinear(g.quantizeLinear(value, s, z), s, z);
        };
        auto filter = [&](uint32_t out, uint32_t in) {
          return g.dequantizeLinear(
              b.constant(T::Int8, {out, in, 3, 3}, {-127, 127}),
              b.constant(t, {out, 1, 1, 1}, {0.001, 0.02}),
              b.values(T::Int8, {out, 1, 1, 1}, std::vector<double>(out, 0.0)));
        };
        const MLOperand first = g.conv2d(
            quantized(b.input(t, {1, 3, 34, 30}, {-2, 2}), 0.02, 100), filter(16, 3),
            {.padding = {1, 1, 1, 1},
             .strides = {2, 2},
             .bias = g.dequantizeLinear(b.constant(T::Int32, {16}, {-500, 500}),
                                        b.constant(t, {16}, {0.0001, 0.0002}),
                                        b.values(T::Int32, {16}, std::vector<double>(16, 0.0)))});
        return g.conv2d(quantized(first, 0.05, 128), filter(16, 1),
                        {.padding = {1, 1, 1, 1}, .groups = 16});
      },
      {T::Float32});
  // A quantized convolution's float32 result quantized into int8 by a quantizeLinear of its own
  // step (not fused: int8), which reads it in the primitive's layout and hands the next quantized
  // convolution int8 in that layout.
  add("conv2d on quantized operands, int8 between two", O::Conv2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        auto filter = [&](uint32_t out, uint32_t in) {
          return g.dequantizeLinear(
              b.constant(T::Int8, {out, in, 3, 3}, {-127, 127}),
              b.constant(t, {out, 1, 1, 1}, {0.001, 0.02}),
              b.values(T::Int8, {out, 1, 1, 1}, std::vector<double>(out, 0.0)));
        };
        const MLOperand s1 = b.values(t, {}, {0.03});
        const MLOperand z1 = b.values(T::Uint8, {}, {110});
        const MLOperand first =
            g.conv2d(g.dequantizeLinear(
                         g.quantizeLinear(b.input(t, {1, 16, 9, 11}, {-3, 3}), s1, z1), s1, z1),
                     filter(16, 16), {.padding = {1, 1, 1, 1}});
        const MLOperand s2 = b.values(t, {}, {0.05});
        const MLOperand z2 = b.values(T::Int8, {}, {-4});
        return g.conv2d(g.dequantizeLinear(g.quantizeLinear(first, s2, z2), s2, z2), filter(16, 16),
                        {.padding = {1, 1, 1, 1}});
      },
      {T::Float32});
  // A scalar multiply-add after the quantized convolution (an element-wise linear post-op) and
  // then the quantizeLinear: the quantization must not be a second linear post-op (oneDNN 2.6
  // runs two wrong).
  add("conv2d on quantized operands, scaled then quantized", O::Conv2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand scale = b.values(t, {}, {0.04});
        const MLOperand zero = b.values(T::Uint8, {}, {128});
        const MLOperand x = g.dequantizeLinear(
            g.quantizeLinear(b.input(t, {1, 8, 10, 10}, {-5, 5}), scale, zero), scale, zero);
        const MLOperand filter =
            g.dequantizeLinear(b.constant(T::Int8, {16, 8, 3, 3}, {-127, 127}),
                               b.constant(t, {16, 1, 1, 1}, {0.001, 0.02}),
                               b.values(T::Int8, {16, 1, 1, 1}, std::vector<double>(16, 0.0)));
        const MLOperand y =
            g.add(g.mul(g.conv2d(x, filter, {.padding = {1, 1, 1, 1}}), b.values(t, {}, {0.5})),
                  b.values(t, {}, {0.25}));
        const MLOperand outScale = b.values(t, {}, {0.03});
        const MLOperand outZero = b.values(T::Uint8, {}, {77});
        return g.dequantizeLinear(g.quantizeLinear(y, outScale, outZero), outScale, outZero);
      },
      {T::Float32});
  // What the cpu backend's int8 steps fold into oneDNN's output scales and bias (FoldedPostOps):
  // a batchNormalization and a multiply-add by per-channel constants after the quantized
  // convolution; after the activation a multiply-add by classic scalars (an element-wise linear
  // post-op, the quantization's 1 / scale folded into it), as PP-LCNet's layers end.
  add("conv2d on quantized operands, folded affine, hardSwish, affine, quantized", O::Conv2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand scale = b.values(t, {}, {0.04});
        const MLOperand zero = b.values(T::Uint8, {}, {120});
        const MLOperand x = g.dequantizeLinear(
            g.quantizeLinear(b.input(t, {1, 8, 9, 10}, {-5, 5}), scale, zero), scale, zero);
        const MLOperand filter =
            g.dequantizeLinear(b.constant(T::Int8, {16, 8, 3, 3}, {-127, 127}),
                               b.constant(t, {16, 1, 1, 1}, {0.001, 0.02}),
                               b.values(T::Int8, {16, 1, 1, 1}, std::vector<double>(16, 0.0)));
        MLOperand y = g.conv2d(x, filter, {.padding = {1, 1, 1, 1}, .bias = b.constant(t, {16})});
        y = g.batchNormalization(y, b.constant(t, {16}), b.constant(t, {16}, kPositive),
                                 {.scale = b.constant(t, {16}), .bias = b.constant(t, {16})});
        y = g.add(g.mul(y, b.constant(t, {1, 16, 1, 1}, {0.5, 2})), b.constant(t, {16, 1, 1}));
        y = g.hardSwish(y);
        y = g.add(g.mul(y, b.values(t, {}, {0.75})), b.values(t, {}, {-0.125}));
        const MLOperand outScale = b.values(t, {}, {0.03});
        const MLOperand outZero = b.values(T::Uint8, {}, {61});
        return g.dequantizeLinear(g.quantizeLinear(y, outScale, outZero), outScale, outZero);
      },
      {T::Float32});
  // The float path (3 input channels: a network's first layer on RGB pixels) with the same
  // folding: the batchNormalization into its dequantized filter and bias, hardSwish, then the
  // quantization (its 1 / scale a linear post-op).
  add("conv2d on quantized operands, 3 channels, batchNormalization, hardSwish, quantized",
      O::Conv2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand scale = b.values(t, {}, {0.02});
        const MLOperand zero = b.values(T::Uint8, {}, {100});
        const MLOperand x = g.dequantizeLinear(
            g.quantizeLinear(b.input(t, {1, 3, 17, 19}, {-2, 3}), scale, zero), scale, zero);
        const MLOperand filter =
            g.dequantizeLinear(b.constant(T::Int8, {16, 3, 3, 3}, {-127, 127}),
                               b.constant(t, {16, 1, 1, 1}, {0.001, 0.02}),
                               b.values(T::Int8, {16, 1, 1, 1}, std::vector<double>(16, 0.0)));
        MLOperand y = g.conv2d(x, filter, {.padding = {1, 1, 1, 1}, .strides = {2, 2}});
        y = g.batchNormalization(y, b.constant(t, {16}), b.constant(t, {16}, kPositive),
                                 {.scale = b.constant(t, {16}), .bias = b.constant(t, {16})});
        const MLOperand outScale = b.values(t, {}, {0.04});
        const MLOperand outZero = b.values(T::Uint8, {}, {9});
        return g.dequantizeLinear(g.quantizeLinear(g.hardSwish(y), outScale, outZero), outScale,
                                  outZero);
      },
      {T::Float32});
  // Convolutions without padding: the input's zero point is folded into the bias (minus the zero
  // point times each channel's weight sum) and oneDNN's primitive takes none; a grouped 1x1 one
  // with few input channels per group (not on AMX) and a 3x3 one at stride 2.
  struct UnpaddedConv {
    const char* label;
    uint32_t kernel, stride, groups;
  };
  for (const UnpaddedConv& c : {UnpaddedConv{"1x1, grouped", 1, 1, 2},
                                UnpaddedConv{"3x3, stride 2", 3, 2, 1}}) {
    add(std::string("conv2d on quantized operands, no padding, zero point 37, ") + c.label,
        O::Conv2d,
        [c](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const MLOperand scale = b.values(t, {}, {0.03});
          const MLOperand zero = b.values(T::Uint8, {}, {37});
          const MLOperand x = g.dequantizeLinear(
              g.quantizeLinear(b.input(t, {1, 24, 9, 11}, {-1, 6}), scale, zero), scale, zero);
          const MLOperand filter = g.dequantizeLinear(
              b.constant(T::Int8, {32, 24 / c.groups, c.kernel, c.kernel}, {-127, 127}),
              b.constant(t, {32, 1, 1, 1}, {0.001, 0.02}),
              b.values(T::Int8, {32, 1, 1, 1}, std::vector<double>(32, 0.0)));
          const MLOperand y =
              g.conv2d(x, filter,
                       {.strides = {c.stride, c.stride}, .groups = c.groups,
                        .bias = b.constant(t, {32})});
          const MLOperand outScale = b.values(t, {}, {0.05});
          const MLOperand outZero = b.values(T::Uint8, {}, {90});
          return g.dequantizeLinear(g.quantizeLinear(g.relu(y), outScale, outZero), outScale,
                                    outZero);
        },
        {T::Float32});
  }
  // A filter scale of 0 and a subnormal one (a pruned channel: the cpu backend's output scale
  // becomes tiny, its bias divided by it) beside ordinary ones, with a bias.
  add("conv2d on quantized operands, filter scales of 0 and subnormal", O::Conv2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand scale = b.values(t, {}, {0.05});
        const MLOperand zero = b.values(T::Uint8, {}, {128});
        const MLOperand x = g.dequantizeLinear(
            g.quantizeLinear(b.input(t, {1, 8, 6, 7}, {-5, 5}), scale, zero), scale, zero);
        std::vector<double> scales(16, 0.01);
        scales[3] = 0.0;
        scales[9] = 1e-40;
        const MLOperand filter =
            g.dequantizeLinear(b.constant(T::Int8, {16, 8, 1, 1}, {-127, 127}),
                               b.values(t, {16, 1, 1, 1}, scales),
                               b.values(T::Int8, {16, 1, 1, 1}, std::vector<double>(16, 0.0)));
        return g.relu(g.conv2d(x, filter, {.bias = b.constant(t, {16})}));
      },
      {T::Float32});
  // A squeeze-and-excitation block's convolutions on a 1x1 image (oneDNN runs them int8 once the
  // scales are output scales; before, only its reference int8 convolution took them).
  add("conv2d on quantized operands, squeeze-and-excitation on a 1x1 image", O::Conv2d,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        auto quantized = [&](const MLOperand& value, double scale, double zero) {
          const MLOperand s = b.values(t, {}, {scale});
          const MLOperand z = b.values(T::Uint8, {}, {zero});
          return g.dequantizeLinear(g.quantizeLinear(value, s, z), s, z);
        };
        auto filter = [&](uint32_t out, uint32_t in) {
          return g.dequantizeLinear(
              b.constant(T::Int8, {out, in, 1, 1}, {-127, 127}),
              b.constant(t, {out, 1, 1, 1}, {0.001, 0.02}),
              b.values(T::Int8, {out, 1, 1, 1}, std::vector<double>(out, 0.0)));
        };
        const MLOperand squeezed = g.relu(g.conv2d(quantized(b.input(t, {1, 32, 1, 1}, {0, 6}),
                                                             0.03, 0),
                                                   filter(8, 32), {.bias = b.constant(t, {8})}));
        return g.hardSigmoid(g.conv2d(quantized(squeezed, 0.02, 0), filter(32, 8),
                                      {.bias = b.constant(t, {32})}),
                             {.alpha = 1.0 / 6, .beta = 0.5});
      },
      {T::Float32});
  // matmul with its bias add folded into the output scales and bias, gelu, then quantized (the
  // 1 / scale as an appended linear post-op).
  add(
      "matmul on quantized operands, bias, gelu, quantized", O::Matmul,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand scale = b.values(t, {}, {0.03});
        const MLOperand zero = b.values(T::Uint8, {}, {120});
        const MLOperand a = g.dequantizeLinear(
            g.quantizeLinear(b.input(t, {2, 5, 24}, {-3, 3}), scale, zero), scale, zero);
        const MLOperand weights = g.dequantizeLinear(
            b.constant(T::Int8, {24, 16}, {-127, 127}), b.constant(t, {1, 16}, {0.001, 0.02}),
            b.values(T::Int8, {1, 16}, std::vector<double>(16, 0.0)));
        const MLOperand y = g.gelu(g.add(g.matmul(a, weights), b.constant(t, {16}, {-1, 1})));
        const MLOperand outScale = b.values(t, {}, {0.02});
        const MLOperand outZero = b.values(T::Uint8, {}, {17});
        return g.dequantizeLinear(g.quantizeLinear(y, outScale, outZero), outScale, outZero);
      },
      {T::Float32}, "a");
  // The float32 glue between quantized layers, then a quantizeLinear into uint8 (the cpu backend
  // runs the binary op and the quantizeLinear as one step: kernels/quantized_glue.h), as the
  // graph's uint8 output: a squeeze-and-excitation multiply of a quantized convolution's result
  // (in its primitive's layout) by a per-channel gate, a residual add of a plain graph input to it
  // (read transposed), plain operands with a scalar and a per-channel one, and values at the
  // edges (ties to even, saturation, infinities, NaN).
  //
  // The scales and the bias are dyadic (a few bits over a power of two) and the input's range
  // keeps every partial sum of the convolution below 2^24 units of its last place, so the
  // convolution is exact in float32 whatever the order of its sums or where the scales are
  // applied, and the float glue after it rounds once: every backend must then give the same
  // bytes. (With arbitrary scales a value a float32 ulp from a rounding tie quantizes one step
  // apart on backends that sum in another order: lavapipe on Zen 5 did.)
  auto quantizedConvolution = [](CaseBuilder& b, T t, uint32_t channels, uint32_t height,
                                 uint32_t width) {
    MLGraphBuilder& g = b.builder();
    const MLOperand scale = b.values(t, {}, {1.0 / 32});
    const MLOperand zero = b.values(T::Uint8, {}, {120});
    const MLOperand x = g.dequantizeLinear(
        g.quantizeLinear(b.input(t, {1, 8, height, width}, {-3, 3}), scale, zero), scale, zero);
    std::vector<double> filterScales(channels), bias(channels);
    for (uint32_t c = 0; c < channels; ++c) {
      filterScales[c] = (1 + (c * 7) % 16) / 1024.0;            // 0.001 .. 0.016
      bias[c] = (static_cast<int>((c * 37) % 64) - 32) / 64.0;  // -0.5 .. 0.48
    }
    const MLOperand filter = g.dequantizeLinear(
        b.constant(T::Int8, {channels, 8, 3, 3}, {-127, 127}),
        b.values(t, {channels, 1, 1, 1}, filterScales),
        b.values(T::Int8, {channels, 1, 1, 1}, std::vector<double>(channels, 0.0)));
    return g.conv2d(x, filter, {.padding = {1, 1, 1, 1}, .bias = b.values(t, {channels}, bias)});
  };
  // The next quantized convolution (1x1) reads the glue's uint8 result (in its layout).
  auto nextConvolution = [](CaseBuilder& b, T t, const MLOperand& quantized, double scale,
                            double zero, uint32_t channels) {
    MLGraphBuilder& g = b.builder();
    const MLOperand x =
        g.dequantizeLinear(quantized, b.values(t, {}, {scale}), b.values(T::Uint8, {}, {zero}));
    const MLOperand filter = g.dequantizeLinear(
        b.constant(T::Int8, {16, channels, 1, 1}, {-127, 127}),
        b.constant(t, {16, 1, 1, 1}, {0.001, 0.02}),
        b.values(T::Int8, {16, 1, 1, 1}, std::vector<double>(16, 0.0)));
    return g.conv2d(x, filter);
  };
  for (bool intoConvolution : {false, true}) {
    const std::string how = intoConvolution ? ", read by a quantized convolution" : "";
    add(
        "quantized glue: squeeze-and-excitation multiply, quantized" + how, O::Mul,
        [quantizedConvolution, nextConvolution, intoConvolution](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const MLOperand c = quantizedConvolution(b, t, 32, 7, 9);
          const MLOperand gate = g.sigmoid(g.averagePool2d(c));  // [1, 32, 1, 1]
          const MLOperand q = g.quantizeLinear(g.mul(c, gate), b.values(t, {}, {0.02}),
                                               b.values(T::Uint8, {}, {128}));
          return intoConvolution ? nextConvolution(b, t, q, 0.02, 128, 32) : q;
        },
        {T::Float32}, "a");
    add(
        "quantized glue: residual add of a plain input, quantized" + how, O::Add,
        [quantizedConvolution, nextConvolution, intoConvolution](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const MLOperand c = quantizedConvolution(b, t, 40, 9, 11);
          const MLOperand q = g.quantizeLinear(g.add(b.input(t, {1, 40, 9, 11}, {-3, 3}), c),
                                               b.values(t, {}, {1.0 / 32}),
                                               b.values(T::Uint8, {}, {100}));
          return intoConvolution ? nextConvolution(b, t, q, 1.0 / 32, 100, 40) : q;
        },
        {T::Float32}, "a");
  }
  add(
      "quantized glue: plain operands, scalar and per channel, quantized", O::Sub,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand scale = b.values(t, {}, {0.05});
        const MLOperand zero = b.values(T::Uint8, {}, {7});
        const MLOperand x = b.input(t, {2, 3, 40, 50}, {-3, 9});
        const MLOperand shifted = g.dequantizeLinear(
            g.quantizeLinear(g.sub(x, b.values(t, {}, {0.375})), scale, zero), scale, zero);
        return g.quantizeLinear(g.div(shifted, b.constant(t, {3, 1, 1}, {0.5, 2})), scale, zero);
      },
      {T::Float32}, "a");
  add(
      "quantized glue: edge values, quantized", O::Add,
      [](CaseBuilder& b, T t) {
        MLGraphBuilder& g = b.builder();
        const MLOperand x = b.inputWith(
            t, {20}, {0.5, 1.5, 2.5, -0.5, 253.5, 254.5, 255.5, 300, -7, INFINITY, -INFINITY, NAN,
                      3.25, 3.75, 1e30, -1e30, 0, 126.5, 127.5, 128.5});
        return g.quantizeLinear(g.add(x, b.values(t, {}, {0.0})), b.values(t, {}, {1.0}),
                                b.values(T::Uint8, {}, {0}));
      },
      {T::Float32}, "a");
  // matmul on block-quantized weights (4-bit LLM weights: the cpu backend's block_quantized_gemm
  // reads them as stored): matmul(A, transpose(dequantizeLinear(W [N, K], scale and zero point
  // per block of a row))), or W [N, blocks, blockSize] reshaped to [N, K] with the scale and zero
  // point reshaped from flat constants (ONNX Runtime's MatMulNBits as its WebNN provider lowers
  // it), a bias row added after. Column and row counts leave tails of the kernel's 4 x 4 tiles;
  // a block of 16 with 4 bits takes the portable loop. `halfScale`: the scale a float16 constant
  // cast to float32, as a GGUF's q4_0 scales are read (the cpu backend keeps them float16).
  // `oneZeroPoint`: the zero point an expand of a one-element constant (MatMulNBits without zero
  // points as the ONNX importer writes it; the cpu backend keeps the one value).
  struct BlockQuantizedMatmul {
    const char* label;
    T weights;
    uint32_t n, k, blockSize;
    Shape a;
    bool nBitsForm, bias, halfScale = false, oneZeroPoint = false;
  };
  for (const BlockQuantizedMatmul& c :
       {BlockQuantizedMatmul{"uint4 blocks of 32", T::Uint4, 20, 64, 32, {3, 64}, false, false},
        BlockQuantizedMatmul{
            "int4 blocks of 32, nbits form, bias", T::Int4, 37, 128, 32, {2, 3, 128}, true, true},
        BlockQuantizedMatmul{
            "uint4 blocks of 64, 1 row", T::Uint4, 9, 128, 64, {1, 128}, true, false},
        BlockQuantizedMatmul{
            "uint8 blocks of 16, bias", T::Uint8, 18, 48, 16, {5, 48}, false, true},
        BlockQuantizedMatmul{"int8 blocks of 64", T::Int8, 7, 128, 64, {1, 2, 128}, true, false},
        BlockQuantizedMatmul{
            "uint4 blocks of 16 (portable)", T::Uint4, 6, 32, 16, {2, 32}, false, false},
        BlockQuantizedMatmul{"uint4, float16 scales cast (q4_0), 1 row", T::Uint4, 21, 96, 32,
                             {1, 1, 96}, false, true, true},
        BlockQuantizedMatmul{"int8, float16 scales cast (q8_0), nbits form", T::Int8, 10, 64, 32,
                             {3, 64}, true, false, true},
        BlockQuantizedMatmul{"uint4, one zero point expanded, nbits form, bias", T::Uint4, 13, 96,
                             32, {2, 96}, true, true, false, true},
        BlockQuantizedMatmul{"int8, one zero point expanded, 1 row", T::Int8, 11, 128, 32,
                             {1, 128}, false, false, false, true}}) {
    add(
        std::string("matmul on block-quantized weights, ") + c.label, O::Matmul,
        [c](CaseBuilder& b, T t) {
          MLGraphBuilder& g = b.builder();
          const bool fourBits = c.weights == T::Int4 || c.weights == T::Uint4;
          const bool isSigned = c.weights == T::Int4 || c.weights == T::Int8;
          const Range values = fourBits ? (isSigned ? Range{-8, 7} : Range{0, 15})
                                        : (isSigned ? Range{-128, 127} : Range{0, 255});
          const uint32_t blocks = c.k / c.blockSize;
          MLOperand weights, scale, zero;
          auto scales = [&](Shape shape) {
            return c.halfScale ? g.cast(b.constant(T::Float16, shape, {0.001, 0.05}), t)
                               : b.constant(t, shape, {0.001, 0.05});
          };
          if (c.nBitsForm) {
            weights = b.constant(c.weights, {c.n, blocks, c.blockSize}, values);
            scale = g.reshape(scales({c.n * blocks}), {c.n, blocks, 1});
            zero = c.oneZeroPoint
                       ? g.expand(b.constant(c.weights, {1, 1, 1}, values), {c.n, blocks, 1})
                       : g.reshape(b.constant(c.weights, {c.n * blocks}, values), {c.n, blocks, 1});
          } else {
            weights = b.constant(c.weights, {c.n, c.k}, values);
            scale = scales({c.n, blocks});
            zero = c.oneZeroPoint ? g.expand(b.constant(c.weights, {1, 1}, values), {c.n, blocks})
                                  : b.constant(c.weights, {c.n, blocks}, values);
          }
          MLOperand dequantized = g.dequantizeLinear(weights, scale, zero);
          if (c.nBitsForm) dequantized = g.reshape(dequantized, {c.n, c.k});
          MLOperand y = g.matmul(b.input(t, c.a, {-1, 1}), g.transpose(dequantized));
          if (c.bias) y = g.add(y, b.constant(t, {c.n}, {-1, 1}));
          return y;
        },
        c.halfScale ? std::vector<T>{T::Float32} : std::vector<T>{T::Float32, T::Float16}, "a");
  }
  add("quantizeLinear ties to even", O::QuantizeLinear, [](CaseBuilder& b, T t) {
    return b.builder().quantizeLinear(b.values(t, {6}, {0.5, 1.5, 2.5, -0.5, -1.5, 1e9}),
                                      b.values(t, {1}, {1.0}), b.values(T::Int8, {1}, {0}));
  });
  add("gru both directions", O::Gru, [](CaseBuilder& b, T t) {
    auto out = b.builder().gru(b.input(t, {3, 2, 4}, kSmall), b.constant(t, {2, 9, 4}, kSmall),
                               b.constant(t, {2, 9, 3}, kSmall), 3, 3,
                               {.bias = b.constant(t, {2, 9}, kSmall),
                                .returnSequence = true,
                                .direction = MLRecurrentNetworkDirection::Both});
    return out.back();
  });
  add("lstm forward with peepholes", O::Lstm, [](CaseBuilder& b, T t) {
    auto out = b.builder().lstm(
        b.input(t, {2, 1, 3}, kSmall), b.constant(t, {1, 8, 3}, kSmall),
        b.constant(t, {1, 8, 2}, kSmall), 2, 2,
        {.bias = b.constant(t, {1, 8}, kSmall), .peepholeWeight = b.constant(t, {1, 6}, kSmall)});
    return out[1];
  });
  // The vulkan backend's recurrent steps: the hidden state's two slots over several steps, a
  // backward direction, reset before, initial states, the other weight layouts, relu (no
  // saturation hides errors), the sequence output.
  add("gru backward reset before, initial state, rzn, sequence", O::Gru, [](CaseBuilder& b, T t) {
    auto out = b.builder().gru(
        b.input(t, {5, 3, 4}, kSmall), b.constant(t, {1, 15, 4}, kSmall),
        b.constant(t, {1, 15, 5}, kSmall), 5, 5,
        {.recurrentBias = b.constant(t, {1, 15}, kSmall),
         .initialHiddenState = b.input(t, {1, 3, 5}, kSmall),
         .resetAfter = false,
         .returnSequence = true,
         .direction = MLRecurrentNetworkDirection::Backward,
         .layout = MLGruWeightLayout::Rzn,
         .activations = std::vector<MLRecurrentNetworkActivation>{
             MLRecurrentNetworkActivation::Sigmoid, MLRecurrentNetworkActivation::Relu}});
    return out.back();
  });
  add("lstm both directions, initial states, ifgo, sequence", O::Lstm, [](CaseBuilder& b, T t) {
    auto out = b.builder().lstm(b.input(t, {4, 2, 3}, kSmall), b.constant(t, {2, 12, 3}, kSmall),
                                b.constant(t, {2, 12, 3}, kSmall), 4, 3,
                                {.bias = b.constant(t, {2, 12}, kSmall),
                                 .recurrentBias = b.constant(t, {2, 12}, kSmall),
                                 .initialHiddenState = b.input(t, {2, 2, 3}, kSmall),
                                 .initialCellState = b.input(t, {2, 2, 3}, kSmall),
                                 .returnSequence = true,
                                 .direction = MLRecurrentNetworkDirection::Both,
                                 .layout = MLLstmWeightLayout::Ifgo});
    return b.builder().concat({b.builder().reshape(out[0], {12}), b.builder().reshape(out[1], {12}),
                               b.builder().reshape(out[2], {48})},
                              0);
  });
  add("lstm backward relu, hidden only", O::Lstm, [](CaseBuilder& b, T t) {
    auto out = b.builder().lstm(
        b.input(t, {3, 1, 2}, kSmall), b.constant(t, {1, 8, 2}, kSmall),
        b.constant(t, {1, 8, 2}, kSmall), 3, 2,
        {.direction = MLRecurrentNetworkDirection::Backward,
         .activations = std::vector<MLRecurrentNetworkActivation>{
             MLRecurrentNetworkActivation::Relu, MLRecurrentNetworkActivation::Relu,
             MLRecurrentNetworkActivation::Tanh}});
    return out[0];
  });
  // The cpu kernel's packed Rᵀ (several steps): gate rows past one 64-column block, gates that
  // start inside a block (gru's per-gate products of reset before), batch above one.
  add("lstm hidden 20, 6 steps, batch 2, sequence", O::Lstm, [](CaseBuilder& b, T t) {
    auto out = b.builder().lstm(b.input(t, {6, 2, 5}, kSmall), b.constant(t, {1, 80, 5}, kSmall),
                                b.constant(t, {1, 80, 20}, kSmall), 6, 20,
                                {.bias = b.constant(t, {1, 80}, kSmall),
                                 .peepholeWeight = b.constant(t, {1, 60}, kSmall),
                                 .returnSequence = true});
    return out.back();
  });
  add("gru hidden 24, 5 steps, reset before, both directions", O::Gru, [](CaseBuilder& b, T t) {
    auto out = b.builder().gru(b.input(t, {5, 1, 7}, kSmall), b.constant(t, {2, 72, 7}, kSmall),
                               b.constant(t, {2, 72, 24}, kSmall), 5, 24,
                               {.bias = b.constant(t, {2, 72}, kSmall),
                                .recurrentBias = b.constant(t, {2, 72}, kSmall),
                                .resetAfter = false,
                                .returnSequence = true,
                                .direction = MLRecurrentNetworkDirection::Both});
    return out.back();
  });
  add("gruCell reset after", O::GruCell, [](CaseBuilder& b, T t) {
    return b.builder().gruCell(b.input(t, {3, 4}, kSmall), b.constant(t, {9, 4}, kSmall),
                               b.constant(t, {9, 3}, kSmall), b.input(t, {3, 3}, kSmall), 3,
                               {.bias = b.constant(t, {9}, kSmall)});
  });
  add("gruCell reset before", O::GruCell, [](CaseBuilder& b, T t) {
    return b.builder().gruCell(b.input(t, {2, 3}, kSmall), b.constant(t, {6, 3}, kSmall),
                               b.constant(t, {6, 2}, kSmall), b.input(t, {2, 2}, kSmall), 2,
                               {.recurrentBias = b.constant(t, {6}, kSmall), .resetAfter = false});
  });
  add("lstmCell", O::LstmCell, [](CaseBuilder& b, T t) {
    return b.builder()
        .lstmCell(b.input(t, {2, 3}, kSmall), b.constant(t, {8, 3}, kSmall),
                  b.constant(t, {8, 2}, kSmall), b.input(t, {2, 2}, kSmall),
                  b.input(t, {2, 2}, kSmall), 2, {.bias = b.constant(t, {8}, kSmall)})
        .front();
  });
}

const std::vector<OpCase>& allCases() {
  static const bool made = [] {
    addElementwiseCases();
    addMatrixCases();
    addConvolutionCases();
    addNormalizationCases();
    addReductionCases();
    addShapeCases();
    addEdgeValueCases();
    addQuantizationAndRecurrentCases();
    return true;
  }();
  (void)made;
  return cases;
}

// The table covers every op type of the IR, so a backend cannot miss one unnoticed.
TEST(AgainstReferenceCoverage, EveryOpTypeHasACase) {
  std::set<graph::OpType> covered;
  for (const auto& opCase : allCases()) covered.insert(opCase.type);
  std::string missing;
  for (graph::OpType type : graph::allOpTypes()) {
    if (!covered.contains(type)) missing += " " + std::string(graph::specName(type));
  }
  EXPECT_EQ(missing, "") << "ops without a case:" << missing;
}

class AgainstReference : public ::testing::TestWithParam<size_t> {};

TEST_P(AgainstReference, EveryAcceptedDataTypeMatches) {
  const OpCase& opCase = allCases()[GetParam()];
  MLContext context = testing::createTestContext();
  const MLOpSupportLimits limits = context.opSupportLimits();
  const auto op = limits.ops.find(std::string(graph::specName(opCase.type)));
  if (op == limits.ops.end()) GTEST_SKIP() << "the backend does not support the op";
  const auto operand = op->second.find(opCase.typedOperand);
  ASSERT_NE(operand, op->second.end()) << "no limits for " << opCase.typedOperand;
  size_t tried = 0;
  for (T type : operand->second.dataTypes) {
    if (!opCase.types.empty() &&
        std::find(opCase.types.begin(), opCase.types.end(), type) == opCase.types.end()) {
      continue;
    }
    SCOPED_TRACE(std::string(toString(type)));
    Output expected, actual;
    try {
      expected = runCase(opCase, type, "reference");
    } catch (const Error& error) {
      if (error.kind() == Error::Kind::TypeError) continue;  // this shape does not take the type
      throw;
    }
    actual = runCase(opCase, type, testing::backendUnderTest());
    expectSame(actual, expected);
    ++tried;
  }
  EXPECT_GT(tried, 0u) << "no data type of the case was accepted";
}

std::string caseName(const ::testing::TestParamInfo<size_t>& info) {
  std::string name = allCases()[info.param].name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + "_" + std::to_string(info.param);
}

INSTANTIATE_TEST_SUITE_P(Ops, AgainstReference, ::testing::Range<size_t>(0, allCases().size()),
                         caseName);

}  // namespace
}  // namespace webnn
