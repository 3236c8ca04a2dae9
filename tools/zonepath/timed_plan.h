// One hierarchical query timed the way `scen` and `report` measure it:
// plan, take the first moves from a PathCursor (the time a unit could start
// walking; smoothed as they come when asked), then the rest.
#ifndef ZONEPATH_TOOLS_ZONEPATH_TIMED_PLAN_H_
#define ZONEPATH_TOOLS_ZONEPATH_TIMED_PLAN_H_

#include <chrono>
#include <cstdint>

#include "absl/status/statusor.h"
#include "zonepath/runtime/planner.h"

namespace zonepath::cli {

struct TimedPlan {
  absl::StatusOr<SearchOutcome> outcome;
  std::chrono::steady_clock::duration first{};  // until `first_steps` moves
  std::chrono::steady_clock::duration total{};
};

// The path (smoothed if options.smooth) is left in `path`.
inline TimedPlan PlanTimed(Planner& planner, Point start, Point goal,
                           const PlanOptions& options, int64_t first_steps,
                           RunLengthPath* path) {
  using Clock = std::chrono::steady_clock;
  TimedPlan timed;
  const Clock::time_point begin = Clock::now();
  path->Reset(start);
  timed.outcome = planner.Plan(start, goal, options);
  if (timed.outcome.ok() && *timed.outcome == SearchOutcome::kFound) {
    PathCursor cursor = planner.Cursor();
    absl::Status status = cursor.Next(first_steps, path);
    timed.first = Clock::now() - begin;
    while (status.ok() && !cursor.done()) {
      status = cursor.Next(int64_t{1} << 40, path);
    }
    if (!status.ok()) timed.outcome = status;
  } else {
    timed.first = Clock::now() - begin;
  }
  timed.total = Clock::now() - begin;
  return timed;
}

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_TIMED_PLAN_H_
