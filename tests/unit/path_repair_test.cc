// Watching for map changes: which zones a stored path crosses, which units a
// change affects (complete: every unit not reported still has a legal path
// of unchanged cost), and repair by splicing (legal, from the unit to its
// goal, reported cost = walked cost, within the fallback bound of a fresh
// plan).
#include "zonepath/repair/path_repair.h"

#include <algorithm>
#include <random>

#include "alloc_counter.h"
#include "dijkstra_oracle.h"
#include "generated_worlds.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/update/world_changes.h"

namespace zonepath {
namespace {

using testing::GridToText;
using testing::RandomPassable;

World BuildMap(MapKind kind, int size, uint64_t seed) {
  return testing::GeneratedWorld({.kind = kind, .size = size, .seed = seed});
}

// Zones a path visits, by walking it here.
std::vector<ZoneId> ZonesOfPath(const RunLengthPath& path,
                                const ZoneLayout& layout) {
  std::vector<ZoneId> zones;
  Point at = path.start();
  zones.push_back(layout.ZoneOf(at));
  for (const Run& run : path.runs()) {
    for (uint32_t i = 0; i < run.count; ++i) {
      at = Step(at, run.direction);
      zones.push_back(layout.ZoneOf(at));
    }
  }
  std::sort(zones.begin(), zones.end());
  zones.erase(std::unique(zones.begin(), zones.end()), zones.end());
  return zones;
}

struct Fleet {
  PathStore store;
  std::vector<std::pair<Point, Point>> trips;  // per unit id
};

// `units` units with planned paths between random passable cells.
void PlaceUnits(const World& world, int units, uint64_t seed, Fleet* fleet) {
  std::mt19937_64 rng(seed);
  Planner planner(world);
  RunLengthPath path;
  while (static_cast<int>(fleet->trips.size()) < units) {
    const Point s = RandomPassable(world.grid(), rng);
    const Point g = RandomPassable(world.grid(), rng);
    if (!world.grid().SameComponent(s, g) || s == g) continue;
    ASSERT_TRUE(planner.FindPath(s, g, {}, &path).ok());
    ASSERT_TRUE(fleet->store.Set(UnitId(fleet->trips.size()), path).ok());
    fleet->trips.push_back({s, g});
  }
}

TEST(PathStoreZonesTest, ZonesCrossedAndUnitsCrossingMatchWalking) {
  const World world = BuildMap(MapKind::kRooms, 128, 3);
  const ZoneLayout layout = world.abstraction().levels[0].layout();
  Fleet fleet;
  PlaceUnits(world, 60, 11, &fleet);
  ASSERT_TRUE(fleet.store.Advance(UnitId(0), 5).ok());  // remaining only
  std::vector<std::vector<ZoneId>> zones_of(fleet.trips.size());
  RunLengthPath path;
  std::vector<ZoneId> crossed;
  for (size_t u = 0; u < fleet.trips.size(); ++u) {
    ASSERT_TRUE(fleet.store.Read(UnitId(u), -1, &path).ok());
    zones_of[u] = ZonesOfPath(path, layout);
    ASSERT_TRUE(fleet.store.ZonesCrossed(UnitId(u), layout, &crossed).ok());
    EXPECT_EQ(crossed, zones_of[u]) << "unit " << u;
  }
  EXPECT_FALSE(fleet.store.ZonesCrossed(UnitId(999), layout, &crossed).ok());
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<ZoneId> zones;
    for (int i = 0; i < 1 + trial % 4; ++i) zones.push_back(ZoneId(rng() % 64));
    std::sort(zones.begin(), zones.end());
    zones.erase(std::unique(zones.begin(), zones.end()), zones.end());
    std::vector<UnitId> expected;
    for (size_t u = 0; u < zones_of.size(); ++u) {
      for (ZoneId z : zones) {
        if (std::binary_search(zones_of[u].begin(), zones_of[u].end(), z)) {
          expected.push_back(UnitId(u));
          break;
        }
      }
    }
    std::vector<UnitId> units;
    fleet.store.UnitsCrossing(layout, zones, &units);
    EXPECT_EQ(units, expected) << "trial " << trial;
    std::vector<UnitId> called;
    fleet.store.ForEachUnitCrossing(layout, zones, [&](UnitId u) {
      called.push_back(u);
      // Writers are allowed inside the callback (no lock is held).
      EXPECT_TRUE(fleet.store.Advance(u, 0).ok());
    });
    EXPECT_EQ(called, expected);
    // Ids no path can cross (the invalid id, one past every zone) change
    // nothing and cost no memory of their size.
    std::vector<ZoneId> with_junk = zones;
    with_junk.push_back(ZoneId());
    with_junk.push_back(ZoneId(0xFFFFFFF0u));
    fleet.store.UnitsCrossing(layout, with_junk, &units);
    EXPECT_EQ(units, expected) << "trial " << trial << " with junk ids";
  }
  std::vector<UnitId> none;
  fleet.store.UnitsCrossing(layout, std::vector<ZoneId>{ZoneId()}, &none);
  EXPECT_TRUE(none.empty());
}

// Random walls built (and some opened) across a world with many units: the
// affected units get repaired; everyone else's path must still be legal.
TEST(PathRepairTest, RepairedPathsAreLegalAndWithinTheBound) {
  int spliced = 0, replanned = 0, unreachable = 0, untouched = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    World world = BuildMap(seed % 2 ? MapKind::kRooms : MapKind::kTerrain,
                           96 + 16 * static_cast<int>(seed % 3), seed);
    Fleet fleet;
    PlaceUnits(world, 40, seed * 3, &fleet);
    std::mt19937_64 rng(seed * 101);
    for (int round = 0; round < 3; ++round) {
      std::vector<CellChange> changes;
      for (int block = 0; block < 3; ++block) {
        const int32_t x0 = static_cast<int32_t>(rng() % world.grid().width());
        const int32_t y0 = static_cast<int32_t>(rng() % world.grid().height());
        const int cost = rng() % 4 == 0 ? 1 : kBlocked;
        for (int32_t y = y0; y < std::min(world.grid().height(), y0 + 6); ++y)
          for (int32_t x = x0; x < std::min(world.grid().width(), x0 + 6); ++x)
            changes.push_back({{x, y}, cost});
      }
      UpdateReport report;
      absl::StatusOr<World> next = ApplyChanges(world, changes, {}, &report);
      ASSERT_TRUE(next.ok()) << next.status();
      const ZoneLayout layout = next->abstraction().levels[0].layout();
      std::vector<UnitId> affected;
      fleet.store.UnitsCrossing(layout, report.affected_zones, &affected);
      // Completeness: every other unit's remaining path is still legal and
      // costs what it cost before.
      RunLengthPath path;
      for (size_t u = 0; u < fleet.trips.size(); ++u) {
        if (!fleet.store.Contains(UnitId(u)) ||
            std::binary_search(affected.begin(), affected.end(), UnitId(u)))
          continue;
        ASSERT_TRUE(fleet.store.Read(UnitId(u), -1, &path).ok());
        absl::StatusOr<PathWalk> before =
            WalkPath(world.grid(), path, Connectivity::kEight);
        absl::StatusOr<PathWalk> after =
            WalkPath(next->grid(), path, Connectivity::kEight);
        ASSERT_TRUE(after.ok())
            << "seed " << seed << " unit " << u << ": " << after.status();
        EXPECT_EQ(before->cost, after->cost);
      }
      PathRepairer repairer(*next);
      Planner fresh_planner(*next);
      RepairOptions options;
      options.fallback_ratio = 1.1 + 0.1 * static_cast<double>(seed % 3);
      for (UnitId u : affected) {
        const Point position = *fleet.store.Position(u);
        const Point goal = fleet.trips[u.value()].second;
        absl::StatusOr<RepairResult> r =
            repairer.Repair(u, report.affected_zones, options, &fleet.store);
        if (!next->grid().passable(position)) {
          EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
          EXPECT_TRUE(fleet.store.Contains(u));
          fleet.store.Remove(u);
          continue;
        }
        ASSERT_TRUE(r.ok())
            << "seed " << seed << " unit " << u.value() << ": " << r.status();
        switch (r->kind) {
          case RepairKind::kUntouched:
            ++untouched;
            break;
          case RepairKind::kSpliced:
            ++spliced;
            break;
          case RepairKind::kReplanned:
            ++replanned;
            break;
          case RepairKind::kUnreachable:
            ++unreachable;
            EXPECT_FALSE(next->grid().SameComponent(position, goal));
            EXPECT_FALSE(fleet.store.Contains(u));
            continue;
        }
        ASSERT_TRUE(fleet.store.Read(u, -1, &path).ok());
        EXPECT_EQ(path.start(), position);
        absl::StatusOr<PathWalk> walk =
            WalkPath(next->grid(), path, Connectivity::kEight);
        ASSERT_TRUE(walk.ok())
            << "seed " << seed << " unit " << u.value() << " "
            << RepairKindName(r->kind) << ": " << walk.status() << "\n"
            << GridToText(next->grid());
        EXPECT_EQ(walk->end, goal);
        EXPECT_NEAR(walk->cost, r->cost, 1e-9 * walk->cost);
        if (r->kind == RepairKind::kSpliced) {
          RunLengthPath fresh;
          ASSERT_TRUE(fresh_planner.FindPath(position, goal, {}, &fresh).ok());
          // The bound holds against the fresh plan's cost as planned (its
          // refinement may then shorten it a little).
          EXPECT_LE(r->cost, options.fallback_ratio *
                                 fresh_planner.stats().planned_cost * 1.000001)
              << "seed " << seed << " unit " << u.value();
        }
      }
      world = *std::move(next);
    }
  }
  // The test must exercise splices and fresh plans alike.
  EXPECT_GT(spliced, 20);
  EXPECT_GT(replanned, 5);
  RecordProperty("spliced", spliced);
  RecordProperty("replanned", replanned);
  RecordProperty("unreachable", unreachable);
  RecordProperty("untouched", untouched);
}

