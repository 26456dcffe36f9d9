// The one list of the webnn command's subcommands.
#include "command.h"

namespace webnn::tools {

void registerAllCommands() {
  registerBackendsCommand();
  registerConformanceCommand();
  registerInspectCommand();
  registerLoadBenchCommand();
  registerOnnxTestCommand();
  registerRunCommand();
  registerSchemaCommand();
}

}  // namespace webnn::tools
