#include "zonepath/search/one_turn_path.h"

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dijkstra_oracle.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath {
namespace {

std::string Context(uint64_t seed, const Grid& grid, Point a, Point b,
                    const Rect& bounds) {
  return "seed " + std::to_string(seed) + " from " + PointString(a) + " to " +
         PointString(b) + " bounds " + std::to_string(bounds.x0) + "," +
         std::to_string(bounds.y0) + "-" + std::to_string(bounds.x1) + "," +
         std::to_string(bounds.y1) + "\nmap:\n" + testing::GridToText(grid);
}

Point RandomIn(const Rect& r, std::mt19937_64& rng) {
  return {r.x0 + static_cast<int32_t>(rng() % r.width()),
          r.y0 + static_cast<int32_t>(rng() % r.height())};
}

// Whatever it returns is a shortest way inside the bounds (the Dijkstra
// oracle's least cost there, which it is given as the limit; a and b lie
// in the bounds), legal, of at most two runs, and stays in the bounds; given
// less than the least cost it finds nothing, and where no way exists it finds
// nothing whatever the limit. On sparse grids it finds a good share of the
// shortest ways (else it would be no use).
TEST(OneTurnPathTest, FindsOnlyShortestWaysInsideTheBounds) {
  int reachable = 0, found_count = 0;
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    std::mt19937_64 rng(seed);
    const int side = 6 + static_cast<int>(rng() % 26);
    const double blocked = static_cast<double>(rng() % 4) / 20.0;  // 0-15 %
    const int max_cost = seed % 3 == 0 ? 3 : 1;
    const Grid grid =
        testing::RandomGrid(seed, {side, side, blocked, max_cost});
    const Rect bounds{static_cast<int32_t>(rng() % 3),
                      static_cast<int32_t>(rng() % 3),
                      side - static_cast<int32_t>(rng() % 3), side};
    const Point a = RandomIn(bounds, rng), b = RandomIn(bounds, rng);
    if (!grid.passable(a) || !grid.passable(b)) continue;
    const Connectivity connectivity =
        seed % 2 == 0 ? Connectivity::kEight : Connectivity::kFour;
    const std::string context = Context(seed, grid, a, b, bounds);
    const double least = testing::OracleDistances(
        grid, a, connectivity == Connectivity::kEight,
        bounds)[static_cast<size_t>(grid.Index(b).value())];

    RunLengthPath path;
    path.Reset(a);
    if (!std::isfinite(least)) {
      EXPECT_FALSE(AppendOneTurnPath(grid, connectivity, a, b, 1e9, &path))
          << context;
      continue;
    }
    ++reachable;
    // A limit below the least cost: no way can meet it.
    EXPECT_FALSE(
        AppendOneTurnPath(grid, connectivity, a, b, least - 1e-3, &path))
        << context;
    EXPECT_TRUE(path.runs().empty()) << context;
    const std::optional<double> cost =
        AppendOneTurnPath(grid, connectivity, a, b, least, &path);
    if (!cost.has_value()) {
      EXPECT_TRUE(path.runs().empty()) << context;
      continue;
    }
    ++found_count;
    EXPECT_LE(path.runs().size(), 2u) << context;
    absl::StatusOr<PathWalk> walk = WalkPath(grid, path, connectivity);
    ASSERT_TRUE(walk.ok()) << context << walk.status();
    EXPECT_EQ(walk->end, b) << context;
    EXPECT_NEAR(walk->cost, least, 1e-9 * (1 + least)) << context;
    EXPECT_NEAR(*cost, walk->cost, 1e-9 * (1 + least)) << context;
    Point p = a;
    for (const zonepath::Run& run : path.runs()) {
      for (uint32_t i = 0; i < run.count; ++i) {
        p = Step(p, run.direction);
        ASSERT_TRUE(bounds.Contains(p))
            << context << " left at " << PointString(p);
      }
    }
  }
  EXPECT_GT(reachable, 600);
  EXPECT_GT(found_count * 3, reachable) << found_count << " of " << reachable;
}

// On an open grid every pair is joined by one turn at the octile (or
// Manhattan) distance; a wall across the straight ways leaves none.
TEST(OneTurnPathTest, OpenGridAlwaysWalledNever) {
  const Grid open = testing::RandomGrid(3, {12, 9, 0.0, 1});
  for (const Connectivity c : {Connectivity::kEight, Connectivity::kFour}) {
    for (int i = 0; i < 200; ++i) {
      std::mt19937_64 rng(i);
      const Point a = RandomIn(open.bounds(), rng),
                  b = RandomIn(open.bounds(), rng);
      RunLengthPath path;
      path.Reset(a);
      // No limit, or a limit that is not a number, lets nothing through.
      EXPECT_FALSE(AppendOneTurnPath(open, c, a, b, -1, &path));
      EXPECT_FALSE(AppendOneTurnPath(
          open, c, a, b, std::numeric_limits<double>::quiet_NaN(), &path));
      if (a == b) {
        EXPECT_EQ(AppendOneTurnPath(open, c, a, b, 0, &path), 0.0);
        EXPECT_TRUE(path.runs().empty());
        continue;
      }
      EXPECT_TRUE(
          AppendOneTurnPath(open, c, a, b, HeuristicCost(a, b, c, 1), &path))
          << PointString(a) << " " << PointString(b);
    }
  }
  // A wall at x = 5 with a gap at y = 0 and 1: from (2, 6) to (8, 6) the
  // only straight way runs into it (any other way turns twice).
  std::vector<Grid::CellCost> wall;
  for (int y = 2; y < 9; ++y) wall.push_back({open.Index({5, y}), kBlocked});
  const Grid walled = open.WithCosts(wall);
  RunLengthPath path;
  path.Reset({2, 6});
  EXPECT_FALSE(AppendOneTurnPath(walled, Connectivity::kEight, {2, 6}, {8, 6},
                                 1e9, &path));
  // From (2, 3) to (8, 0) straight first runs into the wall; diagonal
  // first goes NE through the gap to (5, 0).
  path.Reset({2, 3});
  ASSERT_TRUE(AppendOneTurnPath(walled, Connectivity::kEight, {2, 3}, {8, 0},
                                1e9, &path));
  EXPECT_EQ(RunsToString(path.runs()), "NE3,E3");
  // Straight first where diagonal first is walled: from (2, 0) to (8, 3).
  path.Reset({2, 0});
  ASSERT_TRUE(AppendOneTurnPath(walled, Connectivity::kEight, {2, 0}, {8, 3},
                                1e9, &path));
  EXPECT_EQ(RunsToString(path.runs()), "E3,SE3");
}

// OneTurnWaysFrom (string pulling's many ways from one anchor) against
// FindOneTurnWay, which it must agree with: the same way (diagonal or x
// first, then the other order) or none, for targets asked in any order
// (the anchor's rays are walked once, as far as asked), read from the
// grid's open bits or from its cells alike. Asked to continue a direction,
// it puts the run going that way first where that order is legal, and
// still gives a legal way of the least cost to the target.
TEST(OneTurnPathTest, WaysFromAnAnchorAsFindOneTurnWay) {
  int found = 0, continued = 0, asked = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    std::mt19937_64 rng(seed * 7919 + 11);
    // Up to 200 cells a side: rows and columns of several words.
    const int width = 2 + static_cast<int>(rng() % 199);
    const int height = 2 + static_cast<int>(rng() % 199);
    const double blocked = static_cast<double>(rng() % 40) / 100.0;
    const Grid grid = testing::RandomGrid(seed, {width, height, blocked, 1});
    const Connectivity c =
        seed % 3 == 0 ? Connectivity::kFour : Connectivity::kEight;
    const std::shared_ptr<const search_internal::OpenBits> bits =
        GridAStar::MakeGridOpenBits(grid);
    ASSERT_NE(bits, nullptr);
    const Point a = testing::RandomPassable(grid, rng);
    if (a.x < 0) continue;
    // And from the grid's open cell tiles (OpenCellTiles), as a planner on
    // a large grid of one cost reads them.
    const std::unique_ptr<const OpenCellTiles> tiles = OpenCellTiles::Of(grid);
    ASSERT_NE(tiles, nullptr);
    OneTurnWaysFrom from_bits(grid, c), from_cells(grid, c),
        from_tiles(grid, c);
    from_bits.Reset(a, bits.get());
    from_cells.Reset(a, nullptr);
    from_tiles.Reset(a, nullptr, tiles.get());
    for (int k = 0; k < 60; ++k) {
      // Targets near the anchor's rays (where ways are often legal) and
      // anywhere.
      Point b;
      if (k % 2 == 0) {
        const int32_t r = static_cast<int32_t>(rng() % 40);
        const int32_t off = static_cast<int32_t>(rng() % 5) - 2;
        const int dir = static_cast<int>(rng() % 8);
        b = {a.x + Dx(static_cast<Direction>(dir)) * r + off,
             a.y + Dy(static_cast<Direction>(dir)) * r};
        if (!grid.InBounds(b)) continue;
      } else {
        b = {static_cast<int32_t>(rng() % width),
             static_cast<int32_t>(rng() % height)};
      }
      if (!grid.passable(b)) continue;
      const std::string context = "seed " + std::to_string(seed) + " " +
                                  PointString(a) + " -> " + PointString(b) +
                                  (c == Connectivity::kFour ? " 4" : " 8") +
                                  "\nmap:\n" + testing::GridToText(grid);
      const std::optional<OneTurnWay> want = FindOneTurnWay(
          grid, c, a, b, std::numeric_limits<double>::infinity());
      const std::optional<OneTurnWay> on_tiles = FindOneTurnWay(
          *tiles, c, a, b, std::numeric_limits<double>::infinity());
      ASSERT_EQ(on_tiles.has_value(), want.has_value()) << context;
      if (want.has_value()) {
        ASSERT_EQ(on_tiles->count, want->count) << context;
        for (int r = 0; r < want->count; ++r) {
          EXPECT_EQ(on_tiles->runs[r], want->runs[r]) << context;
        }
        EXPECT_EQ(on_tiles->cost, want->cost) << context;
      }
      for (OneTurnWaysFrom* ways : {&from_bits, &from_cells, &from_tiles}) {
        const std::optional<OneTurnWay> got = ways->To(b, std::nullopt);
        ASSERT_EQ(got.has_value(), want.has_value()) << context;
        if (!want.has_value()) continue;
        ASSERT_EQ(got->count, want->count) << context;
        for (int r = 0; r < want->count; ++r) {
          EXPECT_EQ(got->runs[r], want->runs[r]) << context;
        }
        EXPECT_DOUBLE_EQ(got->cost, HeuristicCost(a, b, c, 1)) << context;
      }
      if (!want.has_value()) continue;
      ++found;
      // Continuing a direction: a legal way of the same runs, the run in
      // that direction first when that order is legal.
      const Direction continues = static_cast<Direction>(rng() % 8);
      const std::optional<OneTurnWay> got = from_bits.To(b, continues);
      ASSERT_TRUE(got.has_value()) << context;
      const std::optional<OneTurnWay> by_cells = from_cells.To(b, continues);
      ASSERT_TRUE(by_cells.has_value()) << context;
      ASSERT_EQ(by_cells->count, got->count) << context;
      for (int r = 0; r < got->count; ++r) {
        EXPECT_EQ(by_cells->runs[r], got->runs[r]) << context;
      }
      const std::optional<OneTurnWay> by_tiles = from_tiles.To(b, continues);
      ASSERT_TRUE(by_tiles.has_value()) << context;
      ASSERT_EQ(by_tiles->count, got->count) << context;
      for (int r = 0; r < got->count; ++r) {
        EXPECT_EQ(by_tiles->runs[r], got->runs[r]) << context;
      }
      RunLengthPath path;
      path.Reset(a);
      for (int r = 0; r < got->count; ++r) {
        path.Append(got->runs[r].direction, got->runs[r].count);
      }
      absl::StatusOr<PathWalk> walk = WalkPath(grid, path, c);
      ASSERT_TRUE(walk.ok()) << context << " " << walk.status();
      EXPECT_EQ(walk->end, b) << context;
      EXPECT_NEAR(walk->cost, HeuristicCost(a, b, c, 1), 1e-9) << context;
      if (want->count == 2 && want->runs[1].direction == continues) {
        ++asked;
        // Legal that way round?
        RunLengthPath swapped;
        swapped.Reset(a);
        swapped.Append(want->runs[1].direction, want->runs[1].count);
        swapped.Append(want->runs[0].direction, want->runs[0].count);
        if (WalkPath(grid, swapped, c).ok()) {
          ++continued;
          EXPECT_EQ(got->runs[0].direction, continues) << context;
        }
      }
    }
  }
  EXPECT_GT(found, 2000);
  EXPECT_GT(continued, 100);
  EXPECT_GT(asked, continued);  // some orders were walled
}

}  // namespace
}  // namespace zonepath
