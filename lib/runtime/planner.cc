// The query: strings connect -> abstract search -> lazy refinement ->
// lazy smoothing together (see planner.h for the stages).
#include "zonepath/runtime/planner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "best_first.h"
#include "connector.h"
#include "corridor_refiner.h"
#include "derived_connections.h"
#include "landmarks.h"
#include "level_distances.h"
#include "level_graph.h"
#include "node_state_map.h"
#include "smoother.h"
#include "zonepath/search/run_straightener.h"
#include "zonepath/search/search_common.h"

namespace zonepath {

using runtime_internal::BestFirst;
using runtime_internal::BestFirstResult;
using runtime_internal::CorridorRefiner;
using runtime_internal::DerivedConnections;
using runtime_internal::EndpointConnector;
using runtime_internal::kInf;
using runtime_internal::LandmarkBound;
using runtime_internal::LevelDistances;
using runtime_internal::LevelGraph;
using runtime_internal::LevelLandmarks;
using runtime_internal::Link;
using runtime_internal::NodeStateMap;
using runtime_internal::OpenEntry;
using runtime_internal::StreamSmoother;
using runtime_internal::TableWalk;

namespace {
// The abstract search's goal: a node id no level uses (ids are < 2^31).
constexpr uint32_t kVirtualGoal = CorridorRefiner::kGoal;

// String pulling looks 16 zone sides ahead (at most 1024 moves), one zone
// side (at least 16 moves) until twice that many moves are out (README,
// "String pulling"): Boston's longest quarter 0.44 / 0.30 / 0.24 / 0.19 %
// over the optimum at 4 / 8 / 16 / 32 sides, for 680 / 695 / 717 / 732 k
// instructions a smoothed query. The first moves are committed seeing
// less: half a zone side brings the first 32 moves ~14 % sooner, but over
// all of a map's scenarios (short ones too) leaves 0.93 / 0.87 / 0.41 %
// on Berlin_1_256 / den520d / Cauldron against 0.65 / 0.61 / 0.34 % for a
// side and 0.46 / 0.28 / 0.26 % for two (whose first moves come 10-20 %
// later).
// The smoothing windows (README, "Smoothing"), in a band of zone side / 4
// (3/16 for weighted windows of 3 sides).
// On a grid of one cost, where jump points make long windows cheap: windows
// of 7 zone sides that commit 3/4 of their moves (fewer searches per move
// than windows of 4 committing half, and about as short), after a first
// window of 2 zone sides committing half, so that the first moves wait for
// little; every box within the bit-parallel table's side. Zones too large
// for a first window of 2 sides to fit it (over ~100 cells a side) keep
// windows of 4 zone sides committing half. On weighted grids, after the
// same first window, windows of 3 zone sides committing 3/4 in a band of
// 3/16 of a side where the box fits the band's A*
// (StreamSmoother::kMaxBandSide; zone sides up to 75), else 2 zone sides
// committing half.
runtime_internal::SmoothWindows SmoothWindowsFor(const Grid& grid,
                                                 int32_t zone_side) {
  runtime_internal::SmoothWindows w;
  w.pull_first = std::max(16, zone_side);
  w.pull_lookahead = std::min(1024, 16 * zone_side);
  w.margin = std::max(2, zone_side / 4);
  const int32_t widest = GridAStar::kLocalSide - 2 * w.margin - 2;
  const bool one_cost = grid.OneCost();
  w.first = 2 * zone_side;
  w.first_advance = w.first / 2;
  if (one_cost && w.first <= widest) {
    w.window = std::min(widest, 7 * zone_side);
    w.advance = w.window * 3 / 4;
  } else if (const int32_t margin = std::max(2, zone_side * 3 / 16);
             !one_cost && 3 * zone_side + 1 + 2 * margin <=
                              runtime_internal::StreamSmoother::kMaxBandSide) {
    // Weighted: the band's search makes a window cheap per cell, so windows
    // longer than the first pay: with a Dijkstra, 4 zone sides committing
    // 3/4 cost ~27 % less than 2 sides committing half and came closer to
    // the optimum (README, "Weighted smoothing windows"). With the A*,
    // 3 sides committing 3/4 in a band of 3/16 of a side take ~35 % off
    // the smoothing of 4 sides in a band of 1/4, for 0.34 -> 0.43 % over
    // the optimum on terrain 1024² and 0.405 -> 0.415 % on 4096² (README,
    // "Weighted windows by A*").
    w.margin = margin;
    w.window = 3 * zone_side;
    w.advance = w.window * 3 / 4;
  } else {
    if (one_cost) w.first = 4 * zone_side;
    w.first_advance = w.first / 2;
    w.window = w.first;
    w.advance = w.first_advance;
  }
  return w;
}

}  // namespace

struct Planner::Impl {
  Impl(const World& world, const PlannerOptions& options)
      : world(world),
        graph(world),
        start_connector(graph, &astar, options.max_nodes),
        goal_connector(graph, &astar, options.max_nodes),
        astar(world.grid()),
        refiner(graph, &astar, options.max_nodes),
        smoother(world.grid(), graph.connectivity(), &astar,
                 SmoothWindowsFor(world.grid(), graph.ZoneSide(1))),
        top(options.max_nodes),
        landmark_count(
            std::clamp(options.landmarks, 0, LevelLandmarks::kMaxCount)),
        window_landmark_nodes(
            std::min(options.window_landmark_nodes, kMaxWindowLandmarkNodes)),
        distance_table_nodes(
            std::min(options.distance_table_nodes, LevelDistances::kMaxNodes)),
        derive_connection_tables(options.derive_connection_tables) {
    // The grid's open cells as bits, made by the world's first planner and
    // shared: the jump point searches of refinement, free crossings and
    // connections read them instead of filling each window's bits.
    astar.UseGridOpenBits(
        std::static_pointer_cast<const search_internal::OpenBits>(
            world.DerivedOnce(kGridBitsKey, [&]() -> World::Derived {
              std::shared_ptr<const search_internal::OpenBits> bits =
                  GridAStar::MakeGridOpenBits(world.grid());
              return {bits, bits ? GridAStar::GridOpenBitsMemory(*bits) : 0};
            })));
    // Where the grid is too large for them, its open cells in tiles
    // (PlannerOptions::open_cell_tiles): refinement, connections and
    // smoothing read a zone's cells from its tile, not row by row from cold
    // pages of costs.
    if (options.open_cell_tiles && astar.grid_bits() == nullptr) {
      astar.UseCellTiles(std::static_pointer_cast<const OpenCellTiles>(
          world.DerivedOnce(kCellTilesKey, [&]() -> World::Derived {
            std::shared_ptr<const OpenCellTiles> tiles =
                GridAStar::MakeCellTiles(world.grid());
            return {tiles, tiles ? tiles->MemoryUsage() : 0};
          })));
    }
    // Any level may hold a query's exact top search, and the levels below
    // it guide refinement. Levels refinement reads the tables of
    // (RefinedWithLandmarks) get them now; the larger ones (up to
    // LevelLandmarks::kMaxEdges edges) on their first top search, so a
    // planner does not wait for, nor a world hold, a large table that only
    // some queries use.
    if (options.landmarks_at_construction) {
      for (int k = 1; k <= graph.levels(); ++k) {
        if (RefinedWithLandmarks(k)) LandmarksOf(k);
        DistancesOf(k);
      }
      Connections();
    }
  }

