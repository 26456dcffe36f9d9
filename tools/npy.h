// .npy files (NumPy format 1.0/2.0/3.0, C order, little-endian) of every WebNN type numpy has:
// float32, float16, int64, uint64, int32, uint32, int8 and uint8 (bool reads as uint8).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include <webnn/types.h>

namespace webnn::tools {

struct NpyArray {
  MLOperandDataType dataType = MLOperandDataType::Float32;
  std::vector<uint32_t> shape;
  std::vector<std::byte> data;
};

// Throws webnn::Error (DataError) naming the file on anything malformed or unsupported: every
// length is checked against the file's size before anything is allocated; a FIFO or other
// non-regular file is refused without blocking.
NpyArray readNpy(const std::string& path);
// Throws OperationError naming the file when any write, the sync or the close fails (a full disk);
// a regular file is replaced only once every byte is written (see writeFileChecked).
void writeNpy(const std::string& path, const NpyArray& array);

// Writes `parts` end to end to `path`, every write and the close checked (OperationError naming
// the file and the reason). A regular file goes through a temporary file renamed over it.
void writeFileChecked(const std::string& path,
                      std::initializer_list<std::span<const std::byte>> parts);

}  // namespace webnn::tools
