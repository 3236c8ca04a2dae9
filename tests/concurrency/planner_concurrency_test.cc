// Thousands of queries from several threads on one shared World give the
// same results as one thread; planners racing to build the world's shared
// landmark tables agree too, and a slow derivation holds up only its key. Built
// and run under ThreadSanitizer in CI.
#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/batch.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath {
namespace {

// A generated rooms world (room side 12).
World RoomsWorld(int64_t width, int64_t height, int32_t zone_size, int levels,
                 int threads) {
  MapGenOptions g;
  g.kind = MapKind::kRooms;
  g.width = width;
  g.height = height;
  g.feature = 12;
  BuildOptions build;
  build.params.zone_size = zone_size;
  build.params.levels = levels;
  build.threads = threads;
  return *BuildWorld(*GenerateMap(g), build);
}

std::vector<BatchQuery> RandomQueries(const Grid& grid, int count,
                                      uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<BatchQuery> queries;
  for (int i = 0; i < count; ++i) {
    queries.push_back({testing::RandomPassable(grid, rng),
                       testing::RandomPassable(grid, rng)});
  }
  return queries;
}

// The same status, outcome, moves and cost for every query; returns how
// many found a path.
int64_t ExpectSameResults(const std::vector<BatchResult>& one,
                          const std::vector<BatchResult>& many) {
  EXPECT_EQ(one.size(), many.size());
  int64_t found = 0;
  for (size_t i = 0; i < std::min(one.size(), many.size()); ++i) {
    EXPECT_EQ(one[i].status.code(), many[i].status.code()) << i;
    EXPECT_EQ(one[i].outcome, many[i].outcome) << i;
    EXPECT_EQ(one[i].path.runs(), many[i].path.runs()) << i;
    EXPECT_EQ(one[i].path.cost(), many[i].path.cost()) << i;
    if (::testing::Test::HasFailure()) break;
    found += one[i].status.ok() && one[i].outcome == SearchOutcome::kFound;
  }
  return found;
}

TEST(PlannerConcurrencyTest, ThreadsAgreeWithOneThread) {
  // levels 0: chosen from the size.
  const World world = RoomsWorld(256, 192, 16, 0, 2);
  std::vector<BatchQuery> queries = RandomQueries(world.grid(), 2000, 6);
  queries.push_back({{-1, 0}, {1, 1}});  // a bad query among good ones
  PlanOptions options;
  options.smooth = true;
  std::vector<BatchResult> one, many;
  PlanBatch(world, queries, options, 1, &one);
  PlanBatch(world, queries, options, 4, &many);
  ASSERT_EQ(one.size(), queries.size());
  EXPECT_GT(ExpectSameResults(one, many), 1900);
  EXPECT_FALSE(one.back().status.ok());
}

// The landmark tables a world's planners share are built by whichever
// asks first (World::DerivedOnce): four threads starting at once on a fresh
// world race to build them, and their answers equal one thread's on an
// identical world.
TEST(PlannerConcurrencyTest, PlannersRacingToBuildLandmarksAgree) {
  const World fresh = RoomsWorld(384, 256, 8, 3, 1);
  const World reference = RoomsWorld(384, 256, 8, 3, 1);
  const std::vector<BatchQuery> queries = RandomQueries(fresh.grid(), 400, 9);
  std::vector<BatchResult> one, many;
  PlanBatch(reference, queries, PlanOptions(), 1, &one);
  EXPECT_EQ(fresh.DerivedBytes(), 0u);
  PlanBatch(fresh, queries, PlanOptions(), 4, &many);
  // The planners also share the grid's open bits (GridAStar::
  // MakeGridOpenBits): the landmark tables are what is derived beyond them.
  const std::shared_ptr<const search_internal::OpenBits> bits =
      GridAStar::MakeGridOpenBits(fresh.grid());
  ASSERT_NE(bits, nullptr);
  EXPECT_GT(fresh.DerivedBytes(), GridAStar::GridOpenBitsMemory(*bits))
      << "no landmark table was built";
  EXPECT_EQ(fresh.DerivedBytes(), reference.DerivedBytes());
  ExpectSameResults(one, many);
}

// With landmarks_at_construction off the tables are built inside the
// queries: four threads, each with its own planner, race to build them in
// their first searches and agree with one planner on an identical world.
TEST(PlannerConcurrencyTest, QueriesRacingToBuildLandmarksAgree) {
  const World fresh = RoomsWorld(384, 256, 8, 3, 1);
  const World reference = RoomsWorld(384, 256, 8, 3, 1);
  const std::vector<BatchQuery> queries = RandomQueries(fresh.grid(), 200, 10);
  PlannerOptions lazy;
  lazy.landmarks_at_construction = false;
  const auto plan_all = [&](const World& world, size_t first, size_t step,
                            std::vector<double>* costs) {
    Planner planner(world, lazy);
    for (size_t i = first; i < queries.size(); i += step) {
      absl::StatusOr<SearchOutcome> outcome =
          planner.Plan(queries[i].start, queries[i].goal, PlanOptions());
      (*costs)[i] = outcome.ok() && *outcome == SearchOutcome::kFound
                        ? planner.stats().planned_cost
                        : -1.0;
    }
  };
  std::vector<double> one(queries.size()), many(queries.size());
  plan_all(reference, 0, 1, &one);
  const size_t derived_before = fresh.DerivedBytes();
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 4; ++t) {
    threads.emplace_back(plan_all, std::cref(fresh), t, 4, &many);
  }
  for (std::thread& t : threads) t.join();
  EXPECT_GT(fresh.DerivedBytes(), derived_before) << "no table was built";
  EXPECT_EQ(fresh.DerivedBytes(), reference.DerivedBytes());
  int found = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    EXPECT_EQ(one[i], many[i]) << "query " << i;
    found += one[i] >= 0 ? 1 : 0;
  }
  EXPECT_GT(found, 150);
}

// A slow derivation holds up only its own key: while one thread builds
// key 1 (blocked here until told to finish), another derives key 2 and
// reads DerivedBytes and MemoryUsage; a second caller of key 1 waits and
// gets the same object, built once.
TEST(PlannerConcurrencyTest, SlowDerivationBlocksOnlyItsKey) {
  const World world = RoomsWorld(128, 128, 16, 1, 1);
  absl::Notification building, finish;
  std::atomic<int> builds{0};
  const auto slow = [&]() -> World::Derived {
    builds.fetch_add(1);
    building.Notify();
    finish.WaitForNotification();
    return {std::make_shared<int>(1), 100};
  };
  std::shared_ptr<const void> first, second;
  std::thread builder([&] { first = world.DerivedOnce(1, slow); });
  building.WaitForNotification();
  std::thread waiter([&] { second = world.DerivedOnce(1, slow); });
  // Key 1 is being built: key 2 and the byte counts do not wait for it.
  const std::shared_ptr<const void> other = world.DerivedOnce(2, [] {
    return World::Derived{std::make_shared<int>(2), 7};
  });
  EXPECT_EQ(*static_cast<const int*>(other.get()), 2);
  EXPECT_EQ(world.DerivedBytes(), 7u);
  EXPECT_GT(world.MemoryUsage(), 7u);
  finish.Notify();
  builder.join();
  waiter.join();
  EXPECT_EQ(builds.load(), 1);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first, second);
  EXPECT_EQ(*static_cast<const int*>(first.get()), 1);
  EXPECT_EQ(world.DerivedBytes(), 107u);
}

}  // namespace
}  // namespace zonepath
