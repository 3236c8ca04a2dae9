// Planner: the runtime query context for long-distance paths on a World.
//
// One Planner per thread; the World is shared read-only and never modified
// (start and goal live in the planner's own arrays, not in the shared graph).
// All scratch memory is allocated once, so after warm-up a query allocates
// nothing but what the caller's output needs (and a reused output keeps its
// capacity).
//
// Pipeline: connect start and goal to the beacons of their level-1 zones
// (exact zone-restricted Dijkstra) -> A* on the abstract graph (octile
// heuristic scaled by the cheapest terrain) -> refinement of each abstract
// edge into cell moves (cached paths or zone-restricted A*) -> optional
// smoothing -> run-length path. Close queries also try a direct bounded grid
// search and keep the better result.
//
//   Planner planner(world);
//   RunLengthPath path;
//   ASSIGN_OR_RETURN(SearchOutcome outcome,
//                    planner.FindPath(start, goal, PlanOptions(), &path));
//
//   // Or on demand: the first moves long before the whole path.
//   ASSIGN_OR_RETURN(outcome, planner.Plan(start, goal, PlanOptions()));
//   PathCursor cursor = planner.Cursor();
//   RunLengthPath first;
//   first.Reset(start);
//   cursor.Next(32, &first);    // appends at least 32 moves (or all)
#ifndef ZONEPATH_RUNTIME_PLANNER_H_
#define ZONEPATH_RUNTIME_PLANNER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/search_stats.h"
#include "zonepath/search/zone_dijkstra.h"
#include "zonepath/world/world.h"

namespace zonepath {

struct PlanOptions {
  // Shorten the refined path by re-searching windows exactly (FindPath only).
  bool smooth = false;
  // Try a direct bounded grid search when start and goal are at most this
  // many zone sides apart (Chebyshev), and keep the cheaper path.
  double direct_search_zones = 1.0;
  // Among equally short moves prefer going straight (A* tie-breaking in
  // refinement and smoothing; smoothing also swaps in equally short windows
  // with fewer runs): same cost, ~17% fewer runs to store on game maps, a
  // few percent more query time.
  bool fewer_turns = true;
};

// Per-stage statistics of the last query, as plain data.
struct PlanStats {
  SearchStats connect;         // start/goal to beacons
  SearchStats abstract;        // abstract A*
  SearchStats refine;          // refinement searches
  SearchStats smooth;          // smoothing searches
  SearchStats direct;          // direct bounded search for close queries
  int64_t abstract_nodes = 0;  // nodes on the abstract path
  bool used_direct = false;
  // After Plan: the cost of the path the cursor will yield, before
  // smoothing (from the abstract search, with float edge costs: equal to
  // the refined cost up to ~1e-6 relative). Cheap to get: no refinement.
  double planned_cost = 0;
  double cost_before_smoothing = 0;
  int64_t total_expanded() const {
    return connect.expanded + abstract.expanded + refine.expanded +
           smooth.expanded + direct.expanded;
  }
  absl::Duration total_time() const {
    return connect.time + abstract.time + refine.time + smooth.time +
           direct.time;
  }
};

// What the searches of the last query expanded, for pictures and debugging
// (Planner::set_trace). Collecting it allocates; leave it off in production.
struct PlanTrace {
  std::vector<Point> expanded_cells;    // connect, direct, refine, smooth
  std::vector<Point> expanded_beacons;  // abstract searches (node cells)
  void Clear() {
    expanded_cells.clear();
    expanded_beacons.clear();
  }
};

class Planner;

// Yields the moves of the last planned path, refining abstract edges only as
// the caller asks for more. Valid until the next Plan/FindPath on the same
// Planner.
class PathCursor {
 public:
  // Appends at least `min_steps` moves to `out` (fewer only at the end of the
  // path). Returns false once the path is exhausted.
  bool Next(int64_t min_steps, RunLengthPath* out);
  bool done() const;

 private:
  friend class Planner;
  explicit PathCursor(Planner* planner) : planner_(planner) {}
  Planner* planner_;
};

class Planner {
 public:
  explicit Planner(const World& world);
  ~Planner();
  Planner(const Planner&) = delete;
  Planner& operator=(const Planner&) = delete;

  // Plans and fully refines (and smooths if asked) into `path`.
  // InvalidArgument for an endpoint outside the grid or blocked; kUnreachable
  // (answered in O(1)) for endpoints in different components.
  absl::StatusOr<SearchOutcome> FindPath(Point start, Point goal,
                                         const PlanOptions& options,
                                         RunLengthPath* path);

  // Plans without refining; then Cursor() yields moves on demand.
  absl::StatusOr<SearchOutcome> Plan(Point start, Point goal,
                                     const PlanOptions& options);
  PathCursor Cursor() { return PathCursor(this); }
  // Smooths a complete path (e.g. one a cursor produced) in place; the cost
  // before smoothing is kept in stats().cost_before_smoothing.
  void Smooth(RunLengthPath* path);

  const PlanStats& stats() const { return stats_; }
  // Records expansions into `trace` (appending; null turns it off).
  void set_trace(PlanTrace* trace);
  size_t MemoryUsage() const;

 private:
  friend class PathCursor;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  PlanStats stats_;
};

}  // namespace zonepath

#endif  // ZONEPATH_RUNTIME_PLANNER_H_
