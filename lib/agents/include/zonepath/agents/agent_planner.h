// AgentPlanner: queries that name their agent class, on an AgentWorld.
//
// An unoriented class is planned by the hierarchical Planner on its class
// world (anchor coordinates: the top-left cell of the footprint); an
// oriented class, which has no class world, by the exact class-aware search
// (ClassAStar) on the world's terrain. Both write an AgentPath (agent_path.h:
// run-length steps, plus turn runs for oriented classes), legal for the
// class's footprint and rules, with its walked cost in the outcome.
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

#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/runtime/planner.h"

namespace zonepath {

struct AgentPlanOptions {
  // Unoriented classes: the hierarchical query's options (smoothing, ...).
  PlanOptions hierarchical;
  // Oriented classes: heading at the start, and the exact search's options
  // (goal heading fixed or free, bounds, expansion limit).
  Direction start_heading = Direction::kN;
  ClassAStarOptions exact;
};

class AgentPlanner {
 public:
  explicit AgentPlanner(const AgentWorld& world,
                        const PlannerOptions& options = {});

  // Plans for class `class_name` from anchor `start` to anchor `goal` into
  // `path` (reset first, capacity kept). InvalidArgument for an unknown
  // class or an illegal endpoint; FailedPrecondition for an unoriented
  // class the world was built without; kUnreachable (in O(1) where the
  // class grid's or the terrain's components tell) as the planners answer.
  absl::StatusOr<SearchOutcome> FindPath(absl::string_view class_name,
                                         Point start, Point goal,
                                         const AgentPlanOptions& options,
                                         AgentPath* path);

  // The hierarchical planner of an unoriented class (made on first use),
  // for cursors and per-stage statistics; errors as FindPath's.
  absl::StatusOr<Planner*> ClassPlanner(absl::string_view class_name);

  size_t MemoryUsage() const;

 private:
  const AgentWorld* world_;
  PlannerOptions options_;
  // One per class world, made on first use.
  std::vector<std::unique_ptr<Planner>> planners_;
  std::optional<ClassAStar> exact_;
  RunLengthPath moves_;
};

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_AGENT_PLANNER_H_
