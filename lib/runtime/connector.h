// EndpointConnector: connects a query's start (or goal) to the abstract
// graph, level by level upward, without touching the shared world.
//
// Level 1: an exact search on the grid inside the endpoint's level-1 zone
// reaches that zone's nodes: on a grid of one cost (8-connected, zones of
// at most 256 cells a side) a walk of the way of one turn to each node
// (legal: the octile distance, no search) up to the first blocked one,
// and one jump point search that stops at each node left
// (GridAStar::JumpDistances); elsewhere, in a zone whose open cells all
// cost the same, the same walks (that cost times the octile or Manhattan
// distance) and a Dijkstra (ZoneDijkstra) for the nodes left; else a
// Dijkstra for all. Once a walk reached a node, the nodes of other
// zone-local components (the level's node_component) are left out: the
// endpoint cannot reach them inside the zone. Level j >=
// 2: a Dijkstra on level j-1, seeded with the level-(j-1) links and kept inside
// the endpoint's level-j zone, reaches that zone's level-j nodes. Each
// connection is bounded by one zone of its level, and each stops once all its
// targets are settled. Levels the world has connection tables for
// (world/connection_tables.h), or the planner derived them for
// (derived_connections.h: level 2 of a small world), read them instead: the
// level-j links are the cheapest level-(j-1) link plus the table's cost
// from there, no search.
//
//   EndpointConnector start(graph, &astar, max_nodes);
//   RETURN_IF_ERROR(start.Connect(p, /*top=*/3, &stats));
//   for (const Link& l : start.links(3)) ...;   // level-3 nodes
#ifndef ZONEPATH_RUNTIME_CONNECTOR_H_
#define ZONEPATH_RUNTIME_CONNECTOR_H_

#include <array>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "best_first.h"
#include "derived_connections.h"
#include "level_graph.h"
#include "node_state_map.h"
#include "zone_level_search.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/one_turn_path.h"
#include "zonepath/search/search_stats.h"
#include "zonepath/search/zone_dijkstra.h"

namespace zonepath::runtime_internal {

inline constexpr int kMaxLevels = 8;
static_assert(kMaxLevels == kMaxLevelCount, "the world's level limit");

// A level-j node reached from the endpoint inside its level-j zone.
struct Link {
  uint32_t node;  // level-j id
  double cost;    // from the endpoint
};

class EndpointConnector {
 public:
  // max_nodes bounds each level's search (see NodeStateMap). `astar` (on
  // the graph's grid, shared with the rest of the query, must outlive this)
  // runs the level-1 jump point searches.
  EndpointConnector(const LevelGraph& graph, GridAStar* astar,
                    uint32_t max_nodes);

  // Connects p (passable, else InvalidArgument) at levels 1..top. Stops early
  // (connected_levels() < top) when a level has no reachable node.
  // ResourceExhausted when a search exceeds max_nodes; DataLoss when a
  // level connected by search finds the world's levels disagreeing (the
  // loader checks that every node has its node below; a level connected
  // by table does not look).
  absl::Status Connect(Point p, int top, SearchStats* stats);
  int connected_levels() const { return connected_; }
  const std::vector<Link>& links(int j) const { return links_[j]; }
  // Cost from the endpoint to level-j node v (+inf without a link).
  double LinkCost(int j, uint32_t v) const;

  // Appends the cell moves from the endpoint to level-1 node v (which has a
  // level-1 link), a least-cost way inside the endpoint's level-1 zone;
  // valid until the next Connect. After a jump point connection the way
  // is searched again (the shared search has run since); DataLoss if it
  // is not found (the world's abstraction does not match its grid).
  // That search's counts are added to *stats (may be null).
  absl::Status AppendCells(uint32_t v, RunLengthPath* path, SearchStats* stats);

  // Tables the planner derived for levels the world has none of (null:
  // none); must outlive this connector's use of them.
  void set_derived(const DerivedConnections* derived) {
    blocks_.derived = derived;
  }

  // Tracing: called with each expanded cell / abstract node's cell.
  void set_trace(std::vector<Point>* cells, std::function<void(Point)> on_node);
  size_t MemoryUsage() const;

 private:
  // Of the pending_ nodes of level-1 zone z1, keeps those in the zone-local
  // component of node `walked` (an index into zone_cells_, reached by a way;
  // NodeStateMap::kNone: none was, keep all), giving the others no link;
  // fills pending_cells_ with the kept nodes' cells.
  void DropOtherComponents(ZoneId z1, uint32_t walked);
  // lowers_: the level-(j-1) ids of the level-j nodes of `zone`.
  absl::Status ZoneLowers(int j, ZoneId zone);
  static absl::Status LevelsDisagree(int j, uint32_t v);
  // Level j's links in p's level-j zone `zone`: by a search on level j-1
  // (towards the zone's nodes by their level-(j-1) ids), or from the
  // zone's connection table (by row, no ids needed).
  absl::Status ConnectBySearch(int j, Point p, ZoneId zone, SearchStats* stats);
  absl::Status ConnectFromTable(int j, ZoneId zone,
                                absl::Span<const float> block,
                                SearchStats* stats);

  const LevelGraph& graph_;
  ConnectionBlocks blocks_;  // the world's tables, the planner's derived ones
  std::vector<std::pair<uint64_t, double>> columns_;  // ConnectFromTable's
  Point at_;
  int connected_ = 0;
  GridAStar* astar_;
  ZoneDijkstra cells_;
  // The last level-1 connection ran JumpDistances (else cells_).
  bool by_jumps_ = false;
  // The last level-1 connection walked ways of one turn in a zone of one
  // cost where jump points do not apply (the nodes left, pending_, by
  // cells_), and whether cells_ ran.
  bool by_ways_ = false;
  bool searched_ = false;
  // AppendCells' way of one turn or search after a jump point connection.
  RunLengthPath way_;
  // Connect's ways of one turn from the endpoint (grids of one cost).
  OneTurnWaysFrom ways_;
  // Whether every open cell of `zone` (a rect of the grid) costs the same
  // (false when none is open).
  bool ZoneHasOneCost(const Rect& zone) const;
  std::vector<Point> zone_cells_;
  // The least costs to zone_cells_ (walked or JumpDistances').
  std::vector<double> zone_costs_;
  // The zone's nodes without a way of one turn at the octile distance
  // (indices into zone_cells_), their cells and their searched costs.
  std::vector<uint32_t> pending_;
  std::vector<Point> pending_cells_;
  std::vector<double> pending_costs_;
  // Level j >= 2: the level-(j-1) search inside the level-j zone.
  ZoneLevelSearch search_;
  std::array<std::vector<Link>, kMaxLevels + 1> links_;
  std::vector<uint32_t> lowers_;  // the zone's level-j nodes' lower ids
  std::function<void(Point)> on_node_;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_CONNECTOR_H_
