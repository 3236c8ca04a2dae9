// Flags of the hierarchical planner shared by `scen`, `query` and `mem`.
#include "planner_flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(bool, smooth, false,
          "hpa: smooth the refined paths by string pulling (on weighted "
          "grids, ways no dearer than the moves they replace)");
ABSL_FLAG(bool, smooth_search, false,
          "hpa: smooth (implies --smooth) by searching windows of the path "
          "again instead (on grids of one cost, shorter paths among rooms "
          "and doors, ~2.5x the smoothed query)");
ABSL_FLAG(bool, fewer_turns, true,
          "hpa: among equally short moves prefer straight ones (fewer runs "
          "to store, same cost); --nofewer-turns to turn off");

ABSL_FLAG(bool, free_crossings, false,
          "hpa: re-choose each level-1 border crossing by a cell search over "
          "the zones ahead (up to 8 on 8-connected grids of one cost, else "
          "2), and the levels above theirs over 3 zones instead of 2 "
          "(shorter paths, more search)");

ABSL_FLAG(double, abstract_weight, 1.0,
          "hpa: heuristic weight w in [1, 10] of the abstract search (the "
          "abstract plan costs at most w x the cheapest; fewer expansions on "
          "large worlds)");

namespace zonepath::cli {

PlanOptions PlanOptionsFromFlags() {
  PlanOptions options;
  options.smooth_by_search = absl::GetFlag(FLAGS_smooth_search);
  options.smooth = absl::GetFlag(FLAGS_smooth) || options.smooth_by_search;
  options.fewer_turns = absl::GetFlag(FLAGS_fewer_turns);
  options.free_crossings = absl::GetFlag(FLAGS_free_crossings);
  options.abstract_weight = absl::GetFlag(FLAGS_abstract_weight);
  return options;
}

}  // namespace zonepath::cli
