// StreamSmoother (lib/runtime/smoother.h): the window plan (a short first
// window, then longer ones committing most of their moves) and the smoothed
// paths on random grids against the exact oracle: legal, from the same
// start to the same end, cost = walked cost, never longer than the path
// given, never shorter than the optimum.
#include "smoother.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dijkstra_oracle.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "row_band.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath::runtime_internal {
namespace {

constexpr double kTolerance = 1e-6;

// `grid` with every passable cell costing `cost`.
Grid Recost(const Grid& grid, uint8_t cost) {
  std::vector<uint8_t> costs;
  for (int32_t y = 0; y < grid.height(); ++y) {
    for (int32_t x = 0; x < grid.width(); ++x) {
      costs.push_back(grid.passable({x, y}) ? cost : kBlocked);
    }
  }
  return *Grid::Create(grid.width(), grid.height(), costs);
}

// The band's rows against the definition: row r's interval is the union of
// rows r - radius .. r + radius; empty rows (lo > hi) widen nothing.
TEST(SmootherTest, RowsWidenedAcrossRowsAsByDefinition) {
  std::vector<int32_t> scratch;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    std::mt19937_64 rng(seed);
    const int32_t rows = 1 + static_cast<int32_t>(rng() % 300);
    const int32_t radius = static_cast<int32_t>(rng() % 80);
    std::vector<int32_t> lo(rows), hi(rows);
    for (int32_t r = 0; r < rows; ++r) {
      if (rng() % 3 == 0) {
        lo[r] = std::numeric_limits<int32_t>::max();
        hi[r] = std::numeric_limits<int32_t>::min();
      } else {
        lo[r] = static_cast<int32_t>(rng() % 500);
        hi[r] = lo[r] + static_cast<int32_t>(rng() % 50);
      }
    }
    std::vector<int32_t> want_lo(rows), want_hi(rows);
    for (int32_t r = 0; r < rows; ++r) {
      want_lo[r] = std::numeric_limits<int32_t>::max();
      want_hi[r] = std::numeric_limits<int32_t>::min();
      for (int32_t q = std::max(0, r - radius);
           q <= std::min(rows - 1, r + radius); ++q) {
        want_lo[r] = std::min(want_lo[r], lo[q]);
        want_hi[r] = std::max(want_hi[r], hi[q]);
      }
    }
    WidenAcrossRows(radius, &lo, &hi, &scratch);
    ASSERT_EQ(lo, want_lo) << "seed " << seed << " rows " << rows << " radius "
                           << radius;
    ASSERT_EQ(hi, want_hi) << "seed " << seed << " rows " << rows << " radius "
                           << radius;
  }
}

TEST(SmootherTest, FirstWindowShortThenLongWindowsCommitTheirAdvance) {
  const Grid grid = testing::RandomGrid(1, {300, 300, 0.0, 1});  // open
  GridAStar astar(grid);
  const SmoothWindows windows{.first = 16,
                              .first_advance = 8,
                              .window = 48,
                              .advance = 36,
                              .margin = 4};
  StreamSmoother smoother(grid, Connectivity::kEight, &astar, windows);
  smoother.Reset({10, 10}, /*fewer_turns=*/true);
  // A staircase (3 east, 1 south, ...): longer than the octile way.
  int64_t added = 0;
  Point end{10, 10};
  auto add = [&](int64_t moves) {
    for (int64_t i = 0; i < moves; ++i, ++added) {
      const Direction d = added % 4 == 3 ? Direction::kS : Direction::kE;
      smoother.AddRun({d, 1});
      end = Step(end, d);
    }
  };
  RunLengthPath out;
  out.Reset({10, 10});
  SearchStats stats;
  EXPECT_EQ(smoother.window(), 16);
  add(16);
  ASSERT_TRUE(smoother.Commit(false, &out, &stats).ok());
  EXPECT_EQ(out.steps(), 0) << "a full first window waits for one more move";
  add(1);
  ASSERT_TRUE(smoother.Commit(false, &out, &stats).ok());
  EXPECT_EQ(out.steps(), 8) << "the first window commits its advance";
  EXPECT_EQ(smoother.window(), 48);
  add(48 - smoother.buffered());
  ASSERT_TRUE(smoother.Commit(false, &out, &stats).ok());
  EXPECT_EQ(out.steps(), 8);
  add(1);
  ASSERT_TRUE(smoother.Commit(false, &out, &stats).ok());
  EXPECT_EQ(out.steps(), 8 + 36) << "a later window commits its advance";
  add(100);
  ASSERT_TRUE(smoother.Commit(true, &out, &stats).ok());
  absl::StatusOr<PathWalk> walk = WalkPath(grid, out, Connectivity::kEight);
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_EQ(walk->end, end);
  EXPECT_DOUBLE_EQ(out.cost(), walk->cost);
  EXPECT_LT(out.cost(), smoother.raw_cost() - 1.0) << "the stairs got shorter";
}

