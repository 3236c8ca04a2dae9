// Flags of the hierarchical planner shared by `scen`, `query` and `mem`.
#include "planner_flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(bool, smooth, false, "hpa: smooth the refined paths");
ABSL_FLAG(bool, fewer_turns, true,
          "hpa: among equally short moves prefer straight ones (fewer runs "
          "to store, same cost); --nofewer-turns to turn off");

ABSL_FLAG(bool, free_crossings, false,
          "hpa: re-choose each level-1 border crossing by a cell search over "
          "the two zones around it (shorter paths, more search)");

namespace zonepath::cli {

PlanOptions PlanOptionsFromFlags() {
  PlanOptions options;
  options.smooth = absl::GetFlag(FLAGS_smooth);
  options.fewer_turns = absl::GetFlag(FLAGS_fewer_turns);
  options.free_crossings = absl::GetFlag(FLAGS_free_crossings);
  return options;
}

}  // namespace zonepath::cli
