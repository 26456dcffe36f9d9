// A backend's list of conformance cases it is known to fail, each with its reason.
//
// File format (one entry a line):
//   <op>/<exact case name>  # reason
// <op> is the vector file's stem ("relu", "multi__subgraph"); the case name is everything up to
// the last "  #" (two spaces, then '#'). The reason is required. Blank lines and lines whose
// first non-blank character is '#' are comments.
#pragma once

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

namespace webnn::conformance {

class KnownFailures {
 public:
  // Throws std::runtime_error naming the file and line of a malformed entry or a duplicate.
  static KnownFailures parse(const std::string& text, const std::string& sourceName);
  static KnownFailures load(const std::filesystem::path& path);

  // The reason when `caseId` ("<op>/<name>") is listed, else nullptr.
  const std::string* reason(const std::string& caseId) const;
  const std::map<std::string, std::string>& entries() const { return entries_; }

 private:
  std::map<std::string, std::string> entries_;  // case id -> reason
};

}  // namespace webnn::conformance
