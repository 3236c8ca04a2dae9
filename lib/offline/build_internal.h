// Internal to zonepath::offline: the build's stages.
#ifndef ZONEPATH_OFFLINE_BUILD_INTERNAL_H_
#define ZONEPATH_OFFLINE_BUILD_INTERNAL_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "zonepath/grid/grid.h"
#include "zonepath/world/abstraction.h"

namespace zonepath::offline_internal {

// A border-crossing step between two beacons (ids into Abstraction::beacons).
struct InterEdge {
  uint32_t a;
  uint32_t b;
  double cost;
};

// Finds level-1 entrances, fills `beacons` (sorted by level-1 zone, then
// row, then column) and the crossing steps between them.
void PlaceBeacons(const Grid& grid, const BuildParams& params,
                  const AbstractLevel& level1, std::vector<Point>* beacons,
                  std::vector<InterEdge>* inter_edges);

// Runs fn(zone) for zone in [0, zones) on `threads` threads; each thread gets
// its own index in [0, threads) for per-thread scratch.
void ParallelForZones(int64_t zones, int threads,
                      const std::function<void(int thread, int64_t zone)>& fn);

// What an incremental build may take from the previous version of a level
// instead of searching again: the intra-zone edges (and cached paths) of
// every zone with rebuild[z] == 0. The caller guarantees that such a zone
// has the same cells and the same nodes, in the same order, as before.
struct LevelReuse {
  const AbstractLevel* old = nullptr;
  const CachedPaths* old_paths = nullptr;  // level 1 with cache_paths only
  std::vector<uint8_t> rebuild;            // per zone of this level
};

// Level 1: one node per beacon (SetLevelOneNodes, called first), and
// intra-zone edges by exact zone-restricted Dijkstra on the grid. `reuse` (may
// be null) lets zones not marked for rebuild copy their edges.
void SetLevelOneNodes(const std::vector<Point>& beacons, AbstractLevel* level);
void BuildLevelOne(const Grid& grid, const BuildParams& params, int threads,
                   const std::vector<Point>& beacons,
                   const std::vector<InterEdge>& inter_edges,
                   const LevelReuse* reuse, AbstractLevel* level,
                   CachedPaths* cached,
                   const std::function<void(int64_t, int64_t)>& progress);

// Level k >= 2 from level k-1 (Boost.Graph Dijkstra inside each zone).
// Node lists (node_beacon, zone_node_begin) are set first by
// SetUpperLevelNodes.
void SetUpperLevelNodes(const std::vector<Point>& beacons,
                        const std::vector<InterEdge>& inter_edges,
                        AbstractLevel* level);
void BuildUpperLevel(int threads, const std::vector<Point>& beacons,
                     const std::vector<InterEdge>& inter_edges,
                     const AbstractLevel& below, const LevelReuse* reuse,
                     AbstractLevel* level,
                     const std::function<void(int64_t, int64_t)>& progress);

// Per-edge list of one node, before CSR assembly.
struct PendingEdge {
  uint32_t source;
  AbstractEdge edge;
  uint32_t path = kNoPath;  // index of a cached cell path, if any
  static constexpr uint32_t kNoPath = 0xFFFFFFFFu;
};

// Appends the intra-zone edges of zone `z` of `reuse.old` to `out`,
// renumbered to start at node `begin` of the new level; for level 1 with
// cached paths, also appends each edge's packed runs to `paths` and sets the
// edge's `path` to its index there.
void CopyZoneEdges(const LevelReuse& reuse, uint32_t z, uint32_t begin,
                   std::vector<PendingEdge>* out,
                   std::vector<std::vector<uint32_t>>* paths);

// Orders edges by (source, target, inter_zone) — a total order, so the
// result does not depend on the input order — fills edge_begin/edges, and
// labels each node's zone-local component from the intra-zone edges. Linear
// apart from sorting each node's few edges. Returns the ordered edges'
// `path` fields (for ordering cached paths).
std::vector<uint32_t> AssembleLevel(std::vector<PendingEdge> edges,
                                    AbstractLevel* level);

// One level's figures, filled by BuildAbstraction.
struct LevelBuildStats {
  int64_t zones = 0;
  int64_t nodes = 0;
  int64_t edges = 0;
  int64_t zones_searched = 0;  // zones whose edges were computed, not copied
  double seconds = 0;
};

// An earlier version of the abstraction and the level-1 zones whose cells
// changed since: lets BuildAbstraction copy what cannot have changed.
struct PreviousBuild {
  const Abstraction* abstraction = nullptr;
  const std::vector<Point>* beacons = nullptr;  // == &abstraction->beacons
  std::vector<uint8_t> changed_zones;           // per level-1 zone
};

// Builds every level of `grid`'s abstraction. With `previous`, a zone is
// searched again only if its cells changed, its node list changed, or (above
// level 1) a zone inside it was searched again; all other zones copy their
// edges. The result is the same as without `previous`. `rebuilt` (may be
// null) receives the per-level rebuild flags.
using StageProgress =
    std::function<std::function<void(int64_t, int64_t)>(int level)>;
Abstraction BuildAbstraction(const Grid& grid, const BuildParams& params,
                             int threads, const StageProgress& progress,
                             const PreviousBuild* previous,
                             std::vector<LevelBuildStats>* stats,
                             std::vector<std::vector<uint8_t>>* rebuilt);

}  // namespace zonepath::offline_internal

#endif  // ZONEPATH_OFFLINE_BUILD_INTERNAL_H_
