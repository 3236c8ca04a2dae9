// The zonepath subcommands, one per *_command.cc file.
#ifndef ZONEPATH_TOOLS_ZONEPATH_COMMANDS_H_
#define ZONEPATH_TOOLS_ZONEPATH_COMMANDS_H_

#include "command_line.h"

namespace zonepath::cli {

extern const Command kDemoCommand;
extern const Command kScenCommand;
extern const Command kCheckPathsCommand;
extern const Command kGenCommand;
extern const Command kBuildCommand;
extern const Command kInspectCommand;
extern const Command kQueryCommand;
extern const Command kMemCommand;
extern const Command kRenderCommand;
extern const Command kReportCommand;
extern const Command kChangesCommand;

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_COMMANDS_H_
