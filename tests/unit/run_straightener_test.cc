#include "zonepath/search/run_straightener.h"

#include <algorithm>
#include <memory>
#include <random>
#include <string>

#include "dijkstra_oracle.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath {
namespace {

std::string Context(uint64_t seed, const Grid& grid, Point s) {
  return "seed " + std::to_string(seed) + " start " + PointString(s) +
         "\nmap:\n" + testing::GridToText(grid);
}

// A random walk of legal moves N, NE and E from a random open cell: paths
// with many needless turns.
RunLengthPath RandomWalk(const Grid& grid, std::mt19937_64& rng, int steps) {
  const Point start = testing::RandomPassable(grid, rng);
  RunLengthPath path;
  path.Reset(start);
  Point p = start;
  for (int i = 0; i < steps; ++i) {
    const Direction d = static_cast<Direction>(rng() % 3);  // N, NE, E
    if (!CanStep(grid, p, d, Connectivity::kEight)) continue;
    path.Append(d);
    p = Step(p, d);
  }
  return path;
}

// The path of `runs` from `start` (what a straightener's runs walk).
RunLengthPath PathOfRuns(Point start, const std::vector<zonepath::Run>& runs) {
  RunLengthPath path;
  path.Reset(start);
  for (const zonepath::Run& run : runs) path.Append(run.direction, run.count);
  return path;
}

// Straightened paths keep their start, end, step count and cost, stay
// legal, never gain runs, and lose some overall.
TEST(RunStraightenerTest, SameCostFewerRuns) {
  int64_t runs_before = 0, runs_after = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    const Grid grid = testing::RandomGrid(seed, {24, 24, 0.15, 1});
    if (grid.passable_count() == 0) continue;
    std::mt19937_64 rng(seed);
    const RunLengthPath path = RandomWalk(grid, rng, 60);
    const std::string context = Context(seed, grid, path.start());
    absl::StatusOr<PathWalk> before =
        WalkPath(grid, path, Connectivity::kEight);
    ASSERT_TRUE(before.ok()) << context;
    std::vector<zonepath::Run> runs(path.runs().begin(), path.runs().end());
    ASSERT_TRUE(
        StraightenRuns(grid, grid.bounds(), nullptr, path.start(), &runs))
        << context;
    const RunLengthPath straight = PathOfRuns(path.start(), runs);
    absl::StatusOr<PathWalk> after =
        WalkPath(grid, straight, Connectivity::kEight);
    ASSERT_TRUE(after.ok()) << context << after.status();
    EXPECT_EQ(after->end, before->end) << context;
    EXPECT_EQ(after->steps, before->steps) << context;
    EXPECT_NEAR(after->cost, before->cost, 1e-9 * (1 + before->cost))
        << context;
    EXPECT_LE(straight.runs().size(), path.runs().size()) << context;
    runs_before += static_cast<int64_t>(path.runs().size());
    runs_after += static_cast<int64_t>(straight.runs().size());
  }
  EXPECT_LT(runs_after * 4, runs_before * 3);  // measured: 33 % fewer
}

