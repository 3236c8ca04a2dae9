// Level 1: intra-zone edges between the beacons of each zone, costed by an
// exact Dijkstra restricted to the zone.
#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <numeric>

#include "zonepath/search/zone_dijkstra.h"
#include "zonepath/update/zone_kernels.h"

namespace zonepath::update_internal {
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

void SearchLevelOneZone(const Grid& grid, const BuildParams& params,
                        const Rect& rect, const Point* cells, uint32_t count,
                        uint32_t first_id, ZoneDijkstra* dijkstra,
                        RunLengthPath* buffer, std::vector<Point>* targets,
                        ZoneEdges* out) {
  if (count < 2) return;
  // Moves and step costs are symmetric (moves.h), so one search from u
  // gives both u -> v and v -> u for every v > u: the searches from later
  // beacons have fewer targets and stop sooner, and the last needs none.
  // A cached v -> u path is the u -> v path walked backwards.
  dijkstra->LoadRect(grid, rect);
  for (uint32_t u = 0; u + 1 < count; ++u) {
    targets->assign(cells + u + 1, cells + count);
    dijkstra->RunLoaded(cells[u], params.connectivity, *targets);
    for (uint32_t v = u + 1; v < count; ++v) {
      const double d = dijkstra->Distance(cells[v]);
      if (!(d < std::numeric_limits<double>::infinity())) continue;
      const float cost = static_cast<float>(d);
      PendingEdge forward{first_id + u, {first_id + v, 0, cost}};
      PendingEdge backward{first_id + v, {first_id + u, 0, cost}};
      if (params.cache_paths) {
        buffer->Reset(cells[u]);
        dijkstra->AppendPath(cells[v], buffer);
        std::vector<uint32_t> packed, reversed;
        for (const Run& run : buffer->runs()) {
          packed.push_back(CachedPaths::PackRun(run));
        }
        for (auto run = buffer->runs().rbegin(); run != buffer->runs().rend();
             ++run) {
          reversed.push_back(
              CachedPaths::PackRun({Opposite(run->direction), run->count}));
        }
        forward.path = static_cast<uint32_t>(out->paths.size());
        out->paths.push_back(std::move(packed));
        backward.path = static_cast<uint32_t>(out->paths.size());
        out->paths.push_back(std::move(reversed));
      }
      out->edges.push_back(forward);
      out->edges.push_back(backward);
    }
  }
}

void BuildLevelOne(const Grid& grid, const BuildParams& params, int threads,
                   const std::vector<Point>& beacons,
                   const std::vector<InterEdge>& inter_edges,
                   AbstractLevel* level, CachedPaths* cached,
                   const std::function<void(int64_t, int64_t)>& progress) {
  const int64_t zones = level->zone_count();
  // The level is written as chunks of zones are searched (LevelWriter):
  // holding every zone's edge lists until the end made the build's peak
  // 1.6x the world.
  LevelWriter writer(
      level, inter_edges, [](uint32_t node) { return node; },
      params.cache_paths ? cached : nullptr);
  std::vector<std::unique_ptr<ZoneDijkstra>> scratch(threads);
  std::vector<std::vector<Point>> targets(threads);
  std::vector<RunLengthPath> path_buffer(threads);
  const int64_t chunk = std::max<int64_t>(256, int64_t{threads} * 256);
  std::vector<ZoneEdges> results;
  std::atomic<int64_t> done{0};
  for (int64_t first = 0; first < zones; first += chunk) {
    const int64_t count = std::min(chunk, zones - first);
    results.assign(count, ZoneEdges());
    ParallelForZones(count, threads, [&](int t, int64_t i) {
      if (!scratch[t])
        scratch[t] = std::make_unique<ZoneDijkstra>(level->zone_side);
      const int64_t z = first + i;
      const uint32_t begin = level->zone_node_begin[z];
      const uint32_t end = level->zone_node_begin[z + 1];
      const Rect rect = level->ZoneRect(ZoneId(static_cast<uint32_t>(z)),
                                        grid.width(), grid.height());
      SearchLevelOneZone(grid, params, rect, beacons.data() + begin,
                         end - begin, begin, scratch[t].get(), &path_buffer[t],
                         &targets[t], &results[i]);
      if (progress) progress(++done, zones);
    });
    for (int64_t i = 0; i < count; ++i) {
      writer.WriteZone(first + i, &results[i].edges, &results[i].paths);
      results[i] = ZoneEdges();
    }
  }
}

}  // namespace zonepath::update_internal
