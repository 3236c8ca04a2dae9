// LevelDijkstra (level_dijkstra.h), which builds the landmark and distance
// tables, against a plain Dijkstra over the level's edges: on each of its
// three ways of running (the bucket ring; the heap where the ring would be
// too large; the ring given up for the heap when its distances spread
// thin), forwards and over reversed edges. Its distances may exceed the
// exact ones by float rounding only (it skips the intra-zone edges of a
// node reached over one), never fall below them, and reach the same nodes;
// on a world whose upper edges cost more one way than the other (a crafted
// file) they are still costs of paths, never below the exact ones.
#include "level_dijkstra.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "level_graph.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"

namespace zonepath::runtime_internal {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Distances from `source` over level k's edges (reversed: the distances to
// it), one relaxation per edge.
std::vector<double> PlainDijkstra(const LevelGraph& graph, int k,
                                  uint32_t nodes, uint32_t source,
                                  bool reversed) {
  std::vector<std::vector<std::pair<uint32_t, float>>> adjacent(nodes);
  for (uint32_t u = 0; u < nodes; ++u) {
    graph.ForEachEdge(k, u, [&](uint32_t v, float cost, bool /*intra*/) {
      if (v >= nodes) return;
      if (reversed) {
        adjacent[v].push_back({u, cost});
      } else {
        adjacent[u].push_back({v, cost});
      }
    });
  }
  std::vector<double> dist(nodes, kInfinity);
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  open.push({dist[source] = 0, source});
  while (!open.empty()) {
    const auto [d, u] = open.top();
    open.pop();
    if (d > dist[u]) continue;
    for (const auto& [v, cost] : adjacent[u]) {
      if (d + cost < dist[v]) open.push({dist[v] = d + cost, v});
    }
  }
  return dist;
}

enum class Costs {
  kBuilt,     // as the builder made them
  kLopsided,  // one way of each upper-level edge pair 3x the other
  kOneDear,   // one inter-zone pair on level 2 5000x (too wide a ring)
  kOneCheap,  // one inter-zone pair on level 2 1/60 (buckets too thin)
};

World Build(MapKind kind, uint64_t seed, Costs costs) {
  MapGenOptions g;
  g.kind = kind;
  g.width = g.height = 256;
  g.seed = seed;
  g.feature = kind == MapKind::kMaze ? 3 : 0;
  const Grid grid = *GenerateMap(g);
  BuildOptions o;
  o.params.zone_size = 8;
  o.params.levels = 3;
  o.params.group = 2;
  o.threads = 1;
  Abstraction flat = BuildWorld(grid, o)->FlatAbstraction();
  for (size_t j = 1; j < flat.levels.size(); ++j) {
    AbstractLevel& level = flat.levels[j];
    uint32_t dear = ~uint32_t{0};  // the first inter-zone edge's source
    for (uint32_t u = 0; u + 1 < level.edge_begin.size(); ++u) {
      for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
        AbstractEdge& edge = level.edges[e];
        if (costs == Costs::kLopsided && edge.target > u) edge.cost *= 3;
        if ((costs == Costs::kOneDear || costs == Costs::kOneCheap) && j == 1 &&
            edge.inter_zone) {
          if (dear == ~uint32_t{0}) dear = u;
          // Both ways of the pair (dear, its target).
          if (u == dear || edge.target == dear) {
            edge.cost *= costs == Costs::kOneDear ? 5000.0f : 1.0f / 60;
          }
        }
      }
    }
  }
  return World(grid, flat);
}

TEST(LevelDijkstraTest, AgreesWithAPlainDijkstraOnRingAndHeap) {
  struct Case {
    MapKind kind;
    Costs costs;
    const char* name;
  };
  int64_t ring_runs = 0, heap_runs = 0, given_up_levels = 0;
  for (const Case& c : {Case{MapKind::kRooms, Costs::kBuilt, "rooms"},
                        Case{MapKind::kTerrain, Costs::kBuilt, "terrain"},
                        Case{MapKind::kMaze, Costs::kBuilt, "maze"},
                        Case{MapKind::kRooms, Costs::kOneDear, "one dear"},
                        Case{MapKind::kRooms, Costs::kOneCheap, "one cheap"},
                        Case{MapKind::kRooms, Costs::kLopsided, "lopsided"}}) {
    const World world = Build(c.kind, 5, c.costs);
    const LevelGraph graph(world);
    for (int k = 1; k <= graph.levels(); ++k) {
      const uint32_t nodes =
          static_cast<uint32_t>(graph.level(k).node_beacon.size());
      for (const bool reversed : {false, true}) {
        // The maze's Dijkstras give the ring up early (no empty buckets
        // allowed per node), so that the heap takes over midway.
        LevelDijkstraScratch scratch;
        scratch.Prepare(graph, k, nodes, reversed,
                        c.kind == MapKind::kMaze ? 0 : 16);
        std::vector<double> dist(nodes);
        const int sources = 24;
        for (int i = 0; i < sources; ++i) {
          const uint32_t source = static_cast<uint32_t>(
              (uint64_t{nodes} * static_cast<uint64_t>(i)) / sources);
          LevelDijkstra(source, 1, 0, &dist, &scratch);
          const std::vector<double> plain =
              PlainDijkstra(graph, k, nodes, source, reversed);
          for (uint32_t n = 0; n < nodes; ++n) {
            const std::string where =
                std::string(c.name) + " level " + std::to_string(k) +
                (reversed ? " reversed" : "") + " source " +
                std::to_string(source) + " node " + std::to_string(n);
            ASSERT_EQ(std::isinf(dist[n]), std::isinf(plain[n])) << where;
            if (std::isinf(plain[n])) continue;
            // Every distance is some path's cost; the skipped edges never
            // lead to a cheaper one where intra-zone edges are the zone's
            // cheapest ways (not so with lopsided costs: a crafted world).
            EXPECT_GE(dist[n], plain[n]) << where;
            if (c.costs != Costs::kLopsided) {
              EXPECT_LE(dist[n], plain[n] * (1 + 1e-6)) << where;
            }
          }
        }
        ring_runs += sources - scratch.heap_runs();
        heap_runs += scratch.heap_runs();
        given_up_levels += scratch.ring_given_up();
      }
    }
  }
  // Each way of running was taken.
  EXPECT_GT(ring_runs, 0);
  EXPECT_GT(heap_runs, 0);
  EXPECT_GT(given_up_levels, 0);
}

}  // namespace
}  // namespace zonepath::runtime_internal
