// Flags of the hierarchical planner shared by `scen`, `query` and `mem`
// (defined in planner_flags.cc).
#ifndef ZONEPATH_TOOLS_ZONEPATH_PLANNER_FLAGS_H_
#define ZONEPATH_TOOLS_ZONEPATH_PLANNER_FLAGS_H_

#include "absl/flags/declare.h"
#include "zonepath/runtime/planner.h"

ABSL_DECLARE_FLAG(bool, smooth);
ABSL_DECLARE_FLAG(bool, smooth_search);
ABSL_DECLARE_FLAG(bool, fewer_turns);
ABSL_DECLARE_FLAG(bool, free_crossings);
ABSL_DECLARE_FLAG(double, abstract_weight);

namespace zonepath::cli {

// PlanOptions with --smooth, --smooth-search, --fewer-turns,
// --free-crossings and --abstract-weight applied.
PlanOptions PlanOptionsFromFlags();

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_PLANNER_FLAGS_H_
