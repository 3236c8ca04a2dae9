// Level 1: intra-zone edges between the beacons of each zone, costed by an
// exact Dijkstra restricted to the zone.
#include <algorithm>
#include <memory>

#include "build_internal.h"
#include "zonepath/search/zone_dijkstra.h"

namespace zonepath::offline_internal {
void SetLevelOneNodes(const std::vector<Point>& beacons, AbstractLevel* level) {
  const uint32_t n = static_cast<uint32_t>(beacons.size());
  level->node_beacon.resize(n);
  for (uint32_t i = 0; i < n; ++i) level->node_beacon[i] = i;
  // Beacons are sorted by zone: zone z owns a contiguous id range.
  level->zone_node_begin.assign(level->zone_count() + 1, 0);
  for (Point b : beacons)
    ++level->zone_node_begin[level->ZoneOf(b).value() + 1];
  for (size_t z = 1; z < level->zone_node_begin.size(); ++z) {
    level->zone_node_begin[z] += level->zone_node_begin[z - 1];
  }
}

void BuildLevelOne(const Grid& grid, const BuildParams& params, int threads,
                   const std::vector<Point>& beacons,
                   const std::vector<InterEdge>& inter_edges,
                   const LevelReuse* reuse, AbstractLevel* level,
                   CachedPaths* cached,
                   const std::function<void(int64_t, int64_t)>& progress) {
  struct ZoneResult {
    std::vector<PendingEdge> edges;
    std::vector<std::vector<uint32_t>> paths;
  };
  std::vector<ZoneResult> results(level->zone_count());
  std::vector<std::unique_ptr<ZoneDijkstra>> scratch(threads);
  std::vector<std::vector<Point>> targets(threads);
  std::vector<RunLengthPath> path_buffer(threads);
  const int64_t zones = level->zone_count();
  std::atomic<int64_t> done{0};
  ParallelForZones(zones, threads, [&](int t, int64_t z) {
    if (reuse != nullptr && !reuse->rebuild[z]) {
      CopyZoneEdges(*reuse, static_cast<uint32_t>(z), level->zone_node_begin[z],
                    &results[z].edges, &results[z].paths);
      if (progress) progress(++done, zones);
      return;
    }
    if (!scratch[t])
      scratch[t] = std::make_unique<ZoneDijkstra>(level->zone_side);
    const uint32_t begin = level->zone_node_begin[z];
    const uint32_t end = level->zone_node_begin[z + 1];
    const Rect rect = level->ZoneRect(ZoneId(static_cast<uint32_t>(z)),
                                      grid.width(), grid.height());
    ZoneResult& result = results[z];
    for (uint32_t u = begin; u < end; ++u) {
      targets[t].clear();
      for (uint32_t v = begin; v < end; ++v) {
        if (v != u) targets[t].push_back(beacons[v]);
      }
      if (targets[t].empty()) break;
      scratch[t]->Run(grid, beacons[u], rect, params.connectivity, targets[t]);
      for (uint32_t v = begin; v < end; ++v) {
        if (v == u) continue;
        const double d = scratch[t]->Distance(beacons[v]);
        if (!(d < std::numeric_limits<double>::infinity())) continue;
        PendingEdge e{u, {v, 0, static_cast<float>(d)}};
        if (params.cache_paths) {
          path_buffer[t].Reset(beacons[u]);
          scratch[t]->AppendPath(beacons[v], &path_buffer[t]);
          std::vector<uint32_t> packed;
          for (const Run& run : path_buffer[t].runs())
            packed.push_back(CachedPaths::PackRun(run));
          e.path = static_cast<uint32_t>(result.paths.size());
          result.paths.push_back(std::move(packed));
        }
        result.edges.push_back(e);
      }
    }
    if (progress) progress(++done, zones);
  });

  // Sized once: growing vectors of this size is most of an update's time
  // when it searches only a few zones.
  size_t intra = 0, path_count = 0;
  for (const ZoneResult& r : results) {
    intra += r.edges.size();
    path_count += r.paths.size();
  }
  std::vector<PendingEdge> edges;
  edges.reserve(intra + 2 * inter_edges.size());
  std::vector<std::vector<uint32_t>> paths;
  paths.reserve(path_count);
  for (ZoneResult& r : results) {
    for (PendingEdge& e : r.edges) {
      if (e.path != PendingEdge::kNoPath) {
        e.path += static_cast<uint32_t>(paths.size());
      }
      edges.push_back(e);
    }
    for (auto& p : r.paths) paths.push_back(std::move(p));
    r = ZoneResult();
  }
  for (const InterEdge& ie : inter_edges) {
    const float cost = static_cast<float>(ie.cost);
    edges.push_back({ie.a, {ie.b, 1, cost}});
    edges.push_back({ie.b, {ie.a, 1, cost}});
  }
  const std::vector<uint32_t> order = AssembleLevel(std::move(edges), level);
  if (params.cache_paths) {
    cached->path_begin.assign(1, 0);
    cached->path_runs.clear();
    for (uint32_t path : order) {
      if (path != PendingEdge::kNoPath) {
        cached->path_runs.insert(cached->path_runs.end(), paths[path].begin(),
                                 paths[path].end());
      }
      cached->path_begin.push_back(
          static_cast<uint32_t>(cached->path_runs.size()));
    }
  }
}

}  // namespace zonepath::offline_internal
