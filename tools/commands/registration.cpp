// The one list of the webnn command's subcommands.
#include "command.h"

namespace webnn::tools {

void registerAllCommands() {
  registerBackendsCommand();
  registerConformanceCommand();
  registerInspectCommand();
  registerLoadBenchCommand();
  registerOcrCommand();
  registerOnnxTestCommand();
  registerRunCommand();
  registerSchemaCommand();
}

}  // namespace webnn::tools
