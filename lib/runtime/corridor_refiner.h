// CorridorRefiner: turns the abstract path into cell moves lazily, level by
// level, one border crossing at a time.
//
// Refining a level-j path does not walk it edge by edge (that would force
// the route through each node, and a level-j node is only one
// representative crossing of its border piece). Instead, for each border
// the path crosses, one search on level j-1 (cells for j = 1) runs inside
// the two zones on either side of that border, from where the route
// currently stands to the last node of the path in the zone beyond the
// border. The route is kept up to the crossing; the next window starts from
// there. So every crossing point is chosen by an exact search over its two
// zones (which "refines across consecutive abstract edges at once"), each
// window is bounded by two zones of its level, and a cursor that wants the
// first moves refines one window per level.
//
// With free crossings on an 8-connected grid of one cost (where the cell
// search runs by jump points), a cell window spans up to kMaxCellWindowZones
// level-1 zones of the path (each zone once) and keeps its moves up to the
// last of them: each crossing is then chosen by a search that sees several
// zones ahead. Free crossings also widen the windows of the levels above
// to kUpperWindowZones zones, so that their crossings, and with them the
// route's zones, are chosen seeing further ahead too.
//
// Where the window's last zone has a connection table (the world file's, or
// one the planner derived: derived_connections.h), that zone is not
// searched: a node of it that the search reaches leads to the target (a
// level-j node, so a row of the table) by its table entry, and the way
// from there is walked along the table afterwards (WalkTable). The window
// then finds the cheapest way that stays in its last zone once it enters
// it; a table the graph does not bear out falls back to the full search.
//
// A search that cannot get through (the previous window's route went back
// across its own border, entered the last zone early, or left the next
// window's zones on its way) falls back to the previous window's route,
// which is known to get there. A world whose levels cannot
// back the path gives DataLoss, never a path with a jump in it.
//
//   CorridorRefiner refiner(graph, &astar, max_nodes);
//   refiner.Start(k, start, goal, &starts, &goals, top_nodes,
//                 /*fewer_turns=*/true, /*free_crossings=*/false,
//                 landmark_tables);
//   while (!refiner.done()) {
//     moves.Reset(at);
//     RETURN_IF_ERROR(refiner.NextMoves(&moves, &stats, &by_level));
//   }
#ifndef ZONEPATH_RUNTIME_CORRIDOR_REFINER_H_
#define ZONEPATH_RUNTIME_CORRIDOR_REFINER_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "best_first.h"
#include "connector.h"
#include "derived_connections.h"
#include "landmarks.h"
#include "level_distances.h"
#include "level_graph.h"
#include "node_state_map.h"
#include "zonepath/grid/path.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/one_turn_path.h"
#include "zonepath/search/search_stats.h"
#include "zonepath/search/zone_dijkstra.h"

namespace zonepath::runtime_internal {

class CorridorRefiner {
 public:
  // Items of a level's path that are not nodes: the query's endpoints.
  static constexpr uint32_t kStart = 0xFFFFFFFDu;
  static constexpr uint32_t kGoal = 0xFFFFFFFEu;
  // Per level, its landmark table or null (Start).
  using LandmarkTables = std::array<const LevelLandmarks*, kMaxLevels + 1>;
  using RefineLevels = decltype(PlanStats::refine_levels);

  // `astar` is shared with the planner's other grid searches.
  CorridorRefiner(const LevelGraph& graph, GridAStar* astar,
                  uint32_t max_nodes);

  // Starts on the level-k path start -> top_nodes -> goal; the connectors
  // must hold links on levels 1..k-1 for start and goal.
  // free_crossings: also re-choose level-1 crossings by cell searches over
  // up to cell_window_zones_ zones, and search the levels above over up to
  // kUpperWindowZones (better paths, more search); else level-1 edges
  // become moves one by one (their cached paths, or A* inside their zone)
  // and the levels above search two zones.
  // `landmarks[i]`: level i's landmark table, or null; a window search on
  // level i (refining level i+1) adds its bound to the octile one. The
  // tables must outlive the refinement.
  // `top_walk` (k >= 2; may be null): the rest of the level-k path, after
  // top_nodes, is this walk's (to its end, then the goal), stepped as the
  // windows reach the walked end; it must outlive the refinement.
  void Start(int k, Point start, Point goal, EndpointConnector* starts,
             EndpointConnector* goals, absl::Span<const uint32_t> top_nodes,
             bool fewer_turns, bool free_crossings,
             const LandmarkTables& landmarks, TableWalk* top_walk = nullptr);
  bool done() const { return done_; }
  // Appends the next stretch of cell moves (one window's, at least one
  // move) to `moves`, whose end must be where the last stretch ended.
  // Adds its searches to `stats`, and by the level refined to `levels`.
  absl::Status NextMoves(RunLengthPath* moves, SearchStats* stats,
                         RefineLevels* levels);

  // Tables the planner derived for levels the world has none of (null:
  // none); must outlive the refinement.
  void set_derived(const DerivedConnections* derived) {
    blocks_.derived = derived;
  }

  void set_on_node(std::function<void(Point)> on_node) {
    on_node_ = std::move(on_node);
  }
  size_t MemoryUsage() const;