// On the grid's open cell tiles (what a planner on a large grid of one cost
// reads): the same runs as on the grid, in bounds of every size, and the
// same cost read from the tiles as from the cells, bit for bit.
TEST(RunStraightenerTest, SameRunsAndCostOnCellTiles) {
  int changed = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::mt19937_64 rng(seed * 31 + 7);
    const int width = 1 + static_cast<int>(rng() % 150);
    const int height = 1 + static_cast<int>(rng() % 150);
    // One cost, not always 1.
    const Grid grid = testing::OneCostGrid(
        testing::RandomGrid(seed, {width, height, 0.15, 1}),
        static_cast<uint8_t>(1 + seed % 3));
    if (grid.passable_count() == 0) continue;
    const std::unique_ptr<const OpenCellTiles> tiles = OpenCellTiles::Of(grid);
    ASSERT_NE(tiles, nullptr) << "seed " << seed;
    const RunLengthPath path = RandomWalk(grid, rng, 200);
    const std::string context = Context(seed, grid, path.start());
    // Bounds that hold the path, or the whole grid.
    Rect bounds = grid.bounds();
    if (seed % 2 == 0) {
      bounds = {path.start().x, path.start().y, path.start().x + 1,
                path.start().y + 1};
      Point p = path.start();
      for (const zonepath::Run& run : path.runs()) {
        for (uint32_t i = 0; i < run.count; ++i) {
          p = Step(p, run.direction);
          bounds = {std::min(bounds.x0, p.x), std::min(bounds.y0, p.y),
                    std::max(bounds.x1, p.x + 1), std::max(bounds.y1, p.y + 1)};
        }
      }
    }
    std::vector<zonepath::Run> want(path.runs().begin(), path.runs().end());
    std::vector<zonepath::Run> got = want;
    ASSERT_TRUE(StraightenRuns(grid, bounds, nullptr, path.start(), &want))
        << context;
    StraightenRuns(*tiles, bounds, path.start(), &got);
    ASSERT_EQ(got, want) << context;
    if (want.size() < path.runs().size()) ++changed;
    EXPECT_EQ(RunsCost(*tiles, path.start(), got),
              RunsCost(grid, path.start(), want))
        << context;
  }
  EXPECT_GT(changed, 150);
}

// Runs move only through open cells inside the bounds and corridor, and
// E, N, E becomes one turn where a corner is open.
TEST(RunStraightenerTest, KeepsToTheBoundsAndCorridor) {
  const Grid open = testing::RandomGrid(1, {10, 10, 0.0, 1});
  std::vector<zonepath::Run> runs = {
      {Direction::kE, 2}, {Direction::kN, 2}, {Direction::kE, 2}};
  ASSERT_TRUE(StraightenRuns(open, open.bounds(), nullptr, {1, 5}, &runs));
  EXPECT_EQ(RunsToString(runs), "N2,E4");
  // Blocked cells at (1, 4) and (4, 5) leave no room for either order.
  const Grid walled = open.WithCosts(
      {{open.Index({1, 4}), kBlocked}, {open.Index({4, 5}), kBlocked}});
  runs = {{Direction::kE, 2}, {Direction::kN, 2}, {Direction::kE, 2}};
  ASSERT_TRUE(StraightenRuns(walled, walled.bounds(), nullptr, {1, 5}, &runs));
  EXPECT_EQ(RunsToString(runs), "E2,N2,E2");
  // Bounds that leave out column 0 change nothing here; bounds that leave
  // out row 5 east of column 3 keep N2 first.
  runs = {{Direction::kE, 2}, {Direction::kN, 2}, {Direction::kE, 2}};
  ASSERT_TRUE(
      StraightenRuns(walled, Rect{1, 0, 10, 10}, nullptr, {1, 5}, &runs));
  EXPECT_EQ(RunsToString(runs), "E2,N2,E2");
  // A corridor: row 5 columns 1..3, row 4 column 3, row 3 columns 3..5.
  RowSpans corridor;
  corridor.y0 = 3;
  corridor.lo = {3, 3, 1};
  corridor.hi = {5, 3, 3};
  runs = {{Direction::kE, 2}, {Direction::kN, 2}, {Direction::kE, 2}};
  ASSERT_TRUE(StraightenRuns(open, open.bounds(), &corridor, {1, 5}, &runs));
  EXPECT_EQ(RunsToString(runs), "E2,N2,E2");
}

// On a grid with cells of two costs a reordering could change the cost:
// nothing is done.
TEST(RunStraightenerTest, RefusesWeightedGrids) {
  const Grid weighted = testing::RandomGrid(3, {10, 10, 0.0, 3});
  ASSERT_GT(weighted.CellsOfCost(3) + weighted.CellsOfCost(2), 0);
  std::vector<zonepath::Run> runs = {
      {Direction::kE, 2}, {Direction::kN, 2}, {Direction::kE, 2}};
  EXPECT_FALSE(
      StraightenRuns(weighted, weighted.bounds(), nullptr, {1, 5}, &runs));
  EXPECT_EQ(RunsToString(runs), "E2,N2,E2");
}

