// webnn backends: lists the backends this build can run on, with what a device backend would run
// on ("vulkan  llvmpipe (LLVM 15.0.6, 256 bits), CPU device").
#include <webnn/webnn.h>

#include <cstdio>

#include "command.h"

WEBNN_COMMAND("backends", registerBackendsCommand,
              "List the backends this build can create contexts on (and the device of a device "
              "backend)") {
  (void)app;
  return [] {
    for (const auto& name : webnn::availableBackends()) {
      std::string description;
      try {
        description = webnn::describeBackend(name);
      } catch (const webnn::Error& error) {
        description = std::string("unavailable: ") + error.what();
      }
      if (description.empty()) {
        std::printf("%s\n", name.c_str());
      } else {
        std::printf("%-12s %s\n", name.c_str(), description.c_str());
      }
    }
    return 0;
  };
}