  const Grid& grid() const { return graph.grid(); }
  double H(Point p, Point target) const {
    return HeuristicCost(p, target, graph.connectivity(), grid().min_cost());
  }

  const World& world;
  LevelGraph graph;
  EndpointConnector start_connector;
  EndpointConnector goal_connector;
  GridAStar astar;
  CorridorRefiner refiner;
  StreamSmoother smoother;
  NodeStateMap top;  // the abstract search
  int landmark_count;
  uint32_t window_landmark_nodes;  // PlannerOptions::window_landmark_nodes
  // Per level: the world's landmark table for exact top searches and
  // refinement windows (shared by its planners, built by the first that
  // needs it), and this planner's goal terms.
  std::array<std::shared_ptr<const LevelLandmarks>,
             runtime_internal::kMaxLevels + 1>
      landmarks;
  std::array<bool, runtime_internal::kMaxLevels + 1> landmarks_tried{};
  LandmarkBound landmark_bound;
  // Per level: the world's distance table (null: none), as landmarks.
  uint32_t distance_table_nodes;
  std::array<std::shared_ptr<const LevelDistances>,
             runtime_internal::kMaxLevels + 1>
      distances;
  std::array<bool, runtime_internal::kMaxLevels + 1> distances_tried{};
  // The world's derived connection tables (null: none), as landmarks.
  bool derive_connection_tables;
  std::shared_ptr<const DerivedConnections> connections;
  bool connections_tried = false;
  double top_cost = kInf;  // the last SearchTop's path, start to goal
  std::vector<OpenEntry> open;
  std::vector<uint32_t> top_nodes;
  // The last SearchTop walked a distance table (top_walk), not searched.
  bool walked = false;
  TableWalk top_walk;
  // Directed search: the start's and goal's level-k zone nodes by their
  // level-(k-1) ids and back (SearchTop).
  std::vector<std::pair<uint32_t, uint32_t>> start_up, goal_down;
  RunLengthPath direct_path;
  bool direct_pending = false;  // the direct path is the plan, not yet out
  bool refining = false;        // the refiner has moves to give
  RunLengthPath moves;          // one refined piece (scratch)
  std::vector<Run> straight;    // its runs straightened (scratch)
  RunLengthPath smoothed;       // Planner::Smooth's output (scratch)
  Point start, goal;
  Point cursor_at;
  bool smooth = false;
  bool fewer_turns = true;
  bool smooth_by_search = false;  // PlanOptions::smooth_by_search
  double abstract_weight = 1.0;   // PlanOptions::abstract_weight
  bool cursor_done = true;
  std::function<void(Point)> trace_node;

