// Planner: the runtime query context for long-distance paths on a World.
//
// One Planner per thread; the World is shared read-only and never modified
// (start and goal live in the planner's own state, not in the shared graph).
// Scratch memory grows with what queries touch (never with the world's
// node count) up to PlannerOptions::max_nodes per search, and is kept, so
// after warm-up a query allocates nothing but what the caller's output needs
// (and a reused output keeps its capacity).
//
// The stages, each its own unit (lib/runtime/*.h):
//   connect (connector.h)   start and goal upward, level by level, each step
//                           bounded by one zone of its level;
//   abstract search         A* on the top useful level (the highest level
//                           whose zones are at most a quarter of the
//                           start-goal distance, and where start and goal
//                           lie in different zones);
//   refine (refiner.h)      lazily, one edge and one level at a time, only
//                           as far as the cursor needs;
//   smooth (smoother.h)     windows re-searched as the cursor reaches them;
//   this file               the query that strings them together.
// Close queries also try a direct bounded grid search and keep the cheaper.
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
//   RETURN_IF_ERROR(cursor.Next(32, &first));  // >= 32 moves (or all)
#ifndef ZONEPATH_RUNTIME_PLANNER_H_
#define ZONEPATH_RUNTIME_PLANNER_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/search_stats.h"
#include "zonepath/world/world.h"