// On weighted grids (random costs, and patches of one cost like generated
// terrain's), StraightenRunsNoCostlier keeps start, end and step count,
// stays legal, never costs more (to 1e-12 relative) and never gains runs;
// it loses runs overall, and a reordering that would cross dearer cells is
// refused.
TEST(RunStraightenerTest, NoCostlierOnWeightedGrids) {
  int64_t runs_before = 0, runs_after = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    // Costs 1..max_cost in random cells, or (odd seeds) blocks of 6 x 6
    // cells of one cost each.
    Grid grid = testing::RandomGrid(
        seed, {24, 24, 0.1, 1 + static_cast<int>(seed % 4)});
    if (seed % 2 == 1) {
      std::mt19937_64 patches(seed);
      std::vector<Grid::CellCost> changes;
      uint8_t block_cost[4][4];
      for (auto& row : block_cost) {
        for (uint8_t& c : row) c = static_cast<uint8_t>(1 + patches() % 3);
      }
      for (int32_t y = 0; y < 24; ++y) {
        for (int32_t x = 0; x < 24; ++x) {
          if (grid.passable({x, y})) {
            changes.push_back({grid.Index({x, y}), block_cost[y / 6][x / 6]});
          }
        }
      }
      grid = grid.WithCosts(changes);
    }
    if (grid.passable_count() == 0) continue;
    std::mt19937_64 rng(seed);
    const RunLengthPath path = RandomWalk(grid, rng, 60);
    const std::string context = Context(seed, grid, path.start());
    absl::StatusOr<PathWalk> before =
        WalkPath(grid, path, Connectivity::kEight);
    ASSERT_TRUE(before.ok()) << context;
    std::vector<zonepath::Run> runs(path.runs().begin(), path.runs().end());
    StraightenRunsNoCostlier(grid, path.start(), &runs);
    const RunLengthPath straight = PathOfRuns(path.start(), runs);
    absl::StatusOr<PathWalk> after =
        WalkPath(grid, straight, Connectivity::kEight);
    ASSERT_TRUE(after.ok()) << context << after.status();
    EXPECT_EQ(after->end, before->end) << context;
    EXPECT_EQ(after->steps, before->steps) << context;
    EXPECT_LE(after->cost, before->cost * (1 + 1e-9)) << context;
    EXPECT_LE(straight.runs().size(), path.runs().size()) << context;
    runs_before += static_cast<int64_t>(path.runs().size());
    runs_after += static_cast<int64_t>(straight.runs().size());
  }
  EXPECT_LT(runs_after * 10, runs_before * 9)
      << runs_after << " against " << runs_before;
  // E2, N2, E2 on cells of cost 1 from (1, 5). N2 first would cross (1, 4)
  // of cost 5, E4 first only cells of cost 1 (the same cost as before): E4
  // first.
  const Grid flat = testing::RandomGrid(1, {10, 10, 0.0, 1});
  const Grid priced = flat.WithCosts({{flat.Index({1, 4}), 5}});
  std::vector<zonepath::Run> runs = {
      {Direction::kE, 2}, {Direction::kN, 2}, {Direction::kE, 2}};
  StraightenRunsNoCostlier(priced, {1, 5}, &runs);
  EXPECT_EQ(RunsToString(runs), "E4,N2");
  // (5, 5) of cost 5 too: both other orders cost more, nothing moves.
  const Grid both = priced.WithCosts({{flat.Index({5, 5}), 5}});
  runs = {{Direction::kE, 2}, {Direction::kN, 2}, {Direction::kE, 2}};
  StraightenRunsNoCostlier(both, {1, 5}, &runs);
  EXPECT_EQ(RunsToString(runs), "E2,N2,E2");
}

}  // namespace
}  // namespace zonepath