  // The level the abstract search runs on: the highest level whose zones
  // are at most a quarter of the octile distance from s to t (so the path
  // crosses a few of them, and no far-off border point decides a short
  // route), and where s and t lie in different zones.
  int TopLevel(Point s, Point t) const {
    const int64_t dx = std::abs(s.x - t.x), dy = std::abs(s.y - t.y);
    const int64_t distance = std::max(dx, dy);
    int top_level = 1;
    for (int j = 2; j <= graph.levels(); ++j) {
      if (graph.ZoneOf(j, s) == graph.ZoneOf(j, t)) break;
      if (4 * static_cast<int64_t>(graph.ZoneSide(j)) > distance) break;
      top_level = j;
    }
    return top_level;
  }

  // Levels whose landmark tables the constructor makes, and refinement
  // uses: those of at most window_landmark_nodes nodes (PlannerOptions).
  // Level 1 of a 4096^2 world guides every long query's level-2 windows
  // (rooms: -15 % instructions a query; docs/measurements_history.md,
  // "Landmarks in refinement windows"), level 2 of a 16384^2 rooms world
  // (427 k nodes) its level-3 windows (plain queries ~14 % sooner; README,
  // "Window landmarks on larger levels"), and a short query does not build
  // them.
  static constexpr uint32_t kMaxWindowLandmarkNodes = uint32_t{1} << 22;
  bool RefinedWithLandmarks(int k) const {
    return graph.level(k).node_beacon.size() <= window_landmark_nodes;
  }
  // World::DerivedOnce keys of the landmark tables: kLandmarkKey + 64 level
  // + count.
  static constexpr int kLandmarkKey = 1 << 16;
  // ... and of the grid's open bits (GridAStar::MakeGridOpenBits).
  static constexpr int kGridBitsKey = 1 << 20;
  // ... and of its open cell tiles (GridAStar::MakeCellTiles).
  static constexpr int kCellTilesKey = (1 << 20) + 1;
  // ... and of the distance tables: kDistanceKey + level.
  static constexpr int kDistanceKey = 1 << 21;
  // ... and of the derived connection tables.
  static constexpr int kConnectionKey = (1 << 21) + 64;
  // A level-(k-1) node in the abstract search's id space (ids are < 2^31).
  static constexpr uint32_t kLowerTag = 0x80000000u;
  // The pairs (level-(k-1) id, level-k id) of the level-k nodes of p's
  // level-k zone, sorted by the first (by the second with by_upper).
  void ZonePairs(int k, Point p, bool by_upper,
                 std::vector<std::pair<uint32_t, uint32_t>>* out) const {
    out->clear();
    const SharedLevel& level = graph.level(k);
    const ZoneId z = level.ZoneOf(p);
    for (uint32_t v = level.zone_node_begin[z.value()];
         v < level.zone_node_end[z.value()]; ++v) {
      const uint32_t lower = graph.LowerId(k, v);
      if (lower == NodeStateMap::kNone) continue;  // DataLoss in refinement
      out->push_back(by_upper ? std::make_pair(v, lower)
                              : std::make_pair(lower, v));
    }
    std::sort(out->begin(), out->end());
  }
  static uint32_t PairOf(const std::vector<std::pair<uint32_t, uint32_t>>& v,
                         uint32_t key) {
    const auto it =
        std::lower_bound(v.begin(), v.end(), std::make_pair(key, uint32_t{0}));
    return it != v.end() && it->first == key ? it->second : NodeStateMap::kNone;
  }

