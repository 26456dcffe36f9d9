// LoadOptions' limits: a constant above maxTensorBytes, or constants together above maxTotalBytes,
// are refused when the load is planned, naming the constant and the limit; nothing is loaded.
#include <gtest/gtest.h>
#include <webnn/webnn.h>

#include "test_helpers.h"
#include "weights/weight_generators.h"

namespace webnn {
namespace {

using testing::TempDir;

struct TwoWeights {
  TempDir dir;
  MLContext context = createContext();
  MLGraph graph;
  std::unique_ptr<WeightSource> source;

  TwoWeights() {
    const std::string path = dir.file("w.safetensors");
    testing::writeFile(path, testing::makeSafetensors({
                                 {"a", "F32", {4, 4}, testing::patternBytes(64, 1)},
                                 {"b", "F32", {8, 4}, testing::patternBytes(128, 2)},
                             }));
    source = WeightSource::open(path);
    MLGraphBuilder builder(context);
    MLOperand x = builder.input("x", {MLOperandDataType::Float32, {4, 4}});
    MLOperand a = builder.constant({MLOperandDataType::Float32, {4, 4}}, {.label = "a"});
    MLOperand b = builder.constant({MLOperandDataType::Float32, {8, 4}}, {.label = "b"});
    MLOperand y = builder.matmul(builder.add(x, a), builder.transpose(b));
    graph = builder.build({{"y", y}});
  }
};

TEST(LoadLimits, AConstantAboveMaxTensorBytesIsRefusedAndNothingLoads) {
  for (uint64_t limit : {uint64_t{0}, uint64_t{64}, uint64_t{127}}) {
    SCOPED_TRACE(limit);
    TwoWeights w;
    LoadOptions options;
    options.maxTensorBytes = limit;
    testing::expectError([&] { w.graph.loadConstants(*w.source, options); }, Error::Kind::TypeError,
                         {limit < 64 ? "'a'" : "'b'", std::to_string(limit), "maxTensorBytes"});
    EXPECT_EQ(w.graph.pendingConstants().size(), 2u);
  }
  TwoWeights w;
  LoadOptions options;
  options.maxTensorBytes = 128;
  w.graph.loadConstants(*w.source, options);
  EXPECT_TRUE(w.graph.pendingConstants().empty());
}

TEST(LoadLimits, ConstantsTogetherAboveMaxTotalBytesAreRefusedAndNothingLoads) {
  for (uint64_t limit : {uint64_t{0}, uint64_t{100}, uint64_t{191}}) {
    SCOPED_TRACE(limit);
    TwoWeights w;
    LoadOptions options;
    options.maxTotalBytes = limit;
    testing::expectError([&] { w.graph.loadConstants(*w.source, options); }, Error::Kind::TypeError,
                         {std::to_string(limit), "maxTotalBytes"});
    EXPECT_EQ(w.graph.pendingConstants().size(), 2u);
  }
  TwoWeights w;
  LoadOptions options;
  options.maxTotalBytes = 192;
  w.graph.loadConstants(*w.source, options);
  EXPECT_TRUE(w.graph.pendingConstants().empty());
}

}  // namespace
}  // namespace webnn
