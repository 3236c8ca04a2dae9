// DerivedConnections (derived_connections.h), the connection tables a
// planner derives for the levels its world file has none of, against the
// file's own tables (world/connection_tables.h, built offline by another
// implementation, on the zones whose blocks fit the file's budget) and
// against a plain Dijkstra inside each zone (every block): a world built
// without tables derives, block for block, the values a world built with
// them stores. And the byte budget: a level gets its blocks only when they
// fit.
#include "derived_connections.h"

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

World Build(MapKind kind, uint64_t seed, bool tables) {
  MapGenOptions g;
  g.kind = kind;
  g.width = g.height = 256;
  g.seed = seed;
  g.feature = kind == MapKind::kMaze ? 3 : 0;
  BuildOptions o;
  o.params.zone_size = 8;
  o.params.levels = 4;
  o.params.group = 2;
  o.threads = 1;
  o.connection_tables = tables;
  absl::StatusOr<World> world = BuildWorld(*GenerateMap(g), o);
  EXPECT_TRUE(world.ok()) << world.status();
  return *std::move(world);
}

uint64_t LevelValues(const DerivedConnections& d, const LevelGraph& graph,
                     int j) {
  uint64_t n = 0;
  for (uint32_t z = 0; z < graph.level(j).zone_count(); ++z) {
    n += d.Block(j, z).size();
  }
  return n;
}

TEST(DerivedConnectionsTest, MatchTheFileTablesBlockForBlock) {
  int compared = 0, from_file = 0, finite = 0, infinite = 0;
  for (const MapKind kind :
       {MapKind::kRooms, MapKind::kTerrain, MapKind::kMaze}) {
    const uint64_t seed = 5 + static_cast<uint64_t>(kind);
    const World with = Build(kind, seed, true);
    const World without = Build(kind, seed, false);
    ASSERT_NE(with.connection_tables(), nullptr);
    ASSERT_EQ(without.connection_tables(), nullptr);
    const LevelGraph graph_with(with), graph_without(without);
    const auto derived = DerivedConnections::Build(graph_without, 1 << 30);
    const auto level2 = DerivedConnections::Build(graph_with, 1 << 30);
    ASSERT_NE(derived, nullptr);
    ASSERT_NE(level2, nullptr);
    // Without file tables every level derives; with them, level 2 only.
    for (int j = 2; j <= 4; ++j) EXPECT_TRUE(derived->has_level(j)) << j;
    EXPECT_TRUE(level2->has_level(2));
    EXPECT_FALSE(level2->has_level(3));
    EXPECT_FALSE(level2->has_level(4));
    const ConnectionTables& file = *with.connection_tables();
    for (int j = 2; j <= 4; ++j) {
      for (uint32_t z = 0; z < graph_with.level(j).zone_count(); ++z) {
        const std::string where =
            std::string(MapKindName(kind)) + " seed " + std::to_string(seed) +
            " level " + std::to_string(j) + " zone " + std::to_string(z);
        const absl::Span<const float> mine = derived->Block(j, z);
        // Level 2 has no file table: the two derived ones must agree.
        const absl::Span<const float> theirs =
            j == 2 ? level2->Block(j, z) : file.Block(j, z);
        if (theirs.empty()) continue;  // over the file's per-zone budget
        ASSERT_EQ(mine.size(), theirs.size()) << where;
        ++compared;
        from_file += j >= 3 ? 1 : 0;
        for (size_t i = 0; i < mine.size(); ++i) {
          if (std::isinf(theirs[i])) {
            ASSERT_TRUE(std::isinf(mine[i])) << where << " value " << i;
            ++infinite;
          } else {
            ASSERT_NEAR(mine[i], theirs[i], 1e-5 * (1 + theirs[i]))
                << where << " value " << i;
            ++finite;
          }
        }
      }
    }
  }
  // Few zones of worlds this small keep a file block (the file's per-zone
  // budget); level 2's two derivations agree by construction.
  EXPECT_GT(from_file, 30);
  EXPECT_GT(compared, 300);
  EXPECT_GT(finite, 10000);
  EXPECT_GT(infinite, 0);  // mazes and rooms have zones split in parts
}

