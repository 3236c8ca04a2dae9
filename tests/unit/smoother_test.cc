// StreamSmoother (lib/runtime/smoother.h): the window plan (a short first
// window, then longer ones committing most of their moves), string
// pulling's plan and passes (string_puller.h), and the smoothed paths on
// random grids against the exact oracle: legal, from the same start to the
// same end, cost = walked cost, never longer than the path given, never
// shorter than the optimum.
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
#include "string_puller.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/one_turn_path.h"

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

// A legal path from s (passable) on `grid` into *cells (s first): with
// `walk` a random walk of 200 x `length` tries of a random direction, else
// the exact ways to `length` random cells in turn (unreachable ones
// skipped).
void RandomLegalPath(const Grid& grid, Connectivity c, Point s, bool walk,
                     std::mt19937_64& rng, std::vector<Point>* cells,
                     int length = 2) {
  cells->assign(1, s);
  if (walk) {
    for (int i = 0; i < 200 * length; ++i) {
      const Direction d = static_cast<Direction>(rng() % 8);
      if (CanStep(grid, cells->back(), d, c)) {
        cells->push_back(Step(cells->back(), d));
      }
    }
    return;
  }
  GridAStar astar(grid);
  AStarOptions options;
  options.connectivity = c;
  for (int leg = 0; leg < length; ++leg) {
    const Point to = testing::RandomPassable(grid, rng);
    RunLengthPath way;
    way.Reset(cells->back());
    absl::StatusOr<SearchOutcome> found =
        astar.FindPath(cells->back(), to, options, &way);
    ASSERT_TRUE(found.ok()) << found.status();
    if (*found != SearchOutcome::kFound) continue;
    for (const zonepath::Run& run : way.runs()) {
      for (uint32_t k = 0; k < run.count; ++k) {
        cells->push_back(Step(cells->back(), run.direction));
      }
    }
  }
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
  smoother.Reset({10, 10}, /*fewer_turns=*/true, /*by_search=*/true);
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
    // Grids of one cost: string pulling, or (every third) windows; half
    // the pulls read the grid's open bits.
    const bool by_search = seed % 3 == 0;
    if (seed % 4 < 2) astar.UseGridOpenBits(GridAStar::MakeGridOpenBits(grid));
    const SmoothWindows windows{
        .pull_first = 1 + static_cast<int32_t>(rng() % 40),
        .pull_lookahead = 1 + static_cast<int32_t>(rng() % 300),
        .first = first,
        .first_advance = 1 + static_cast<int32_t>(rng() % first),
        .window = window,
        .advance = 1 + static_cast<int32_t>(rng() % window),
        .margin = 1 + static_cast<int32_t>(rng() % 10)};
    StreamSmoother smoother(grid, Connectivity::kEight, &astar, windows);
    smoother.Reset(s, /*fewer_turns=*/seed % 5 != 0, by_search);
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

// String pulling's plan: until 2 x pull_first moves are out it looks
// pull_first moves ahead, so the first commit waits for more than that;
// then pull_lookahead. Every non-final commit leaves at most the window
// buffered, so the planner's loop (refine while buffered() <= window(),
// then commit) always moves on.
TEST(SmootherTest, PullingWaitsForItsLookaheadAndAlwaysMovesOn) {
  const Grid grid = testing::RandomGrid(3, {500, 200, 0.0, 1});  // open
  GridAStar astar(grid);
  astar.UseGridOpenBits(GridAStar::MakeGridOpenBits(grid));
  const SmoothWindows windows{.pull_first = 8, .pull_lookahead = 40};
  StreamSmoother smoother(grid, Connectivity::kEight, &astar, windows);
  smoother.Reset({10, 10}, /*fewer_turns=*/true, /*by_search=*/false);
  EXPECT_EQ(smoother.window(), 8);
  RunLengthPath out;
  out.Reset({10, 10});
  SearchStats stats;
  Point end{10, 10};
  int64_t added = 0;
  // A staircase (3 east, 1 south, ...), refined a move at a time.
  for (; added < 600; ++added) {
    const Direction d = added % 4 == 3 ? Direction::kS : Direction::kE;
    smoother.AddRun({d, 1});
    end = Step(end, d);
    if (smoother.buffered() <= smoother.window()) continue;
    const int64_t before = out.steps();
    ASSERT_TRUE(smoother.Commit(false, &out, &stats).ok());
    ASSERT_LE(smoother.buffered(), smoother.window()) << "after move " << added;
    if (before == 0 && out.steps() > 0) {
      EXPECT_GE(added + 1, 9) << "the first moves waited for the lookahead";
    }
    EXPECT_EQ(smoother.window(), out.steps() < 16 ? 8 : 40);
  }
  EXPECT_GT(out.steps(), 0);
  ASSERT_TRUE(smoother.Commit(true, &out, &stats).ok());
  EXPECT_EQ(smoother.buffered(), 0);
  absl::StatusOr<PathWalk> walk = WalkPath(grid, out, Connectivity::kEight);
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_EQ(walk->end, end);
  EXPECT_DOUBLE_EQ(out.cost(), walk->cost);
  // 450 east and 150 south: 150 SE and 300 E is the octile way; pulled in
  // stretches of at most 40 moves it stays within a few moves of it.
  EXPECT_LT(out.cost(), smoother.raw_cost() - 40.0) << "the stairs got shorter";
  EXPECT_LT(out.steps(), 600 - 100);
}

// String pulling over random legal paths (the exact way from s
// to m, then on to t, and random walks), fed and pulled in random pieces
// with random lookaheads: the cells out are legal moves from the start to
// the path's end, never dearer than the moves in, the same whether read
// from the grid's open bits or its cells; on 4-connected grids too.
TEST(SmootherTest, StringPullingLegalNeverDearerSameWithOrWithoutBits) {
  int shorter = 0, paths = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::mt19937_64 rng(seed * 613 + 1);
    const int side = 10 + static_cast<int>(rng() % 150);
    const Grid grid = testing::RandomGrid(
        seed, {side, side, static_cast<double>(rng() % 35) / 100.0, 1});
    const Connectivity c =
        seed % 4 == 3 ? Connectivity::kFour : Connectivity::kEight;
    const Point s = testing::RandomPassable(grid, rng);
    if (s.x < 0) continue;
    std::vector<Point> cells;
    ASSERT_NO_FATAL_FAILURE(
        RandomLegalPath(grid, c, s, /*walk=*/seed % 2 == 0, rng, &cells));
    if (cells.size() < 3) continue;
    const std::shared_ptr<const search_internal::OpenBits> bits =
        GridAStar::MakeGridOpenBits(grid);
    const int64_t lookahead = 1 + static_cast<int64_t>(rng() % 200);
    const uint64_t pieces_seed = rng();
    std::vector<Point> outs[2];
    for (int with_bits = 0; with_bits < 2; ++with_bits) {
      std::mt19937_64 pieces(pieces_seed);
      StringPuller puller(grid, c);
      puller.Reset(s, with_bits ? bits.get() : nullptr,
                   /*fewer_turns=*/seed % 3 != 0);
      std::vector<zonepath::Run> runs;
      for (size_t i = 1; i < cells.size(); ++i) {
        puller.AddRun({*DirectionFromDelta(cells[i].x - cells[i - 1].x,
                                           cells[i].y - cells[i - 1].y),
                       1});
        if (pieces() % 7 == 0) {
          puller.Pull(lookahead, false, &runs);
          EXPECT_LE(puller.pending(), lookahead);
        }
      }
      puller.Pull(lookahead, true, &runs);
      EXPECT_EQ(puller.pending(), 0);
      std::vector<Point>& out = outs[with_bits];
      out.push_back(s);
      for (size_t r = 0; r < runs.size(); ++r) {
        EXPECT_TRUE(r == 0 || runs[r].direction != runs[r - 1].direction);
        for (uint32_t k = 0; k < runs[r].count; ++k) {
          out.push_back(Step(out.back(), runs[r].direction));
        }
      }
    }
    const std::string context = "seed " + std::to_string(seed) + " lookahead " +
                                std::to_string(lookahead) + "\nmap:\n" +
                                testing::GridToText(grid);
    ASSERT_EQ(outs[0], outs[1]) << context;
    const std::vector<Point>& out = outs[0];
    ASSERT_EQ(out.back(), cells.back()) << context;
    const auto cost_of = [&](const std::vector<Point>& path) {
      double cost = 0;
      for (size_t i = 1; i < path.size(); ++i) {
        const std::optional<Direction> d = DirectionFromDelta(
            path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
        EXPECT_TRUE(d.has_value() && CanStep(grid, path[i - 1], *d, c))
            << context << " move " << i;
        if (!d.has_value()) return cost;
        cost += StepCost(grid, path[i - 1], *d);
      }
      return cost;
    };
    const double in = cost_of(cells), pulled = cost_of(out);
    EXPECT_LE(pulled, in + 1e-9) << context;
    ++paths;
    if (pulled < in - 1e-9) ++shorter;
  }
  EXPECT_GT(paths, 250);
  EXPECT_GT(shorter, paths / 2);
}

// String pulling on weighted grids: a way is taken only where it costs no
// more than the moves it replaces. Random legal paths (random walks, and
// exact legs s to m to t, which cross cheap ground on purpose; every 12th
// long, 3 000 tries or 15 legs on 300 x 300 cells, so that pulled cells
// are dropped while more come in) over random costs 1..9 and over regions of
// two costs, 8- and 4-connected, fed and pulled in random pieces: the moves out
// are legal, end where the path ends, and cost no more than the moves in (to
// 1e-12 relative a stretch; cost() is the walked sum, in order, after every
// move and every pull); and the check mattered: on most of these paths a legal
// way of one turn between two of their cells costs more than the path between
// them.
TEST(SmootherTest, WeightedStringPullingNeverDearer) {
  int shorter = 0, paths = 0, kept_dearer_ways_out = 0, long_paths = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::mt19937_64 rng(seed * 389 + 5);
    const bool long_path = seed % 12 == 5;
    const int side = long_path ? 300 : 10 + static_cast<int>(rng() % 120);
    Grid grid = testing::RandomGrid(
        seed, {side, side, static_cast<double>(rng() % 25) / 100.0, 9});
    if (seed % 2 == 1) {
      // Regions: a cheap left half and a dear right half, or stripes.
      std::vector<uint8_t> costs;
      for (int32_t y = 0; y < side; ++y) {
        for (int32_t x = 0; x < side; ++x) {
          const bool dear = seed % 4 == 1 ? x >= side / 2 : (y / 7) % 2 == 0;
          costs.push_back(grid.passable({x, y}) ? (dear ? 7 : 2) : kBlocked);
        }
      }
      grid = *Grid::Create(side, side, costs);
    }
    if (grid.OneCost()) continue;
    const Connectivity c =
        seed % 4 == 3 ? Connectivity::kFour : Connectivity::kEight;
    const Point s = testing::RandomPassable(grid, rng);
    if (s.x < 0) continue;
    std::vector<Point> cells;
    ASSERT_NO_FATAL_FAILURE(RandomLegalPath(grid, c, s, /*walk=*/seed % 3 == 0,
                                            rng, &cells, long_path ? 15 : 2));
    if (cells.size() < 3) continue;
    const int64_t lookahead =
        1 + static_cast<int64_t>(rng() % (long_path ? 400 : 200));
    // Pulled cells are dropped past 1024 while more come in.
    if (cells.size() > 1600) ++long_paths;
    StringPuller puller(grid, c);
    puller.Reset(s, nullptr, /*fewer_turns=*/seed % 5 != 0);
    std::vector<zonepath::Run> runs;
    double in = 0;
    for (size_t i = 1; i < cells.size(); ++i) {
      const Direction d = *DirectionFromDelta(cells[i].x - cells[i - 1].x,
                                              cells[i].y - cells[i - 1].y);
      in += StepCost(grid, cells[i - 1], d);
      puller.AddRun({d, 1});
      ASSERT_EQ(puller.cost(), in) << "seed " << seed;
      if (rng() % 7 == 0) {
        puller.Pull(lookahead, false, &runs);
        ASSERT_EQ(puller.cost(), in) << "seed " << seed;
      }
    }
    puller.Pull(lookahead, true, &runs);
    ASSERT_EQ(puller.pending(), 0);
    const std::string context = "seed " + std::to_string(seed) + " lookahead " +
                                std::to_string(lookahead) + "\nmap:\n" +
                                testing::GridToText(grid);
    Point p = s;
    double out = 0;
    for (const zonepath::Run& run : runs) {
      for (uint32_t k = 0; k < run.count; ++k) {
        ASSERT_TRUE(CanStep(grid, p, run.direction, c))
            << context << " at " << PointString(p);
        out += StepCost(grid, p, run.direction);
        p = Step(p, run.direction);
      }
    }
    ASSERT_EQ(p, cells.back()) << context;
    EXPECT_LE(out, in + 1e-12 * (in + static_cast<double>(cells.size())))
        << context;
    // A way of one turn between two cells of the path that is dearer than
    // the path between them exists on most of these grids: the check is
    // what keeps it out.
    for (size_t a = 0; a + 2 < cells.size() && a < 40; ++a) {
      const size_t b = std::min(cells.size() - 1, a + 30);
      double between = 0;
      for (size_t i = a + 1; i <= b; ++i) {
        between += StepCost(grid, cells[i - 1],
                            *DirectionFromDelta(cells[i].x - cells[i - 1].x,
                                                cells[i].y - cells[i - 1].y));
      }
      const std::optional<OneTurnWay> any = FindOneTurnWay(
          grid, c, cells[a], cells[b], std::numeric_limits<double>::infinity());
      if (any.has_value() && any->cost > between * (1 + 1e-9)) {
        ++kept_dearer_ways_out;
        break;
      }
    }
    ++paths;
    if (out < in - 1e-9 * in) ++shorter;
  }
  EXPECT_GT(paths, 250);
  EXPECT_GT(long_paths, 15);
  EXPECT_GT(shorter, paths / 2);
  EXPECT_GT(kept_dearer_ways_out, paths / 5);
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
  smoother.Reset({2, 2}, /*fewer_turns=*/true, /*by_search=*/false);
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
