// Runs the built `webnn` command ($WEBNN_TOOL, set by CTest) for the tool tests.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace webnn::testing {

struct ToolOutput {
  int status = -1;
  std::string text;  // stdout and stderr
};

// Runs `webnn ARGS` (arguments already shell-safe) under a timeout of 30 s (status 124).
inline ToolOutput runTool(const std::string& arguments) {
  const char* tool = std::getenv("WEBNN_TOOL");
  ToolOutput output;
  const std::string command = std::string("timeout 30 '") + tool + "' " + arguments + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.text.append(buffer, got);
  const int status = ::pclose(pipe);
  output.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return output;
}

}  // namespace webnn::testing
