// ZoneDijkstra (bucket queue) against the independent oracle Dijkstra:
// every distance in the rectangle, early stops at targets, and the paths it
// appends, on random grids with unit, weighted and extreme (1 beside 255)
// costs, 8- and 4-connected; and its A* to one target (RunLoadedTo) against
// the same oracle.
#include "zonepath/search/zone_dijkstra.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "dijkstra_oracle.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/path.h"

namespace zonepath {
namespace {

using testing::GridToText;
using testing::OracleDistances;
using testing::RandomGrid;
using testing::RandomPassable;

// Costs drawn from {lo, hi} or lo..hi, so that the bucket width (the
// cheapest cell) is sometimes far below the dearest step.
Grid ExtremeGrid(uint64_t seed, int side, uint8_t lo, uint8_t hi,
                 double blocked) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> costs(static_cast<size_t>(side) * side);
  for (uint8_t& c : costs) {
    const double u = static_cast<double>(rng() % 1000) / 1000.0;
    if (u < blocked) {
      c = 0;
    } else if (rng() % 2 == 0) {
      c = (rng() % 2 == 0) ? lo : hi;
    } else {
      c = static_cast<uint8_t>(lo + rng() % (hi - lo + 1));
    }
  }
  return *Grid::Create(side, side, std::move(costs));
}

// True if every cell the path visits lies in `rect` (legality and cost come
// from WalkPath).
bool StaysInside(const RunLengthPath& path, const Rect& rect) {
  Point p = path.start();
  for (const Run& run : path.runs()) {
    for (uint32_t i = 0; i < run.count; ++i) {
      p = Step(p, run.direction);
      if (!rect.Contains(p)) return false;
    }
  }
  return true;
}

void CheckAgainstOracle(const Grid& grid, uint64_t seed, int rounds) {
  std::mt19937_64 rng(seed);
  ZoneDijkstra dijkstra(64);
  RunLengthPath path;
  for (int round = 0; round < rounds; ++round) {
    const int32_t w = 1 + static_cast<int32_t>(rng() % 64);
    const int32_t h = 1 + static_cast<int32_t>(rng() % 64);
    const int32_t x0 = static_cast<int32_t>(rng() % (grid.width() - w + 1));
    const int32_t y0 = static_cast<int32_t>(rng() % (grid.height() - h + 1));
    const Rect rect{x0, y0, x0 + w, y0 + h};
    const Connectivity connectivity =
        rng() % 3 == 0 ? Connectivity::kFour : Connectivity::kEight;
    // A passable source inside the rectangle, if there is one.
    Point source{-1, -1};
    for (int tries = 0; tries < 200 && source.x < 0; ++tries) {
      const Point p{x0 + static_cast<int32_t>(rng() % w),
                    y0 + static_cast<int32_t>(rng() % h)};
      if (grid.passable(p)) source = p;
    }
    if (source.x < 0) continue;
    // Half the rounds stop at a few targets; the rest settle the rectangle.
    std::vector<Point> targets;
    if (rng() % 2 == 0) {
      for (int i = 0; i < 4; ++i) {
        targets.push_back({x0 + static_cast<int32_t>(rng() % w),
                           y0 + static_cast<int32_t>(rng() % h)});
      }
    }
    dijkstra.Run(grid, source, rect, connectivity, targets);
    const std::vector<double> oracle = OracleDistances(
        grid, source, connectivity == Connectivity::kEight, rect);
    auto expect_cell = [&](Point p) {
      const double want = oracle[static_cast<size_t>(p.y) * grid.width() + p.x];
      const double got = dijkstra.Distance(p);
      const std::string where =
          "seed " + std::to_string(seed) + " round " + std::to_string(round) +
          " source " + PointString(source) + " cell " + PointString(p) +
          " rect " + std::to_string(x0) + "," + std::to_string(y0) + " " +
          std::to_string(w) + "x" + std::to_string(h) + "\n" + GridToText(grid);
      if (!std::isfinite(want)) {
        ASSERT_FALSE(std::isfinite(got)) << where;
        return;
      }
      ASSERT_NEAR(got, want, 1e-9 * std::max(1.0, want)) << where;
      path.Reset(source);
      dijkstra.AppendPath(p, &path);
      const absl::StatusOr<PathWalk> walk = WalkPath(grid, path, connectivity);
      ASSERT_TRUE(walk.ok()) << walk.status() << "\n" << where;
      ASSERT_TRUE(StaysInside(path, rect)) << where;
      ASSERT_EQ(walk->end, p) << where;
      ASSERT_NEAR(walk->cost, want, 1e-9 * std::max(1.0, want)) << where;
      ASSERT_NEAR(path.cost(), walk->cost, 1e-9 * std::max(1.0, want)) << where;
    };
    if (targets.empty()) {
      for (int32_t y = rect.y0; y < rect.y1; ++y) {
        for (int32_t x = rect.x0; x < rect.x1; ++x) {
          if (grid.passable({x, y})) expect_cell({x, y});
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    } else {
      for (Point t : targets) {
        if (grid.passable(t)) expect_cell(t);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(ZoneDijkstraTest, MatchesOracleOnRandomGrids) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Grid grid =
        RandomGrid(seed, {64 + static_cast<int>(seed % 32),
                          64 + static_cast<int>(seed % 7),
                          static_cast<double>(seed % 40) / 100.0,
                          seed % 3 == 0 ? 1 : static_cast<int>(1 + seed % 20)});
    CheckAgainstOracle(grid, seed, 6);
    if (HasFatalFailure()) return;
  }
}

TEST(ZoneDijkstraTest, MatchesOracleWhenBucketsAreNarrowAndStepsWide) {
  // Cheapest cell 1 beside 255 (a step spans ~361 buckets), and a grid
  // whose cheapest cell is 200 (wide buckets, few of them per step).
  const struct {
    uint8_t lo, hi;
  } ranges[] = {{1, 255}, {200, 255}, {7, 9}, {254, 255}};
  uint64_t seed = 1000;
  for (const auto& range : ranges) {
    for (int i = 0; i < 8; ++i, ++seed) {
      const Grid grid = ExtremeGrid(seed, 80, range.lo, range.hi,
                                    static_cast<double>(i % 4) / 10.0);
      CheckAgainstOracle(grid, seed, 6);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(ZoneDijkstraTest, LoadedRectangleServesManySearches) {
  const Grid grid = ExtremeGrid(77, 48, 1, 30, 0.2);
  const Rect rect{0, 0, 48, 48};
  ZoneDijkstra dijkstra(48);
  dijkstra.LoadRect(grid, rect);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20; ++i) {
    const Point source = RandomPassable(grid, rng);
    dijkstra.RunLoaded(source, Connectivity::kEight);
    const std::vector<double> oracle =
        OracleDistances(grid, source, /*eight_connected=*/true, rect);
    for (int32_t y = 0; y < 48; ++y) {
      for (int32_t x = 0; x < 48; ++x) {
        const double want = oracle[static_cast<size_t>(y) * 48 + x];
        if (!std::isfinite(want)) {
          ASSERT_FALSE(std::isfinite(dijkstra.Distance({x, y})));
        } else {
          ASSERT_NEAR(dijkstra.Distance({x, y}), want, 1e-9 * want)
              << "source " << PointString(source) << " cell " << x << "," << y;
        }
      }
    }
  }
}

// With a corridor (one x interval per row, some rows empty, intervals
// that may reach past the rectangle, and the last rows missing), distances
// are the oracle's on the grid with every cell outside the corridor
// blocked; paths stay in the corridor, are legal and cost their distance;
// with prefer_straight they cost the same and have fewer runs overall. One
// ZoneDijkstra serves every rectangle, as the smoother's does.
TEST(ZoneDijkstraTest, CorridorBlocksOutsideAndStraightPathsKeepTheirCost) {
  int64_t runs_plain = 0, runs_straight = 0;
  ZoneDijkstra dijkstra(40);
  for (uint64_t seed = 0; seed < 150; ++seed) {
    std::mt19937_64 rng(seed);
    const int side = 8 + static_cast<int>(rng() % 33);
    const Grid grid = seed % 2 == 0 ? RandomGrid(seed, {side, side, 0.1, 1})
                                    : ExtremeGrid(seed, side, 1, 9, 0.1);
    const Rect rect{1, 1, side - 1, side};
    RowSpans corridor;
    corridor.y0 = 2;
    const int32_t last_row = side - 1 - static_cast<int32_t>(rng() % 3);
    std::vector<Grid::CellCost> outside;
    // Cells outside the rectangle are masked too (the source is drawn
    // from the masked grid's open cells).
    for (int32_t y = 0; y < side; ++y) {
      const int32_t a = rect.x0 - 2 + static_cast<int32_t>(rng() % 8);
      const int32_t b = rect.x1 + 1 - static_cast<int32_t>(rng() % 8);
      const bool listed = y >= corridor.y0 && y <= last_row;
      const bool row_in = listed && rng() % 13 != 0;
      if (listed) {
        corridor.lo.push_back(row_in ? a : 1);
        corridor.hi.push_back(row_in ? b : 0);  // lo > hi: empty
      }
      for (int32_t x = 0; x < side; ++x) {
        if (!rect.Contains({x, y}) || !row_in || x < a || x > b) {
          outside.push_back({grid.Index({x, y}), 0});
        }
      }
    }
    const Grid masked = grid.WithCosts(outside);
    if (masked.passable_count() == 0) continue;
    const Point source = RandomPassable(masked, rng);
    const std::vector<double> oracle =
        OracleDistances(masked, source, /*eight_connected=*/true, rect);
    dijkstra.LoadRect(grid, rect, &corridor);
    dijkstra.RunLoaded(source, Connectivity::kEight);
    const std::string context = "seed " + std::to_string(seed) + " source " +
                                PointString(source) + "\nmap:\n" +
                                GridToText(masked);
    for (int32_t y = rect.y0; y < rect.y1; ++y) {
      for (int32_t x = rect.x0; x < rect.x1; ++x) {
        const double want = oracle[static_cast<size_t>(y) * side + x];
        if (!std::isfinite(want)) {
          ASSERT_FALSE(std::isfinite(dijkstra.Distance({x, y}))) << context;
          continue;
        }
        ASSERT_NEAR(dijkstra.Distance({x, y}), want, 1e-9 * (1 + want))
            << context << " cell " << x << "," << y;
        RunLengthPath plain, straight;
        plain.Reset(source);
        straight.Reset(source);
        dijkstra.AppendPath({x, y}, &plain);
        dijkstra.AppendPath({x, y}, &straight, /*prefer_straight=*/true);
        for (const RunLengthPath* path : {&plain, &straight}) {
          absl::StatusOr<PathWalk> walk =
              WalkPath(masked, *path, Connectivity::kEight);
          ASSERT_TRUE(walk.ok()) << context << walk.status();
          EXPECT_EQ(walk->end, (Point{x, y})) << context;
          EXPECT_NEAR(walk->cost, want, 1e-9 * (1 + want)) << context;
          EXPECT_TRUE(StaysInside(*path, rect)) << context;
        }
        runs_plain += static_cast<int64_t>(plain.runs().size());
        runs_straight += static_cast<int64_t>(straight.runs().size());
      }
    }
  }
  // Measured: 10 % fewer runs over these paths (220,584 against 245,292).
  EXPECT_LT(runs_straight * 20, runs_plain * 19)
      << runs_straight << " against " << runs_plain;
}

// RunLoadedTo (A* in buckets of f, cells settled again when reached more
// cheaply) finds the oracle's least cost to its target, and a legal path
// inside the rectangle that costs it, on random, weighted and extreme grids,
// 8- and 4-connected, with and without a corridor; 0 and the empty way to
// the source itself; +inf for a target that is blocked (by the corridor
// too), cut off or outside the rectangle, and from a blocked source; +inf
// when bounded by the least cost itself, the least just above it. Over all
// these searches it settles fewer cells than RunLoaded stopping at the same
// target.
TEST(ZoneDijkstraTest, RunLoadedToFindsTheLeastCostToItsTarget) {
  ZoneDijkstra to(64), plain(64);
  int64_t settled_to = 0, settled_plain = 0, found = 0, cut_off = 0,
          from_blocked = 0, bounded = 0, wider = 0, higher = 0;
  for (uint64_t seed = 1; seed <= 80; ++seed) {
    std::mt19937_64 rng(seed);
    const int side = 8 + static_cast<int>(rng() % 57);
    const Grid grid =
        seed % 4 == 0 ? ExtremeGrid(seed, side, 1, 255, 0.15)
        : seed % 4 == 1
            ? RandomGrid(
                  seed, {side, side, static_cast<double>(seed % 30) / 100.0, 1})
            : ExtremeGrid(seed, side, static_cast<uint8_t>(1 + seed % 3),
                          static_cast<uint8_t>(4 + seed % 6),
                          static_cast<double>(seed % 25) / 100.0);
    const Connectivity connectivity =
        seed % 3 == 0 ? Connectivity::kFour : Connectivity::kEight;
    // Every fifth grid searched in a smaller rect off the origin, mostly
    // wider than it is high, and on every tenth transposed, higher than
    // wide (the A*'s bounds are per row and column of the rect).
    Rect rect{0, 0, side, side};
    if (seed % 5 == 0 && side >= 12) {
      const int32_t a = 1 + static_cast<int32_t>(seed % 3), b = 2,
                    c = side - static_cast<int32_t>(seed % 2),
                    d = side - 1 - static_cast<int32_t>(seed % 4);
      rect = seed % 10 == 0 ? Rect{b, a, d, c} : Rect{a, b, c, d};
    }
    wider += rect.width() > rect.height() ? 1 : 0;
    higher += rect.height() > rect.width() ? 1 : 0;
    // Every other grid in a corridor: rows cut to a random interval.
    RowSpans corridor;
    std::vector<Grid::CellCost> outside;
    const bool with_corridor = seed % 2 == 0;
    if (with_corridor) {
      corridor.y0 = 0;
      for (int32_t y = 0; y < side; ++y) {
        const int32_t a = static_cast<int32_t>(rng() % (side / 2 + 1));
        const int32_t b = side / 2 + static_cast<int32_t>(rng() % (side / 2));
        corridor.lo.push_back(a);
        corridor.hi.push_back(b);
        for (int32_t x = 0; x < side; ++x) {
          if (x < a || x > b) outside.push_back({grid.Index({x, y}), 0});
        }
      }
    }
    const Grid masked = grid.WithCosts(outside);
    if (masked.passable_count() == 0) continue;
    to.LoadRect(grid, rect, with_corridor ? &corridor : nullptr);
    plain.LoadRect(grid, rect, with_corridor ? &corridor : nullptr);
    for (int q = 0; q < 8; ++q) {
      Point source = RandomPassable(masked, rng);
      for (int tries = 0; !rect.Contains(source) && tries < 100; ++tries) {
        source = RandomPassable(masked, rng);
      }
      if (!rect.Contains(source)) continue;
      // Mostly open targets; some blocked or outside the rectangle.
      Point target{static_cast<int32_t>(rng() % side),
                   static_cast<int32_t>(rng() % side)};
      if (q == 6) target = source;  // the empty way, cost 0
      if (q == 7) target = {side + 2, 0};
      // From a blocked cell (never asked by the planner, whose cells are
      // checked on load) there is no way: +inf, not a way out of a wall.
      if (q == 5) {
        for (int32_t i = 0; i < side * side; ++i) {
          const Point p{i % side, i / side};
          if (rect.Contains(p) && !masked.PassableOrFalse(p)) {
            to.RunLoadedTo(p, source, connectivity);
            ASSERT_FALSE(std::isfinite(to.Distance(source)))
                << "from blocked " << PointString(p) << " seed " << seed;
            ++from_blocked;
            break;
          }
        }
      }
      const std::vector<double> oracle = OracleDistances(
          masked, source, connectivity == Connectivity::kEight, rect);
      const std::string context =
          "seed " + std::to_string(seed) + " source " + PointString(source) +
          " target " + PointString(target) + " rect " +
          PointString({rect.x0, rect.y0}) + "-" +
          PointString({rect.x1, rect.y1}) + " connectivity " +
          (connectivity == Connectivity::kEight ? "8" : "4") + "\nmap:\n" +
          GridToText(masked);
      to.RunLoadedTo(source, target, connectivity);
      const double got = to.Distance(target);
      const double want =
          rect.Contains(target)
              ? oracle[static_cast<size_t>(target.y) * side + target.x]
              : std::numeric_limits<double>::infinity();
      if (!std::isfinite(want)) {
        ASSERT_FALSE(std::isfinite(got)) << context;
        ++cut_off;
        continue;
      }
      ASSERT_NEAR(got, want, 1e-9 * (1 + want)) << context;
      for (const bool straight : {false, true}) {
        RunLengthPath path;
        path.Reset(source);
        to.AppendPath(target, &path, straight);
        const absl::StatusOr<PathWalk> walk =
            WalkPath(masked, path, connectivity);
        ASSERT_TRUE(walk.ok()) << context << walk.status();
        ASSERT_EQ(walk->end, target) << context;
        ASSERT_NEAR(walk->cost, want, 1e-9 * (1 + want)) << context;
        ASSERT_NEAR(path.cost(), walk->cost, 1e-9 * (1 + want)) << context;
        ASSERT_TRUE(StaysInside(path, rect)) << context;
      }
      const int64_t settled = to.stats().expanded;
      // Bounded by a known way's cost: none cheaper than the least is found
      // (+inf), and just above the least, the least.
      if (target != source) {
        to.RunLoadedTo(source, target, connectivity, want);
        ASSERT_FALSE(std::isfinite(to.Distance(target))) << context;
        to.RunLoadedTo(source, target, connectivity, want * (1 + 1e-6));
        ASSERT_NEAR(to.Distance(target), want, 1e-9 * (1 + want)) << context;
        ++bounded;
      }
      plain.RunLoaded(source, connectivity, absl::MakeConstSpan(&target, 1));
      settled_to += settled;
      settled_plain += plain.stats().expanded;
      ++found;
    }
  }
  EXPECT_GT(found, 300);
  EXPECT_GT(cut_off, 40);
  EXPECT_GT(from_blocked, 20);
  EXPECT_GT(bounded, 250);
  EXPECT_GT(wider, 3);
  EXPECT_GT(higher, 3);
  EXPECT_LT(settled_to, settled_plain)
      << settled_to << " against " << settled_plain;
}

// Ground of cost 2 with a stretch of road (cost 1) in a corner, in rows and
// columns the way asked need not cross (as where a road crosses the
// smoother's band away from the window's ends). The A*'s bound, from the
// cheapest cell of each row and column crossed, stays that of the ground
// here. Measured, 8- / 4-connected: 855 / 106 cells settled; with the
// rect's cheapest cost (1) times the octile distance 3899 / 4028, nearly
// the Dijkstra's 4066 / 4065.
TEST(ZoneDijkstraTest, RunLoadedToIsNotMisledByARoadItNeedNotCross) {
  constexpr int kSide = 64;
  std::vector<uint8_t> costs(kSide * kSide, 2);
  for (int y = 61; y < kSide; ++y) {
    for (int x = 0; x < 6; ++x) costs[static_cast<size_t>(y) * kSide + x] = 1;
  }
  // A blob of forest (cost 4) in the way, which the least way skirts.
  for (int y = 20; y < 36; ++y) {
    for (int x = 30; x < 46; ++x) costs[static_cast<size_t>(y) * kSide + x] = 4;
  }
  const Grid grid = *Grid::Create(kSide, kSide, std::move(costs));
  const Rect rect{0, 0, kSide, kSide};
  for (const Connectivity connectivity :
       {Connectivity::kEight, Connectivity::kFour}) {
    const Point source{10, 60}, target{60, 4};
    ZoneDijkstra to(kSide), plain(kSide);
    to.LoadRect(grid, rect);
    to.RunLoadedTo(source, target, connectivity);
    plain.LoadRect(grid, rect);
    plain.RunLoaded(source, connectivity, absl::MakeConstSpan(&target, 1));
    const std::vector<double> oracle = OracleDistances(
        grid, source, connectivity == Connectivity::kEight, rect);
    const double want =
        oracle[static_cast<size_t>(target.y) * kSide + target.x];
    ASSERT_NEAR(to.Distance(target), want, 1e-9 * (1 + want));
    // The way is 56 steps (8-connected) or 106 (4-connected).
    EXPECT_LT(to.stats().expanded, 1200)
        << "against the Dijkstra's " << plain.stats().expanded;
    EXPECT_GT(plain.stats().expanded, 2000);
  }
}

}  // namespace
}  // namespace zonepath
