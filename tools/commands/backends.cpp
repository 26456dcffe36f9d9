// webnn backends: lists the backends this build can run on.
#include <webnn/webnn.h>

#include <cstdio>

#include "command.h"

WEBNN_COMMAND("backends", registerBackendsCommand,
              "List the backends this build can create contexts on") {
  (void)app;
  return [] {
    for (const auto& name : webnn::availableBackends()) std::printf("%s\n", name.c_str());
    return 0;
  };
}
