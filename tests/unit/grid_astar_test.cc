#include "zonepath/search/grid_astar.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "dijkstra_oracle.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/movingai/map_io.h"

namespace zonepath {
namespace {

using testing::GridToText;
using testing::OracleDistances;

// Checks one A* answer against the oracle: outcome, optimal cost (or within
// the weight's bound), legality, end cell, reported cost == walked cost.
void CheckAgainstOracle(const Grid& grid, GridAStar& astar, Point start,
                        Point goal, const AStarOptions& options,
                        const std::string& context) {
  const Rect bounds = options.bounds.value_or(grid.bounds());
  const std::vector<double> dist = OracleDistances(
      grid, start, options.connectivity == Connectivity::kEight, bounds);
  const double expected = dist[grid.Index(goal).value()];
  RunLengthPath path;
  absl::StatusOr<SearchOutcome> outcome =
      astar.FindPath(start, goal, options, &path);
  ASSERT_TRUE(outcome.ok()) << context << outcome.status();
  if (std::isinf(expected)) {
    ASSERT_EQ(*outcome, SearchOutcome::kUnreachable) << context;
    return;
  }
  ASSERT_EQ(*outcome, SearchOutcome::kFound) << context;
  const double tolerance = 1e-9 * std::max(1.0, expected);
  if (options.weight == 1.0) {
    ASSERT_NEAR(path.cost(), expected, tolerance) << context;
  } else {
    ASSERT_LE(path.cost(), options.weight * expected + tolerance) << context;
    ASSERT_GE(path.cost(), expected - tolerance) << context;
  }
  absl::StatusOr<PathWalk> walk = WalkPath(grid, path, options.connectivity);
  ASSERT_TRUE(walk.ok()) << context << walk.status();
  ASSERT_EQ(walk->end, goal) << context;
  ASSERT_NEAR(walk->cost, path.cost(), tolerance) << context;
  ASSERT_EQ(walk->steps, path.steps()) << context;
  if (options.bounds.has_value()) {
    Point p = start;
    for (const Run& run : path.runs()) {
      for (uint32_t i = 0; i < run.count; ++i) {
        p = Step(p, run.direction);
        ASSERT_TRUE(bounds.Contains(p)) << context << " left the bounds";
      }
    }
  }
}

std::string Context(uint64_t seed, const Grid& grid, Point s, Point g) {
  return "seed " + std::to_string(seed) + " start " + PointString(s) +
         " goal " + PointString(g) + "\nmap:\n" + GridToText(grid);
}

// Checks one answer against the Dijkstra oracle on `masked`, the grid with
// every cell the options leave out (outside a corridor) blocked: outcome,
// optimal cost, a legal walk on `masked` to the goal at the reported cost.
// Returns true when a path came back.
bool CheckAgainstMaskedOracle(const Grid& grid, const Grid& masked,
                              GridAStar& astar, Point s, Point g,
                              const AStarOptions& options,
                              const std::string& context) {
  const std::vector<double> dist =
      OracleDistances(masked, s, true, masked.bounds());
  const double expected = dist[grid.Index(g).value()];
  RunLengthPath path;
  absl::StatusOr<SearchOutcome> outcome = astar.FindPath(s, g, options, &path);
  EXPECT_TRUE(outcome.ok()) << context << outcome.status();
  if (!outcome.ok()) return false;
  if (std::isinf(expected)) {
    EXPECT_EQ(*outcome, SearchOutcome::kUnreachable) << context;
    return false;
  }
  EXPECT_EQ(*outcome, SearchOutcome::kFound) << context;
  if (*outcome != SearchOutcome::kFound) return false;
  const double tolerance = 1e-9 * std::max(1.0, expected);
  EXPECT_NEAR(path.cost(), expected, tolerance) << context;
  absl::StatusOr<PathWalk> walk = WalkPath(masked, path, Connectivity::kEight);
  EXPECT_TRUE(walk.ok()) << context << walk.status();
  if (!walk.ok()) return false;
  EXPECT_EQ(walk->end, g) << context;
  EXPECT_NEAR(walk->cost, path.cost(), tolerance) << context;
  return true;
}

TEST(GridAStarTest, MatchesDijkstraOnRandomGrids) {
  for (uint64_t seed = 0; seed < 400; ++seed) {
    const Grid grid = testing::RandomGrid(seed, testing::SpecForSeed(seed));
    if (grid.passable_count() == 0) continue;
    std::mt19937_64 rng(seed);
    GridAStar astar(grid);
    for (int q = 0; q < 4; ++q) {
      const Point s = testing::RandomPassable(grid, rng);
      const Point g = testing::RandomPassable(grid, rng);
      AStarOptions options;
      options.connectivity =
          (q % 2 == 0) ? Connectivity::kEight : Connectivity::kFour;
      options.prefer_straight = q >= 2;
      CheckAgainstOracle(grid, astar, s, g, options, Context(seed, grid, s, g));
    }
  }
}

// A grid of one cost: `cost` where RandomGrid(seed, spec with max_cost 1)
// is open.
Grid UniformGrid(uint64_t seed, int width, int height, double blocked,
                 uint8_t cost) {
  const Grid unit = testing::RandomGrid(seed, {width, height, blocked, 1});
  std::vector<uint8_t> costs;
  for (int32_t y = 0; y < height; ++y) {
    for (int32_t x = 0; x < width; ++x) {
      costs.push_back(unit.passable({x, y}) ? cost : kBlocked);
    }
  }
  return *Grid::Create(width, height, std::move(costs));
}

// Jump point search against the Dijkstra oracle on grids of one cost, with
// and without bounds and corridors (the oracle runs on the grid with every
// cell outside the corridor blocked): `seeds` grids of 1..max_side cells a
// side. Bounds of at most 256 cells a side run on the local node table and
// read the open cells as bits (open_bits.h); the others cell by cell.
// Returns the queries answered with a path and those run in a corridor.
std::pair<int, int> CheckJumpPointsOnRandomGrids(uint64_t seeds, int max_side) {
  int corridors = 0, found = 0;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    std::mt19937_64 rng(seed * 31 + 7 + static_cast<uint64_t>(max_side));
    const int width = 1 + static_cast<int>(rng() % max_side);
    const int height = 1 + static_cast<int>(rng() % max_side);
    const double blocked = static_cast<double>(rng() % 46) / 100.0;
    const uint8_t cost = (seed % 3 == 0) ? 4 : 1;
    const Grid grid = UniformGrid(seed, width, height, blocked, cost);
    if (grid.passable_count() == 0) continue;
    GridAStar astar(grid);
    for (int q = 0; q < 4; ++q) {
      AStarOptions options;
      options.jump_points = true;
      options.prefer_straight = q % 2 == 1;
      Rect bounds = grid.bounds();
      if (q >= 2) {
        const int32_t x0 = static_cast<int32_t>(rng() % width);
        const int32_t y0 = static_cast<int32_t>(rng() % height);
        bounds = {x0, y0, x0 + 1 + static_cast<int32_t>(rng() % (width - x0)),
                  y0 + 1 + static_cast<int32_t>(rng() % (height - y0))};
        options.bounds = bounds;
      }
      RowSpans corridor;
      std::vector<Grid::CellCost> outside;
      if (q == 3) {
        corridor.y0 = bounds.y0;
        int32_t lo = bounds.x0 + static_cast<int32_t>(rng() % bounds.width());
        const int32_t span = 9 + max_side / 8;
        for (int32_t y = bounds.y0; y < bounds.y1; ++y) {
          lo = std::clamp(lo + static_cast<int32_t>(rng() % 5) - 2, bounds.x0,
                          bounds.x1 - 1);
          corridor.lo.push_back(lo);
          corridor.hi.push_back(lo + static_cast<int32_t>(rng() % span));
        }
        options.corridor = &corridor;
        ++corridors;
      }
      std::vector<Point> inside;
      for (int32_t y = 0; y < height; ++y) {
        for (int32_t x = 0; x < width; ++x) {
          const bool in =
              bounds.Contains({x, y}) && (q != 3 || corridor.Contains({x, y}));
          if (!in) {
            outside.push_back({grid.Index({x, y}), kBlocked});
          } else if (grid.passable({x, y})) {
            inside.push_back({x, y});
          }
        }
      }
      if (inside.empty()) continue;
      const Point s = inside[rng() % inside.size()];
      const Point g = inside[rng() % inside.size()];
      const std::string context =
          Context(seed, grid, s, g) + " query " + std::to_string(q);
      const Grid masked = grid.WithCosts(outside);
      if (!CheckAgainstMaskedOracle(grid, masked, astar, s, g, options,
                                    context)) {
        if (::testing::Test::HasFailure()) return {found, corridors};
        continue;
      }
      ++found;
    }
  }
  return {found, corridors};
}

TEST(GridAStarTest, JumpPointsMatchDijkstra) {
  const auto [found, corridors] = CheckJumpPointsOnRandomGrids(1500, 60);
  ASSERT_FALSE(HasFailure());
  EXPECT_GT(found, 3000);
  EXPECT_GT(corridors, 1000);
}

// Windows of several 64-bit words a row and a column (bounds up to 256
// cells a side), and whole grids up to 300 cells a side read cell by cell.
TEST(GridAStarTest, JumpPointsMatchDijkstraOnLargeWindows) {
  const auto [found, corridors] = CheckJumpPointsOnRandomGrids(150, 300);
  ASSERT_FALSE(HasFailure());
  EXPECT_GT(found, 300);
  EXPECT_GT(corridors, 100);
}

// JumpDistances (one search from a source to many targets, as the planner
// connects an endpoint to its zone's beacons) against the Dijkstra oracle
// inside the same bounds: targets open,
// closed, unreachable, outside the bounds, listed twice, or the source.
TEST(GridAStarTest, JumpDistancesMatchDijkstra) {
  int finite = 0, infinite = 0;
  for (uint64_t seed = 0; seed < 600; ++seed) {
    std::mt19937_64 rng(seed * 17 + 3);
    const int width = 1 + static_cast<int>(rng() % 150);
    const int height = 1 + static_cast<int>(rng() % 150);
    const double blocked = static_cast<double>(rng() % 46) / 100.0;
    const Grid grid =
        UniformGrid(seed, width, height, blocked, seed % 3 == 0 ? 4 : 1);
    if (grid.passable_count() == 0) continue;
    const int32_t x0 = static_cast<int32_t>(rng() % width);
    const int32_t y0 = static_cast<int32_t>(rng() % height);
    const Rect bounds{x0, y0,
                      x0 + 1 + static_cast<int32_t>(rng() % (width - x0)),
                      y0 + 1 + static_cast<int32_t>(rng() % (height - y0))};
    std::vector<Point> open;
    for (int32_t y = bounds.y0; y < bounds.y1; ++y) {
      for (int32_t x = bounds.x0; x < bounds.x1; ++x) {
        if (grid.passable({x, y})) open.push_back({x, y});
      }
    }
    if (open.empty()) continue;
    const Point source = open[rng() % open.size()];
    std::vector<Point> targets;
    const int count = 1 + static_cast<int>(rng() % 20);
    for (int i = 0; i < count; ++i) {
      switch (rng() % 6) {
        case 0:  // any cell of the grid, maybe closed or outside the bounds
          targets.push_back({static_cast<int32_t>(rng() % width),
                             static_cast<int32_t>(rng() % height)});
          break;
        case 1:  // the source, or one listed before
          targets.push_back(targets.empty() ? source
                                            : targets[rng() % targets.size()]);
          break;
        default:
          targets.push_back(open[rng() % open.size()]);
      }
    }
    const std::vector<double> oracle =
        OracleDistances(grid, source, /*eight_connected=*/true, bounds);
    // Every other seed with the grid's bits, as planners have them (the
    // window's bits are then copied from them, OpenBits::FillFrom).
    GridAStar astar(grid);
    if (seed % 2 == 1) {
      astar.UseGridOpenBits(GridAStar::MakeGridOpenBits(grid));
      ASSERT_NE(astar.grid_bits(), nullptr);
    }
    std::vector<double> out(targets.size());
    ASSERT_TRUE(
        astar.JumpDistances(source, targets, bounds, absl::MakeSpan(out)).ok());
    for (size_t i = 0; i < targets.size(); ++i) {
      const Point t = targets[i];
      const double want = bounds.Contains(t) && grid.passable(t)
                              ? oracle[grid.Index(t).value()]
                              : std::numeric_limits<double>::infinity();
      const std::string context = Context(seed, grid, source, t) + " bounds " +
                                  std::to_string(bounds.x0) + "," +
                                  std::to_string(bounds.y0) + " " +
                                  std::to_string(bounds.width()) + "x" +
                                  std::to_string(bounds.height());
      if (std::isinf(want)) {
        ASSERT_TRUE(std::isinf(out[i])) << context;
        ++infinite;
      } else {
        ASSERT_NEAR(out[i], want, 1e-9 * (1 + want)) << context;
        ++finite;
      }
    }
  }
  EXPECT_GT(finite, 3000);
  EXPECT_GT(infinite, 300);
}

// Refused where it would not be exact, or with a wrong output size.
TEST(GridAStarTest, JumpDistancesOnlyWhereExact) {
  const Grid weighted = testing::RandomGrid(5, {20, 20, 0.0, 5});
  GridAStar astar(weighted);
  std::vector<Point> targets{{3, 3}};
  std::vector<double> out(1);
  EXPECT_EQ(astar
                .JumpDistances({0, 0}, targets, weighted.bounds(),
                               absl::MakeSpan(out))
                .code(),
            absl::StatusCode::kInvalidArgument);
  const Grid big = UniformGrid(5, 300, 10, 0.0, 1);
  GridAStar big_astar(big);
  EXPECT_EQ(
      big_astar
          .JumpDistances({0, 0}, targets, big.bounds(), absl::MakeSpan(out))
          .code(),
      absl::StatusCode::kInvalidArgument);
  std::vector<double> two(2);
  EXPECT_EQ(
      big_astar
          .JumpDistances({0, 0}, targets, {0, 0, 20, 10}, absl::MakeSpan(two))
          .code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      big_astar
          .JumpDistances({0, 0}, targets, {0, 0, 20, 10}, absl::MakeSpan(out))
          .ok());
  EXPECT_NEAR(out[0], 3 * std::sqrt(2.0), 1e-12);
}

// Jump points run only where they are exact: on a weighted grid, 4-connected
// or with a weight the search is A*'s own (same path, same expansions); on
// an open grid of one cost they expand far fewer nodes than A*.
TEST(GridAStarTest, JumpPointsOnlyWhereExact) {
  const Grid weighted = testing::RandomGrid(77, {40, 40, 0.2, 5});
  std::mt19937_64 rng(77);
  GridAStar astar(weighted);
  for (int q = 0; q < 20; ++q) {
    const Point s = testing::RandomPassable(weighted, rng);
    const Point g = testing::RandomPassable(weighted, rng);
    AStarOptions options;
    options.connectivity = q % 2 ? Connectivity::kFour : Connectivity::kEight;
    RunLengthPath plain, jumps;
    ASSERT_TRUE(astar.FindPath(s, g, options, &plain).ok());
    const int64_t plain_expanded = astar.stats().expanded;
    options.jump_points = true;
    ASSERT_TRUE(astar.FindPath(s, g, options, &jumps).ok());
    EXPECT_EQ(astar.stats().expanded, plain_expanded);
    EXPECT_EQ(RunsToString(plain.runs()), RunsToString(jumps.runs()));
  }
  const Grid open = UniformGrid(5, 64, 64, 0.0, 1);
  GridAStar open_astar(open);
  RunLengthPath plain, jumps;
  AStarOptions options;
  ASSERT_TRUE(open_astar.FindPath({2, 60}, {61, 3}, options, &plain).ok());
  const int64_t plain_expanded = open_astar.stats().expanded;
  options.jump_points = true;
  ASSERT_TRUE(open_astar.FindPath({2, 60}, {61, 3}, options, &jumps).ok());
  EXPECT_DOUBLE_EQ(jumps.cost(), plain.cost());
  EXPECT_LT(open_astar.stats().expanded * 10, plain_expanded);
}

TEST(GridAStarTest, PreferStraightKeepsCostAndSavesRuns) {
  // Open 8-connected grids have many equally short paths; tie-breaking
  // towards straight moves must keep the cost and use fewer runs.
  size_t runs_plain = 0, runs_straight = 0;
  for (uint64_t seed = 3000; seed < 3040; ++seed) {
    const Grid grid = testing::RandomGrid(seed, {48, 48, 0.05, 1});
    std::mt19937_64 rng(seed);
    GridAStar astar(grid);
    const Point s = testing::RandomPassable(grid, rng);
    const Point g = testing::RandomPassable(grid, rng);
    RunLengthPath plain, straight;
    AStarOptions options;
    ASSERT_TRUE(astar.FindPath(s, g, options, &plain).ok());
    options.prefer_straight = true;
    ASSERT_TRUE(astar.FindPath(s, g, options, &straight).ok());
    ASSERT_NEAR(plain.cost(), straight.cost(), 1e-9 * (1 + plain.cost()))
        << Context(seed, grid, s, g);
    runs_plain += plain.runs().size();
    runs_straight += straight.runs().size();
  }
  EXPECT_LT(runs_straight, runs_plain);
}

TEST(GridAStarTest, TraceListsEveryExpansion) {
  const Grid grid = testing::RandomGrid(9, {40, 30, 0.2, 3});
  std::mt19937_64 rng(9);
  GridAStar astar(grid);
  std::vector<Point> trace;
  astar.set_trace(&trace);
  RunLengthPath path;
  Point s, g;
  do {
    s = testing::RandomPassable(grid, rng);
    g = testing::RandomPassable(grid, rng);
  } while (!grid.SameComponent(s, g));
  ASSERT_TRUE(astar.FindPath(s, g, {}, &path).ok());
  ASSERT_EQ(static_cast<int64_t>(trace.size()), astar.stats().expanded);
  for (const Point& p : trace) EXPECT_TRUE(astar.Expanded(p));
  ASSERT_FALSE(trace.empty());
  EXPECT_EQ(trace.front(), s);
  astar.set_trace(nullptr);
  trace.clear();
  ASSERT_TRUE(astar.FindPath(s, g, {}, &path).ok());
  EXPECT_TRUE(trace.empty());
}

TEST(GridAStarTest, WeightedSearchStaysWithinBound) {
  for (uint64_t seed = 1000; seed < 1150; ++seed) {
    const Grid grid = testing::RandomGrid(seed, testing::SpecForSeed(seed));
    if (grid.passable_count() == 0) continue;
    std::mt19937_64 rng(seed);
    GridAStar astar(grid);
    const Point s = testing::RandomPassable(grid, rng);
    const Point g = testing::RandomPassable(grid, rng);
    AStarOptions options;
    options.weight = 1.0 + (seed % 4) * 0.5;
    CheckAgainstOracle(grid, astar, s, g, options, Context(seed, grid, s, g));
  }
}

TEST(GridAStarTest, BoundedSearchStaysInsideRectangle) {
  for (uint64_t seed = 2000; seed < 2200; ++seed) {
    const Grid grid = testing::RandomGrid(seed, {32, 32, 0.25, 3});
    std::mt19937_64 rng(seed);
    const int32_t x0 = rng() % 16, y0 = rng() % 16;
    const Rect bounds{x0, y0, x0 + 8 + static_cast<int32_t>(rng() % 9),
                      y0 + 8 + static_cast<int32_t>(rng() % 9)};
    std::vector<Point> inside;
    for (int32_t y = bounds.y0; y < bounds.y1; ++y) {
      for (int32_t x = bounds.x0; x < bounds.x1; ++x) {
        if (grid.passable({x, y})) inside.push_back({x, y});
      }
    }
    if (inside.empty()) continue;
    const Point s = inside[rng() % inside.size()];
    const Point g = inside[rng() % inside.size()];
    AStarOptions options;
    options.bounds = bounds;
    GridAStar astar(grid);
    CheckAgainstOracle(grid, astar, s, g, options, Context(seed, grid, s, g));
  }
}

// Bounds reaching past the grid's edges search the part of them on the
// grid: the same answer as those bounds clipped (this crashed the jump
// point search once, its node table addressed from a corner off the grid).
TEST(GridAStarTest, BoundsPastTheGridSearchThePartOnIt) {
  int found = 0;
  for (uint64_t seed = 0; seed < 120; ++seed) {
    const Grid grid =
        testing::RandomGrid(seed, {60, 50, 0.2, seed % 2 ? 1 : 4});
    std::mt19937_64 rng(seed + 77);
    const Rect bounds{-1 - static_cast<int32_t>(rng() % 30),
                      -1 - static_cast<int32_t>(rng() % 30),
                      61 + static_cast<int32_t>(rng() % 30),
                      51 + static_cast<int32_t>(rng() % 30)};
    for (int q = 0; q < 10; ++q) {
      const Point s = testing::RandomPassable(grid, rng);
      const Point g = testing::RandomPassable(grid, rng);
      for (const int mode : {0, 1, 2}) {  // A*, jump points, on grid bits
        AStarOptions past, clipped;
        past.jump_points = clipped.jump_points = mode > 0;
        past.bounds = bounds;
        clipped.bounds = grid.bounds();
        GridAStar a(grid), b(grid);
        if (mode == 2) a.UseGridOpenBits(GridAStar::MakeGridOpenBits(grid));
        RunLengthPath pa, pb;
        const absl::StatusOr<SearchOutcome> got = a.FindPath(s, g, past, &pa);
        const absl::StatusOr<SearchOutcome> want =
            b.FindPath(s, g, clipped, &pb);
        const std::string context = Context(seed, grid, s, g);
        ASSERT_TRUE(got.ok()) << context << got.status();
        ASSERT_TRUE(want.ok()) << context << want.status();
        ASSERT_EQ(*got, *want) << context;
        if (*want != SearchOutcome::kFound) continue;
        EXPECT_EQ(pa.cost(), pb.cost()) << context;
        EXPECT_EQ(pa.runs(), pb.runs()) << context;
        found += 1;
      }
    }
  }
  EXPECT_GT(found, 1500);
}

// JumpDistances clips the same way: bounds past the grid give the costs
// of the bounds on it.
TEST(GridAStarTest, JumpDistancesBoundsPastTheGrid) {
  int finite = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const Grid grid = testing::RandomGrid(seed, {70, 60, 0.2, 1});
    std::mt19937_64 rng(seed + 5);
    const Rect past{-1 - static_cast<int32_t>(rng() % 40),
                    -1 - static_cast<int32_t>(rng() % 40),
                    71 + static_cast<int32_t>(rng() % 40),
                    61 + static_cast<int32_t>(rng() % 40)};
    const Point source = testing::RandomPassable(grid, rng);
    std::vector<Point> targets;
    for (int i = 0; i < 12; ++i) {
      targets.push_back(testing::RandomPassable(grid, rng));
    }
    std::vector<double> got(targets.size()), want(targets.size());
    GridAStar a(grid), b(grid);
    if (seed % 2 == 1) a.UseGridOpenBits(GridAStar::MakeGridOpenBits(grid));
    ASSERT_TRUE(
        a.JumpDistances(source, targets, past, absl::MakeSpan(got)).ok());
    ASSERT_TRUE(
        b.JumpDistances(source, targets, grid.bounds(), absl::MakeSpan(want))
            .ok());
    for (size_t i = 0; i < targets.size(); ++i) {
      EXPECT_EQ(got[i], want[i]) << "seed " << seed << " target " << i;
      finite += std::isfinite(want[i]);
    }
  }
  EXPECT_GT(finite, 600);
}