  // Level k's landmark table (null: none, or landmarks off). One table per
  // world, level and count (key), made by whichever planner asks first;
  // null for a level too large.
  const LevelLandmarks* LandmarksOf(int k) {
    if (landmark_count == 0) return nullptr;
    if (!landmarks_tried[k]) {
      landmarks_tried[k] = true;
      const int key = kLandmarkKey + 64 * k + landmark_count;
      landmarks[k] = std::static_pointer_cast<const LevelLandmarks>(
          world.DerivedOnce(key, [&]() -> World::Derived {
            std::shared_ptr<const LevelLandmarks> table =
                LevelLandmarks::Build(graph, k, landmark_count);
            return {table, table ? table->MemoryUsage() : 0};
          }));
    }
    return landmarks[k].get();
  }

  // Level k's distance table (null: none, too large, or turned off), made
  // as LandmarksOf makes the landmark tables.
  const LevelDistances* DistancesOf(int k) {
    if (distance_table_nodes == 0 ||
        graph.level(k).node_beacon.size() > distance_table_nodes) {
      return nullptr;
    }
    if (!distances_tried[k]) {
      distances_tried[k] = true;
      distances[k] = std::static_pointer_cast<const LevelDistances>(
          world.DerivedOnce(kDistanceKey + k, [&]() -> World::Derived {
            std::shared_ptr<const LevelDistances> table =
                LevelDistances::Build(graph, k, distance_table_nodes);
            return {table, table ? table->MemoryUsage() : 0};
          }));
    }
    return distances[k].get();
  }

  // The connection tables derived for the levels the world file has none
  // of (null: none fit, or turned off), made as LandmarksOf makes the
  // landmark tables.
  const DerivedConnections* Connections() {
    if (!derive_connection_tables) return nullptr;
    if (!connections_tried) {
      connections_tried = true;
      connections = std::static_pointer_cast<const DerivedConnections>(
          world.DerivedOnce(kConnectionKey, [&]() -> World::Derived {
            std::shared_ptr<const DerivedConnections> tables =
                DerivedConnections::Build(graph, DerivedConnections::kMaxBytes);
            return {tables, tables ? tables->MemoryUsage() : 0};
          }));
    }
    return connections.get();
  }

  // SearchTop on a level with a distance table (level_distances.h): the
  // cheapest pair of a start link and a goal link, then the walk from one
  // to the other, each step along the edge that leaves the least to go.
  // Fills top_nodes with the walk's first node and top_cost with the
  // table's cost (links and table entry); on levels >= 2 the refiner walks
  // on as its windows need (top_walk), so a cursor's first moves do not
  // wait for the whole walk (on level 1 it is walked here).
  absl::StatusOr<bool> WalkTable(int k, const LevelDistances& table,
                                 double bound, PlanStats* stats) {
    const std::vector<Link>& from = start_connector.links(k);
    const std::vector<Link>& to = goal_connector.links(k);
    double best = kInf;
    uint32_t u = 0, target = 0;
    for (const Link& g : to) {
      if (g.node >= table.nodes()) continue;  // (checked by the connector)
      const float* row = table.Row(g.node);
      for (const Link& s : from) {
        if (s.node >= table.nodes()) continue;
        const double c = s.cost + row[s.node] + g.cost;
        if (c < best) {
          best = c;
          u = s.node;
          target = g.node;
        }
      }
    }
    // `bound` is the direct path's cost: the walk is taken only if it is
    // cheaper. The table's entries are floats (~6e-8 relative each), so a
    // plan within 1e-6 of the direct cost may walk to no less than it:
    // the direct path, exact and already found, wins such ties, as it did
    // when the walk's cost was summed before comparing.
    if (!(best < kInf) || best >= bound * (1 - 1e-6)) return false;
    top_nodes.clear();
    top_nodes.push_back(u);
    top_walk.Begin(graph, k, table, u, target, &stats->abstract,
                   &stats->abstract_nodes, &trace_node);
    if (k == 1) {
      while (!top_walk.done()) {
        if (absl::Status s = top_walk.Step(&top_nodes); !s.ok()) return s;
      }
    }
    top_cost = best;
    return true;
  }

