// The formats a WeightSource reads; WeightSource::open() picks one from the file's contents.
#pragma once

#include <memory>
#include <string>

#include "file_reader.h"
#include "webnn/weight_source.h"

namespace webnn::weights {

// `file` is `path`, already open; its first bytes looked like the format's.
std::unique_ptr<WeightSource> openSafetensors(const std::string& path, OpenedFile file,
                                              std::shared_ptr<FileReader> reader);
std::unique_ptr<WeightSource> openGguf(const std::string& path, OpenedFile file,
                                       std::shared_ptr<FileReader> reader);
// The WebNN graph weights format of rustnn/webnn-graph: a JSON manifest beside a .weights file.
// `openedPath` is the path given to WeightSource::open() (either of the two).
std::unique_ptr<WeightSource> openWebnnWeights(const std::string& openedPath,
                                               const std::string& manifestPath,
                                               const std::string& weightsPath,
                                               std::shared_ptr<FileReader> reader);

// Reads a whole small file (a manifest) through `reader`, refusing one larger than `limit` bytes.
std::string readSmallFile(const std::string& path, uint64_t limit, FileReader& reader,
                          std::string_view what);

}  // namespace webnn::weights
