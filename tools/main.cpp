// The webnn command: `webnn <subcommand> --help` for each.
#include <webnn/webnn.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "command.h"

namespace webnn::tools {
namespace {
struct Entry {
  std::string description;
  CommandSetup setup;
};
std::map<std::string, Entry>& commands() {
  static std::map<std::string, Entry> table;
  return table;
}
// `webnn --version`: the library's version and what this build has (webnn/config.h).
std::string versionText() {
#ifdef WEBNN_HAVE_ONNX
  const char* onnxImporter = "yes";
#else
  const char* onnxImporter = "no";
#endif
  return std::string("webnn ") + WEBNN_VERSION_STRING + " (backends: " + WEBNN_BACKENDS +
         "; ONNX importer: " + onnxImporter + ")";
}
}  // namespace

bool registerCommand(std::string name, std::string description, CommandSetup setup) {
  commands()[std::move(name)] = {std::move(description), std::move(setup)};
  return true;
}

}  // namespace webnn::tools

int main(int argc, char** argv) {
  using namespace webnn::tools;
  registerAllCommands();
  CLI::App app{"webnn: WebNN graphs with weightless build and copy-once weights"};
  app.require_subcommand(1);
  app.set_version_flag("--version", versionText());
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
  for (auto& [name, entry] : commands()) {
    CLI::App* sub = app.add_subcommand(name, entry.description);
    runners.emplace_back(sub, entry.setup(*sub));
  }
  CLI11_PARSE(app, argc, argv);
  try {
    for (auto& [sub, run] : runners) {
      if (sub->parsed()) return run();
    }
  } catch (const webnn::Error& error) {
    std::fprintf(stderr, "webnn: %s: %s\n", std::string(error.name()).c_str(), error.what());
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "webnn: %s\n", error.what());
    return 1;
  }
  return 1;
}
