// --json, accepted by most subcommands.
#include "common_flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(bool, json, false, "print the result as one JSON object");
