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
  const uint32_t n = level->node_count();
  const int64_t zones = level->zone_count();
  // Each node's inter-zone edges (both directions of each crossing), CSR.
  std::vector<uint32_t> inter_begin(n + 1, 0);
  for (const InterEdge& ie : inter_edges) {
    ++inter_begin[ie.a + 1];
    ++inter_begin[ie.b + 1];
  }
  std::partial_sum(inter_begin.begin(), inter_begin.end(), inter_begin.begin());
  std::vector<AbstractEdge> inter(inter_begin[n]);
  {
    std::vector<uint32_t> next(inter_begin.begin(), inter_begin.end() - 1);
    for (const InterEdge& ie : inter_edges) {
      const float cost = static_cast<float>(ie.cost);
      inter[next[ie.a]++] = {ie.b, 1, cost};
      inter[next[ie.b]++] = {ie.a, 1, cost};
    }
  }
  // The level is written zone by zone, in node order, as chunks of zones
  // are searched: only a chunk's edge lists exist beside it (holding every
  // zone's lists until the end made the build's peak 1.6x the world). The
  // edge array reserves an upper bound (k (k - 1) intra-zone edges for k
  // nodes): reserved pages cost no memory until written, and the array is
  // never copied to grow.
  uint64_t bound = inter.size();
  for (int64_t z = 0; z < zones; ++z) {
    const uint64_t k =
        level->zone_node_begin[z + 1] - level->zone_node_begin[z];
    bound += k * (k == 0 ? 0 : k - 1);
  }
  level->edges.clear();
  level->edges.reserve(bound);
  level->edge_begin.assign(n + 1, 0);
  level->node_component.resize(n);
  if (params.cache_paths) {
    cached->path_begin.assign(1, 0);
    cached->path_runs.clear();
  }
  std::vector<std::unique_ptr<ZoneDijkstra>> scratch(threads);
  std::vector<std::vector<Point>> targets(threads);
  std::vector<RunLengthPath> path_buffer(threads);
  const int64_t chunk = std::max<int64_t>(256, int64_t{threads} * 256);
  std::vector<ZoneEdges> results;
  std::atomic<int64_t> done{0};
  struct Out {
    AbstractEdge edge;
    uint32_t path;  // into the zone's paths, or kNoPath
  };
  std::vector<Out> node_edges;
  std::vector<uint32_t> parent;
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
      const int64_t z = first + i;
      const uint32_t begin = level->zone_node_begin[z];
      const uint32_t end = level->zone_node_begin[z + 1];
      ZoneEdges& r = results[i];
      // The zone's intra-zone edges by source (targets sorted below).
      std::sort(r.edges.begin(), r.edges.end(),
                [](const PendingEdge& a, const PendingEdge& b) {
                  return a.source != b.source ? a.source < b.source
                                              : a.edge.target < b.edge.target;
                });
      // Zone-local components: union under the smaller id, so each root
      // is its component's smallest node (as AssembleLevel labels).
      parent.resize(end - begin);
      std::iota(parent.begin(), parent.end(), 0);
      auto find = [&](uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
      };
      size_t at = 0;
      for (uint32_t u = begin; u < end; ++u) {
        node_edges.clear();
        for (; at < r.edges.size() && r.edges[at].source == u; ++at) {
          const PendingEdge& e = r.edges[at];
          node_edges.push_back({e.edge, e.path});
          const uint32_t a = find(u - begin), b = find(e.edge.target - begin);
          if (a != b) parent[std::max(a, b)] = std::min(a, b);
        }
        for (uint32_t k = inter_begin[u]; k < inter_begin[u + 1]; ++k) {
          node_edges.push_back({inter[k], PendingEdge::kNoPath});
        }
        std::sort(node_edges.begin(), node_edges.end(),
                  [](const Out& a, const Out& b) {
                    if (a.edge.target != b.edge.target) {
                      return a.edge.target < b.edge.target;
                    }
                    return a.edge.inter_zone < b.edge.inter_zone;
                  });
        for (const Out& o : node_edges) {
          level->edges.push_back(o.edge);
          if (!params.cache_paths) continue;
          if (o.path != PendingEdge::kNoPath) {
            cached->path_runs.insert(cached->path_runs.end(),
                                     r.paths[o.path].begin(),
                                     r.paths[o.path].end());
          }
          cached->path_begin.push_back(
              static_cast<uint32_t>(cached->path_runs.size()));
        }
        level->edge_begin[u + 1] = static_cast<uint32_t>(level->edges.size());
      }
      for (uint32_t u = begin; u < end; ++u) {
        level->node_component[u] = begin + find(u - begin);
      }
      r = ZoneEdges();  // freed as soon as it is written
    }
  }
}

}  // namespace zonepath::update_internal
