// "maps" group: the hierarchical planner on every MovingAI map in
// ../shared/maps (world built in memory with default parameters): every path
// legal, ending at its goal, reported cost == walked cost, never below the
// scenario's optimal length; with smoothing, mean suboptimality within the
// published HPA* result of 1% (the product's floor).
#include <filesystem>

#include "gtest/gtest.h"
#include "shared_maps.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/movingai/scenario.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"

namespace zonepath {
namespace {

class MovingAiHpaTest : public ::testing::TestWithParam<std::filesystem::path> {
};

TEST_P(MovingAiHpaTest, LegalPathsAndSmoothedQuality) {
  if (GetParam().empty()) {
    GTEST_SKIP() << "no maps in " << testing::SharedMapsDir();
  }
  const std::string map_path = GetParam().string();
  absl::StatusOr<testing::SharedMap> map = testing::LoadSharedMap(GetParam());
  ASSERT_TRUE(map.ok()) << map.status();
  const Scenario* scen = &map->scenario;
  absl::StatusOr<World> world =
      BuildWorld(std::move(map->grid), BuildOptions());
  ASSERT_TRUE(world.ok()) << world.status();
  Planner planner(*world);
  RunLengthPath path;
  PlanOptions options;
  options.smooth = true;
  double subopt_sum = 0, subopt_max = 0;
  int64_t counted = 0;
  for (const ScenarioProblem& p : scen->problems) {
    const std::string where = scen->name + ":" + std::to_string(p.line);
    absl::StatusOr<SearchOutcome> outcome =
        planner.FindPath(p.start, p.goal, options, &path);
    ASSERT_TRUE(outcome.ok()) << where << outcome.status();
    ASSERT_EQ(*outcome, SearchOutcome::kFound) << where;
    absl::StatusOr<PathWalk> walk =
        WalkPath(world->grid(), path, Connectivity::kEight);
    ASSERT_TRUE(walk.ok()) << where << walk.status();
    ASSERT_EQ(walk->end, p.goal) << where;
    ASSERT_EQ(walk->cost, path.cost()) << where;
    ASSERT_GE(path.cost(), p.optimal - std::max(0.01, 1e-5 * p.optimal))
        << where;
    if (p.optimal > 0) {
      const double pct = 100 * (path.cost() - p.optimal) / p.optimal;
      subopt_sum += pct;
      subopt_max = std::max(subopt_max, pct);
      ++counted;
    }
  }
  const double mean = counted > 0 ? subopt_sum / counted : 0;
  RecordProperty("subopt_mean_pct", std::to_string(mean));
  RecordProperty("subopt_max_pct", std::to_string(subopt_max));
  EXPECT_LE(mean, 1.0) << map_path << ": mean suboptimality " << mean
                       << "% (max " << subopt_max << "%)";
}

INSTANTIATE_TEST_SUITE_P(
    SharedMaps, MovingAiHpaTest,
    ::testing::ValuesIn(testing::SharedMapsOrPlaceholder()),
    [](const auto& info) { return testing::SharedMapTestName(info.param); });

}  // namespace
}  // namespace zonepath
