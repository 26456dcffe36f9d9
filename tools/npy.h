// .npy files (NumPy format 1.0/2.0/3.0, C order, little-endian) for float32, float16, int64,
// int32 and uint8 (bool reads as uint8).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <webnn/types.h>

namespace webnn::tools {

struct NpyArray {
  MLOperandDataType dataType = MLOperandDataType::Float32;
  std::vector<uint32_t> shape;
  std::vector<std::byte> data;
};

// Throws webnn::Error (DataError) naming the file on anything malformed or unsupported.
NpyArray readNpy(const std::string& path);
void writeNpy(const std::string& path, const NpyArray& array);

}  // namespace webnn::tools
