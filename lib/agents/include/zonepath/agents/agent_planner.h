// AgentPlanner: queries that name their agent class, on an AgentWorld.
//
// Unoriented classes: the hierarchical Planner on the class's world (anchor
// coordinates: the top-left cell of the footprint), as for any world.
//
// Oriented classes (state = anchor x heading): the Planner finds a route on
// the class's guide world (a relaxation, class_grid.h: legal for some
// heading), and bounded exact searches of the class's real rules
// (ClassAStar) follow it with a receding horizon: from the unit to the
// route cell 2 x `follow_steps` ahead, inside the bounding box of the unit
// and that stretch widened by `follow_margin` plus the footprint's longer
// side m (m more on the far sides, for the footprint), keeping the first
// half of the steps found; the last search ends at the goal. A stretch the
// unit cannot follow in its box (it must turn where the route is too
// narrow, say) is searched again with 4 x that widening, then towards route
// cells 2, 4, ... strides further (up to kFollowSkips times, keeping the
// whole piece), then exactly from where the unit is to the goal. So the
// path is always legal and complete (a goal unreachable on the guide is
// unreachable, answered by the guide's components or search); its cost is not
// always optimal (README, "Agents": measured). Afterwards, staircases the
// horizon left (X a, Y b, X c, Y d) become two runs where that is legal and
// no costlier (AgentPlanOptions::merge_staircases).
//
// Both write an AgentPath (agent_path.h: run-length steps, plus turn runs
// for oriented classes), legal for the class's footprint and rules, with
// its walked cost.
//
// One AgentPlanner per thread (it owns its planners' scratch, made on the
// first query of each class and reused after: no allocation per query
// after warm-up); any number of them may share one `const AgentWorld`,
// which must outlive them.
//
//   AgentPlanner planner(world);
//   AgentPath path;
//   ASSIGN_OR_RETURN(SearchOutcome outcome,
//                    planner.FindPath("tank", {10, 12}, {900, 870}, {},
//                                     &path));
#ifndef ZONEPATH_AGENTS_AGENT_PLANNER_H_
#define ZONEPATH_AGENTS_AGENT_PLANNER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/agents/staircase_merger.h"
#include "zonepath/runtime/planner.h"

namespace zonepath {

inline constexpr int kMaxFollowSteps = 1 << 20;
inline constexpr int kMaxFollowMargin = 1 << 16;
// Stretches an oriented unit cannot follow: how many times it aims further
// along the route (2, 4, ... strides beyond) before the exact fallback.
inline constexpr size_t kFollowSkips = 4;

struct AgentPlanOptions {
  // Unoriented classes: the hierarchical query's options (smoothing, ...).
  PlanOptions hierarchical;
  // Oriented classes: heading at the start, and the goal heading (fixed or
  // free).
  Direction start_heading = Direction::kN;
  std::optional<Direction> goal_heading;
  // Oriented classes: route cells the unit advances per bounded exact
  // search (>= 1; each search looks twice as far), and the cells the
  // search box extends beyond its stretch of the route on each side
  // (0..kMaxFollowMargin; the footprint's longer side is added); steps
  // 1..kMaxFollowSteps. The guide route is planned with `hierarchical`.
  int follow_steps = 24;
  int follow_margin = 6;
  // Oriented classes: merge the staircases the horizon leaves (X a, Y b,
  // X c, Y d -> X a+c, Y b+d where that is legal and no costlier; see
  // staircase_merger.h): two turns fewer per merge.
  bool merge_staircases = true;
};

// What the last query did if it was oriented (AgentPlanner::oriented_stats();
// all zero after an unoriented one).
struct OrientedStats {
  int64_t stretches = 0;        // bounded exact searches that succeeded
  int64_t widened = 0;          // stretches searched again, wider
  int64_t skipped = 0;          // searches aimed past a stretch it could
                                // not follow
  int64_t exact_fallbacks = 0;  // 1 if the rest was searched exactly
  int64_t expanded = 0;         // states all exact searches expanded
  int64_t merged = 0;           // staircases merged afterwards
};

class AgentPlanner {
 public:
  explicit AgentPlanner(const AgentWorld& world,
                        const PlannerOptions& options = {});

  // Plans for class `class_name` from anchor `start` to anchor `goal` into
  // `path` (reset first, capacity kept). InvalidArgument for an unknown
  // class, an illegal endpoint or options out of range;
  // FailedPrecondition for a class the world was built or loaded without;
  // kUnreachable (in O(1) where the class grid's or the guide grid's
  // components tell) as the planners answer.
  absl::StatusOr<SearchOutcome> FindPath(absl::string_view class_name,
                                         Point start, Point goal,
                                         const AgentPlanOptions& options,
                                         AgentPath* path);

  // The hierarchical planner of an unoriented class (made on first use,
  // so a class's first query also makes its world's landmark and distance
  // tables unless a planner of that world did: ~50 ms on a 1024^2 map,
  // see PlannerOptions), for cursors and per-stage statistics; errors as
  // FindPath's.
  absl::StatusOr<Planner*> ClassPlanner(absl::string_view class_name);

  const OrientedStats& oriented_stats() const { return oriented_stats_; }
  size_t MemoryUsage() const;

 private:
  absl::StatusOr<SearchOutcome> FindOriented(const AgentClass& agent,
                                             Point start, Point goal,
                                             const AgentPlanOptions& options,
                                             AgentPath* path);
  // Appends `piece` (which starts where `path` ends) to `path`; returns
  // the heading at its end.
  Direction Append(const AgentClass& agent, const AgentPath& piece,
                   Direction heading, AgentPath* path) const;

  const AgentWorld* world_;
  PlannerOptions options_;
  // One per class world, made on first use.
  std::vector<std::unique_ptr<Planner>> planners_;
  std::optional<ClassAStar> exact_;
  RunLengthPath moves_;
  AgentPath piece_;
  AgentPath prefix_;
  std::vector<Point> route_;
  StaircaseMerger merger_;
  OrientedStats oriented_stats_;
};

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_AGENT_PLANNER_H_