namespace zonepath {

struct PlanOptions {
  // Shorten the refined path as the cursor (or FindPath) refines it, by
  // string pulling: stretches of the path replaced by ways of one straight
  // and one diagonal run where those are legal, bending at the corners the
  // pull makes. On a grid of one cost such a way is the cheapest (on 1024^2
  // game maps ~1.2-1.4x the unsmoothed query, 0.2-0.3 % over the optimum
  // on their longest queries instead of 2-3 %); on a weighted grid one is
  // taken only where it costs no more than the moves it replaces (terrain
  // 1024^2 / 4096^2: ~1.2x the unsmoothed query, 0.25 / 0.17 % over the
  // optimum instead of 1.44 / 0.70 %; README, "Weighted string pulling").
  bool smooth = false;
  // With smooth: search windows of the path again exactly instead, for
  // shorter paths on grids of one cost where the path must pick among
  // doors and gaps (rooms 4096^2: 1.85 % over the optimum instead of
  // 2.09 %; all scenarios of the shared maps: 0.00-0.48 % instead of
  // 0.00-0.65 %) for ~2.5x the smoothed query's time (README, "String
  // pulling"); on weighted grids, for ~2x the time and paths further from
  // the optimum (terrain 1024^2: 0.35 % against 0.25 %).
  bool smooth_by_search = false;
  // Try a direct bounded grid search when start and goal are at most this
  // many zone sides apart (Chebyshev), and keep the cheaper path.
  double direct_search_zones = 1.0;
  // Among equally short moves prefer going straight (A* tie-breaking in
  // refinement and smoothing; smoothing also swaps in equally short windows
  // with fewer runs): same cost, ~17% fewer runs to store on game maps, a
  // few percent more query time.
  bool fewer_turns = true;
  // Re-choose each level-1 border crossing with a cell search over the
  // zones around it: on an 8-connected grid of one cost a window of up to 8
  // level-1 zones of the path (while 8 zone sides fit 256 cells), which
  // gives paths about as short as `smooth` (Cauldron 0.22 %, Boston 0.28 %
  // over the optimum) for less work; on weighted or 4-connected grids the
  // two zones around the crossing (a few percent shorter than without,
  // about twice the refinement work). Otherwise level-1 edges are refined
  // one by one (their cached paths when the world has them). Crossings of
  // higher levels are always re-chosen (on the level below, where it is
  // cheap): over the two zones around each crossing, and with this option
  // over three zones of the path (a window's first crossing sees one zone
  // beyond the next), which shortens paths a little on worlds of three or
  // more levels (rooms 16384^2: 1.87 -> 1.75 % over the optimum) for ~6 %
  // more work and ~12 % later first moves there.
  bool free_crossings = false;
  // Weight w on the abstract search's heuristic (weighted A* on the top
  // useful level): the abstract plan costs at most w times the cheapest
  // one, and the search expands far fewer nodes on large worlds, where it
  // is most of the time to the first moves. 1 (the default) is exact A*.
  // Must be in [1, 10] (else InvalidArgument). Above 1 the search is also
  // directed: it crosses the endpoints' top-level zones itself instead of
  // connecting them exhaustively. Measured in the README ("Weighted
  // abstract search", "Directed top-level search"): on rooms worlds of
  // 8192² and 16384², 1.25 cuts the first 32 moves by 50-70 % (to under
  // 1 ms at 16384²) for +0.3 points of smoothed suboptimality.
  double abstract_weight = 1.0;
};

// Refinement's work on one level's path (PlanStats::refine_levels).
struct RefineLevelStats {
  // Stretches refined: on level j >= 2, window searches over level-(j-1)
  // nodes inside level-j zones (a window that falls back searches twice);
  // on level 1, the cursor's stretches of cell moves (one cell window, or
  // one level-1 edge or endpoint connection, searched or not).
  int64_t windows = 0;
  int64_t expanded = 0;  // nodes (level 1: cells) their searches expanded
  // Windows whose search could not get through (the route the window
  // before chose went back across its own border, or left this window's
  // zones) and that followed the window before's route to its target
  // instead (CorridorRefiner); on level 1 only with free crossings.
  int64_t fallbacks = 0;
};

// Per-stage statistics of the last query, as plain data.
struct PlanStats {
  SearchStats connect;  // start/goal to beacons
  // Abstract A*, or the walk along a level's distance table: a walk on
  // level >= 2 goes on as the cursor needs it, so its counts (and
  // abstract_nodes) grow with the cursor, and its later steps' time counts
  // as refinement's.
  SearchStats abstract;
  SearchStats refine;  // refinement searches
  // The same refinement by the level whose path was refined ([1..top]; [0]
  // unused): the levels' expanded add up to refine.expanded. Where a
  // large world's query spends its search (README, "Where refinement's
  // work grows"). Grows with the cursor, like refine.
  std::array<RefineLevelStats, kMaxLevelCount + 1> refine_levels{};
  SearchStats smooth;          // smoothing searches
  SearchStats direct;          // direct bounded search for close queries
  int64_t abstract_nodes = 0;  // nodes on the abstract path
  int top_level = 0;           // level the abstract search ran on (1..)
  bool used_direct = false;
  // After Plan, before any refinement: the cost of the abstract plan (float
  // edge costs, ~1e-6 relative; a walked plan's from its table's float
  // entry), or of the direct path. Refinement re-chooses
  // each border crossing, so the refined path usually costs a little less
  // (measured: never more on the test worlds; with free crossings a
  // review's stress run saw 1 query in 8,599 cost 1.6 % more). Cheap to
  // get.
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

// Limits of one Planner's scratch memory.
struct PlannerOptions {
  // Most abstract nodes one search (a connection, the abstract search, one
  // refinement) may touch, 16..2^30. Scratch grows with what searches touch
  // up to this; a query that needs more fails with ResourceExhausted (never
  // a crash). ~40 bytes per node. Connecting an endpoint upward needs room
  // for every level-(j-1) node of its level-j zone (dense zone state),
  // whatever the search touches. The default suits worlds up to 65536^2
  // with automatic levels.
  uint32_t max_nodes = 1 << 18;
  // Landmarks per level for the exact top-level search and refinement's
  // window searches (ALT lower bounds, README "Landmarks"), 0..32
  // (clamped); 0 turns them off. Windows read the first 8 of them. For
  // levels of at most 2^23 edges: a one-time cost per world, shared by its
  // planners (count + 1 Dijkstras over the level: a few ms for a 1024^2
  // map's two levels, ~0.26 s for every level of a 4096^2 rooms world,
  // ~1.1 s for levels 2-4 of a 16384^2 one) and 4 bytes per landmark
  // and node of the level. 16 rather than 8: the top searches of 4096^2 and
  // 16384^2 rooms worlds expand 40-46 % fewer nodes and their first 32
  // moves come 11-20 % sooner, in the memory 8 took as doubles (README,
  // "Sixteen landmarks in floats").
  int landmarks = 16;
  // Refinement's window searches read the first 8 landmarks of the levels
  // of at most window_landmark_nodes nodes (below), so that paths do not
  // depend on the queries before. True: the planner's constructor builds
  // (or finds built) those levels' tables (every level of a 1024^2 map, ~3
  // ms; of a 4096^2 rooms world, ~0.26 s and 12 MB; levels 2-4 of a
  // 16384^2 one, ~1.1 s and 30 MB), and the distance tables (below), so no
  // query pays for them; a larger level's landmark table is built by the
  // first exact top search on it. False: every level's table is built by
  // the first query that needs it (its top search, or its refinement), inside
  // that query, and only for the levels queries use.
  bool landmarks_at_construction = true;
  // Refinement's window searches on a level of at most this many nodes add
  // its landmark bound (landmarks above) to the octile one, 0..2^22
  // (clamped; a level of more than 2^23 edges has no table, which on
  // rooms is a level of more than ~480 k nodes). 64 bytes a node with 16
  // landmarks, built once per world in 17 Dijkstras over the level (~1 s
  // for 427 k nodes and 7.5 M edges). The default takes in every level of a
  // 4096^2 world, and level 2 of a 16384^2 rooms world (zones of 32: 427 k
  // nodes, 27 MB, ~1 s, its plain queries ~14 % sooner, README "Window
  // landmarks on larger levels"; the automatic zones of 64: 140 k nodes),
  // not level 2 of a 32768^2 one (zones of 64: 563 k nodes and 13.4 M
  // edges; of 32: 1.7 M and 30 M: no table).
  uint32_t window_landmark_nodes = 1 << 19;
  // Exact top searches on a level of at most this many nodes, 0..4096
  // (clamped), read a table of the level's node-to-node distances and walk
  // it instead of searching (docs/measurements_history.md, "Distance tables for
  // small top levels"): the top level of a 1024^2 map (865 nodes on
  // Boston_0_1024), or of a 4096^2 terrain world. 4 bytes per pair of nodes
  // (1024 nodes: 4 MB), one table per world and level, shared by its planners
  // and built like the landmark tables (with landmarks_at_construction, by the
  // planner's constructor: one Dijkstra per node, ~50 ms for Boston's or
  // Cauldron's top level). 0 turns them off (a world that lives for a few
  // queries); plans cost the same either way (up to the table's float
  // rounding, ~1e-7 relative), though a tie may be broken another way.
  uint32_t distance_table_nodes = 1024;
  // Connect query endpoints at level 2 (and at any other level the world
  // file has no connection table for) by reading a table of costs instead
  // of a search, and let refinement windows read it instead of searching
  // their last zone, on worlds where those tables take at most 16 MB
  // together (docs/measurements_history.md, "Level-2 connection tables"):
  // 1024^2 maps (~0.3 MB, first 32 moves ~2.5x sooner), a 4096^2 terrain world
  // (4.6 MB). One table per world, shared by its planners and built like the
  // landmark tables (one Dijkstra per level-2 node over its zone: ~5 ms on a
  // 1024^2 map). False: levels without a table in the world file connect
  // and refine by search (a world that lives for a few queries); the
  // file's tables (levels >= 3) are read either way. Links cost the same
  // either way, up to the table's float rounding; windows may choose
  // another way of the same or nearly the same cost.
  bool derive_connection_tables = true;
  // On a grid of one cost too large for the grid's open bits (over 2^22
  // cells: from 2049 x 2049, e.g. 4096^2), read its open cells from 64 x
  // 64-cell tiles (zonepath/grid/open_cell_tiles.h) where refinement,
  // connections and smoothing would read the grid's costs: a zone's cells
  // from 512 contiguous bytes instead of a cold read per row. 1 bit a cell,
  // one copy per world shared by its planners (128 MB for 32768^2, ~1 s
  // to make there); the same paths and costs either way (README, "Open
  // cell tiles"). False: read the costs (a world that lives for a few
  // queries, or no memory to spare).
  bool open_cell_tiles = true;
};

// Yields the moves of the last planned path, refining (and smoothing, when
// the plan asked for it) only as the caller asks for more. Valid until the
// next Plan/FindPath on the same Planner, which must outlive it.
class PathCursor {
 public:
  // Appends at least `min_steps` moves to `out` (fewer only at the end of
  // the path), adding their walked cost. An error (a refinement the world
  // cannot back: DataLoss; scratch limit: ResourceExhausted) ends the path:
  // the moves appended before it are legal, nothing after it is appended.
  absl::Status Next(int64_t min_steps, RunLengthPath* out);
  // True once every move was appended (or the cursor failed).
  bool done() const;

 private:
  friend class Planner;
  explicit PathCursor(Planner* planner) : planner_(planner) {}
  Planner* planner_;
};

class Planner {
 public:
  // `world` must outlive the planner and must not be assigned another
  // world meanwhile (the planner keeps tables derived from it): make a new
  // planner for a new world, e.g. after ApplyChanges. The world's first
  // planner builds its small levels' landmark and distance tables (see
  // PlannerOptions::landmarks_at_construction: ~3 + ~50 ms on a 1024^2
  // map); a loop that makes a world version every few queries may rather
  // leave them to the queries that need them, and go without distance
  // tables.
  explicit Planner(const World& world, const PlannerOptions& options = {});
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
  // Smooths a complete legal path in place with a smoothing cursor's
  // smoother (string pulling or window searches, by the smooth_by_search
  // of the last Plan or FindPath); the cost before is kept in
  // stats().cost_before_smoothing. Window searches give a smoothing
  // query's path; string pulling, seeing the whole path at once rather
  // than as refinement yields it, may bend elsewhere (in a test on rooms,
  // 18 of 25 paths differed: 10 shorter, 7 as short, 1 longer). Never
  // costlier than the input.
  absl::Status Smooth(RunLengthPath* path);

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
