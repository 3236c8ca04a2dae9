// Readers plan on snapshots while an updater publishes new versions: every
// snapshot is one whole version (its marker cell matches its version number)
// and every path planned on it is legal there. Built and run under
// ThreadSanitizer in CI.
#include <atomic>
#include <random>
#include <thread>

#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/base/cow_array.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/update/world_versions.h"

namespace zonepath {
namespace {

constexpr Point kMarker = {0, 0};

// The source of a copy keeps being written while another thread reads the
// copy: the source must write private pages (ThreadSanitizer would see a
// race, and the reader a changed value, if it wrote the shared ones).
TEST(CowArrayConcurrencyTest, SourceWritesWhileACopyIsRead) {
  using Array = CowArray<uint32_t>;
  std::vector<uint32_t> values(3 * Array::kPageSize);
  for (size_t i = 0; i < values.size(); ++i) values[i] = uint32_t(i);
  Array source = Array::FromVector(values);
  const Array copy = source;
  std::thread reader([&] {
    for (int round = 0; round < 20; ++round) {
      for (size_t i = 0; i < values.size(); i += 97) {
        ASSERT_EQ(copy[i], values[i]);
      }
    }
  });
  for (size_t i = 0; i < values.size(); i += 5) source.Set(i, 0);
  reader.join();
  EXPECT_EQ(copy.ToVector(), values);
}

TEST(WorldVersionsConcurrencyTest, ReadersSeeWholeVersions) {
  MapGenOptions g;
  g.kind = MapKind::kTerrain;
  g.width = 128;
  g.height = 96;
  BuildOptions build;
  build.params.zone_size = 16;
  build.threads = 1;
  World initial = *BuildWorld(*GenerateMap(g), build);
  ASSERT_TRUE(initial.grid().passable(kMarker));
  // Two update threads: zone searches of an update run in parallel too.
  WorldVersions versions(std::move(initial), UpdateOptions{.threads = 2});
  constexpr int kUpdates = 30;
  std::atomic<bool> done{false};
  std::atomic<int64_t> queries{0};

  auto reader = [&](uint64_t seed) {
    std::mt19937_64 rng(seed);
    uint64_t last_version = 0;
    RunLengthPath path;
    while (!done.load()) {
      const std::shared_ptr<const World> world = versions.Current();
      ASSERT_GE(world->version(), last_version);
      last_version = world->version();
      if (world->version() > 0) {
        ASSERT_EQ(world->grid().cost(kMarker), world->version() % 200 + 1);
      }
      Planner planner(*world);
      for (int q = 0; q < 20; ++q) {
        const Point s = testing::RandomPassable(world->grid(), rng);
        const Point t = testing::RandomPassable(world->grid(), rng);
        absl::StatusOr<SearchOutcome> outcome =
            planner.FindPath(s, t, {}, &path);
        ASSERT_TRUE(outcome.ok()) << outcome.status();
        if (*outcome != SearchOutcome::kFound) continue;
        ASSERT_TRUE(
            WalkPath(world->grid(), path, world->params().connectivity).ok());
        ++queries;
      }
      // Later versions share this snapshot's pages: none may have written
      // into them while we planned.
      if (world->version() > 0) {
        ASSERT_EQ(world->grid().cost(kMarker), world->version() % 200 + 1);
      }
    }
  };
  std::thread r1(reader, 1), r2(reader, 2);
  std::mt19937_64 rng(9);
  for (int v = 1; v <= kUpdates; ++v) {
    std::vector<CellChange> changes = {{kMarker, v % 200 + 1}};
    const int32_t x0 = 1 + static_cast<int32_t>(rng() % 120);
    const int32_t y0 = 1 + static_cast<int32_t>(rng() % 88);
    const int cost = v % 3 == 0 ? 1 : kBlocked;
    for (int32_t y = y0; y < y0 + 6; ++y)
      for (int32_t x = x0; x < x0 + 6; ++x) changes.push_back({{x, y}, cost});
    absl::StatusOr<UpdateReport> report = versions.Apply(changes);
    ASSERT_TRUE(report.ok()) << report.status();
  }
  done = true;
  r1.join();
  r2.join();
  EXPECT_EQ(versions.Current()->version(), static_cast<uint64_t>(kUpdates));
  EXPECT_GT(queries.load(), 0);
}

}  // namespace
}  // namespace zonepath
