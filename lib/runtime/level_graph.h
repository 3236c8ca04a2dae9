// LevelGraph: the planner's read-only view of a world's abstract levels,
// numbered 1..levels() as in the README (level 1 = zones of zone_size
// cells). A level-j node is a beacon; level-1 node n is beacon n, and a
// level-j node (j >= 2) is also a node of level j-1 (its crossing crosses a
// level-(j-1) border too), found by LowerId.
//
//   LevelGraph graph(world);
//   Point c = graph.NodeCell(2, v);
//   uint32_t below = graph.LowerId(2, v);   // v's id on level 1
//   Rect zone = graph.ZoneRect(3, c);       // c's level-3 zone
#ifndef ZONEPATH_RUNTIME_LEVEL_GRAPH_H_
#define ZONEPATH_RUNTIME_LEVEL_GRAPH_H_

#include <cstdint>

#include "node_state_map.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/grid/grid.h"
#include "zonepath/world/shared_abstraction.h"
#include "zonepath/world/world.h"

namespace zonepath::runtime_internal {

class LevelGraph {
 public:
  explicit LevelGraph(const World& world)
      : grid_(world.grid()),
        abstraction_(world.abstraction()),
        tables_(world.connection_tables()) {}

  const Grid& grid() const { return grid_; }
  const SharedAbstraction& abstraction() const { return abstraction_; }
  // Null when the world has none.
  const ConnectionTables* connection_tables() const { return tables_; }
  int levels() const { return static_cast<int>(abstraction_.levels.size()); }
  // Level j, 1 <= j <= levels().
  const SharedLevel& level(int j) const { return abstraction_.levels[j - 1]; }
  Connectivity connectivity() const { return abstraction_.params.connectivity; }
  bool cache_paths() const { return abstraction_.params.cache_paths; }
  const SharedCachedPaths& cached_paths() const {
    return abstraction_.cached_paths;
  }

  // The beacon of level-j node v.
  uint32_t Beacon(int j, uint32_t v) const {
    return j == 1 ? v : level(j).node_beacon[v];
  }
  Point NodeCell(int j, uint32_t v) const {
    return abstraction_.beacons[Beacon(j, v)];
  }
  ZoneId ZoneOf(int j, Point p) const { return level(j).ZoneOf(p); }
  Rect ZoneRect(int j, Point p) const {
    return level(j).ZoneRect(level(j).ZoneOf(p), grid_.width(), grid_.height());
  }
  int32_t ZoneSide(int j) const { return level(j).zone_side; }

  // The level-(j-1) id of level-j node v (j >= 2), or kNone if level j-1 has
  // no node for its beacon (a world whose levels disagree). Scans the
  // level-(j-1) zone's few nodes.
  uint32_t LowerId(int j, uint32_t v) const {
    const uint32_t beacon = level(j).node_beacon[v];
    if (j == 2) return beacon;
    const SharedLevel& below = level(j - 1);
    const ZoneId z = below.ZoneOf(abstraction_.beacons[beacon]);
    for (uint32_t u = below.zone_node_begin[z.value()];
         u < below.zone_node_end[z.value()]; ++u) {
      if (below.node_beacon[u] == beacon) return u;
    }
    return NodeStateMap::kNone;
  }

  // Calls fn(target, cost, intra) for each edge of level-j node v (intra:
  // the edge stays inside v's level-j zone).
  template <typename Fn>
  void ForEachEdge(int j, uint32_t v, Fn&& fn) const {
    const SharedLevel& l = level(j);
    l.edges.ForEachIn(l.edge_begin[v], l.edge_end[v],
                      [&](const AbstractEdge& e) {
                        fn(e.target, e.cost, e.inter_zone == 0);
                      });
  }
  // The same; with inter_only, only v's inter-zone edges (a search skips
  // the intra-zone edges of a node it reached over one, best_first.h). A
  // node's edges are sorted by target and its zone's nodes are one id range
  // (the loader checks both; the builder and ApplyChanges write them so),
  // so its intra-zone edges are one block (the zone's clique, most of its
  // edges): the inter-zone edges are those before and after it, found
  // without walking the block. Same edges, same order as testing each
  // edge's kind. One loop serves both cases so that fn has one call site
  // and a search's relax stays inline (two call sites cost more than the
  // skip saves: measured).
  template <typename Fn>
  void ForEachEdge(int j, uint32_t v, bool inter_only, Fn&& fn) const {
    const SharedLevel& l = level(j);
    const uint32_t end = l.edge_end[v];
    for (uint32_t e = l.edge_begin[v]; e < end;) {
      const AbstractEdge& edge = l.edges[e];
      if (inter_only && !edge.inter_zone) {
        // The block's first edge: go on after its last one.
        uint32_t tail = end;
        while (tail > e + 1 && l.edges[tail - 1].inter_zone) --tail;
        e = tail;
        continue;
      }
      fn(edge.target, edge.cost, edge.inter_zone == 0);
      ++e;
    }
  }

 private:
  const Grid& grid_;
  const SharedAbstraction& abstraction_;
  const ConnectionTables* tables_;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_LEVEL_GRAPH_H_