// Costs from level-(j-1) node `source` to every node inside `zone`, over
// level j-1's edges that stay inside it, one relaxation per edge.
std::vector<double> PlainDijkstraInZone(const LevelGraph& graph, int below,
                                        const Rect& zone, uint32_t source,
                                        const std::vector<uint32_t>& members) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  std::vector<double> dist(graph.level(below).node_beacon.size(), kInfinity);
  using Entry = std::pair<double, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  dist[source] = 0;
  open.push({0.0, source});
  while (!open.empty()) {
    const auto [g, u] = open.top();
    open.pop();
    if (g > dist[u]) continue;
    graph.ForEachEdge(below, u, [&](uint32_t v, float cost, bool) {
      if (!zone.Contains(graph.NodeCell(below, v))) return;
      if (g + cost < dist[v]) {
        dist[v] = g + cost;
        open.push({dist[v], v});
      }
    });
  }
  std::vector<double> row;
  for (const uint32_t m : members) row.push_back(dist[m]);
  return row;
}

// Every derived block, every level, against a plain Dijkstra inside the
// zone (the file's tables cover few zones of these small worlds: most
// blocks exceed their per-zone budget).
TEST(DerivedConnectionsTest, EveryRowIsAPlainDijkstraInsideTheZone) {
  int rows = 0, finite = 0, infinite = 0;
  for (const MapKind kind :
       {MapKind::kRooms, MapKind::kTerrain, MapKind::kMaze}) {
    const uint64_t seed = 11 + static_cast<uint64_t>(kind);
    const World world = Build(kind, seed, false);
    const LevelGraph graph(world);
    const auto derived = DerivedConnections::Build(graph, 1 << 30);
    ASSERT_NE(derived, nullptr);
    const int32_t width = graph.grid().width();
    const int32_t height = graph.grid().height();
    for (int j = 2; j <= graph.levels(); ++j) {
      ASSERT_TRUE(derived->has_level(j)) << j;
      const SharedLevel& level = graph.level(j);
      for (uint32_t z = 0; z < level.zone_count(); ++z) {
        std::vector<uint32_t> members;
        ForEachZoneMemberRange(graph.abstraction(), j, z, width, height,
                               [&](uint32_t begin, uint32_t end) {
                                 for (uint32_t v = begin; v < end; ++v) {
                                   members.push_back(v);
                                 }
                               });
        const absl::Span<const float> block = derived->Block(j, z);
        const uint32_t first = level.zone_node_begin[z];
        const uint32_t count = level.zone_node_end[z] - first;
        ASSERT_EQ(block.size(), uint64_t{count} * members.size());
        const Rect rect = level.ZoneRect(ZoneId(z), width, height);
        for (uint32_t r = 0; r < count; ++r) {
          const std::vector<double> exact = PlainDijkstraInZone(
              graph, j - 1, rect, graph.LowerId(j, first + r), members);
          ++rows;
          for (size_t c = 0; c < members.size(); ++c) {
            const float got = block[r * members.size() + c];
            const std::string where =
                std::string(MapKindName(kind)) + " level " + std::to_string(j) +
                " zone " + std::to_string(z) + " row " + std::to_string(r) +
                " column " + std::to_string(c);
            if (std::isinf(exact[c])) {
              ASSERT_TRUE(std::isinf(got)) << where;
              ++infinite;
            } else {
              ASSERT_NEAR(got, exact[c], 1e-5 * (1 + exact[c])) << where;
              ++finite;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(rows, 3000);
  EXPECT_GT(finite, 50000);
  EXPECT_GT(infinite, 0);
}

TEST(DerivedConnectionsTest, ALevelGetsItsBlocksOnlyWithinTheBudget) {
  const World without = Build(MapKind::kRooms, 9, false);
  const LevelGraph graph(without);
  const auto all = DerivedConnections::Build(graph, 1 << 30);
  ASSERT_NE(all, nullptr);
  const uint64_t two = LevelValues(*all, graph, 2) * sizeof(float);
  const uint64_t three = LevelValues(*all, graph, 3) * sizeof(float);
  ASSERT_GT(two, 0u);
  ASSERT_GT(three, 0u);
  EXPECT_EQ(DerivedConnections::Build(graph, 0), nullptr);
  EXPECT_EQ(DerivedConnections::Build(graph, two - 1), nullptr);
  const auto only_two = DerivedConnections::Build(graph, two + three - 1);
  ASSERT_NE(only_two, nullptr);
  EXPECT_TRUE(only_two->has_level(2));
  EXPECT_FALSE(only_two->has_level(3));  // does not fit: nor does level 4
  EXPECT_FALSE(only_two->has_level(4));
  const auto two_three = DerivedConnections::Build(graph, two + three);
  ASSERT_NE(two_three, nullptr);
  EXPECT_TRUE(two_three->has_level(3));
  EXPECT_GE(two_three->MemoryUsage(), two + three);
}

}  // namespace
}  // namespace zonepath::runtime_internal
