// The WeightSource of an imported ONNX model: the weights' bytes may lie in the model file
// (embedded raw_data) and in any number of external data files. The files are laid end to end in
// one address space that a FileReader resolves; with a single file, offsets are that file's own
// (and fileDescriptor() is its descriptor, so loadConstants may map it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "webnn/weight_source.h"

namespace webnn::onnx_import {

struct WeightEntry {
  TensorInfo info;   // byteOffset: inside its own file
  std::string file;  // path of the file holding the bytes
  uint64_t fileSize = 0;
};

// Opens every file the entries name (through `reader`) and lists the entries. Throws DataError
// when a range lies outside its file.
std::unique_ptr<WeightSource> makeModelWeightSource(const std::string& modelPath,
                                                    std::vector<WeightEntry> entries,
                                                    std::shared_ptr<FileReader> reader);

}  // namespace webnn::onnx_import
