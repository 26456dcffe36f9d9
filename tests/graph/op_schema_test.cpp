// The op schema (include/webnn/op_schema.h): one entry per op type of the IR, enum strings that
// round-trip, options members under their spec names, and `call` driving the builder from a
// reader, as the conformance runner and the Node.js binding do.
#include <gtest/gtest.h>
#include <webnn/op_schema.h>
#include <webnn/webnn.h>

#include <map>
#include <set>
#include <string>

#include "graph/ir.h"

namespace webnn {
namespace {

TEST(OpSchema, EveryOpTypeHasOneEntryAndEveryEntryAnOpType) {
  std::set<std::string> names;
  schema::forEachOp([&](const auto& op) {
    EXPECT_TRUE(names.insert(std::string(op.name)).second) << op.name << " is listed twice";
    EXPECT_TRUE(graph::opTypeFromSpecName(op.name).has_value())
        << op.name << " is in the schema but not in src/graph/op_types.inc";
  });
  for (graph::OpType type : graph::allOpTypes()) {
    EXPECT_TRUE(names.count(std::string(graph::specName(type))))
        << graph::specName(type) << " is in src/graph/op_types.inc but not in the schema";
  }
}

TEST(OpSchema, ParameterNamesCoverEveryParameterBeforeTheOptions) {
  schema::forEachOp([&](const auto& op) {
    using Op = std::remove_cvref_t<decltype(op)>;
    for (size_t i = 0; i < schema::kMaxParameters; ++i) {
      EXPECT_EQ(op.parameters[i].empty(), i >= Op::kArity) << op.name << " parameter " << i;
    }
    EXPECT_TRUE(schema::OptionsDictionary<typename Op::OptionsType>)
        << op.name << "'s last parameter is not an options dictionary of the schema";
  });
}

TEST(OpSchema, OnlySplitAndTheRecurrentNetworksReturnSequences) {
  std::set<std::string> sequences;
  schema::forEachOp([&](const auto& op) {
    if (std::remove_cvref_t<decltype(op)>::kReturnsSequence) sequences.insert(std::string(op.name));
  });
  EXPECT_EQ(sequences, (std::set<std::string>{"gru", "lstm", "lstmCell", "split"}));
}

template <class E>
void expectRoundTrip() {
  for (const auto& [text, value] : schema::EnumStrings<E>::entries) {
    EXPECT_EQ(schema::toSpecString(value), text);
    EXPECT_EQ(schema::fromSpecString<E>(text), value);
  }
  EXPECT_FALSE(schema::fromSpecString<E>("no-such-value").has_value());
}

TEST(OpSchema, EnumStringsRoundTrip) {
  expectRoundTrip<MLInputOperandLayout>();
  expectRoundTrip<MLConv2dFilterOperandLayout>();
  expectRoundTrip<MLConvTranspose2dFilterOperandLayout>();
  expectRoundTrip<MLRoundingType>();
  expectRoundTrip<MLInterpolationMode>();
  expectRoundTrip<MLPaddingMode>();
  expectRoundTrip<MLRecurrentNetworkActivation>();
  expectRoundTrip<MLRecurrentNetworkDirection>();
  expectRoundTrip<MLGruWeightLayout>();
  expectRoundTrip<MLLstmWeightLayout>();
  EXPECT_EQ(schema::toSpecString(MLInterpolationMode::NearestNeighbor), "nearest-neighbor");
}

TEST(OpSchema, OptionsMembersAreVisitedByTheirSpecNamesLabelFirst) {
  MLConv2dOptions options;
  std::vector<std::string> names;
  schema::forEachMember(options, [&](std::string_view name, auto&) { names.emplace_back(name); });
  EXPECT_EQ(names, (std::vector<std::string>{"label", "padding", "strides", "dilations", "groups",
                                             "inputLayout", "filterLayout", "bias"}));
  schema::forEachMember(options, [](std::string_view name, auto& member) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(member)>, uint32_t>) {
      if (name == "groups") member = 4;
    }
  });
  EXPECT_EQ(options.groups, 4u) << "members are visited by reference";
}

// A reader over named values, as a binding's would be over JSON or JavaScript values.
struct MapReader {
  std::map<std::string, MLOperand> operands;
  std::map<std::string, uint32_t> numbers;
  std::vector<std::string> asked;

  template <class T>
  T read(size_t, std::string_view name) {
    asked.emplace_back(name);
    if constexpr (std::is_same_v<T, MLOperand>) {
      return operands.at(std::string(name));
    } else if constexpr (std::is_same_v<T, uint32_t>) {
      return numbers.at(std::string(name));
    } else if constexpr (std::is_same_v<T, schema::Splits>) {
      return schema::Splits(numbers.at(std::string(name)));
    } else if constexpr (schema::OptionsDictionary<T>) {
      T options;
      options.label = "from the reader";
      return options;
    } else {
      ADD_FAILURE() << "only softmax and split are called here";
      return T{};
    }
  }
};

TEST(OpSchema, CallReadsTheParametersInOrderAndBuildsTheOp) {
  MLContext context = createContext({.backend = "reference"});
  MLGraphBuilder builder(context);
  MapReader reader;
  reader.operands["input"] = builder.input("x", {MLOperandDataType::Float32, {6, 2}});
  reader.numbers["axis"] = 1;
  reader.numbers["splits"] = 3;
  std::vector<MLOperand> softmax, split;
  schema::forEachOp([&](const auto& op) {
    if (op.name == "softmax") softmax = schema::call(builder, op, reader);
    if (op.name == "split") split = schema::call(builder, op, reader);
  });
  ASSERT_EQ(softmax.size(), 1u);
  EXPECT_EQ(softmax[0].shape(), (std::vector<uint32_t>{6, 2}));
  ASSERT_EQ(split.size(), 3u);
  EXPECT_EQ(split[0].shape(), (std::vector<uint32_t>{2, 2}));
  EXPECT_EQ(reader.asked,
            (std::vector<std::string>{"input", "axis", "options", "input", "splits", "options"}));
}

}  // namespace
}  // namespace webnn
