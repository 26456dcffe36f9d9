// Runs the conformance vectors of a directory on one backend and reports per case and per op.
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace webnn::conformance {

struct RunnerOptions {
  std::filesystem::path directory;
  std::string backend;           // empty: the default backend
  std::vector<std::string> ops;  // only these op buckets (all when empty)
  std::string caseSubstring;     // only cases whose name contains this
  std::optional<std::filesystem::path> knownFailures;
  bool verbose = false;  // a line per case as it runs
};

struct CaseOutcome {
  // Unsupported: every path failed because the backend lacks an op, data type or rank the case
  // needs (its opSupportLimits say so); counted apart, never a failure.
  enum class Status { Passed, Failed, Known, KnownNowPassing, Unsupported };
  std::string op;
  std::string name;
  Status status = Status::Passed;
  // For failures: each failing path ("classic", "hollow") with what went wrong.
  std::vector<std::pair<std::string, std::string>> failures;
  bool runnerError = false;
  std::string knownReason;
};

struct Report {
  std::string backend;
  std::vector<CaseOutcome> cases;
  std::vector<std::string> staleKnownFailures;  // listed, but no such case (full runs only)
  size_t passed() const;
  size_t failed() const;  // unexpected failures
  size_t known() const;   // listed and still failing
  size_t knownNowPassing() const;
  size_t unsupported() const;
  // 0 iff no unexpected failure, no known failure now passing and no stale entry.
  int exitStatus() const;
};

// Throws std::runtime_error (bad directory, vector file or known-failure list).
Report runConformance(const RunnerOptions& options, std::FILE* progress);

void printReport(const Report& report, std::FILE* out);
std::string reportJson(const Report& report);
// "conformance: P passed, F failed, K known" (", U unsupported" when any)
std::string summaryLine(const Report& report);

}  // namespace webnn::conformance
