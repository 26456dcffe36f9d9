#include "onnx_suite/expectations.h"

#include <webnn/types.h>

#include <algorithm>
#include <set>

namespace webnn::onnx_suite {
namespace {

std::string describe(const CaseOutcome& outcome) {
  std::string text(toString(outcome.status));
  if (!outcome.reason.empty()) text += " " + outcome.reason;
  return text;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

// The next whitespace-separated word of `text`, removed from it.
std::string_view nextWord(std::string_view& text) {
  text = trim(text);
  const size_t end = std::min(text.find_first_of(" \t"), text.size());
  const std::string_view word = text.substr(0, end);
  text = trim(text.substr(end));
  return word;
}

}  // namespace

std::string_view toString(CaseStatus status) {
  switch (status) {
    case CaseStatus::Pass:
      return "pass";
    case CaseStatus::Refused:
      return "refused";
    case CaseStatus::Failed:
      return "failed";
    case CaseStatus::Wrong:
      return "wrong";
  }
  return "?";
}

std::optional<CaseStatus> parseCaseStatus(std::string_view text) {
  for (CaseStatus status :
       {CaseStatus::Pass, CaseStatus::Refused, CaseStatus::Failed, CaseStatus::Wrong}) {
    if (text == toString(status)) return status;
  }
  return std::nullopt;
}

std::string formatExpectations(const std::vector<CaseOutcome>& outcomes,
                               const std::vector<std::string>& headerLines) {
  std::string text;
  for (const auto& line : headerLines) text += "# " + line + "\n";
  std::vector<const CaseOutcome*> sorted;
  for (const auto& outcome : outcomes) sorted.push_back(&outcome);
  std::sort(sorted.begin(), sorted.end(),
            [](const CaseOutcome* a, const CaseOutcome* b) { return a->name < b->name; });
  for (const CaseOutcome* outcome : sorted) {
    std::string reason = outcome->reason;
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    text += outcome->name + " " + std::string(toString(outcome->status));
    if (!reason.empty()) text += " " + reason;
    text += "\n";
  }
  return text;
}

std::map<std::string, CaseOutcome> parseExpectations(std::string_view text,
                                                     const std::string& file) {
  std::map<std::string, CaseOutcome> expected;
  size_t lineNumber = 0;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = trim(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
    ++lineNumber;
    if (line.empty() || line.front() == '#') continue;
    const std::string where = file + " line " + std::to_string(lineNumber);
    CaseOutcome outcome;
    outcome.name = std::string(nextWord(line));
    const std::string_view statusWord = nextWord(line);
    const auto status = parseCaseStatus(statusWord);
    if (!status) {
      throw Error(Error::Kind::DataError, where + ": '" + std::string(statusWord) +
                                              "' is not a status (pass, refused, " +
                                              "failed or wrong) after case '" + outcome.name + "'");
    }
    outcome.status = *status;
    outcome.reason = std::string(line);
    if (outcome.status == CaseStatus::Pass && !outcome.reason.empty()) {
      throw Error(Error::Kind::DataError,
                  where + ": case '" + outcome.name + "' passes, so it takes no reason");
    }
    if (outcome.status != CaseStatus::Pass && outcome.reason.empty()) {
      throw Error(Error::Kind::DataError, where + ": case '" + outcome.name + "' is " +
                                              std::string(statusWord) + " without a reason");
    }
    const std::string name = outcome.name;
    if (!expected.emplace(name, std::move(outcome)).second) {
      throw Error(Error::Kind::DataError, where + ": case '" + name + "' is listed twice");
    }
  }
  return expected;
}

std::string errorName(const std::string& reason) {
  const size_t colon = reason.find(':');
  if (colon == std::string::npos) return {};
  const std::string name = reason.substr(0, colon);
  const bool oneWord = !name.empty() && name.find(' ') == std::string::npos;
  return oneWord && name.size() > 5 && name.compare(name.size() - 5, 5, "Error") == 0 ? name : "";
}

std::vector<Difference> differences(const std::vector<CaseOutcome>& outcomes,
                                    const std::map<std::string, CaseOutcome>& expected,
                                    bool everyCaseRan, size_t* rewordedCount) {
  std::vector<Difference> found;
  size_t reworded = 0;
  std::set<std::string> ran;
  for (const auto& outcome : outcomes) {
    ran.insert(outcome.name);
    const auto it = expected.find(outcome.name);
    if (it == expected.end()) {
      found.push_back({outcome.name, "(not listed)", describe(outcome)});
      continue;
    }
    const CaseOutcome& want = it->second;
    const bool sameStatus = want.status == outcome.status;
    const bool sameError =
        want.status == CaseStatus::Wrong || errorName(want.reason) == errorName(outcome.reason);
    if (!sameStatus || !sameError) {
      found.push_back({outcome.name, describe(want), describe(outcome)});
    } else if (want.reason != outcome.reason) {
      ++reworded;
    }
  }
  if (everyCaseRan) {
    for (const auto& [name, want] : expected) {
      if (!ran.count(name)) found.push_back({name, describe(want), "(not run)"});
    }
  }
  if (rewordedCount) *rewordedCount = reworded;
  return found;
}

}  // namespace webnn::onnx_suite
