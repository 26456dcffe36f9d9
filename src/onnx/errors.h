// Errors of the ONNX importer: DataError for malformed files, NotSupportedError for what it cannot
// map, both naming the file or node involved.
#pragma once

#include <string>

#include "webnn/types.h"
#include "weights/file_reader.h"

namespace webnn::onnx_import {

using weights::quoteName;
using weights::throwDataError;

[[noreturn]] inline void throwNotSupported(const std::string& message) {
  throw Error(Error::Kind::NotSupportedError, message);
}

}  // namespace webnn::onnx_import