  // A* on level k to the goal; fills top_nodes. False when nothing cheaper
  // than `bound` was found. With `directed` (k >= 2), the endpoints are
  // connected only up to level k-1: the search starts from the start's
  // level-(k-1) links, moves on level k-1 inside the start's level-k zone
  // and steps up (at no cost) at the zone's level-k nodes; in the goal's
  // level-k zone it steps down and reaches the goal over its level-(k-1)
  // links. So the start's and goal's level-k zones are searched towards
  // the goal, not exhaustively as a connection must (which settles every
  // level-(k-1) node of the zone until all its level-k nodes are reached).
  // The paths are the same: a connection's link is the cheapest level-(k-1)
  // way inside the zone, which this search also finds. Without `directed`,
  // from the start's level-k links to the goal's.
  absl::StatusOr<bool> SearchTop(int k, bool directed, double bound,
                                 PlanStats* plan_stats) {
    walked = false;
    // Exact searches on a level with a distance table walk it instead
    // (weighted ones search, as asked).
    if (!directed && abstract_weight == 1.0) {
      if (const LevelDistances* table = DistancesOf(k)) {
        walked = true;
        return WalkTable(k, *table, bound, plan_stats);
      }
    }
    SearchStats* stats = &plan_stats->abstract;
    const Point t = goal;
    const ZoneId goal_zone = graph.ZoneOf(k, t);
    const int below = k - 1;
    Rect start_rect{}, goal_rect{};
    if (directed) {
      start_rect = graph.ZoneRect(k, start);
      goal_rect = graph.ZoneRect(k, t);
      ZonePairs(k, start, /*by_upper=*/false, &start_up);
      ZonePairs(k, t, /*by_upper=*/true, &goal_down);
    }
    // Exact searches add the level's landmark bounds to the octile one.
    const LandmarkBound* alt = nullptr;
    if (!directed) {
      if (const LevelLandmarks* table = LandmarksOf(k)) {
        landmark_bound.SetGoal(*table, goal_connector.links(k));
        alt = &landmark_bound;
      }
    }
    // h of level-k node v at `cell`.
    const auto h_top = [&](uint32_t v, Point cell) {
      double h = H(cell, t);
      if (alt != nullptr) h = std::max(h, alt->Bound(v));
      return abstract_weight * h;
    };
    top.NewSearch();
    open.clear();
    const int seed_level = directed ? below : k;
    for (const Link& l : start_connector.links(seed_level)) {
      const Point cell = graph.NodeCell(seed_level, l.node);
      if (!runtime_internal::Seed(
              top, open, directed ? l.node | kLowerTag : l.node, l.cost,
              directed ? abstract_weight * H(cell, t) : h_top(l.node, cell),
              stats)) {
        return absl::ResourceExhaustedError("abstract search: max_nodes");
      }
    }
    uint32_t goal_record = 0;
    const BestFirstResult result = BestFirst(
        top, open,
        [&](uint32_t id, auto&& relax, bool skips_intra) {
          if (directed && (id & kLowerTag)) {
            // A level-(k-1) node of the start's or the goal's level-k zone.
            const uint32_t u = id & ~kLowerTag;
            const Point cu = graph.NodeCell(below, u);
            const bool at_start = start_rect.Contains(cu);
            const Rect& rect = at_start ? start_rect : goal_rect;
            graph.ForEachEdge(
                below, u, skips_intra, [&](uint32_t v, float cost, bool intra) {
                  const Point cv = graph.NodeCell(below, v);
                  if (!rect.Contains(cv)) return;
                  relax(
                      v | kLowerTag, cost,
                      [&] { return abstract_weight * H(cv, t); }, intra);
                });
            if (at_start) {
              const uint32_t up = PairOf(start_up, u);
              if (up != NodeStateMap::kNone) {
                relax(
                    up, 0.0, [&] { return abstract_weight * H(cu, t); }, false);
              }
            } else {
              const double d = goal_connector.LinkCost(below, u);
              if (d < kInf) relax(kVirtualGoal, d, 0.0, false);
            }
            return;
          }
          graph.ForEachEdge(
              k, id, skips_intra, [&](uint32_t v, float cost, bool intra) {
                relax(
                    v, cost, [&] { return h_top(v, graph.NodeCell(k, v)); },
                    intra);
              });
          const Point cell = graph.NodeCell(k, id);
          if (graph.ZoneOf(k, cell) != goal_zone) return;
          if (directed) {
            const uint32_t down = PairOf(goal_down, id);
            if (down != NodeStateMap::kNone) {
              relax(
                  down | kLowerTag, 0.0,
                  [&] { return abstract_weight * H(cell, t); }, false);
            }
          } else {
            const double d = goal_connector.LinkCost(k, id);
            if (d < kInf) relax(kVirtualGoal, d, 0.0, false);
          }
        },
        [&](const NodeStateMap::Record& r) { return r.node == kVirtualGoal; },
        bound, stats, &goal_record,
        [&](uint32_t id) {
          if (!trace_node || id == kVirtualGoal) return;
          trace_node(directed && (id & kLowerTag)
                         ? graph.NodeCell(below, id & ~kLowerTag)
                         : graph.NodeCell(k, id));
        });
    if (result == BestFirstResult::kFull) {
      return absl::ResourceExhaustedError(
          absl::StrCat("abstract search on level ", k,
                       ": more than max_nodes=", top.max_nodes(), " nodes"));
    }
    if (result != BestFirstResult::kGoal) return false;
    top_nodes.clear();
    for (uint32_t r = top[goal_record].parent; r != NodeStateMap::kNone;
         r = top[r].parent) {
      // The level-(k-1) stretches at either end are refined from the
      // endpoints' level-(k-1) links, as a connection's would be.
      if (!(directed && (top[r].node & kLowerTag))) {
        top_nodes.push_back(top[r].node);
      }
    }
    std::reverse(top_nodes.begin(), top_nodes.end());
    top_cost = top[goal_record].g;
    return true;
  }

