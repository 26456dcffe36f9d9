// Subcommands of the webnn command, one file each, define their registration function there:
//   WEBNN_COMMAND("inspect", registerInspectCommand, "List the tensors of a weights file") {
//     auto file = std::make_shared<std::string>();
//     app.add_option("FILE", *file)->required();
//     return [file] { return inspect(*file); };
//   }
// defines webnn::tools::registerInspectCommand(); commands/registration.cpp, the one list of
// subcommands, calls it (no static initializers).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace webnn::tools {

// Declares the subcommand's options on `app` and returns what runs it (its exit status).
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

bool registerCommand(std::string name, std::string description, CommandSetup setup);

// The subcommands' registration functions (commands/*.cpp); registerAllCommands
// (commands/registration.cpp) calls each.
void registerBackendsCommand();
void registerConformanceCommand();
void registerInspectCommand();
void registerLoadBenchCommand();
void registerOcrCommand();
void registerOnnxTestCommand();
void registerRunCommand();
void registerSchemaCommand();
void registerAllCommands();

}  // namespace webnn::tools

#define WEBNN_COMMAND_CONCAT_INNER(a, b) a##b
#define WEBNN_COMMAND_CONCAT(a, b) WEBNN_COMMAND_CONCAT_INNER(a, b)
#define WEBNN_COMMAND(name, registrar, description)                                           \
  static std::function<int()> WEBNN_COMMAND_CONCAT(setupCommand_, registrar)(CLI::App & app); \
  void ::webnn::tools::registrar() {                                                          \
    ::webnn::tools::registerCommand(name, description,                                        \
                                    WEBNN_COMMAND_CONCAT(setupCommand_, registrar));          \
  }                                                                                           \
  static std::function<int()> WEBNN_COMMAND_CONCAT(setupCommand_, registrar)(CLI::App & app)
