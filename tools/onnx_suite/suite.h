// Runs ONNX test cases (the layout of ONNX's backend node tests: a folder holding model.onnx and
// test_data_set_N/{input,output}_M.pb) through the importer on one backend, and compares each
// output with ONNX's rules (allclose.h). `webnn onnx-test` and tests/onnx_suite use it.
#pragma once

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "onnx_suite/allclose.h"
#include "onnx_suite/expectations.h"

namespace webnn::onnx_suite {

struct SuiteOptions {
  std::string backend;        // empty: the default backend
  std::string caseSubstring;  // only cases whose name contains it
  // ONNX op types a case may use to be in scope (ONNX Runtime's WebNN provider's table, say),
  // when its inputs and outputs also have static shapes and types WebNN has; empty: no case is.
  std::set<std::string> scopeOps;
  Tolerance tolerance;
  bool verbose = false;  // one line per case on the log
};

// The case folders under `path`, sorted by name: `path` itself when it holds model.onnx, else its
// subfolders that do. Throws DataError naming `path` when there are none.
std::vector<std::string> findCases(const std::string& path);

// Imports, builds, loads and dispatches one case on every data set; never throws for what the
// case does (that becomes the outcome's status and reason).
CaseOutcome runCase(const std::string& caseFolder, const SuiteOptions& options);

// Reads an op list: one ONNX op type a line, '#' comments. DataError naming the file.
std::set<std::string> readOpList(const std::string& path);

}  // namespace webnn::onnx_suite