  absl::StatusOr<SearchOutcome> Plan(Point s, Point t,
                                     const PlanOptions& options,
                                     PlanStats* stats) {
    *stats = PlanStats();
    cursor_done = true;
    direct_pending = refining = false;
    if (!(options.abstract_weight >= 1 && options.abstract_weight <= 10)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "abstract_weight ", options.abstract_weight, " is outside [1, 10]"));
    }
    abstract_weight = options.abstract_weight;
    if (absl::Status e = CheckEndpoint(grid(), grid().bounds(), s, "start");
        !e.ok())
      return e;
    if (absl::Status e = CheckEndpoint(grid(), grid().bounds(), t, "goal");
        !e.ok())
      return e;
    start = s;
    goal = t;
    cursor_at = s;
    smooth = options.smooth;
    fewer_turns = options.fewer_turns;
    smooth_by_search = options.smooth_by_search;
    if (s == t) return SearchOutcome::kFound;
    if (!grid().SameComponent(s, t)) return SearchOutcome::kUnreachable;

    // Close queries: an exact search in a window around both endpoints.
    double direct_cost = kInf;
    const int32_t side = graph.ZoneSide(1);
    const int64_t chebyshev =
        std::max(std::abs(s.x - t.x), std::abs(s.y - t.y));
    if (graph.ZoneOf(1, s) == graph.ZoneOf(1, t) ||
        chebyshev <= options.direct_search_zones * side) {
      const Rect bounds{
          std::max(0, std::min(s.x, t.x) - side),
          std::max(0, std::min(s.y, t.y) - side),
          std::min(grid().width(), std::max(s.x, t.x) + side + 1),
          std::min(grid().height(), std::max(s.y, t.y) + side + 1)};
      AStarOptions direct;
      direct.connectivity = graph.connectivity();
      direct.prefer_straight = fewer_turns;
      direct.bounds = bounds;
      direct.jump_points = true;
      absl::StatusOr<SearchOutcome> found =
          astar.FindPath(s, t, direct, &direct_path);
      stats->direct = astar.stats();
      if (!found.ok()) return found.status();
      if (*found == SearchOutcome::kFound) direct_cost = direct_path.cost();
    }

    // Connect both endpoints up to the top useful level k. A weighted
    // search goes through the endpoints' level-k zones itself, towards the
    // goal (SearchTop, `directed`), so they are connected up to k-1 only.
    // An exact one does not: with the octile heuristic it expands most of
    // those zones anyway, at a higher cost per node than the connection's
    // dense search (README, "Directed top-level search").
    int k = TopLevel(s, t);
    const bool weighted = abstract_weight > 1;
    // (Directed ids tag level-(k-1) ids with the top bit: only below
    // 2^31 - 2 nodes, so that no tagged id is kVirtualGoal or kNone.)
    const bool may_direct = weighted && k >= 2 &&
                            graph.level(k - 1).node_beacon.size() < 0x7FFFFFFEu;
    const int connect_to = may_direct ? k - 1 : k;
    const DerivedConnections* derived = Connections();
    start_connector.set_derived(derived);
    goal_connector.set_derived(derived);
    refiner.set_derived(derived);
    if (absl::Status c =
            start_connector.Connect(s, connect_to, &stats->connect);
        !c.ok())
      return c;
    if (absl::Status c = goal_connector.Connect(t, connect_to, &stats->connect);
        !c.ok())
      return c;
    const int connected = std::min(start_connector.connected_levels(),
                                   goal_connector.connected_levels());
    k = may_direct ? std::min(k, connected + 1) : std::min(k, connected);

