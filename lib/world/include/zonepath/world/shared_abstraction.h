// SharedAbstraction: the abstraction as a World holds it at runtime, in
// copy-on-write pages (CowArray) so that versions of a changing world share
// every zone an update did not touch.
//
// Same graph as the canonical Abstraction (abstraction.h), with two
// differences that let an update rewrite one zone without moving the rest:
//   - a zone's nodes are a contiguous id range [zone_node_begin[z],
//     zone_node_end[z]), and a node's edges are [edge_begin[n], edge_end[n]);
//     ranges need not be in zone order;
//   - an update gives the zones it rebuilds fresh ranges at the end of the
//     arrays and leaves their old ranges unused ("dead"): ids of untouched
//     zones never change. When dead entries outgrow live ones, the update
//     lays the whole abstraction out afresh (NeedsCompaction).
// Level-1 node n is always beacon n (beacons and level-1 nodes grow
// together). Node component labels are node ids of the same level. A
// node's edges are sorted by (target, inter_zone), as in the canonical
// form, so its intra-zone edges (targets in its own zone's range) are one
// block that searches jump over (LevelGraph::ForEachEdge).
//
//   const SharedLevel& level = world.abstraction().levels[0];
//   for (uint32_t v = level.zone_node_begin[z]; v < level.zone_node_end[z];
//   ++v)
//     for (uint32_t e = level.edge_begin[v]; e < level.edge_end[v]; ++e)
//       visit(level.edges[e].target, level.edges[e].cost);
#ifndef ZONEPATH_WORLD_SHARED_ABSTRACTION_H_
#define ZONEPATH_WORLD_SHARED_ABSTRACTION_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "zonepath/base/cow_array.h"
#include "zonepath/world/abstraction.h"

namespace zonepath {

struct SharedLevel : LevelGeometry {
  CowArray<uint32_t> node_beacon;  // per node: its beacon
  CowArray<uint32_t> edge_begin;   // per node
  CowArray<uint32_t> edge_end;     // per node
  CowArray<AbstractEdge> edges;
  CowArray<uint32_t> zone_node_begin;  // per zone
  CowArray<uint32_t> zone_node_end;    // per zone
  CowArray<uint32_t> node_component;   // per node: a node id of its component
  int64_t live_nodes = 0;              // nodes in some zone's range
  int64_t live_edges = 0;              // edges in some live node's range

  // All ids ever given out, live or dead (scratch arrays size by this).
  uint32_t node_count() const {
    return static_cast<uint32_t>(node_beacon.size());
  }
  // Calls fn(node) for every live node, zone by zone.
  template <typename Fn>
  void ForEachNode(Fn&& fn) const {
    for (uint32_t z = 0; z < zone_count(); ++z) {
      for (uint32_t v = zone_node_begin[z]; v < zone_node_end[z]; ++v) fn(v);
    }
  }
  size_t MemoryUsage() const;
  size_t OwnedBytes() const;
  size_t MappedBytes() const;  // views of a mapped world file
};

// Level-1 cached cell paths: the runs of level-1 edge e are
// path_runs[path_begin[e] .. path_begin[e + 1]) (edges are only ever
// appended, with their runs, so one offset array suffices).
struct SharedCachedPaths {
  CowArray<uint32_t> path_begin;  // edges + 1 entries (empty if not cached)
  CowArray<uint32_t> path_runs;   // CachedPaths::PackRun
};

struct SharedAbstraction {
  BuildParams params;
  // BeaconId -> cell (ids of dead nodes included).
  CowArray<BeaconCell> beacons;
  std::vector<SharedLevel> levels;
  SharedCachedPaths cached_paths;

  static SharedAbstraction FromFlat(const Abstraction& flat);
  // The canonical flat form (exactly what a full build of the same grid
  // gives): nodes in zone order, each zone's nodes ordered as the builder
  // orders them, edges by target. O(size of the abstraction).
  Abstraction ToFlat() const;
  // True when dead nodes or edges outnumber live ones (summed over levels,
  // plus a little slack so tiny worlds are not laid out on every update).
  bool NeedsCompaction() const;

  size_t MemoryUsage() const;
  // Bytes of the pages this version wrote rather than shared with the
  // version it was made from.
  size_t OwnedBytes() const;
  // Bytes of pages that view a mapped world file (never owned).
  size_t MappedBytes() const;
};

// The level-(j-1) nodes inside `rect` (a level-j zone) as id ranges, in
// the order connection tables (connection_tables.h) give their columns: calls
// fn(begin, end) for each non-empty level-(j-1) zone inside it, row by row,
// where range_of(c) gives zone c's node ids [first, second) (either form of an
// abstraction). Returns the count.
template <typename RangeOf, typename Fn>
uint64_t ForEachMemberRange(const LevelGeometry& below, const Rect& rect,
                            RangeOf&& range_of, Fn&& fn) {
  const int32_t side = below.zone_side;
  uint64_t count = 0;
  for (int32_t zy = rect.y0 / side; zy * side < rect.y1; ++zy) {
    for (int32_t zx = rect.x0 / side; zx * side < rect.x1; ++zx) {
      const auto [begin, end] =
          range_of(static_cast<uint32_t>(zy) * below.zones_x + zx);
      if (begin >= end) continue;
      fn(begin, end);
      count += end - begin;
    }
  }
  return count;
}

// The same for level-j zone z (j >= 2) of a shared abstraction of a
// width x height grid.
template <typename Fn>
uint64_t ForEachZoneMemberRange(const SharedAbstraction& a, int j, uint32_t z,
                                int32_t width, int32_t height, Fn&& fn) {
  const SharedLevel& below = a.levels[j - 2];
  return ForEachMemberRange(
      below, a.levels[j - 1].ZoneRect(ZoneId(z), width, height),
      [&below](uint32_t c) {
        return std::pair<uint32_t, uint32_t>(below.zone_node_begin[c],
                                             below.zone_node_end[c]);
      },
      fn);
}

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_SHARED_ABSTRACTION_H_