// Repairs reuse the repairer's scratch, the planner's and the store's: once
// warmed up on a set of units, repairing them again allocates nothing.
TEST(PathRepairTest, WarmRepairsDoNotAllocate) {
  World world = BuildMap(MapKind::kRooms, 128, 7);
  Fleet fleet;
  PlaceUnits(world, 30, 5, &fleet);
  std::vector<RunLengthPath> original(fleet.trips.size());
  for (size_t u = 0; u < fleet.trips.size(); ++u) {
    ASSERT_TRUE(fleet.store.Read(UnitId(u), -1, &original[u]).ok());
  }
  // A wall across the middle: many paths cross it.
  std::vector<CellChange> wall;
  for (int32_t y = 20; y < 110; ++y) wall.push_back({{64, y}, kBlocked});
  UpdateReport report;
  absl::StatusOr<World> next = ApplyChanges(world, wall, {}, &report);
  ASSERT_TRUE(next.ok());
  PathRepairer repairer(*next);
  std::vector<UnitId> affected;
  fleet.store.UnitsCrossing(next->abstraction().levels[0].layout(),
                            report.affected_zones, &affected);
  // Units standing in the wall get an error status (which allocates its
  // message): leave them out.
  affected.erase(std::remove_if(affected.begin(), affected.end(),
                                [&](UnitId u) {
                                  return !next->grid().passable(
                                      original[u.value()].start());
                                }),
                 affected.end());
  ASSERT_GT(affected.size(), 3u);
  int64_t allocations = 0;
  int kinds[4] = {0, 0, 0, 0};
  for (int round = 0; round < 3; ++round) {
    const int64_t before = testing::AllocationCount();
    for (UnitId u : affected) {
      // Put the old path back (Set reuses the store's freed blocks), then
      // repair it again.
      ASSERT_TRUE(fleet.store.Set(u, original[u.value()]).ok());
      absl::StatusOr<RepairResult> r =
          repairer.Repair(u, report.affected_zones, {}, &fleet.store);
      ASSERT_TRUE(r.ok()) << r.status();
      if (round == 2) ++kinds[static_cast<int>(r->kind)];
    }
    if (round == 2) allocations = testing::AllocationCount() - before;
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_GT(kinds[static_cast<int>(RepairKind::kSpliced)] +
                kinds[static_cast<int>(RepairKind::kReplanned)],
            0);
}

TEST(PathRepairTest, BadRatioIsRejected) {
  const World world = BuildMap(MapKind::kRooms, 64, 2);
  PathStore store;
  PathRepairer repairer(world);
  RepairOptions options;
  options.fallback_ratio = 0.5;
  EXPECT_EQ(repairer.Repair(UnitId(1), {}, options, &store).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(repairer.Repair(UnitId(1), {}, {}, &store).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace zonepath
