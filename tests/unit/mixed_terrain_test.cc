// The mixed map kind: deterministic by seed; its walls have passages of
// each width 1..4, so a 4 x 4 unit reaches every room and a 5 x 5 unit none
// beyond its own; its map characters round-trip through the example agent
// file's legend.
#include <map>
#include <sstream>

#include "gtest/gtest.h"
#include "zonepath/agents/agent_file.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/movingai/map_io.h"

namespace zonepath {
namespace {

Grid Mixed(uint64_t seed, int side = 256) {
  MapGenOptions o;
  o.kind = MapKind::kMixed;
  o.width = o.height = side;
  o.seed = seed;
  return *GenerateMap(o);
}

TEST(MixedTerrainTest, DeterministicAndNamed) {
  EXPECT_EQ(ParseMapKind("mixed"), MapKind::kMixed);
  EXPECT_EQ(Mixed(5).CostVector(), Mixed(5).CostVector());
  EXPECT_NE(Mixed(5).CostVector(), Mixed(6).CostVector());
  std::map<uint8_t, int64_t> count;
  for (uint8_t c : Mixed(5).CostVector()) ++count[c];
  for (int t = 0; t <= kMixedDeep; ++t) {
    EXPECT_GT(count[static_cast<uint8_t>(t)], 0) << "type " << t;
  }
  EXPECT_EQ(count.size(), 7u);  // types 0..6 only
}

TEST(MixedTerrainTest, PassagesOfEachWidth) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const Grid grid = Mixed(seed);
    // Open runs along the wall at x = 64 (2 cells thick): the passages.
    std::map<int, int> widths;
    int run = 0;
    for (int y = 0; y <= grid.height(); ++y) {
      const bool open = y < grid.height() && grid.passable(Point{64, y});
      if (open) {
        ++run;
        EXPECT_TRUE(grid.passable(Point{65, y})) << "seed " << seed;
      } else if (run > 0) {
        ++widths[run];
        run = 0;
      }
    }
    for (int w = 1; w <= 4; ++w) {
      EXPECT_EQ(widths[w], 4) << "seed " << seed << " width " << w;
    }
    EXPECT_EQ(widths.size(), 4u) << "seed " << seed;
    // Every type passable: only the walls matter.
    AgentClass c;
    for (int t = 1; t <= kMixedDeep; ++t) c.cost_of_type[t] = 1;
    c.width = c.length = 4;
    EXPECT_EQ(DeriveClassGrid(grid, c)->component_count(), 1u);
    c.width = c.length = 5;
    EXPECT_EQ(DeriveClassGrid(grid, c)->component_count(), 16u);  // 4 x 4
  }
}

TEST(MixedTerrainTest, RoundTripsWithTheExampleLegend) {
  absl::StatusOr<AgentSet> set =
      ParseAgentFile(ZONEPATH_SOURCE_DIR "/data/agents/example.agents");
  ASSERT_TRUE(set.ok()) << set.status();
  for (int t = 1; t <= kMixedDeep; ++t) {
    EXPECT_EQ(set->Legend().CharFor(static_cast<uint8_t>(t)),
              kMixedChars[t - 1]);
  }
  const Grid grid = Mixed(3, 96);
  std::stringstream text;
  ASSERT_TRUE(WriteMap(grid, text, set->Legend()).ok());
  absl::StatusOr<Grid> back = ReadMap(text, "mixed.map", set->Legend());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->CostVector(), grid.CostVector());
}

}  // namespace
}  // namespace zonepath