 private:
  // One level's path, refined into the level below window by window.
  struct LevelPath {
    std::vector<uint32_t> items;  // nodes of this level, kStart, kGoal
    size_t head = 0;              // first item of the current run (zone)
    bool complete = false;        // items end with kGoal
    uint32_t at = kStart;         // where the level below stands (its id)
    std::vector<uint32_t> rest;   // last window's route beyond `at`
    size_t rest_target = 0;       // index in items of rest's last node
  };
  // The current window of level j: runs of items, each run in one level-j
  // zone; two runs, or with free crossings up to cell_window_zones_ (cells)
  // or kUpperWindowZones (levels above). Its search runs in the bounding
  // box of those zones.
  struct Window {
    bool ready = false;   // false: the level above must refine further
    bool final = false;   // the target is the goal
    size_t next_run = 0;  // first item of the window's last run
    size_t target = 0;    // index of the target item
    ZoneId next_zone;     // zone of the last run: moves are kept up to it
    Rect rect;            // bounding box of the window's zones
  };

  // Free crossings on an 8-connected grid of one cost search cell windows
  // of up to this many level-1 zones (jump points make a long window cheap;
  // docs/measurements_history.md, "Wide free crossings"); elsewhere (A*), two.
  static constexpr int kMaxCellWindowZones = 8;
  // Free crossings search the windows of levels >= 2 (level j-1 nodes
  // inside level-j zones) over up to this many zones (their bounding box):
  // a window's first crossing is then chosen seeing one zone beyond the
  // next, which shortens paths a little on deep worlds (rooms 4096^2 and
  // 16384^2: ~0.1-0.3 points less over the optimum) for ~6 % of a query
  // and ~12 % of its first moves there; 4 zones cost 2-3 times that for
  // under 0.1 point more (docs/measurements_history.md, "Wide windows above
  // cells").
  static constexpr int kUpperWindowZones = 3;
  // Window searches read a level's first 8 landmarks, the top search all
  // of them (PlannerOptions::landmarks, 16): a window spans two or three
  // zones, where the first 8 bound about as well, and on 1024^2 maps,
  // whose queries are mostly windows, all 16 cost ~2.5 % more instructions
  // (README, "Sixteen landmarks in floats").
  static constexpr int kWindowLandmarks = 8;
  static_assert(kUpperWindowZones <= kMaxCellWindowZones);

  Point ItemCell(int j, uint32_t item) const;
  Window WindowOf(int j) const;
  // Makes level j's current window ready, refining the levels above.
  absl::Status Ensure(int j, SearchStats* stats);
  // Refines level j's current window into level j-1's path (j >= 2),
  // counted in levels_work_[j].
  absl::Status RefineWindow(int j, SearchStats* stats);
  // Searches level j-1 in window w into route_: by the last zone's
  // connection table where it has one (SearchWindow by_table, then
  // WalkTable), else (or when the table is not borne out) by a plain search.
  absl::Status SearchBelow(int j, const Window& w, SearchStats* stats,
                           bool* found);
  absl::Status SearchWindow(int j, const Window& w, bool by_table,
                            SearchStats* stats, bool* found);
  // Replaces route_'s last hop by table with the level-`below` nodes of a
  // cheapest way inside the window's last zone; false if the table does
  // not bear it out.
  bool WalkTable(int below, const Window& w);
  absl::Status SearchCells(const Window& w, SearchStats* stats, bool* found);
  // NextMoves with free crossings: the next cell window's moves.
  absl::Status NextCellWindow(RunLengthPath* moves, SearchStats* stats);
  // NextMoves without free crossings: the next level-1 edge's moves.
  absl::Status NextEdgeMoves(RunLengthPath* moves, SearchStats* stats);
  absl::Status AppendEdgeMoves(uint32_t u, uint32_t v, RunLengthPath* moves,
                               SearchStats* stats);
  // `best`: the cheapest intra-zone edge u -> v (kNone if none), whose
  // cached path is walked and checked.
  absl::Status AppendCachedMoves(uint32_t u, uint32_t v, uint32_t best,
                                 RunLengthPath* moves);

  // Level-1 edges where jump points do not apply: zones up to this side
  // by edge_search_ (made on first use, 17 bytes a cell: ~20 KB for zones
  // of 32, 1.1 MB at this side), larger ones by GridAStar.
  static constexpr int32_t kMaxEdgeSearchSide = 256;

  const LevelGraph& graph_;
  GridAStar* astar_;
  std::unique_ptr<ZoneDijkstra> edge_search_;
  const bool one_cost_;          // every passable cell costs the same
  const int cell_window_zones_;  // 2 .. kMaxCellWindowZones
  int top_ = 0;
  TableWalk* top_walk_ = nullptr;  // the top path's rest, or null (Start)
  Point start_, goal_;
  EndpointConnector* starts_ = nullptr;
  EndpointConnector* goals_ = nullptr;
  bool fewer_turns_ = true;
  bool free_crossings_ = true;
  bool done_ = true;
  std::vector<LevelPath> levels_;  // [1..top]
  Point cell_at_;                  // where the cell route stands
  RunLengthPath cell_rest_;        // last cell window's moves beyond it
  Point cell_rest_end_;
  LandmarkTables landmarks_{};
  ConnectionBlocks blocks_;  // the world's tables, the planner's derived ones
  ZoneRow target_row_;       // the current window's target row
  LandmarkBound landmark_bound_;  // the current window's target terms
  NodeStateMap state_;
  OneTurnWaysFrom ways_;  // level-1 edges' ways of one turn, by bits
  std::vector<OpenEntry> open_;
  std::vector<uint32_t> route_;
  RunLengthPath found_;
  RunLengthPath connection_;
  std::function<void(Point)> on_node_;
  // NextMoves' `levels` while it runs (null otherwise): RefineWindow and
  // NextCellWindow, only reached from NextMoves, count their level's
  // windows and fallbacks there.
  RefineLevels* levels_work_ = nullptr;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_CORRIDOR_REFINER_H_
