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

// Level 1: intra-zone edges by exact zone-restricted Dijkstra on the grid.
void BuildLevelOne(const Grid& grid, const BuildParams& params, int threads,
                   const std::vector<Point>& beacons,
                   const std::vector<InterEdge>& inter_edges,
                   AbstractLevel* level, CachedPaths* cached,
                   const std::function<void(int64_t, int64_t)>& progress);

// Level k >= 2 from level k-1 (Boost.Graph Dijkstra inside each zone).
void BuildUpperLevel(const BuildParams& params, int threads,
                     const std::vector<Point>& beacons,
                     const std::vector<InterEdge>& inter_edges,
                     const AbstractLevel& below, AbstractLevel* level,
                     const std::function<void(int64_t, int64_t)>& progress);

// Per-edge list of one node, before CSR assembly.
struct PendingEdge {
  uint32_t source;
  AbstractEdge edge;
  uint32_t path = kNoPath;  // index of a cached cell path, if any
  static constexpr uint32_t kNoPath = 0xFFFFFFFFu;
};

// Sorts edges by (source, target), fills edge_begin/edges, and labels each
// node's zone-local component from the intra-zone edges. Returns the sorted
// edges' `path` fields (for ordering cached paths).
std::vector<uint32_t> AssembleLevel(std::vector<PendingEdge> edges,
                                    AbstractLevel* level);

}  // namespace zonepath::offline_internal

#endif  // ZONEPATH_OFFLINE_BUILD_INTERNAL_H_