TEST(SmootherTest, SmoothedPathsLegalAndBetweenOptimumAndInput) {
  int improved = 0, paths = 0;
  for (uint64_t seed = 0; seed < 250; ++seed) {
    std::mt19937_64 rng(seed * 977 + 3);
    const int side = 20 + static_cast<int>(rng() % 100);
    const bool one_cost = seed % 2 == 0;
    const Grid random = testing::RandomGrid(
        seed, {side, side, static_cast<double>(rng() % 35) / 100.0,
               one_cost ? 1 : 9});
    // Every other grid of one cost costs 4 a cell (the smoother's step
    // costs on such grids are constants derived from the cost).
    const Grid grid = one_cost && seed % 4 == 0 ? Recost(random, 4) : random;
    const Point s = testing::RandomPassable(grid, rng);
    const Point m = testing::RandomPassable(grid, rng);
    const Point t = testing::RandomPassable(grid, rng);
    if (s.x < 0) continue;
    // A legal, usually roundabout, path: s to m to t, each leg exact.
    GridAStar astar(grid);
    RunLengthPath leg1, leg2;
    leg1.Reset(s);
    leg2.Reset(m);
    absl::StatusOr<SearchOutcome> a = astar.FindPath(s, m, {}, &leg1);
    ASSERT_TRUE(a.ok()) << a.status();
    if (*a != SearchOutcome::kFound) continue;
    absl::StatusOr<SearchOutcome> b = astar.FindPath(m, t, {}, &leg2);
    ASSERT_TRUE(b.ok()) << b.status();
    if (*b != SearchOutcome::kFound) continue;
    const int32_t first = 4 + static_cast<int32_t>(rng() % 40);
    const int32_t window = 4 + static_cast<int32_t>(rng() % 120);
    const SmoothWindows windows{
        .first = first,
        .first_advance = 1 + static_cast<int32_t>(rng() % first),
        .window = window,
        .advance = 1 + static_cast<int32_t>(rng() % window),
        .margin = 1 + static_cast<int32_t>(rng() % 10)};
    StreamSmoother smoother(grid, Connectivity::kEight, &astar, windows);
    smoother.Reset(s, /*fewer_turns=*/seed % 3 != 0);
    RunLengthPath out;
    out.Reset(s);
    SearchStats stats;
    // Moves go in a run at a time, with a non-final commit now and then,
    // as the planner's cursor does.
    for (const RunLengthPath* leg : {&leg1, &leg2}) {
      for (const zonepath::Run& run : leg->runs()) {
        smoother.AddRun(run);
        if (rng() % 2 == 0) {
          ASSERT_TRUE(smoother.Commit(false, &out, &stats).ok());
        }
      }
    }
    ASSERT_TRUE(smoother.Commit(true, &out, &stats).ok());
    const std::string context =
        "seed " + std::to_string(seed) + " s " + std::to_string(s.x) + "," +
        std::to_string(s.y) + " t " + std::to_string(t.x) + "," +
        std::to_string(t.y) + "\n" + testing::GridToText(grid);
    absl::StatusOr<PathWalk> walk = WalkPath(grid, out, Connectivity::kEight);
    ASSERT_TRUE(walk.ok()) << walk.status() << " " << context;
    EXPECT_EQ(walk->end, t) << context;
    EXPECT_NEAR(out.cost(), walk->cost, 0.0) << context;
    const double raw = leg1.cost() + leg2.cost();
    EXPECT_NEAR(smoother.raw_cost(), raw, kTolerance * raw) << context;
    EXPECT_LE(out.cost(), raw + kTolerance * raw) << context;
    const std::vector<double> dist =
        testing::OracleDistances(grid, s, true, grid.bounds());
    const double best = dist[static_cast<size_t>(t.y) * grid.width() + t.x];
    EXPECT_GE(out.cost(), best - kTolerance * best) << context;
    ++paths;
    if (out.cost() < raw - kTolerance * raw) ++improved;
  }
  EXPECT_GT(paths, 150);
  EXPECT_GT(improved, paths / 4) << "smoothing shortened too few paths";
}

// A loaded world's cost counts are checked only to add up to its cells, so
// Grid::OneCost may say "one cost" of a grid that has several. Smoothing
// may then choose worse, but the path it reports must still cost what
// walking it costs (each move's cost read from its cells).
TEST(SmootherTest, ReportedCostIsWalkedCostWhenCostCountsLie) {
  const int w = 64, h = 64;
  std::vector<uint8_t> costs(w * h, 1);
  for (int y = 0; y < h; ++y) {
    for (int x = 20; x < 40; ++x) costs[y * w + x] = 5;
  }
  const Grid honest = *Grid::Create(w, h, costs);
  Grid::StoredComponents stored = honest.Components();
  stored.cost_counts[1] += stored.cost_counts[5];  // the sum stays right
  stored.cost_counts[5] = 0;
  absl::StatusOr<Grid> grid = Grid::CreateWithComponents(
      w, h, CowArray<uint8_t>::FromVector(costs), std::move(stored));
  ASSERT_TRUE(grid.ok()) << grid.status();
  ASSERT_TRUE(grid->OneCost()) << "the counts should claim one cost";
  GridAStar astar(*grid);
  StreamSmoother smoother(*grid, Connectivity::kEight, &astar, {});
  smoother.Reset({2, 2}, /*fewer_turns=*/true);
  double raw = 0;
  Point p{2, 2};
  for (int i = 0; i < 20; ++i) {
    for (const zonepath::Run run :
         {zonepath::Run{Direction::kE, 2}, zonepath::Run{Direction::kSE, 1}}) {
      for (uint32_t k = 0; k < run.count; ++k) {
        raw += StepCost(*grid, p, run.direction);
        p = Step(p, run.direction);
      }
      smoother.AddRun(run);
    }
  }
  RunLengthPath out;
  out.Reset({2, 2});
  SearchStats stats;
  ASSERT_TRUE(smoother.Commit(true, &out, &stats).ok());
  absl::StatusOr<PathWalk> walk = WalkPath(*grid, out, Connectivity::kEight);
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_EQ(walk->end, p);
  EXPECT_EQ(out.cost(), walk->cost);
  EXPECT_EQ(smoother.raw_cost(), raw) << "the cost before smoothing";
}

}  // namespace
}  // namespace zonepath::runtime_internal
