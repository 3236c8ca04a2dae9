#include "command_line.h"

#include <cstdio>
#include <map>
#include <new>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"

namespace zonepath::cli {
namespace {

bool FlagBelongsTo(const absl::CommandLineFlag& flag, const Command& command) {
  const std::string file = flag.Filename();
  for (const char* suffix : command.flag_files) {
    if (absl::EndsWith(file, suffix)) return true;
  }
  return false;
}

void PrintHelp(const Command& command) {
  std::printf("%s\n\n%s\n", command.summary, command.usage);
  std::map<std::string, const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (FlagBelongsTo(*flag, command)) flags[std::string(name)] = flag;
  }
  if (!flags.empty()) std::printf("\nFlags:\n");
  for (const auto& [name, flag] : flags) {
    std::printf("  --%s  %s (default: %s)\n",
                absl::StrReplaceAll(name, {{"_", "-"}}).c_str(),
                flag->Help().c_str(), flag->DefaultValue().c_str());
  }
}

int UsageError(const Command& command, const std::string& message) {
  std::fprintf(stderr, "zonepath %s: %s\nRun 'zonepath %s --help' for usage.\n",
               command.name, message.c_str(), command.name);
  return kExitUsage;
}

}  // namespace

int RunCommand(const Command& command, const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  bool flags_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (flags_done || arg.size() < 2 || arg[0] != '-' ||
        (arg[1] != '-' && !(arg[1] >= 'a' && arg[1] <= 'z'))) {
      positional.push_back(arg);  // includes negative numbers like -3
      continue;
    }
    if (arg == "--") {
      flags_done = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      PrintHelp(command);
      return kExitOk;
    }
    std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string value;
    bool has_value = false;
    if (size_t eq = body.find('='); eq != std::string::npos) {
      value = body.substr(eq + 1);
      body.resize(eq);
      has_value = true;
    }
    std::string name = absl::StrReplaceAll(body, {{"-", "_"}});
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    bool negated = false;
    if ((flag == nullptr || !FlagBelongsTo(*flag, command)) &&
        absl::StartsWith(name, "no") && !has_value) {
      absl::CommandLineFlag* positive =
          absl::FindCommandLineFlag(name.substr(2));
      if (positive != nullptr && positive->IsOfType<bool>()) {
        flag = positive;
        negated = true;
      }
    }
    if (flag == nullptr || !FlagBelongsTo(*flag, command)) {
      return UsageError(command, absl::StrFormat("unknown flag '%s'", arg));
    }
    if (!has_value) {
      if (flag->IsOfType<bool>()) {
        value = negated ? "false" : "true";
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return UsageError(command,
                          absl::StrFormat("flag '%s' needs a value", arg));
      }
    }
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return UsageError(command, absl::StrFormat("bad value '%s' for %s: %s",
                                                 value, arg, error));
    }
  }
  const int n = static_cast<int>(positional.size());
  if (n < command.min_positional || n > command.max_positional) {
    return UsageError(
        command,
        absl::StrFormat("expected %d to %d arguments, got %d",
                        command.min_positional, command.max_positional, n));
  }
  // Inputs are sized and refused before allocating; this is the last line
  // of defence, so that running out of memory is a message, not an abort.
  try {
    return command.run(positional);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "zonepath %s: out of memory\n", command.name);
    return kExitBadInput;
  }
}

int FailBadInput(const absl::Status& status) {
  std::fprintf(stderr, "zonepath: %s\n", std::string(status.message()).c_str());
  // A flag value out of its documented range is a usage error, like a flag
  // that does not parse.
  return status.code() == absl::StatusCode::kOutOfRange ? kExitUsage
                                                        : kExitBadInput;
}

}  // namespace zonepath::cli
