// "maps" group: exact A* on every MovingAI map in ../shared/maps reproduces
// every scenario's optimal length, with legal paths whose reported cost is
// their walked cost. Skipped (not failed) where ../shared is absent; CI runs
// this group when it exists.
#include <filesystem>

#include "gtest/gtest.h"
#include "shared_maps.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/movingai/scenario.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath {
namespace {

class MovingAiAStarTest
    : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(MovingAiAStarTest, ReproducesOptimalLengths) {
  if (GetParam().empty()) {
    GTEST_SKIP() << "no maps in " << testing::SharedMapsDir();
  }
  absl::StatusOr<testing::SharedMap> map = testing::LoadSharedMap(GetParam());
  ASSERT_TRUE(map.ok()) << map.status();
  const Grid* grid = &map->grid;
  const Scenario* scen = &map->scenario;
  GridAStar astar(*grid);
  RunLengthPath path;
  int64_t matches = 0;
  for (const ScenarioProblem& p : scen->problems) {
    absl::StatusOr<SearchOutcome> outcome =
        astar.FindPath(p.start, p.goal, AStarOptions(), &path);
    ASSERT_TRUE(outcome.ok()) << scen->name << ":" << p.line;
    ASSERT_EQ(*outcome, SearchOutcome::kFound) << scen->name << ":" << p.line;
    absl::StatusOr<PathWalk> walk = WalkPath(*grid, path, Connectivity::kEight);
    ASSERT_TRUE(walk.ok()) << scen->name << ":" << p.line << walk.status();
    ASSERT_EQ(walk->end, p.goal) << scen->name << ":" << p.line;
    ASSERT_NEAR(walk->cost, path.cost(), 1e-9 * std::max(1.0, path.cost()));
    EXPECT_TRUE(MatchesOptimal(path.cost(), p.optimal))
        << scen->name << ":" << p.line << " cost " << path.cost() << " optimal "
        << p.optimal;
    matches += MatchesOptimal(path.cost(), p.optimal);
  }
  EXPECT_EQ(matches, static_cast<int64_t>(scen->problems.size()));
}

INSTANTIATE_TEST_SUITE_P(
    SharedMaps, MovingAiAStarTest,
    ::testing::ValuesIn(testing::SharedMapsOrPlaceholder()),
    [](const auto& info) { return testing::SharedMapTestName(info.param); });

}  // namespace
}  // namespace zonepath
