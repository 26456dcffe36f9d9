#include "conformance/runner.h"

#include <webnn/webnn.h>

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <map>
#include <set>

#include "conformance/case_loader.h"
#include "conformance/known_failures.h"
#include "conformance/replay.h"

namespace webnn::conformance {
namespace {

using Status = CaseOutcome::Status;

// The case being replayed, for the crash message: a kernel that crashes takes the runner with
// it, and this says which case (and path) it was.
char gCurrentCase[1024] = "";

extern "C" void reportCrash(int signal) {
  const char prefix[] = "\nconformance: crashed (signal) while running ";
  [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, prefix, sizeof prefix - 1);
  written = ::write(STDERR_FILENO, gCurrentCase, std::strlen(gCurrentCase));
  written = ::write(STDERR_FILENO, "\n", 1);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void setCurrentCase(const Case& c, ConstantPath path) {
  std::snprintf(gCurrentCase, sizeof gCurrentCase, "%s/%s (%s)", c.op.c_str(), c.name.c_str(),
                toString(path));
}

bool selected(const RunnerOptions& options, const std::string& op) {
  return options.ops.empty() ||
         std::find(options.ops.begin(), options.ops.end(), op) != options.ops.end();
}

const char* statusText(Status status) {
  switch (status) {
    case Status::Passed:
      return "PASS";
    case Status::Failed:
      return "FAIL";
    case Status::Known:
      return "KNOWN";
    case Status::KnownNowPassing:
      return "KNOWN-NOW-PASSING";
    case Status::Unsupported:
      return "UNSUPPORTED";
  }
  return "?";
}

CaseOutcome runCase(MLContext& context, const Case& c, const KnownFailures& known) {
  CaseOutcome outcome;
  outcome.op = c.op;
  outcome.name = c.name;
  std::vector<ConstantPath> paths = {ConstantPath::Classic};
  if (c.hasConstants()) paths.push_back(ConstantPath::Hollow);
  bool allUnsupported = true;
  for (ConstantPath path : paths) {
    setCurrentCase(c, path);
    ReplayResult result = replayCase(context, c, path);
    if (result.passed) {
      allUnsupported = false;
      continue;
    }
    outcome.failures.emplace_back(toString(path), result.message);
    outcome.runnerError = outcome.runnerError || result.runnerError;
    allUnsupported = allUnsupported && result.unsupported;
  }
  const std::string* reason = known.reason(c.id());
  if (reason) outcome.knownReason = *reason;
  if (!outcome.failures.empty() && allUnsupported) {
    outcome.status = Status::Unsupported;
  } else if (outcome.failures.empty()) {
    outcome.status = reason ? Status::KnownNowPassing : Status::Passed;
  } else {
    outcome.status = reason ? Status::Known : Status::Failed;
  }
  return outcome;
}

}  // namespace

size_t Report::passed() const {
  return std::count_if(cases.begin(), cases.end(), [](const CaseOutcome& c) {
    return c.status == Status::Passed || c.status == Status::KnownNowPassing;
  });
}
size_t Report::failed() const {
  return std::count_if(cases.begin(), cases.end(),
                       [](const CaseOutcome& c) { return c.status == Status::Failed; });
}
size_t Report::known() const {
  return std::count_if(cases.begin(), cases.end(),
                       [](const CaseOutcome& c) { return c.status == Status::Known; });
}
size_t Report::knownNowPassing() const {
  return std::count_if(cases.begin(), cases.end(),
                       [](const CaseOutcome& c) { return c.status == Status::KnownNowPassing; });
}
size_t Report::unsupported() const {
  return std::count_if(cases.begin(), cases.end(),
                       [](const CaseOutcome& c) { return c.status == Status::Unsupported; });
}
int Report::exitStatus() const {
  return failed() == 0 && knownNowPassing() == 0 && staleKnownFailures.empty() ? 0 : 1;
}

Report runConformance(const RunnerOptions& options, std::FILE* progress) {
  const std::vector<CaseFile> files = loadCaseDirectory(options.directory);
  for (const std::string& op : options.ops) {
    if (std::none_of(files.begin(), files.end(), [&](const CaseFile& f) { return f.op == op; })) {
      throw std::runtime_error("no vectors for op \"" + op + "\" in " + options.directory.string());
    }
  }
  KnownFailures known;
  if (options.knownFailures) known = KnownFailures::load(*options.knownFailures);

  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(signal, reportCrash);

  MLContextOptions contextOptions;
  contextOptions.backend = options.backend;
  MLContext context = createContext(contextOptions);

  Report report;
  report.backend = context.backendName();
  std::set<std::string> seen;
  for (const CaseFile& file : files) {
    if (!selected(options, file.op)) continue;
    for (const Case& c : file.cases) {
      seen.insert(c.id());
      if (!options.caseSubstring.empty() &&
          c.name.find(options.caseSubstring) == std::string::npos) {
        continue;
      }
      if (options.verbose && progress) {
        std::fprintf(progress, "%s/%s ... ", c.op.c_str(), c.name.c_str());
        std::fflush(progress);
      }
      report.cases.push_back(runCase(context, c, known));
      if (options.verbose && progress) {
        const CaseOutcome& outcome = report.cases.back();
        std::fprintf(progress, "%s%s\n", statusText(outcome.status),
                     c.hasConstants() ? " (classic + hollow)" : "");
        for (const auto& [path, message] : outcome.failures) {
          std::fprintf(progress, "    %s: %s\n", path.c_str(), message.c_str());
        }
        std::fflush(progress);
      }
    }
  }
  // Entries naming no case at all: only judged on a run of the whole suite.
  if (options.ops.empty()) {
    for (const auto& [id, reason] : known.entries()) {
      if (!seen.count(id)) report.staleKnownFailures.push_back(id);
    }
  }
  return report;
}

std::string summaryLine(const Report& report) {
  std::string line = "conformance: " + std::to_string(report.passed()) + " passed, " +
                     std::to_string(report.failed()) + " failed, " +
                     std::to_string(report.known()) + " known";
  if (report.unsupported() > 0) {
    line += ", " + std::to_string(report.unsupported()) + " unsupported by the backend";
  }
  return line;
}

void printReport(const Report& report, std::FILE* out) {
  struct Row {
    size_t passed = 0, failed = 0, known = 0, unsupported = 0;
  };
  std::map<std::string, Row> rows;
  for (const CaseOutcome& c : report.cases) {
    Row& row = rows[c.op];
    if (c.status == Status::Passed || c.status == Status::KnownNowPassing) ++row.passed;
    if (c.status == Status::Failed) ++row.failed;
    if (c.status == Status::Known) ++row.known;
    if (c.status == Status::Unsupported) ++row.unsupported;
  }
  std::fprintf(out, "backend: %s\n\n%-38s %7s %7s %7s %11s\n", report.backend.c_str(), "op",
               "passed", "failed", "known", "unsupported");
  for (const auto& [op, row] : rows) {
    std::fprintf(out, "%-38s %7zu %7zu %7zu %11zu\n", op.c_str(), row.passed, row.failed, row.known,
                 row.unsupported);
  }

  auto printCases = [&](Status status, const char* title) {
    bool any = false;
    for (const CaseOutcome& c : report.cases) {
      if (c.status != status) continue;
      if (!any) std::fprintf(out, "\n%s:\n", title);
      any = true;
      std::fprintf(out, "  %s/%s\n", c.op.c_str(), c.name.c_str());
      if (!c.knownReason.empty()) std::fprintf(out, "    known: %s\n", c.knownReason.c_str());
      for (const auto& [path, message] : c.failures) {
        std::fprintf(out, "    %s: %s\n", path.c_str(), message.c_str());
      }
    }
  };
  printCases(Status::Failed, "failures");
  printCases(Status::KnownNowPassing,
             "known failures now passing (remove them from the known-failure list)");
  if (!report.staleKnownFailures.empty()) {
    std::fprintf(out, "\nknown-failure entries that name no case (remove them):\n");
    for (const std::string& id : report.staleKnownFailures) std::fprintf(out, "  %s\n", id.c_str());
  }
  std::fprintf(out, "\n%s\n", summaryLine(report).c_str());
}

std::string reportJson(const Report& report) {
  nlohmann::ordered_json json;
  json["backend"] = report.backend;
  json["passed"] = report.passed();
  json["failed"] = report.failed();
  json["known"] = report.known();
  json["knownNowPassing"] = report.knownNowPassing();
  json["unsupported"] = report.unsupported();
  json["staleKnownFailures"] = report.staleKnownFailures;
  nlohmann::ordered_json cases = nlohmann::ordered_json::array();
  for (const CaseOutcome& c : report.cases) {
    nlohmann::ordered_json entry;
    entry["op"] = c.op;
    entry["name"] = c.name;
    entry["status"] = statusText(c.status);
    if (!c.knownReason.empty()) entry["knownReason"] = c.knownReason;
    if (c.runnerError) entry["runnerError"] = true;
    for (const auto& [path, message] : c.failures) entry["failures"][path] = message;
    cases.push_back(entry);
  }
  json["cases"] = cases;
  json["summary"] = summaryLine(report);
  return json.dump(1);
}

}  // namespace webnn::conformance
