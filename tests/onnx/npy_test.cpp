// .npy reading and writing: round trips of every supported type, and malformed files.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "npy.h"
#include "test_helpers.h"

namespace webnn::testing {
namespace {

std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + name;
}

TEST(Npy, RoundTripsEveryType) {
  for (auto type : {MLOperandDataType::Float32, MLOperandDataType::Float16,
                    MLOperandDataType::Int64, MLOperandDataType::Uint64, MLOperandDataType::Int32,
                    MLOperandDataType::Uint32, MLOperandDataType::Int8, MLOperandDataType::Uint8}) {
    tools::NpyArray a;
    a.dataType = type;
    a.shape = {2, 3};
    a.data.resize(6 * bitsPerElement(type) / 8);
    for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = static_cast<std::byte>(i * 7);
    const std::string path = tempPath("round.npy");
    tools::writeNpy(path, a);
    const auto b = tools::readNpy(path);
    EXPECT_EQ(b.dataType, type);
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.data, a.data);
  }
}

TEST(Npy, ScalarsAndVectors) {
  for (std::vector<uint32_t> shape : {std::vector<uint32_t>{}, std::vector<uint32_t>{5}}) {
    tools::NpyArray a;
    a.shape = shape;
    a.data.resize(4 * (shape.empty() ? 1 : 5));
    const std::string path = tempPath("shape.npy");
    tools::writeNpy(path, a);
    EXPECT_EQ(tools::readNpy(path).shape, shape);
  }
}

TEST(Npy, MalformedFilesAreDataErrors) {
  const std::string path = tempPath("bad.npy");
  auto write = [&](const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  };
  write("not numpy at all");
  expectError([&] { tools::readNpy(path); }, Error::Kind::DataError, {"not a .npy"});
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n";
  write(std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header);
  expectError([&] { tools::readNpy(path); }, Error::Kind::DataError, {"<f8", "WebNN's types"});
  header = "{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }\n";
  write(std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header +
        "abcd");
  expectError([&] { tools::readNpy(path); }, Error::Kind::DataError, {">i4", "little-endian"});
  header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }\n";
  write(std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header +
        "abcd");
  expectError([&] { tools::readNpy(path); }, Error::Kind::DataError, {"fewer bytes"});
}

}  // namespace
}  // namespace webnn::testing