// A corridor search equals the exact search on the grid with every cell
// outside the corridor blocked, and never leaves the corridor.
TEST(GridAStarTest, CorridorSearchMatchesMaskedGrid) {
  int checked = 0;
  for (uint64_t seed = 2300; seed < 2500; ++seed) {
    const Grid grid = testing::RandomGrid(seed, {32, 32, 0.2, 3});
    std::mt19937_64 rng(seed);
    RowSpans corridor;
    corridor.y0 = static_cast<int32_t>(rng() % 8);
    const int rows = 8 + static_cast<int>(rng() % 20);
    std::vector<Grid::CellCost> outside;
    // A band that drifts from row to row, like one around a path.
    int32_t lo = static_cast<int32_t>(rng() % 16);
    for (int i = 0; i < rows; ++i) {
      lo = std::clamp(lo + static_cast<int32_t>(rng() % 5) - 2, 0, 24);
      corridor.lo.push_back(lo);
      corridor.hi.push_back(lo + 3 + static_cast<int32_t>(rng() % 8));
    }
    std::vector<Point> inside;
    for (int32_t y = 0; y < grid.height(); ++y) {
      for (int32_t x = 0; x < grid.width(); ++x) {
        if (!corridor.Contains({x, y})) {
          outside.push_back({grid.Index({x, y}), kBlocked});
        } else if (grid.passable({x, y})) {
          inside.push_back({x, y});
        }
      }
    }
    if (inside.size() < 2) continue;
    const Grid masked = grid.WithCosts(outside);
    const Point s = inside[rng() % inside.size()];
    const Point g = inside[rng() % inside.size()];
    const std::string context = Context(seed, grid, s, g);
    AStarOptions options;
    options.corridor = &corridor;
    GridAStar astar(grid);
    if (!CheckAgainstMaskedOracle(grid, masked, astar, s, g, options,
                                  context)) {
      ASSERT_FALSE(HasFailure()) << context;
      continue;
    }
    ++checked;
  }
  EXPECT_GT(checked, 100);
  // Endpoints outside the corridor are refused.
  const Grid open = testing::RandomGrid(1, {16, 16, 0.0, 1});
  RowSpans row;
  row.y0 = 3;
  row.lo = {2};
  row.hi = {9};
  AStarOptions options;
  options.corridor = &row;
  GridAStar astar(open);
  RunLengthPath path;
  EXPECT_EQ(astar.FindPath({2, 3}, {9, 4}, options, &path).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<SearchOutcome> along =
      astar.FindPath({2, 3}, {9, 3}, options, &path);
  ASSERT_TRUE(along.ok());
  EXPECT_EQ(*along, SearchOutcome::kFound);
  EXPECT_EQ(RunsToString(path.runs()), "E7");
}

TEST(GridAStarTest, EdgeCases) {
  const Grid grid = *ReadMapString(
      "type octile\nheight 3\nwidth 5\nmap\n"
      "..@..\n"
      "..@..\n"
      "..@..\n");
  GridAStar astar(grid);
  RunLengthPath path;
  AStarOptions options;
  // start == goal: empty path, cost 0.
  ASSERT_EQ(*astar.FindPath({0, 0}, {0, 0}, options, &path),
            SearchOutcome::kFound);
  EXPECT_TRUE(path.empty());
  EXPECT_EQ(path.cost(), 0);
  // Different components: answered without expanding anything.
  ASSERT_EQ(*astar.FindPath({0, 0}, {4, 2}, options, &path),
            SearchOutcome::kUnreachable);
  EXPECT_EQ(astar.stats().expanded, 0);
  // Bad endpoints are errors.
  EXPECT_EQ(astar.FindPath({2, 0}, {0, 0}, options, &path).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(astar.FindPath({0, 0}, {9, 0}, options, &path).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(astar.FindPath({-1, 0}, {0, 0}, options, &path).status().code(),
            absl::StatusCode::kInvalidArgument);
  AStarOptions bad_weight;
  bad_weight.weight = 0.5;
  EXPECT_FALSE(astar.FindPath({0, 0}, {1, 1}, bad_weight, &path).ok());
  AStarOptions outside;
  outside.bounds = Rect{0, 0, 1, 1};
  EXPECT_FALSE(astar.FindPath({0, 0}, {1, 1}, outside, &path).ok());
}

TEST(GridAStarTest, ExpansionLimit) {
  const Grid grid = *Grid::Create(100, 100, std::vector<uint8_t>(10000, 1));
  GridAStar astar(grid);
  RunLengthPath path;
  AStarOptions options;
  options.max_expansions = 10;
  ASSERT_EQ(*astar.FindPath({0, 0}, {99, 99}, options, &path),
            SearchOutcome::kLimitReached);
  EXPECT_EQ(astar.stats().expanded, 10);
  options.max_expansions = 0;
  ASSERT_EQ(*astar.FindPath({0, 0}, {99, 99}, options, &path),
            SearchOutcome::kFound);
  EXPECT_EQ(RunsToString(path.runs()), "SE99");
  EXPECT_EQ(astar.stats().expanded, 100);  // ties to larger g: no spread
  EXPECT_TRUE(astar.Expanded({50, 50}));
  EXPECT_FALSE(astar.Expanded({50, 51}));
}

// A generated 300 x 200 rooms grid and 60 random queries on it (`seed`),
// for the allocation tests.
struct RoomsQueries {
  Grid grid;
  std::vector<std::pair<Point, Point>> queries;
};
RoomsQueries MakeRoomsQueries(uint64_t seed) {
  MapGenOptions gen;
  gen.kind = MapKind::kRooms;
  gen.width = 300;
  gen.height = 200;
  gen.feature = 16;
  RoomsQueries r{*GenerateMap(gen), {}};
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 60; ++i) {
    r.queries.push_back({testing::RandomPassable(r.grid, rng),
                         testing::RandomPassable(r.grid, rng)});
  }
  return r;
}

TEST(GridAStarTest, WarmSearchesDoNotAllocate) {
  const RoomsQueries rooms = MakeRoomsQueries(5);
  const Grid& grid = rooms.grid;
  const auto& queries = rooms.queries;
  GridAStar astar(grid);
  RunLengthPath path;
  AStarOptions options;
  int64_t found = 0;
  for (const auto& [s, g] : queries) {  // warm-up
    found += *astar.FindPath(s, g, options, &path) == SearchOutcome::kFound;
  }
  ASSERT_GT(found, 30);
  const int64_t before = testing::AllocationCount();
  for (int round = 0; round < 3; ++round) {
    for (const auto& [s, g] : queries) {
      ASSERT_TRUE(astar.FindPath(s, g, options, &path).ok());
    }
  }
  EXPECT_EQ(testing::AllocationCount() - before, 0);
}

// Jump point searches on the grid's own bits (UseGridOpenBits), bounded
// and not, allocate nothing once warm either.
TEST(GridAStarTest, WarmSearchesOnGridBitsDoNotAllocate) {
  const RoomsQueries rooms = MakeRoomsQueries(9);
  const Grid& grid = rooms.grid;
  const auto& queries = rooms.queries;
  GridAStar astar(grid);
  astar.UseGridOpenBits(GridAStar::MakeGridOpenBits(grid));
  RunLengthPath path;
  AStarOptions options;
  options.jump_points = true;
  const auto run_all = [&] {
    int64_t found = 0;
    for (size_t i = 0; i < queries.size(); ++i) {
      const auto& [s, g] = queries[i];
      // Every other query bounded by its endpoints' box (grown by 20).
      options.bounds.reset();
      if (i % 2 == 0) {
        options.bounds = Rect{std::min(s.x, g.x) - 20, std::min(s.y, g.y) - 20,
                              std::max(s.x, g.x) + 21, std::max(s.y, g.y) + 21};
      }
      const absl::StatusOr<SearchOutcome> outcome =
          astar.FindPath(s, g, options, &path);
      EXPECT_TRUE(outcome.ok());
      found += outcome.ok() && *outcome == SearchOutcome::kFound;
    }
    return found;
  };
  ASSERT_GT(run_all(), 30);  // warm-up
  const int64_t before = testing::AllocationCount();
  for (int round = 0; round < 3; ++round) run_all();
  EXPECT_EQ(testing::AllocationCount() - before, 0);
}

TEST(GridAStarTest, ManyQueriesNoResetCostAndStampsStayCorrect) {
  // Thousands of queries on one context: stale state from earlier searches
  // must never leak into later answers.
  const Grid grid = testing::RandomGrid(77, {40, 40, 0.3, 4});
  GridAStar astar(grid);
  std::mt19937_64 rng(77);
  for (int i = 0; i < 2000; ++i) {
    const Point s = testing::RandomPassable(grid, rng);
    const Point g = testing::RandomPassable(grid, rng);
    if (i % 50 != 0) {
      RunLengthPath path;
      ASSERT_TRUE(astar.FindPath(s, g, AStarOptions(), &path).ok());
      continue;
    }
    CheckAgainstOracle(grid, astar, s, g, AStarOptions(),
                       Context(77, grid, s, g));
  }
}

}  // namespace
}  // namespace zonepath
