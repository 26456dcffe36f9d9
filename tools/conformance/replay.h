// Replays one conformance case through the public API: build, (fill hollow constants), dispatch,
// read and compare every expected output.
#pragma once

#include <webnn/webnn.h>

#include <string>

#include "conformance/case_loader.h"

namespace webnn::conformance {

// How the case's constant inputs reach the graph.
enum class ConstantPath {
  Classic,  // builder.constant(descriptor, data)
  Hollow,   // builder.constant(descriptor, {label}) and graph.setConstantData/writeConstantData
};
const char* toString(ConstantPath path);

struct ReplayResult {
  bool passed = false;
  // On failure: what differed ("output 'x' [3]: got 1, expected 2 (4 ULP > 1 ULP)") or the error
  // thrown and where ("TypeError at conv2d: ...").
  std::string message;
  bool runnerError = false;  // the runner could not express the case (not the library's fault)
  // The backend refused an op, data type or rank that the spec allows (NotSupportedError "not
  // supported by the <backend> backend", or a TypeError "(the <backend> backend)" or over its
// maxTensorByteLength): counted as
  // unsupported, not failed.
  bool unsupported = false;
};

// Whether `error` is a backend's own limit (see ReplayResult::unsupported); never on "reference".
bool isBackendLimit(const std::exception& error, const std::string& backend);

ReplayResult replayCase(MLContext& context, const Case& c, ConstantPath path);

}  // namespace webnn::conformance
