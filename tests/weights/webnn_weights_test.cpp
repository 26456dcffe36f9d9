// WeightSource on the WebNN graph weights format (rustnn/webnn-graph: <stem>.manifest.json beside
// <stem>.weights), written by the generator in weight_generator_helpers.cpp.
#include <gtest/gtest.h>

#include <cstring>

#include "weight_generators.h"

namespace webnn::testing {
namespace {

using Kind = Error::Kind;

std::vector<WebnnTensor> sampleTensors() {
  return {
      {"zeta.big", "float32", {512, 1024}, patternBytes(512 * 1024 * 4, 1)},
      {"alpha", "float16", {3, 5}, patternBytes(30, 2)},
      {"mid", "int64", {}, patternBytes(8, 3)},
      {"u4", "uint4", {3, 3}, patternBytes(5, 4)},  // packed two per byte: 9 values in 5 bytes
      {"i32", "int32", {2, 2}, patternBytes(16, 5)},
  };
}

TEST(WeightSourceWebnnWeights, OpensFromEitherFileAndReadsEveryTensor) {
  TempDir dir;
  const auto tensors = sampleTensors();
  const std::string weights = writeWebnnWeights(dir, "model", makeWebnnWeights(tensors));
  const std::string manifest = dir.file("model.manifest.json");
  for (const std::string& path : {weights, manifest}) {
    auto source = WeightSource::open(path);
    EXPECT_EQ(source->formatName(), "webnn-weights");
    EXPECT_EQ(source->path(), path);
    EXPECT_EQ(source->filePath(), weights);
    ASSERT_EQ(source->tensors().size(), tensors.size());
    // In file order (the manifest lists them by name), offsets absolute: the first at 8.
    uint64_t offset = 8;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorInfo& t = source->tensors()[i];
      EXPECT_EQ(t.name, tensors[i].name);
      EXPECT_EQ(t.byteOffset, offset);
      EXPECT_EQ(t.fileDataType, tensors[i].dataType);
      EXPECT_EQ(toString(t.dataType), tensors[i].dataType);
      EXPECT_TRUE(t.supported) << t.unsupportedReason;
      EXPECT_EQ(t.shape, std::vector<uint32_t>(tensors[i].shape.begin(), tensors[i].shape.end()));
      EXPECT_EQ(readTensor(*source, t), tensors[i].data) << t.name;
      offset += t.byteLength;
    }
    EXPECT_EQ(source->totalBytes(), offset - 8);
    Bytes part(333);
    source->read(*source->find("zeta.big"), 1 << 20, part);
    EXPECT_EQ(0, std::memcmp(part.data(), tensors[0].data.data() + (1 << 20), part.size()));
  }
}

TEST(WeightSourceWebnnWeights, FindsManifestJsonAndModelWeightsNames) {
  TempDir dir;
  const auto files = makeWebnnWeights(sampleTensors());
  writeFile(dir.file("manifest.json"), files.manifestJson);
  writeFile(dir.file("model.weights"), files.weights);
  EXPECT_EQ(WeightSource::open(dir.file("manifest.json"))->filePath(), dir.file("model.weights"));
  EXPECT_EQ(WeightSource::open(dir.file("model.weights"))->tensors().size(), 5u);
}

TEST(WeightSourceWebnnWeights, MissingSiblingIsNamed) {
  TempDir dir;
  const auto files = makeWebnnWeights(sampleTensors());
  writeFile(dir.file("lonely.weights"), files.weights);
  expectError([&] { WeightSource::open(dir.file("lonely.weights")); }, Kind::DataError,
              {"lonely.weights", "no WebNN weights manifest", "lonely.manifest.json"});
  writeFile(dir.file("alone.manifest.json"), files.manifestJson);
  expectError([&] { WeightSource::open(dir.file("alone.manifest.json")); }, Kind::DataError,
              {"alone.manifest.json", "no .weights file", "alone.weights"});
}

TEST(WeightSourceWebnnWeights, UnsupportedTypesAndLayouts) {
  TempDir dir;
  auto files = makeWebnnWeights({{"w", "float32", {2}, patternBytes(8, 1)},
                                 {"b", "bfloat16", {2}, patternBytes(4, 2)},
                                 {"q", "int4", {2, 3}, patternBytes(6, 3)},
                                 {"p", "int4", {2, 3}, patternBytes(3, 4)}});
  // webnn-graph writes int4 one value per byte (6 bytes for 6 values): listed, not readable.
  const auto at = files.manifestJson.find("\"layout\": \"row-major\"");
  files.manifestJson.replace(at, 22, "\"layout\": \"nhwc\"");  // the first entry by name: "b"
  const std::string path = writeWebnnWeights(dir, "m", files);
  auto source = WeightSource::open(path);
  EXPECT_TRUE(source->find("w")->supported);
  EXPECT_TRUE(source->find("p")->supported);
  EXPECT_EQ(source->find("p")->dataType, MLOperandDataType::Int4);
  Bytes buffer(6);
  expectError([&] { source->read(*source->find("b"), 0, std::span(buffer).first(4)); },
              Kind::NotSupportedError, {"'b'", "'bfloat16'", "not a WebNN data type"});
  expectError([&] { source->read(*source->find("q"), 0, buffer); }, Kind::NotSupportedError,
              {"'q'", "one 4-bit value per byte"});
  files = makeWebnnWeights({{"w", "float32", {2}, patternBytes(8, 1)}});
  files.manifestJson.replace(files.manifestJson.find("\"row-major\""), 11, "\"nchw\"");
  auto layout = WeightSource::open(writeWebnnWeights(dir, "layout", files));
  expectError([&] { layout->read(layout->tensors()[0], 0, std::span(buffer).first(8)); },
              Kind::NotSupportedError, {"'w'", "layout 'nchw'"});
}

// ---- malformed files ----

std::string manifestWith(const std::string& tensorsJson, const std::string& head =
                                                             R"("format": "wg-weights-manifest",
                                                                "version": 1,
                                                                "endianness": "little")") {
  return "{" + head + ", \"tensors\": {" + tensorsJson + "}}";
}

