// EndpointConnector (connector.h) links an endpoint upward level by level;
// level j >= 2 runs ZoneLevelSearch, a Dijkstra on dense zone-local state
// that also skips the intra-zone edges of a node reached over one. Its
// links must equal a plain Dijkstra's over every level-(j-1) edge inside
// the endpoint's level-j zone, from the same level-(j-1) links.
#include "connector.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <queue>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "level_graph.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"

namespace zonepath::runtime_internal {
namespace {

// Level-(j-1) distances from `seeds` inside p's level-j zone, every edge.
std::map<uint32_t, double> PlainDijkstra(const LevelGraph& graph, int j,
                                         Point p,
                                         const std::vector<Link>& seeds) {
  const Rect zone = graph.ZoneRect(j, p);
  std::map<uint32_t, double> dist;
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  auto g = [&](uint32_t v) {
    const auto it = dist.find(v);
    return it == dist.end() ? std::numeric_limits<double>::infinity()
                            : it->second;
  };
  for (const Link& l : seeds) {
    if (l.cost < g(l.node)) open.push({dist[l.node] = l.cost, l.node});
  }
  while (!open.empty()) {
    const double d = open.top().first;  // captured below: no binding
    const uint32_t u = open.top().second;
    open.pop();
    if (d > g(u)) continue;
    graph.ForEachEdge(j - 1, u, [&](uint32_t v, float cost, bool /*intra*/) {
      if (!zone.Contains(graph.NodeCell(j - 1, v))) return;
      if (d + cost < g(v)) open.push({dist[v] = d + cost, v});
    });
  }
  return dist;
}

TEST(ConnectorTest, UpwardLinksEqualAPlainDijkstraInTheZone) {
  for (MapKind kind : {MapKind::kRooms, MapKind::kTerrain, MapKind::kMaze}) {
    MapGenOptions g;
    g.kind = kind;
    g.width = 512;
    g.height = 384;
    g.seed = 7;
    const Grid grid = *GenerateMap(g);
    BuildOptions o;
    o.params.zone_size = 8;
    o.params.levels = 4;
    o.params.group = 2;
    o.threads = 1;
    absl::StatusOr<World> world = BuildWorld(grid, o);
    ASSERT_TRUE(world.ok()) << world.status();
    const LevelGraph graph(*world);
    EndpointConnector connector(graph, 1 << 18);
    std::mt19937_64 rng(11);
    int checked = 0;
    for (int q = 0; q < 60; ++q) {
      const Point p{static_cast<int32_t>(rng() % g.width),
                    static_cast<int32_t>(rng() % g.height)};
      if (!grid.PassableOrFalse(p)) continue;
      SearchStats stats;
      ASSERT_TRUE(connector.Connect(p, 4, &stats).ok());
      for (int j = 2; j <= connector.connected_levels(); ++j) {
        const std::map<uint32_t, double> expected =
            PlainDijkstra(graph, j, p, connector.links(j - 1));
        const SharedLevel& level = graph.level(j);
        const ZoneId zone = level.ZoneOf(p);
        int reachable = 0;
        for (uint32_t v = level.zone_node_begin[zone.value()];
             v < level.zone_node_end[zone.value()]; ++v) {
          const auto it = expected.find(graph.LowerId(j, v));
          if (it == expected.end()) continue;
          ++reachable;
          EXPECT_NEAR(connector.LinkCost(j, v), it->second,
                      1e-6 * (1 + it->second))
              << "kind " << static_cast<int>(kind) << " at " << PointString(p)
              << " level " << j << " node " << v;
        }
        EXPECT_EQ(static_cast<int>(connector.links(j).size()), reachable)
            << PointString(p) << " level " << j;
        ++checked;
      }
    }
    EXPECT_GT(checked, 60) << "kind " << static_cast<int>(kind);
  }
}

}  // namespace
}  // namespace zonepath::runtime_internal
