// Copy-on-write versions: a small update shares almost all of the world with
// the version before; long runs of updates stay exact through compaction;
// the planner gives the same answers on an updated (non-canonical) world as
// on the same world built from scratch.
#include <cmath>
#include <random>
#include <string>

#include "generated_worlds.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/base/cow_array.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world_file.h"

namespace zonepath {
namespace {

World RoomsWorld(int size, int zone_size, bool cache_paths) {
  return testing::GeneratedWorld({.size = size,
                                  .seed = 11,
                                  .zone_size = zone_size,
                                  .cache_paths = cache_paths});
}

TEST(WorldSharingTest, SmallChangeSharesTheRestOfTheWorld) {
  const World world = RoomsWorld(1024, 16, /*cache_paths=*/true);
  const std::string before = SerializeWorld(world);
  Point cell{500, 500};
  UpdateReport report;
  absl::StatusOr<World> next = ApplyChanges(
      world, {{cell, world.grid().passable(cell) ? 0 : 1}}, {}, &report);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_FALSE(report.rebuilt_fully);
  // The new version wrote a few pages per array, not a copy of the world:
  // the grid a page of costs, of packed labels, of tile records and of the
  // label table (at most 6 pages in all), the abstraction a few per array.
  // (The bound is 1/10 of the world since labels shrank from 4 bytes a cell
  // to a fraction of one; it was 1/20 of the larger world before.)
  EXPECT_GT(report.owned_bytes, 0);
  EXPECT_LE(next->grid().OwnedBytes(), 6 * CowArray<uint8_t>::kPageBytes);
  EXPECT_LT(report.owned_bytes * 10, report.total_bytes)
      << report.owned_bytes << " of " << report.total_bytes << " bytes";
  EXPECT_EQ(SerializeWorld(world), before);  // the old version is untouched
}

// Hundreds of single-cell updates in a row: every 20th is checked against a
// full rebuild; dead ranges must trigger compaction and stay bounded.
TEST(WorldSharingTest, LongRunsOfUpdatesCompactAndStayExact) {
  for (bool cache_paths : {false, true}) {
    World world = RoomsWorld(96, 8, cache_paths);
    BuildOptions options;
    options.params = world.params();
    options.threads = 1;
    std::mt19937_64 rng(cache_paths ? 7 : 8);
    int compactions = 0;
    for (int step = 0; step < 400; ++step) {
      const Point cell{static_cast<int32_t>(rng() % 96),
                       static_cast<int32_t>(rng() % 96)};
      const int cost = world.grid().passable(cell) ? 0 : 1;
      UpdateReport report;
      absl::StatusOr<World> next =
          ApplyChanges(world, {{cell, cost}}, {}, &report);
      ASSERT_TRUE(next.ok()) << next.status();
      compactions += report.compacted;
      // Compaction keeps dead nodes and edges below live ones (plus the
      // slack and one update's worth).
      int64_t nodes = 0, live = 0, edges = 0, live_edges = 0;
      for (const SharedLevel& level : next->abstraction().levels) {
        nodes += level.node_count();
        live += level.live_nodes;
        edges += static_cast<int64_t>(level.edges.size());
        live_edges += level.live_edges;
      }
      EXPECT_LE(nodes, 2 * live + 1024 + 256) << "step " << step;
      EXPECT_LE(edges, 2 * live_edges + 8192 + 4096) << "step " << step;
      if (step % 20 == 19) {
        absl::StatusOr<World> rebuilt = BuildWorld(next->grid(), options);
        ASSERT_TRUE(rebuilt.ok());
        ASSERT_TRUE(SerializeWorld(*next) == SerializeWorld(*rebuilt))
            << "step " << step << " cell " << PointString(cell)
            << " cache_paths " << cache_paths;
      }
      world = *std::move(next);
    }
    EXPECT_GT(compactions, 0) << "cache_paths " << cache_paths;
  }
}

// Updated worlds lay zones out in a different order than built ones; the
// planner must not care. Costs agree up to float rounding of edge costs.
TEST(WorldSharingTest, PlannerAgreesOnUpdatedAndRebuiltWorlds) {
  int compared = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(seed);
    const Grid grid =
        testing::RandomGrid(seed, {60 + static_cast<int>(seed % 5) * 10, 70,
                                   0.25, 1 + static_cast<int>(seed % 3)});
    BuildOptions options;
    options.params.zone_size = 8;
    options.params.levels = 1 + static_cast<int>(seed % 2);
    options.params.cache_paths = seed % 3 == 0;
    options.threads = 1;
    absl::StatusOr<World> world = BuildWorld(grid, options);
    ASSERT_TRUE(world.ok());
    for (int round = 0; round < 3; ++round) {
      std::vector<CellChange> changes;
      for (int k = 0; k < 6; ++k) {
        const Point c{static_cast<int32_t>(rng() % grid.width()),
                      static_cast<int32_t>(rng() % grid.height())};
        changes.push_back({c, static_cast<int>(rng() % 4)});
      }
      absl::StatusOr<World> next = ApplyChanges(*world, changes);
      ASSERT_TRUE(next.ok());
      absl::StatusOr<World> rebuilt = BuildWorld(next->grid(), options);
      ASSERT_TRUE(rebuilt.ok());
      Planner on_updated(*next), on_rebuilt(*rebuilt);
      for (int q = 0; q < 30; ++q) {
        const Point s = testing::RandomPassable(next->grid(), rng);
        const Point t = testing::RandomPassable(next->grid(), rng);
        RunLengthPath a, b;
        absl::StatusOr<SearchOutcome> ra =
            on_updated.FindPath(s, t, PlanOptions(), &a);
        absl::StatusOr<SearchOutcome> rb =
            on_rebuilt.FindPath(s, t, PlanOptions(), &b);
        ASSERT_TRUE(ra.ok() && rb.ok());
        ASSERT_EQ(*ra, *rb) << "seed " << seed << " " << PointString(s)
                            << " -> " << PointString(t);
        if (*ra != SearchOutcome::kFound) continue;
        absl::StatusOr<PathWalk> walk =
            WalkPath(next->grid(), a, options.params.connectivity);
        ASSERT_TRUE(walk.ok()) << walk.status() << " seed " << seed;
        EXPECT_EQ(walk->end, t);
        EXPECT_NEAR(walk->cost, a.cost(), 1e-9 * std::max(1.0, a.cost()));
        EXPECT_NEAR(a.cost(), b.cost(), 1e-5 * std::max(1.0, b.cost()))
            << "seed " << seed << " round " << round << " " << PointString(s)
            << " -> " << PointString(t);
        ++compared;
      }
      world = std::move(next);
    }
  }
  EXPECT_GT(compared, 500);
}

}  // namespace
}  // namespace zonepath
