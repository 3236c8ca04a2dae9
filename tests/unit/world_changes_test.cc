// Changing worlds: ApplyChanges must give exactly the world a full rebuild
// of the changed grid gives (compared as saved bytes), on hundreds of random
// change batches applied one after another; bad batches change nothing;
// WorldVersions publishes whole versions only.
#include "zonepath/update/world_changes.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "dijkstra_oracle.h"
#include "generated_worlds.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/update/world_versions.h"
#include "zonepath/world/world_file.h"

namespace zonepath {
namespace {

using testing::GridToText;

// The first difference between two canonical abstractions, for failure
// messages ("" if none).
template <typename T>
std::string FirstDifference(const std::string& what, const std::vector<T>& a,
                            const std::vector<T>& b) {
  if (a.size() != b.size()) {
    return absl::StrCat(what, ": ", a.size(), " vs ", b.size(), " entries");
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) {
      return absl::StrCat(what, ": first differs at ", i);
    }
  }
  return "";
}
std::string Difference(const Abstraction& a, const Abstraction& b) {
  std::string d = FirstDifference("beacons", a.beacons, b.beacons);
  for (size_t i = 0; d.empty() && i < a.levels.size(); ++i) {
    const AbstractLevel& x = a.levels[i];
    const AbstractLevel& y = b.levels[i];
    const std::string l = absl::StrCat("level ", i + 1, " ");
    for (const std::string& part :
         {FirstDifference(l + "node_beacon", x.node_beacon, y.node_beacon),
          FirstDifference(l + "zone_node_begin", x.zone_node_begin,
                          y.zone_node_begin),
          FirstDifference(l + "edge_begin", x.edge_begin, y.edge_begin),
          FirstDifference(l + "edges", x.edges, y.edges),
          FirstDifference(l + "node_component", x.node_component,
                          y.node_component)}) {
      if (d.empty()) d = part;
    }
  }
  if (d.empty()) {
    d = FirstDifference("path_begin", a.cached_paths.path_begin,
                        b.cached_paths.path_begin);
  }
  if (d.empty()) {
    d = FirstDifference("path_runs", a.cached_paths.path_runs,
                        b.cached_paths.path_runs);
  }
  return d;
}

// A random batch: one cell, a block, a scatter, or a line along a zone
// border (where beacons move), set to blocked, a cost, or opened again.
std::vector<CellChange> RandomBatch(std::mt19937_64& rng, const Grid& grid,
                                    int zone_size, std::string* kind) {
  auto coord = [&](int32_t limit) {
    return static_cast<int32_t>(rng() % static_cast<uint64_t>(limit));
  };
  auto cost = [&]() {
    switch (rng() % 3) {
      case 0:
        return 0;
      case 1:
        return 1;
      default:
        return 1 + static_cast<int>(rng() % 9);
    }
  };
  std::vector<CellChange> batch;
  const int32_t w = grid.width(), h = grid.height();
  switch (rng() % 4) {
    case 0:
      *kind = "cell";
      batch.push_back({{coord(w), coord(h)}, cost()});
      break;
    case 1: {
      *kind = "block";
      const int32_t bw = 1 + coord(12), bh = 1 + coord(12);
      const int32_t x0 = coord(w), y0 = coord(h);
      const int c = cost();
      for (int32_t y = y0; y < std::min(h, y0 + bh); ++y)
        for (int32_t x = x0; x < std::min(w, x0 + bw); ++x)
          batch.push_back({{x, y}, c});
      break;
    }
    case 2: {
      *kind = "scatter";
      const int n = 1 + coord(40);
      for (int i = 0; i < n; ++i)
        batch.push_back({{coord(w), coord(h)}, cost()});
      break;
    }
    default: {
      *kind = "border";
      // A run of cells on one side of a vertical or horizontal zone border.
      const bool vertical = rng() % 2 == 0;
      const int32_t lines = (vertical ? w : h) / zone_size;
      if (lines == 0) break;
      const int32_t at = (1 + coord(lines)) * zone_size - coord(2);
      const int32_t along = coord(vertical ? h : w);
      const int32_t length = 1 + coord(zone_size);
      const int c = cost();
      for (int32_t i = along; i < std::min(vertical ? h : w, along + length);
           ++i) {
        const Point p = vertical ? Point{at, i} : Point{i, at};
        if (grid.InBounds(p)) batch.push_back({p, c});
      }
    }
  }
  return batch;
}

Grid WorldGrid(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int w = 40 + static_cast<int>(rng() % 90);
  const int h = 40 + static_cast<int>(rng() % 90);
  if (seed % 3 == 0) {
    return testing::RandomGrid(seed, {w, h, 0.2, seed % 2 ? 1 : 6});
  }
  MapGenOptions options;
  options.kind = seed % 3 == 1 ? MapKind::kRooms : MapKind::kTerrain;
  options.width = w;
  options.height = h;
  options.seed = seed;
  options.feature = 8 + static_cast<int>(rng() % 12);
  return *GenerateMap(options);
}

BuildOptions OptionsForSeed(uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  BuildOptions options;
  options.params.zone_size = 8 << (rng() % 2);  // 8 or 16
  options.params.levels = 1 + static_cast<int>(rng() % 3);
  options.params.group = 2 + static_cast<int>(rng() % 3);
  options.params.entrance_threshold = 2 + static_cast<int>(rng() % 6);
  options.params.cache_paths = rng() % 2 == 0;
  options.params.connectivity =
      rng() % 4 == 0 ? Connectivity::kFour : Connectivity::kEight;
  // Drawn last, so the other parameters are those of the seeds before.
  if (rng() % 3 != 0) {
    options.params.beacon_spacing = 2 + static_cast<int>(rng() % 7);
  }
  options.threads = 1;
  return options;
}

// 90 worlds x 4 batches applied in sequence = 360 batches.
TEST(ApplyChangesTest, SameBytesAsFullRebuildOnRandomBatches) {
  int batches = 0, partial = 0, zone_by_zone = 0;
  for (uint64_t seed = 1; seed <= 90; ++seed) {
    const BuildOptions options = OptionsForSeed(seed);
    absl::StatusOr<World> world = BuildWorld(WorldGrid(seed), options);
    ASSERT_TRUE(world.ok()) << world.status();
    std::mt19937_64 rng(seed * 31 + 7);
    for (int step = 0; step < 4; ++step) {
      std::string kind;
      const std::vector<CellChange> batch =
          RandomBatch(rng, world->grid(), options.params.zone_size, &kind);
      UpdateReport report;
      UpdateOptions update;
      update.threads = 1 + static_cast<int>(seed % 2);
      absl::StatusOr<World> next = ApplyChanges(*world, batch, update, &report);
      ASSERT_TRUE(next.ok()) << next.status();
      absl::StatusOr<World> rebuilt = BuildWorld(next->grid(), options);
      ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
      ASSERT_TRUE(SerializeWorld(*next) == SerializeWorld(*rebuilt))
          << Difference(next->FlatAbstraction(), rebuilt->FlatAbstraction())
          << "; seed " << seed << " step " << step << " batch " << kind
          << " of " << batch.size() << " cells, first "
          << PointString(batch.empty() ? Point{} : batch[0].cell)
          << "; grid before:\n"
          << GridToText(world->grid());
      EXPECT_EQ(next->version(), world->version() + 1);
      // Every changed cell's zone is reported as affected.
      for (const CellChange& c : batch) {
        if (report.changed_cells == 0) break;
        if (world->grid().cost(c.cell) == c.cost) continue;
        const ZoneId z = world->abstraction().levels[0].ZoneOf(c.cell);
        EXPECT_TRUE(std::binary_search(report.affected_zones.begin(),
                                       report.affected_zones.end(), z))
            << "seed " << seed << " cell " << PointString(c.cell);
      }
      if (report.zones_searched[0] < report.zones_total[0]) ++partial;
      if (!report.rebuilt_fully) ++zone_by_zone;
      ++batches;
      world = std::move(next);
    }
  }
  EXPECT_EQ(batches, 360);
  // The point of the exercise: most batches search only part of the world,
  // zone by zone (copy-on-write) rather than by a full rebuild.
  EXPECT_GT(partial, batches / 2);
  EXPECT_GT(zone_by_zone, batches / 2);
}

World RoomsWorld(int size, int zone_size) {
  return testing::GeneratedWorld(
      {.size = size, .seed = 5, .zone_size = zone_size});
}

TEST(ApplyChangesTest, OneInteriorCellSearchesOneZonePerLevel) {
  const World world = RoomsWorld(128, 16);
  // (20, 20) is inside level-1 zone (1, 1), away from its borders.
  const int cost = world.grid().cost({20, 20}) == 1 ? 0 : 1;
  UpdateReport report;
  absl::StatusOr<World> next =
      ApplyChanges(world, {{{20, 20}, cost}}, {}, &report);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(report.changed_cells, 1);
  ASSERT_EQ(report.affected_zones.size(), 1u);
  EXPECT_EQ(report.affected_zones[0], ZoneId(8 + 1));
  EXPECT_EQ(report.zones_searched, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(report.zones_total, (std::vector<int64_t>{64, 4}));
  EXPECT_EQ(next->grid().cost({20, 20}), cost);
}

TEST(ApplyChangesTest, NoOpChangesSearchNothing) {
  const World world = RoomsWorld(64, 16);
  UpdateReport report;
  const int same = world.grid().cost({3, 3});
  absl::StatusOr<World> next =
      ApplyChanges(world, {{{3, 3}, same}}, {}, &report);
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(report.changed_cells, 0);
  EXPECT_TRUE(report.affected_zones.empty());
  EXPECT_EQ(report.zones_searched, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(SerializeWorld(*next), SerializeWorld(world));
}

TEST(ApplyChangesTest, LaterChangeOfACellWins) {
  const World world = RoomsWorld(64, 16);
  absl::StatusOr<World> next =
      ApplyChanges(world, {{{5, 5}, 0}, {{5, 5}, 7}, {{6, 5}, 3}});
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->grid().cost({5, 5}), 7);
  EXPECT_EQ(next->grid().cost({6, 5}), 3);
}

TEST(ApplyChangesTest, BadBatchIsRejectedWhole) {
  const World world = RoomsWorld(64, 16);
  const std::string before = SerializeWorld(world);
  absl::StatusOr<World> outside =
      ApplyChanges(world, {{{1, 1}, 0}, {{2, 1}, 0}, {{64, 3}, 0}});
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(outside.status().message().find("change 2"), std::string::npos)
      << outside.status();
  EXPECT_NE(outside.status().message().find("(64,3)"), std::string::npos)
      << outside.status();
  absl::StatusOr<World> negative = ApplyChanges(world, {{{-1, 0}, 1}});
  EXPECT_FALSE(negative.ok());
  absl::StatusOr<World> bad_cost = ApplyChanges(world, {{{1, 1}, 256}});
  ASSERT_FALSE(bad_cost.ok());
  EXPECT_NE(bad_cost.status().message().find("cost 256"), std::string::npos)
      << bad_cost.status();
  EXPECT_FALSE(ApplyChanges(world, {{{1, 1}, -3}}).ok());
  EXPECT_EQ(SerializeWorld(world), before);

  WorldVersions versions(RoomsWorld(64, 16));
  const std::shared_ptr<const World> v0 = versions.Current();
  EXPECT_FALSE(versions.Apply({{{1, 1}, 0}, {{99, 1}, 0}}).ok());
  EXPECT_EQ(versions.Current(), v0);  // nothing published
}

// A World whose abstraction was built for another grid (what a crafted
// file passing the loader's checks could give): updates must fail cleanly
// or succeed, never crash (run under ASan in CI).
TEST(ApplyChangesTest, MismatchedWorldFailsCleanly) {
  int failed = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const testing::RandomGridSpec spec{160, 120, 0.3, 1};
    BuildOptions options;
    options.params.zone_size = 8;
    options.params.levels = 1 + static_cast<int>(seed % 3);
    options.params.group = 2;
    options.threads = 1;
    absl::StatusOr<World> built =
        BuildWorld(testing::RandomGrid(seed, spec), options);
    ASSERT_TRUE(built.ok());
    const World mismatched(testing::RandomGrid(seed + 1000, spec),
                           built->FlatAbstraction());
    std::mt19937_64 rng(seed);
    std::vector<CellChange> changes;
    for (int k = 0; k < 3; ++k) {
      changes.push_back({{static_cast<int32_t>(rng() % 160),
                          static_cast<int32_t>(rng() % 120)},
                         static_cast<int>(rng() % 3)});
    }
    absl::StatusOr<World> next = ApplyChanges(mismatched, changes);
    if (!next.ok()) {
      EXPECT_EQ(next.status().code(), absl::StatusCode::kFailedPrecondition)
          << next.status();
      EXPECT_THAT(std::string(next.status().message()),
                  ::testing::HasSubstr("does not match its grid"));
      ++failed;
    }
  }
  EXPECT_GT(failed, 0);  // the check is reached
}

TEST(WorldVersionsTest, SnapshotsKeepTheirVersion) {
  WorldVersions versions(RoomsWorld(64, 16));
  const std::shared_ptr<const World> v0 = versions.Current();
  const std::string v0_bytes = SerializeWorld(*v0);
  Point open{-1, -1};
  for (int y = 0; y < 64 && open.x < 0; ++y)
    for (int x = 0; x < 64; ++x)
      if (v0->grid().passable({x, y})) {
        open = {x, y};
        break;
      }
  ASSERT_GE(open.x, 0);
  absl::StatusOr<UpdateReport> report = versions.Apply({{open, kBlocked}});
  ASSERT_TRUE(report.ok()) << report.status();
  const std::shared_ptr<const World> v1 = versions.Current();
  EXPECT_EQ(v1->version(), 1u);
  EXPECT_FALSE(v1->grid().passable(open));
  // The held snapshot is untouched.
  EXPECT_TRUE(v0->grid().passable(open));
  EXPECT_EQ(SerializeWorld(*v0), v0_bytes);
}

// Connection tables under changes: worlds of 4 and 5 levels (group 2, so
// upper zones are small and many, and most of them untouched by a batch),
// walls, blocks and scatters applied one batch after another. Each version
// must save the bytes a full build of its grid saves (tables included), and
// keep most upper zones' blocks shared with the version before.
TEST(ApplyChangesTest, ConnectionTablesMatchAFullBuildAfterEveryBatch) {
  int shared_versions = 0, checked = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    MapGenOptions g;
    g.kind = seed % 2 == 0 ? MapKind::kTerrain : MapKind::kRooms;
    g.width = 512;
    g.height = 448;
    g.seed = seed;
    const Grid grid = *GenerateMap(g);
    BuildOptions options;
    options.params.zone_size = 32;
    options.params.levels = 4 + static_cast<int>(seed % 2);
    options.params.group = 2;
    options.threads = 1;
    absl::StatusOr<World> world = BuildWorld(grid, options);
    ASSERT_TRUE(world.ok()) << world.status();
    ASSERT_NE(world->connection_tables(), nullptr);
    ASSERT_TRUE(world->connection_tables()->has_level(4));
    // Blocks to keep or recompute (zones over the budget have none).
    const ConnectionTables& t = *world->connection_tables();
    uint32_t with_block = 0;
    for (uint32_t z = 0; z < t.zone_count(3); ++z) {
      with_block += t.Block(3, z).empty() ? 0 : 1;
    }
    EXPECT_GT(with_block, t.zone_count(3) / 2) << "seed " << seed;
    std::mt19937_64 rng(seed * 17 + 3);
    for (int step = 0; step < 6; ++step) {
      std::string kind;
      std::vector<CellChange> batch =
          RandomBatch(rng, world->grid(), 32, &kind);
      if (step % 2 == 1) {  // and a wall with a door, across zone borders
        const int32_t x = static_cast<int32_t>(rng() % 400);
        const int32_t y = static_cast<int32_t>(rng() % 448);
        for (int32_t i = 0; i < 100; ++i) {
          batch.push_back({{x + i, y}, i == 50 ? 1 : kBlocked});
        }
        kind += "+wall";
      }
      absl::StatusOr<World> next = ApplyChanges(*world, batch);
      ASSERT_TRUE(next.ok()) << next.status();
      const ConnectionTables* tables = next->connection_tables();
      ASSERT_NE(tables, nullptr);
      absl::StatusOr<World> rebuilt = BuildWorld(next->grid(), options);
      ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
      ASSERT_TRUE(SerializeWorld(*next) == SerializeWorld(*rebuilt))
          << "seed " << seed << " step " << step << " batch " << kind;
      // Some blocks are the world's before (shared), unless every zone
      // was rebuilt.
      if (tables->OwnedBytes() < tables->MemoryUsage() / 2) ++shared_versions;
      ++checked;
      world = std::move(next);
    }
  }
  EXPECT_EQ(checked, 36);
  EXPECT_GT(shared_versions, 18);
}

}  // namespace
}  // namespace zonepath
