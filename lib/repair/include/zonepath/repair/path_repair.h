// Path repair ("watching for map changes"): when a world change touches
// zones a stored path crosses, keep the moves before the first changed zone,
// re-plan only from there to the first cell after the last changed zone on
// the path, and splice (kept prefix + detour) in front of the untouched rest
// (PathStore::Splice re-encodes nothing after the rejoin cell). When the
// spliced path would be much longer than a fresh one, re-plan the whole path
// instead.
//
// The bound: a spliced path is kept only if it costs at most
// `fallback_ratio` times a fresh (unsmoothed) path's cost. The detour is
// planned first without refinement (PlanStats::planned_cost); the fresh cost
// is bounded from below by the heuristic (no search), and only when that
// does not settle it is a fresh plan searched, again without refinement.
// Only the winner is refined (and smoothed, if asked).
//
// One PathRepairer per thread and world version (it owns a Planner):
//
//   UpdateReport report;
//   ASSIGN_OR_RETURN(World next, ApplyChanges(world, changes, {}, &report));
//   PathRepairer repairer(next);
//   const ZoneLayout layout = next.abstraction().levels[0].layout();
//   store.ForEachUnitCrossing(layout, report.affected_zones, [&](UnitId u) {
//     absl::StatusOr<RepairResult> r =
//         repairer.Repair(u, report.affected_zones, {}, &store);
//   });
#ifndef ZONEPATH_REPAIR_PATH_REPAIR_H_
#define ZONEPATH_REPAIR_PATH_REPAIR_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "zonepath/paths/path_store.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/world/world.h"

namespace zonepath {

struct RepairOptions {
  PlanOptions plan;  // for the detour and any fresh plan
  // Keep a spliced path only if its cost <= fallback_ratio x a fresh path's
  // (>= 1; 1 keeps only splices as good as a fresh plan).
  double fallback_ratio = 1.2;
};

enum class RepairKind {
  kUntouched,    // the remaining path does not enter an affected zone
  kSpliced,      // detour to the rejoin cell + the old rest
  kReplanned,    // the splice was too long (or impossible): fresh path
  kUnreachable,  // the goal cannot be reached any more: path removed
};
const char* RepairKindName(RepairKind kind);

struct RepairResult {
  RepairKind kind = RepairKind::kUntouched;
  int64_t replaced_steps = 0;   // old moves replaced (all, when re-planned)
  double cost = 0;              // cost of the unit's new remaining path
  bool fresh_searched = false;  // a fresh plan was searched to check the bound
};

class PathRepairer {
 public:
  explicit PathRepairer(const World& world);

  // Repairs `unit`'s stored path on this repairer's world after a change
  // that affected `affected_zones` (level-1 zones, sorted). Errors: the unit
  // is not stored, or it stands on a cell that is now blocked (the caller
  // decides where it goes); the stored path is then unchanged.
  absl::StatusOr<RepairResult> Repair(UnitId unit,
                                      absl::Span<const ZoneId> affected_zones,
                                      const RepairOptions& options,
                                      PathStore* store);

  // Statistics of the last detour search.
  const PlanStats& stats() const { return planner_.stats(); }

 private:
  const World& world_;
  Planner planner_;          // detours
  Planner fresh_planner_;    // fresh plans, kept apart so both plans survive
                             // until one of them is refined
  RunLengthPath remaining_;  // scratch, reused
  RunLengthPath detour_;
  RunLengthPath front_;
  std::vector<Point> cells_;           // cells_[i]: after i moves
  std::vector<Direction> directions_;  // move i
};

}  // namespace zonepath

#endif  // ZONEPATH_REPAIR_PATH_REPAIR_H_