std::string writeCase(const TempDir& dir, const std::string& manifest, const Bytes& weights) {
  writeFile(dir.file("case.manifest.json"), manifest);
  writeFile(dir.file("case.weights"), weights);
  return dir.file("case.weights");
}

Bytes weightsFile(size_t dataBytes, uint32_t version = 1) {
  ByteWriter w;
  w.raw(std::string("WGWT")).u32(version).raw(patternBytes(dataBytes, 9));
  return w.bytes();
}

void expectOpenError(const std::string& path, std::initializer_list<std::string> parts) {
  expectError([&] { WeightSource::open(path); }, Kind::DataError, parts);
}

const char* kOne =
    R"("w": {"dataType": "float32", "shape": [2], "byteOffset": 8, "byteLength": 8})";

TEST(WeightSourceWebnnWeightsMalformed, WeightsFileHeader) {
  TempDir dir;
  expectOpenError(writeCase(dir, manifestWith(kOne), weightsFile(8, 2)),
                  {"case.weights", "unsupported WGWT version 2"});
  writeFile(dir.file("case.weights"), patternBytes(64, 3));
  expectOpenError(dir.file("case.weights"), {"case.weights", "WGWT"});
  // Opened through its manifest, a .weights file with a bad magic is named too.
  Bytes bad = weightsFile(8);
  bad[0] = std::byte{'X'};
  writeCase(dir, manifestWith(kOne), bad);
  expectOpenError(dir.file("case.manifest.json"), {"case.weights", "magic"});
  writeCase(dir, manifestWith(kOne), Bytes(5, std::byte{'W'}));
  expectOpenError(dir.file("case.manifest.json"), {"case.weights", "8-byte WGWT header"});
}

TEST(WeightSourceWebnnWeightsMalformed, ManifestHeader) {
  TempDir dir;
  const Bytes weights = weightsFile(8);
  expectOpenError(writeCase(dir, manifestWith(kOne, R"("format": "other", "version": 1)"), weights),
                  {"case.manifest.json", "format is 'other'"});
  expectOpenError(
      writeCase(dir, manifestWith(kOne, R"("format": "wg-weights-manifest", "version": 2)"),
                weights),
      {"case.manifest.json", "manifest version 2"});
  expectOpenError(writeCase(dir, manifestWith(kOne, R"("format": "wg-weights-manifest",
                                                        "version": 1, "endianness": "big")"),
                            weights),
                  {"case.manifest.json", "'big'"});
  expectOpenError(writeCase(dir, R"({"format": "wg-weights-manifest", "version": 1})", weights),
                  {"no \"tensors\""});
  expectOpenError(
      writeCase(dir, R"({"format": "wg-weights-manifest", "version": 1, "tensors": {,})", weights),
      {"case.manifest.json", "invalid JSON"});
  expectOpenError(
      writeCase(dir, R"({"format": "wg-weights-manifest", "version": 1, "tensors": []})", weights),
      {"case.manifest.json", "tensors", "an array"});
}