    // Abstract search, from the top level down until one finds a path
    // cheaper than the direct one.
    const absl::Time begin = absl::Now();
    bool reached = false;
    for (; k >= 1 && !reached; --k) {
      // The bound prunes by f = g + w h, which is at most w (g + h): w times
      // the direct cost never prunes a path cheaper than the direct one.
      // Lower levels after a failure search from the connections.
      const bool directed = k >= 2 && k > connected;
      absl::StatusOr<bool> found =
          SearchTop(k, directed, abstract_weight * direct_cost, stats);
      if (!found.ok()) return found.status();
      reached = *found;
      if (reached && top_cost >= direct_cost) {
        reached = false;  // (weighted) the direct path is cheaper: take it
        break;
      }
      if (reached) break;
    }
    stats->abstract.time = absl::Now() - begin;
    cursor_done = false;
    if (!reached) {
      if (direct_cost < kInf) {
        stats->used_direct = true;
        stats->planned_cost = direct_cost;
        direct_pending = true;
        if (smooth) smoother.Reset(s, fewer_turns, smooth_by_search);
        return SearchOutcome::kFound;
      }
      cursor_done = true;
      return absl::DataLossError(absl::StrCat(
          "no abstract path between ", PointString(s), " and ", PointString(t),
          " although they share a component: the world's abstraction does "
          "not match its grid"));
    }
    stats->top_level = k;
    stats->planned_cost = top_cost;
    // (A walk counts its nodes as it goes.)
    if (!walked) stats->abstract_nodes = static_cast<int64_t>(top_nodes.size());
    // The refiner's window searches on levels 1..k-1 use the landmark
    // tables of the levels of at most window_landmark_nodes nodes: made with
    // the planner, or (landmarks_at_construction off) here, by the first
    // query that refines on them. Never a larger level's table, which some
    // query's top search may or may not have made: a planner's paths do
    // not depend on the queries before.
    CorridorRefiner::LandmarkTables refine_landmarks{};
    for (int i = 1; i < k; ++i) {
      if (RefinedWithLandmarks(i)) refine_landmarks[i] = LandmarksOf(i);
    }
    refiner.Start(k, s, t, &start_connector, &goal_connector, top_nodes,
                  fewer_turns, options.free_crossings, refine_landmarks,
                  walked ? &top_walk : nullptr);
    refining = true;
    if (smooth) smoother.Reset(s, fewer_turns, smooth_by_search);
    return SearchOutcome::kFound;
  }

  void Fail() {
    cursor_done = true;
    direct_pending = refining = false;
  }

  // Sends refined moves on: to the smoother, or straight to `out`.
  void Emit(const Run& run, RunLengthPath* out) {
    if (smooth) {
      smoother.AddRun(run);
      return;
    }
    // (From the tiles on a large grid: its rows of costs are cold.)
    const OpenCellTiles* tiles = astar.cell_tiles();
    for (uint32_t i = 0; i < run.count; ++i) {
      const Point next = Step(cursor_at, run.direction);
      out->AddCost(tiles != nullptr
                       ? StepCost(run.direction, tiles->cost(cursor_at),
                                  tiles->cost(next))
                       : StepCost(grid(), cursor_at, run.direction));
      cursor_at = next;
    }
    out->Append(run.direction, run.count);
  }

  // Sends the next stretch of moves on (to the smoother or `out`).
  absl::Status RefineNext(RunLengthPath* out, PlanStats* stats) {
    if (direct_pending) {
      direct_pending = false;
      for (const Run& run : direct_path.runs()) Emit(run, out);
      return absl::OkStatus();
    }
    moves.Reset(start);
    absl::Status s =
        refiner.NextMoves(&moves, &stats->refine, &stats->refine_levels);
    if (!s.ok()) return s;
    refining = !refiner.done();
    if (!smooth && fewer_turns) {
      // Without the smoother (which straightens what it commits), each
      // stretch is straightened here; it ends where it ended.
      straight.assign(moves.runs().begin(), moves.runs().end());
      bool straightened = true;
      if (const OpenCellTiles* tiles = astar.cell_tiles(); tiles != nullptr) {
        StraightenRuns(*tiles, grid().bounds(), cursor_at, &straight);
      } else {
        straightened = StraightenRuns(grid(), grid().bounds(), nullptr,
                                      cursor_at, &straight);
      }
      if (straightened) {
        for (const Run& run : straight) Emit(run, out);
        return absl::OkStatus();
      }
    }
    for (const Run& run : moves.runs()) Emit(run, out);
    return absl::OkStatus();
  }

  absl::Status Next(int64_t min_steps, RunLengthPath* out, PlanStats* stats) {
    if (cursor_done) return absl::OkStatus();
    const int64_t target = out->steps() + min_steps;
    while (out->steps() < target) {
      const bool more = direct_pending || refining;
      if (more && (!smooth || smoother.buffered() <= smoother.window())) {
        if (absl::Status r = RefineNext(out, stats); !r.ok()) {
          Fail();
          return r;
        }
        continue;
      }
      if (smooth) {
        const bool final = !more;
        if (absl::Status c = smoother.Commit(final, out, &stats->smooth);
            !c.ok()) {
          Fail();
          return c;
        }
        stats->cost_before_smoothing = smoother.raw_cost();
        if (!final) continue;
      }
      cursor_done = true;
      break;
    }
    if (!direct_pending && !refining && (!smooth || smoother.buffered() == 0)) {
      cursor_done = true;
      if (!smooth) stats->cost_before_smoothing = out->cost();
    }
    return absl::OkStatus();
  }
};

