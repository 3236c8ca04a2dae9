// Flags of the hierarchical planner shared by `scen`, `query` and `mem`.
#include "planner_flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(bool, smooth, false, "hpa: smooth the refined paths");
ABSL_FLAG(bool, fewer_turns, true,
          "hpa: among equally short moves prefer straight ones (fewer runs "
          "to store, same cost); --nofewer-turns to turn off");

namespace zonepath::cli {

PlanOptions PlanOptionsFromFlags() {
  PlanOptions options;
  options.smooth = absl::GetFlag(FLAGS_smooth);
  options.fewer_turns = absl::GetFlag(FLAGS_fewer_turns);
  return options;
}

}  // namespace zonepath::cli
