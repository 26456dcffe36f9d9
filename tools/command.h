// Subcommands of the webnn command register themselves from their own file:
//   WEBNN_COMMAND(inspect, "List the tensors of a weights file") {
//     auto file = std::make_shared<std::string>();
//     app.add_option("FILE", *file)->required();
//     return [file] { return inspect(*file); };
//   }
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace webnn::tools {

// Declares the subcommand's options on `app` and returns what runs it (its exit status).
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

bool registerCommand(std::string name, std::string description, CommandSetup setup);

}  // namespace webnn::tools

#define WEBNN_COMMAND_CONCAT_INNER(a, b) a##b
#define WEBNN_COMMAND_CONCAT(a, b) WEBNN_COMMAND_CONCAT_INNER(a, b)
#define WEBNN_COMMAND(name, description)                                                        \
  static std::function<int()> WEBNN_COMMAND_CONCAT(setupCommand_, name)(CLI::App & app);      \
  [[maybe_unused]] static const bool WEBNN_COMMAND_CONCAT(commandRegistered_, name) =         \
      ::webnn::tools::registerCommand(#name, description, WEBNN_COMMAND_CONCAT(setupCommand_, name)); \
  static std::function<int()> WEBNN_COMMAND_CONCAT(setupCommand_, name)(CLI::App & app)