TEST(WeightSourceWebnnWeightsMalformed, TensorEntries) {
  TempDir dir;
  const Bytes weights = weightsFile(16);
  const auto check = [&](const std::string& tensors, std::initializer_list<std::string> parts) {
    expectOpenError(writeCase(dir, manifestWith(tensors), weights), parts);
  };
  check(R"("w": {"dataType": "float32", "shape": [2], "byteOffset": 4, "byteLength": 8})",
        {"tensor 'w'", "byteOffset 4", "8-byte header"});
  check(R"("w": {"dataType": "float32", "shape": [4], "byteOffset": 16, "byteLength": 16})",
        {"case.weights", "tensor 'w'", "beyond the end of the file (24 bytes)"});
  check(R"("w": {"dataType": "float32", "shape": [2], "byteOffset": 18446744073709551615,
                 "byteLength": 8})",
        {"tensor 'w'", "beyond the end"});
  check(R"("a": {"dataType": "float32", "shape": [2], "byteOffset": 8, "byteLength": 8},
           "b": {"dataType": "float32", "shape": [2], "byteOffset": 12, "byteLength": 8})",
        {"'a'", "'b'", "overlap"});
  check(R"("a": {"dataType": "float32", "shape": [2], "byteOffset": 8, "byteLength": 8},
           "a": {"dataType": "float32", "shape": [2], "byteOffset": 16, "byteLength": 8})",
        {"case.manifest.json", "duplicate key 'a'"});
  check(R"("w": {"dataType": "float32", "shape": [3], "byteOffset": 8, "byteLength": 8})",
        {"tensor 'w'", "float32 [3]", "12 bytes", "byteLength is 8"});
  check(R"("w": {"dataType": "float32", "shape": [4294967295, 4294967295, 4294967295],
                 "byteOffset": 8, "byteLength": 8})",
        {"tensor 'w'", "overflows"});
  check(R"("w": {"dataType": "float32", "shape": [4294967296], "byteOffset": 8, "byteLength": 8})",
        {"tensor 'w'", "4294967296"});
  check(R"("w": {"dataType": "float32", "shape": [2], "byteLength": 8})",
        {"tensor 'w'", "no \"byteOffset\""});
  check(R"("w": {"dataType": "float32", "shape": [2], "byteOffset": -8, "byteLength": 8})",
        {"byteOffset", "negative"});
  check(R"("w": {"dataType": "float32", "shape": [[2]], "byteOffset": 8, "byteLength": 8})",
        {"shape", "an array"});
  check(R"("w": 7)", {"tensors.w", "an integer"});
}

// ---- read faults ----

TEST(WeightSourceWebnnWeightsFaults, EioAndShortReadNameFileTensorOffsetAndRetrySucceeds) {
  TempDir dir;
  const auto tensors = sampleTensors();
  const std::string weights = writeWebnnWeights(dir, "model", makeWebnnWeights(tensors));
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(dir.file("model.manifest.json"), reader);
  const TensorInfo& big = *source->find("zeta.big");
  Bytes bytes(big.byteLength);
  for (const auto fault : {FaultyReader::Fault::Eio, FaultyReader::Fault::Eof}) {
    const uint64_t bad = big.byteOffset + big.byteLength - 1;
    reader->arm(fault, bad, bad + 1);
    expectError([&] { source->read(big, 0, bytes); }, Kind::OperationError,
                {weights, "'zeta.big'", "offset " + std::to_string(bad)});
    reader->disarm();
    source->read(big, 0, bytes);
    EXPECT_EQ(bytes, tensors[0].data);
  }
}

TEST(WeightSourceWebnnWeightsFaults, FaultReadingTheManifestIsAnOperationError) {
  TempDir dir;
  writeWebnnWeights(dir, "model", makeWebnnWeights(sampleTensors()));
  auto reader = std::make_shared<FaultyReader>();
  reader->arm(FaultyReader::Fault::Eio, 30, 31);  // both the manifest and the weights header
  expectError([&] { WeightSource::open(dir.file("model.weights"), reader); }, Kind::OperationError,
              {"model.manifest.json", "offset 30"});
}

}  // namespace
}  // namespace webnn::testing
