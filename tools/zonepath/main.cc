// zonepath: the command-line tool. One binary, one subcommand per job.
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "zonepath/base/atomic_file.h"

namespace {

using zonepath::cli::Command;

const Command* const kCommands[] = {
    &zonepath::cli::kDemoCommand,       &zonepath::cli::kScenCommand,
    &zonepath::cli::kCheckPathsCommand, &zonepath::cli::kGenCommand,
    &zonepath::cli::kBuildCommand,      &zonepath::cli::kInspectCommand,
    &zonepath::cli::kQueryCommand,      &zonepath::cli::kMemCommand,
    &zonepath::cli::kRenderCommand,     &zonepath::cli::kReportCommand,
    &zonepath::cli::kChangesCommand};

void PrintUsage(std::FILE* out) {
  std::fprintf(out,
               "zonepath: hierarchical path planning on large grid worlds\n\n"
               "usage: zonepath COMMAND [args] [flags]; zonepath COMMAND "
               "--help for details\n\ncommands:\n");
  for (const Command* c : kCommands) {
    std::fprintf(out, "  %-12s %s\n", c->name, c->summary);
  }
}

// Interrupted: no half-written temporary file stays behind.
void OnInterrupt(int sig) {
  zonepath::RemovePendingTempFiles();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

int main(int argc, char** argv) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, OnInterrupt);
  if (argc < 2) {
    PrintUsage(stderr);
    return zonepath::cli::kExitUsage;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    PrintUsage(stdout);
    return zonepath::cli::kExitOk;
  }
  for (const Command* c : kCommands) {
    if (name == c->name) {
      return zonepath::cli::RunCommand(
          *c, std::vector<std::string>(argv + 2, argv + argc));
    }
  }
  std::fprintf(stderr, "zonepath: unknown command '%s'\n\n", name.c_str());
  PrintUsage(stderr);
  return zonepath::cli::kExitUsage;
}
