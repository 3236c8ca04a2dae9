// Subcommand plumbing for the zonepath tool: flags through absl's flag
// registry, scoped per subcommand, with zonepath's exit codes.
//
// Each subcommand defines its flags with ABSL_FLAG in its own .cc file; a
// Command lists those files, so `zonepath scen --zone-size 8` is a usage error
// and `zonepath scen --help` shows only the flags scen accepts. Flag names
// may be written with '-' or '_' (`--cache-paths` == `--cache_paths`).
#ifndef ZONEPATH_TOOLS_ZONEPATH_COMMAND_LINE_H_
#define ZONEPATH_TOOLS_ZONEPATH_COMMAND_LINE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace zonepath::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;

struct Command {
  const char* name;
  const char* summary;  // one line for `zonepath --help`
  const char* usage;    // "zonepath scen MAP SCEN [flags]" and more text
  // Source files whose ABSL_FLAGs this command accepts (file name suffixes).
  std::vector<const char*> flag_files;
  int min_positional;
  int max_positional;
  int (*run)(const std::vector<std::string>& positional);
};

// Parses args (after the subcommand name) into flag values and positional
// arguments, then runs the command. Prints errors to stderr and returns an
// exit code: kExitUsage for a bad command line, kExitOk after --help.
int RunCommand(const Command& command, const std::vector<std::string>& args);

// Prints `message` to stderr as "zonepath: message" and returns kExitBadInput.
int FailBadInput(const absl::Status& status);

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_COMMAND_LINE_H_
