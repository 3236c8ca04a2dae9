// DerivedConnections (derived_connections.h), the connection tables a
// planner derives for the levels its world file has none of, against the
// file's own tables (world/connection_tables.h, built offline by another
// implementation): a world built without tables derives, block for block,
// the values a world built with them stores. And the byte budget: a level
// gets its blocks only when they fit.
#include "derived_connections.h"

#include <cmath>
#include <cstdint>
#include <string>

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
  int compared = 0, finite = 0, infinite = 0;
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
  EXPECT_GT(compared, 300);
  EXPECT_GT(finite, 10000);
  EXPECT_GT(infinite, 0);  // mazes and rooms have zones split in parts
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
