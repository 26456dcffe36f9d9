// webnn onnx-test: runs ONNX test cases (ONNX's backend node tests, or a user's folders in their
// layout) through the importer on a backend, and checks each against an expected-results file.
#include <webnn/webnn.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "command.h"
#include "npy.h"

#ifdef WEBNN_HAVE_ONNX
#include "onnx_suite/suite.h"
#endif

namespace {

struct OnnxTestOptions {
  std::vector<std::string> paths;
  std::string backend, caseSubstring, expected, writeExpected, scopeOps;
  double rtol = 1e-3, atol = 1e-7;
  bool verbose = false, json = false;
};

#ifdef WEBNN_HAVE_ONNX
using namespace webnn;
using namespace webnn::onnx_suite;

struct Counts {
  size_t cases = 0, pass = 0, refused = 0, failed = 0, wrong = 0;
  void add(const CaseOutcome& outcome) {
    ++cases;
    switch (outcome.status) {
      case CaseStatus::Pass:
        ++pass;
        break;
      case CaseStatus::Refused:
        ++refused;
        break;
      case CaseStatus::Failed:
        ++failed;
        break;
      case CaseStatus::Wrong:
        ++wrong;
        break;
    }
  }
  std::string text() const {
    return std::to_string(cases) + " cases: " + std::to_string(pass) + " pass, " +
           std::to_string(refused) + " refused, " + std::to_string(failed) + " failed, " +
           std::to_string(wrong) + " wrong";
  }
  nlohmann::json json() const {
    return {{"cases", cases},
            {"pass", pass},
            {"refused", refused},
            {"failed", failed},
            {"wrong", wrong}};
  }
};

// Reasons grouped on their first 110 characters (enough to name the op and the cause).
std::string reasonGroup(const std::string& reason) {
  return reason.size() > 110 ? reason.substr(0, 107) + "..." : reason;
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Error::Kind::DataError, path + ": cannot read the expected results");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int runOnnxTest(const OnnxTestOptions& o) {
  SuiteOptions options;
  options.backend = o.backend;
  options.caseSubstring = o.caseSubstring;
  options.tolerance = {o.rtol, o.atol};
  options.verbose = o.verbose;
  if (!o.scopeOps.empty()) options.scopeOps = readOpList(o.scopeOps);
  std::map<std::string, CaseOutcome> expected;
  if (!o.expected.empty()) expected = parseExpectations(readText(o.expected), o.expected);

  std::vector<CaseOutcome> outcomes;
  std::string backendName;
  for (const auto& path : o.paths) {
    for (const auto& folder : findCases(path)) {
      const std::string name = folder.substr(folder.find_last_of('/') + 1);
      if (!o.caseSubstring.empty() && name.find(o.caseSubstring) == std::string::npos) continue;
      if (o.verbose) std::fprintf(stderr, "%s ... ", name.c_str());
      outcomes.push_back(runCase(folder, options));
      if (o.verbose) {
        const auto& last = outcomes.back();
        std::fprintf(stderr, "%s%s%s\n", std::string(toString(last.status)).c_str(),
                     last.reason.empty() ? "" : " ", last.reason.c_str());
      }
    }
  }
  backendName = createContext({.backend = o.backend}).backendName();

  Counts all, scope;
  std::map<std::string, size_t> reasons;
  for (const auto& outcome : outcomes) {
    all.add(outcome);
    if (outcome.inScope) scope.add(outcome);
    if (outcome.status != CaseStatus::Pass) {
      ++reasons[std::string(toString(outcome.status)) + " " + reasonGroup(outcome.reason)];
    }
  }
  std::printf("onnx-test on backend %s: %s\n", backendName.c_str(), all.text().c_str());
  size_t passedFixed = 0;
  for (const auto& outcome : outcomes)
    passedFixed += outcome.status == CaseStatus::Pass && !outcome.fixedInputs.empty();
  if (passedFixed > 0) {
    std::printf(
        "(%zu of the passing cases ran with inputs fixed at import: shapes, axes or "
        "other values the graph needs as constants, given by the data set)\n",
        passedFixed);
  }
  if (!options.scopeOps.empty()) {
    std::printf("in scope (every op in %s, static input shapes, WebNN's types): %s\n",
                o.scopeOps.c_str(), scope.text().c_str());
  }
  std::vector<std::pair<size_t, std::string>> byCount;
  for (const auto& [reason, count] : reasons) byCount.emplace_back(count, reason);
  std::stable_sort(byCount.begin(), byCount.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (!byCount.empty()) std::printf("cases not passing, by reason (most frequent first):\n");
  for (size_t i = 0; i < byCount.size() && i < 25; ++i)
    std::printf("  %4zu  %s\n", byCount[i].first, byCount[i].second.c_str());
  if (byCount.size() > 25) std::printf("  (%zu more reasons)\n", byCount.size() - 25);

  int status = all.pass == all.cases ? 0 : 1;
  if (!o.expected.empty()) {
    const bool everyCaseRan = o.caseSubstring.empty();
    size_t reworded = 0;
    const auto found = differences(outcomes, expected, everyCaseRan, &reworded);
    std::printf("against %s: %zu difference(s)%s\n", o.expected.c_str(), found.size(),
                reworded ? (", " + std::to_string(reworded) +
                            " reason(s) reworded with the same status and error")
                               .c_str()
                         : "");
    for (const auto& d : found) {
      std::printf("  %s\n    expected: %s\n    now:      %s\n", d.name.c_str(), d.expected.c_str(),
                  d.actual.c_str());
    }
    if (!found.empty()) {
      std::printf("(after a change that is meant: webnn onnx-test ... --write-expected FILE)\n");
    }
    status = found.empty() ? 0 : 1;
  }
  if (!o.writeExpected.empty()) {
    const std::string text = formatExpectations(
        outcomes, {"Expected results of `webnn onnx-test` on backend " + backendName +
                       " (tests/onnx_suite): <case> pass | refused|failed|wrong <reason>.",
                   "Regenerate with --write-expected after a change that is meant; "
                   "docs/onnx-coverage.md has the figures."});
    const auto* bytes = reinterpret_cast<const std::byte*>(text.data());
    tools::writeFileChecked(o.writeExpected, {{bytes, text.size()}});
    std::printf("wrote %s (%zu cases)\n", o.writeExpected.c_str(), outcomes.size());
  }
  if (o.json) {
    nlohmann::json json = {
        {"backend", backendName}, {"all", all.json()}, {"pass_with_fixed_inputs", passedFixed}};
    if (!options.scopeOps.empty()) json["in_scope"] = scope.json();
    std::printf("onnx-test-json: %s\n", json.dump().c_str());
  }
  return status;
}
#endif

}  // namespace

WEBNN_COMMAND("onnx-test", registerOnnxTestCommand,
              "Run ONNX test cases (model.onnx + test_data_set_N) through the importer") {
  auto o = std::make_shared<OnnxTestOptions>();
  app.add_option("PATH", o->paths, "A case folder, or a folder of case folders")->required();
  app.add_option("--backend", o->backend, "Backend to run on (default: the default backend)");
  app.add_option("--case", o->caseSubstring, "Only cases whose name contains this");
  app.add_option("--expected", o->expected,
                 "Expected results: a difference in any case's status makes the exit status 1");
  app.add_option("--write-expected", o->writeExpected, "Write this run's results to this file");
  app.add_option("--scope-ops", o->scopeOps,
                 "ONNX op types that put a case in scope (one per line): its counts are shown");
  app.add_option("--rtol", o->rtol, "Relative tolerance (ONNX's default: 1e-3)");
  app.add_option("--atol", o->atol, "Absolute tolerance (ONNX's default: 1e-7)");
  app.add_flag("--verbose", o->verbose, "Print each case as it runs (on stderr)");
  app.add_flag("--json", o->json, "Also print one machine-readable line (onnx-test-json: {...})");
  return [o]() -> int {
#ifdef WEBNN_HAVE_ONNX
    return runOnnxTest(*o);
#else
    std::fprintf(stderr, "webnn onnx-test: this build has no ONNX importer (libonnx-dev)\n");
    return 2;
#endif
  };
}
