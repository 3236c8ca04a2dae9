// Thousands of queries from several threads on one shared World give the
// same results as one thread; planners racing to build the world's shared
// landmark tables agree too. Built and run under ThreadSanitizer in CI.
#include <random>

#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/batch.h"

namespace zonepath {
namespace {

TEST(PlannerConcurrencyTest, ThreadsAgreeWithOneThread) {
  MapGenOptions g;
  g.kind = MapKind::kRooms;
  g.width = 256;
  g.height = 192;
  g.feature = 12;
  BuildOptions build;
  build.params.zone_size = 16;
  build.threads = 2;
  const World world = *BuildWorld(*GenerateMap(g), build);
  std::mt19937_64 rng(6);
  std::vector<BatchQuery> queries;
  for (int i = 0; i < 2000; ++i) {
    queries.push_back({testing::RandomPassable(world.grid(), rng),
                       testing::RandomPassable(world.grid(), rng)});
  }
  queries.push_back({{-1, 0}, {1, 1}});  // a bad query among good ones
  PlanOptions options;
  options.smooth = true;
  std::vector<BatchResult> one, many;
  PlanBatch(world, queries, options, 1, &one);
  PlanBatch(world, queries, options, 4, &many);
  ASSERT_EQ(one.size(), queries.size());
  ASSERT_EQ(many.size(), queries.size());
  int64_t found = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_EQ(one[i].status.code(), many[i].status.code()) << i;
    ASSERT_EQ(one[i].outcome, many[i].outcome) << i;
    ASSERT_EQ(one[i].path.runs(), many[i].path.runs()) << i;
    ASSERT_EQ(one[i].path.cost(), many[i].path.cost()) << i;
    found += one[i].status.ok() && one[i].outcome == SearchOutcome::kFound;
  }
  EXPECT_FALSE(one.back().status.ok());
  EXPECT_GT(found, 1900);
}

// The landmark tables a world's planners share are built by whichever
// asks first (World::DerivedOnce): four threads starting at once on a fresh
// world race to build them, and their answers equal one thread's on an
// identical world.
TEST(PlannerConcurrencyTest, PlannersRacingToBuildLandmarksAgree) {
  MapGenOptions g;
  g.kind = MapKind::kRooms;
  g.width = 384;
  g.height = 256;
  g.feature = 12;
  BuildOptions build;
  build.params.zone_size = 8;
  build.params.levels = 3;
  build.threads = 1;
  const World fresh = *BuildWorld(*GenerateMap(g), build);
  const World reference = *BuildWorld(*GenerateMap(g), build);
  std::mt19937_64 rng(9);
  std::vector<BatchQuery> queries;
  for (int i = 0; i < 400; ++i) {
    queries.push_back({testing::RandomPassable(fresh.grid(), rng),
                       testing::RandomPassable(fresh.grid(), rng)});
  }
  std::vector<BatchResult> one, many;
  PlanBatch(reference, queries, PlanOptions(), 1, &one);
  EXPECT_EQ(fresh.DerivedBytes(), 0u);
  PlanBatch(fresh, queries, PlanOptions(), 4, &many);
  EXPECT_GT(fresh.DerivedBytes(), 0u) << "no landmark table was built";
  EXPECT_EQ(fresh.DerivedBytes(), reference.DerivedBytes());
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_EQ(one[i].status.code(), many[i].status.code()) << i;
    ASSERT_EQ(one[i].outcome, many[i].outcome) << i;
    ASSERT_EQ(one[i].path.runs(), many[i].path.runs()) << i;
    ASSERT_EQ(one[i].path.cost(), many[i].path.cost()) << i;
  }
}

}  // namespace
}  // namespace zonepath
