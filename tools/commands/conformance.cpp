// webnn conformance: runs the WPT conformance vectors (tests/conformance/wpt) on a backend.
#include <webnn/webnn.h>

#include <cstdio>
#include <memory>

#include "command.h"
#include "conformance/runner.h"

WEBNN_COMMAND("conformance", registerConformanceCommand,
              "Run the WebNN conformance vectors (WPT) on a backend") {
  auto options = std::make_shared<webnn::conformance::RunnerOptions>();
  auto knownFailures = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  app.add_option("DIR", options->directory, "Directory of <op>.json vector files")->required();
  app.add_option("--backend", options->backend, "Backend to run on (default: the default backend)");
  app.add_option("--op", options->ops, "Only this op's vectors (repeatable)");
  app.add_option("--case", options->caseSubstring, "Only cases whose name contains this");
  app.add_option("--known-failures", *knownFailures,
                 "The backend's list of known failures (<op>/<case name>  # reason)");
  app.add_flag("--verbose", options->verbose, "Print each case as it runs (on stderr)");
  app.add_flag("--json", *json, "Print the report as JSON instead of the table");
  return [options, knownFailures, json] {
    if (!knownFailures->empty()) options->knownFailures = *knownFailures;
    const webnn::conformance::Report report = webnn::conformance::runConformance(*options, stderr);
    if (*json) {
      std::printf("%s\n", webnn::conformance::reportJson(report).c_str());
    } else {
      webnn::conformance::printReport(report, stdout);
    }
    return report.exitStatus();
  };
}