absl::Status PathCursor::Next(int64_t min_steps, RunLengthPath* out) {
  const absl::Time begin = absl::Now();
  PlanStats& stats = planner_->stats_;
  const absl::Duration before = stats.refine.time + stats.smooth.time;
  absl::Status status = planner_->impl_->Next(min_steps, out, &stats);
  // Refinement time is the whole cursor step less smoothing's searches.
  stats.refine.time = before - stats.smooth.time + (absl::Now() - begin);
  return status;
}

bool PathCursor::done() const { return planner_->impl_->cursor_done; }

void Planner::set_trace(PlanTrace* trace) {
  Impl& impl = *impl_;
  std::vector<Point>* cells = trace ? &trace->expanded_cells : nullptr;
  impl.astar.set_trace(cells);
  std::function<void(Point)> on_node;
  if (trace != nullptr) {
    on_node = [trace](Point p) { trace->expanded_beacons.push_back(p); };
  }
  impl.start_connector.set_trace(cells, on_node);
  impl.goal_connector.set_trace(cells, on_node);
  impl.refiner.set_on_node(on_node);
  impl.trace_node = on_node;
}

// The planner's TableWalk counts into Planner::stats_ through a pointer:
// a Planner must stay where it was made.
static_assert(!std::is_move_constructible_v<Planner> &&
              !std::is_copy_constructible_v<Planner>);

Planner::Planner(const World& world, const PlannerOptions& options)
    : impl_(std::make_unique<Impl>(world, options)) {}
Planner::~Planner() = default;

absl::StatusOr<SearchOutcome> Planner::Plan(Point start, Point goal,
                                            const PlanOptions& options) {
  return impl_->Plan(start, goal, options, &stats_);
}

absl::StatusOr<SearchOutcome> Planner::FindPath(Point start, Point goal,
                                                const PlanOptions& options,
                                                RunLengthPath* path) {
  absl::StatusOr<SearchOutcome> outcome = Plan(start, goal, options);
  path->Reset(start);
  if (!outcome.ok() || *outcome != SearchOutcome::kFound) return outcome;
  PathCursor cursor = Cursor();
  while (!cursor.done()) {
    if (absl::Status s = cursor.Next(int64_t{1} << 40, path); !s.ok()) {
      path->Reset(start);
      return s;
    }
  }
  return outcome;
}

absl::Status Planner::Smooth(RunLengthPath* path) {
  Impl& impl = *impl_;
  stats_.cost_before_smoothing = path->cost();
  if (path->empty()) return absl::OkStatus();
  const absl::Time begin = absl::Now();
  impl.smoother.Reset(path->start(), impl.fewer_turns, impl.smooth_by_search);
  for (const Run& run : path->runs()) impl.smoother.AddRun(run);
  impl.smoothed.Reset(path->start());
  absl::Status s = impl.smoother.Commit(true, &impl.smoothed, &stats_.smooth);
  if (!s.ok()) return s;
  std::swap(*path, impl.smoothed);
  stats_.smooth.time = absl::Now() - begin;
  return absl::OkStatus();
}

size_t Planner::MemoryUsage() const {
  const Impl& i = *impl_;
  // The landmark tables are the world's (World::MemoryUsage counts them).
  return sizeof(*this) + sizeof(Impl) + i.landmark_bound.MemoryUsage() +
         (i.start_up.capacity() + i.goal_down.capacity()) *
             sizeof(i.start_up[0]) +
         i.start_connector.MemoryUsage() + i.goal_connector.MemoryUsage() +
         i.astar.MemoryUsage() + i.refiner.MemoryUsage() +
         i.smoother.MemoryUsage() + i.top.MemoryUsage() +
         i.open.capacity() * sizeof(OpenEntry) + i.top_nodes.capacity() * 4 +
         i.direct_path.MemoryUsage() + i.moves.MemoryUsage() +
         i.smoothed.MemoryUsage() + i.straight.capacity() * sizeof(Run);
}

}  // namespace zonepath
