// What `webnn onnx-test` expects of each case on a backend, and how a run differs from it. The
// expected-results file has one line per case: "<case> <status>[ <reason>]", status one of pass,
// refused (import or build threw: the reason is "<ErrorName>: <message>"), failed (loading the
// weights or dispatch threw) and wrong (an output differs: the reason says where). Lines starting
// with '#' are comments.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace webnn::onnx_suite {

enum class CaseStatus { Pass, Refused, Failed, Wrong };

std::string_view toString(CaseStatus status);
std::optional<CaseStatus> parseCaseStatus(std::string_view text);

struct CaseOutcome {
  std::string name;
  CaseStatus status = CaseStatus::Pass;
  std::string reason;    // empty for pass
  bool inScope = false;  // every op in the scope list and every input shape static
  // Graph inputs the case ran with fixed at import (not recorded in the expected results).
  std::vector<std::string> fixedInputs{};
};

// The file's text for `outcomes` (sorted by name), under a comment header of `headerLines`.
std::string formatExpectations(const std::vector<CaseOutcome>& outcomes,
                               const std::vector<std::string>& headerLines);
// Parses the file's text; DataError naming `file` and the line on a malformed line or a case
// listed twice.
std::map<std::string, CaseOutcome> parseExpectations(std::string_view text,
                                                     const std::string& file);

// "NotSupportedError" from "NotSupportedError: ...", empty when the reason names no error.
std::string errorName(const std::string& reason);

struct Difference {
  std::string name;
  std::string expected;  // "pass", "refused NotSupportedError: ...", or "(not listed)"
  std::string actual;    // likewise, or "(not run)"
};

// The cases whose status (or, for refused and failed, the error's name) differs from what is
// expected; cases listed but not run count only when `everyCaseRan`. Reworded reasons with the
// same status and error name are not differences: `rewordedCount` counts them.
std::vector<Difference> differences(const std::vector<CaseOutcome>& outcomes,
                                    const std::map<std::string, CaseOutcome>& expected,
                                    bool everyCaseRan, size_t* rewordedCount = nullptr);

}  // namespace webnn::onnx_suite
