// The runtime planner against the exact oracle on random and generated
// worlds: every path legal, ending at the goal, with reported cost equal to
// its walked cost and never below the optimum; unreachable exactly when the
// oracle says so; on-demand refinement giving the same moves as full
// refinement; no allocation after warm-up.
#include "zonepath/runtime/planner.h"

#include <cmath>
#include <random>

#include "alloc_counter.h"
#include "dijkstra_oracle.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"

namespace zonepath {
namespace {

using testing::GridToText;
using testing::OracleDistances;

World Build(const Grid& grid, int zone, int levels, bool cache,
            Connectivity connectivity = Connectivity::kEight) {
  BuildOptions o;
  o.params.zone_size = zone;
  o.params.levels = levels;
  o.params.group = 2;
  o.params.cache_paths = cache;
  o.params.connectivity = connectivity;
  o.threads = 1;
  return *BuildWorld(grid, o);
}

// A generated width x height world of `kind` (feature 0: the kind's default).
Grid Generated(MapKind kind, int width, int height, uint64_t seed,
               int feature = 0) {
  MapGenOptions g;
  g.kind = kind;
  g.width = width;
  g.height = height;
  g.seed = seed;
  g.feature = feature;
  return *GenerateMap(g);
}

// Returns the path's cost over the optimum (1 if unreachable).
double CheckQuery(const World& world, Planner& planner, Point s, Point t,
                  const PlanOptions& options, const std::string& context);

void CheckQueryImpl(const World& world, Planner& planner, Point s, Point t,
                    const PlanOptions& options, const std::string& context,
                    double* ratio) {
  const Grid& grid = world.grid();
  const Connectivity c = world.params().connectivity;
  const std::vector<double> dist =
      OracleDistances(grid, s, c == Connectivity::kEight, grid.bounds());
  const double optimal = dist[grid.Index(t).value()];
  RunLengthPath path;
  absl::StatusOr<SearchOutcome> outcome =
      planner.FindPath(s, t, options, &path);
  ASSERT_TRUE(outcome.ok()) << context << outcome.status();
  if (std::isinf(optimal)) {
    ASSERT_EQ(*outcome, SearchOutcome::kUnreachable) << context;
    ASSERT_EQ(planner.stats().abstract.expanded, 0) << context;
    return;
  }
  ASSERT_EQ(*outcome, SearchOutcome::kFound) << context;
  absl::StatusOr<PathWalk> walk = WalkPath(grid, path, c);
  ASSERT_TRUE(walk.ok()) << context << walk.status();
  ASSERT_EQ(walk->end, t) << context;
  ASSERT_EQ(walk->cost, path.cost()) << context << " reported vs walked";
  ASSERT_EQ(walk->steps, path.steps()) << context;
  ASSERT_GE(path.cost(), optimal - 1e-9 * std::max(1.0, optimal)) << context;
  if (options.smooth) {
    ASSERT_LE(path.cost(), planner.stats().cost_before_smoothing + 1e-9)
        << context;
  }
  *ratio = optimal > 0 ? path.cost() / optimal : 1.0;
}

double CheckQuery(const World& world, Planner& planner, Point s, Point t,
                  const PlanOptions& options, const std::string& context) {
  double ratio = 1.0;
  CheckQueryImpl(world, planner, s, t, options, context, &ratio);
  return ratio;
}

TEST(PlannerTest, LegalAndNeverBelowOptimalOnRandomWorlds) {
  for (uint64_t seed = 0; seed < 250; ++seed) {
    std::mt19937_64 rng(seed);
    const Grid grid = testing::RandomGrid(
        seed,
        {6 + static_cast<int>(rng() % 70), 6 + static_cast<int>(rng() % 70),
         static_cast<double>(rng() % 40) / 100.0,
         seed % 3 == 0 ? 1 + static_cast<int>(rng() % 5) : 1});
    if (grid.passable_count() == 0) continue;
    const Connectivity c =
        seed % 7 == 6 ? Connectivity::kFour : Connectivity::kEight;
    const World world =
        Build(grid, 4 + static_cast<int>(rng() % 8),
              1 + static_cast<int>(rng() % 3), seed % 2 == 0, c);
    Planner planner(world);
    for (int q = 0; q < 6; ++q) {
      const Point s = testing::RandomPassable(grid, rng);
      const Point t = testing::RandomPassable(grid, rng);
      PlanOptions options;
      options.smooth = q % 2 == 1;
      options.fewer_turns = q % 3 == 2;
      // Free crossings (windows of up to 8 zones on grids of one cost),
      // alone and with smoothing and fewer turns.
      options.free_crossings = q % 5 == 0;
      CheckQuery(world, planner, s, t, options,
                 "seed " + std::to_string(seed) + " " + PointString(s) + "->" +
                     PointString(t) + "\nmap:\n" + GridToText(grid));
      if (HasFatalFailure()) return;
    }
  }
}

TEST(PlannerTest, LongQueriesAcrossManyZonesOnGeneratedWorlds) {
  for (MapKind kind :
       {MapKind::kRooms, MapKind::kMaze, MapKind::kRandom, MapKind::kTerrain}) {
    const Grid grid =
        Generated(kind, 160, 120, 8, kind == MapKind::kMaze ? 3 : 12);
    const World world = Build(grid, 8, 3, kind == MapKind::kRooms);
    Planner planner(world);
    std::mt19937_64 rng(8);
    double smoothed_ratio_sum = 0;
    int smoothed = 0;
    for (int q = 0; q < 40; ++q) {
      Point s = testing::RandomPassable(grid, rng);
      Point t = testing::RandomPassable(grid, rng);
      PlanOptions options;
      options.smooth = q % 2 == 0;
      const double ratio = CheckQuery(world, planner, s, t, options,
                                      std::string(MapKindName(kind)));
      if (HasFatalFailure()) return;
      if (options.smooth) {
        smoothed_ratio_sum += ratio;
        ++smoothed;
      }
    }
    // Quality regression guard (e.g. roads crossing zone borders without
    // beacons once cost weighted terrain 50%): smoothed paths stay within a
    // few percent of optimal on average.
    EXPECT_LE(smoothed_ratio_sum / smoothed, 1.03) << MapKindName(kind);
  }
}

// Free crossings on a grid of one cost re-choose every level-1 crossing by a
// search over up to 8 zones of the path: legal paths at their walked cost,
// never below the optimum, and on average far nearer to it than the abstract
// path refined edge by edge.
TEST(PlannerTest, WideFreeCrossingsComeNearTheOptimum) {
  // (Not mazes of width 1: one way through, nothing to re-choose.)
  for (MapKind kind : {MapKind::kRooms, MapKind::kRandom}) {
    const Grid grid = Generated(kind, 256, 192, 21);
    ASSERT_TRUE(grid.OneCost()) << MapKindName(kind);
    const World world = Build(grid, 16, 2, false);
    Planner planner(world);
    std::mt19937_64 rng(21);
    double excess_edges = 0, excess_free = 0;
    int long_queries = 0;
    for (int q = 0; q < 30; ++q) {
      const Point s = testing::RandomPassable(grid, rng);
      const Point t = testing::RandomPassable(grid, rng);
      if (!grid.SameComponent(s, t)) continue;
      const std::string context = std::string(MapKindName(kind)) + " " +
                                  PointString(s) + "->" + PointString(t);
      PlanOptions options;
      const double edges = CheckQuery(world, planner, s, t, options, context);
      if (HasFatalFailure()) return;
      if (planner.stats().used_direct) continue;
      options.free_crossings = true;
      const double free = CheckQuery(world, planner, s, t, options, context);
      if (HasFatalFailure()) return;
      excess_edges += edges - 1;
      excess_free += free - 1;
      ++long_queries;
    }
    ASSERT_GE(long_queries, 10) << MapKindName(kind);
    // Measured: 1 % (rooms) and 8 % (random) of the edge-by-edge excess;
    // windows of two zones left 26 % and 25 %.
    EXPECT_LT(excess_free, 0.15 * excess_edges)
        << MapKindName(kind) << ": mean excess " << excess_free / long_queries
        << " with free crossings, " << excess_edges / long_queries
        << " without";
  }
}

// Free crossings also search the windows of the levels above over three
// zones of the path (kUpperWindowZones), so on deep worlds the route's
// zones are chosen looking one zone further ahead. Small zones under four
// levels make the upper levels' coarse crossings (and so the route) matter
// most: on this weighted terrain the mean excess over the optimum measured
// 14.4 % with three-zone windows and 16.4 % with two (rooms: 1.07 and
// 1.19 %, too close to bound). The bound fits this seed (a review saw the
// terrain's excess range 5-24 % over seeds 1-12, three zones beating two
// on each), so a change of tie-breaking may call for measuring it again.
// Every path is also checked against the oracle (legal, cost = walked
// cost, never below the optimum).
TEST(PlannerTest, FreeCrossingsLookAheadOnUpperLevels) {
  for (MapKind kind : {MapKind::kRooms, MapKind::kTerrain}) {
    const Grid grid = Generated(kind, 512, 512, 17);
    const World world = Build(grid, 8, 4, false);  // group 2
    ASSERT_EQ(world.abstraction().levels.size(), 4u);
    Planner planner(world);
    std::mt19937_64 rng(17);
    double excess = 0;
    int long_queries = 0;
    for (int q = 0; q < 40; ++q) {
      const Point s = testing::RandomPassable(grid, rng);
      const Point t = testing::RandomPassable(grid, rng);
      if (!grid.SameComponent(s, t) ||
          std::max(std::abs(s.x - t.x), std::abs(s.y - t.y)) < 256) {
        continue;
      }
      PlanOptions options;
      options.free_crossings = true;
      const double free =
          CheckQuery(world, planner, s, t, options,
                     std::string(MapKindName(kind)) + " " + PointString(s) +
                         "->" + PointString(t));
      if (HasFatalFailure()) return;
      excess += free - 1;
      ++long_queries;
    }
    ASSERT_GE(long_queries, 10) << MapKindName(kind);
    if (kind == MapKind::kTerrain) {
      EXPECT_LT(excess / long_queries, 0.155)
          << "terrain: mean excess over " << long_queries << " queries";
    }
  }
}

// A generated rooms world of side x side cells.
Grid RoomsGrid(int side, uint64_t seed) {
  return Generated(MapKind::kRooms, side, side, seed);
}

// planned_cost (known after Plan, before any refinement) is what a direct
// plan costs, and what the abstract plan costs before its border crossings
// are re-chosen by refinement, which only shortens it on these worlds.
TEST(PlannerTest, PlannedCostBoundsTheRefinedPath) {
  for (MapKind kind : {MapKind::kRooms, MapKind::kTerrain}) {
    const Grid grid = Generated(kind, 160, 120, 4);
    const World world = Build(grid, 8, 3, false);
    Planner planner(world);
    std::mt19937_64 rng(4);
    RunLengthPath path;
    int direct = 0, shorter = 0;
    for (int q = 0; q < 60; ++q) {
      const Point s = testing::RandomPassable(grid, rng);
      const Point t = testing::RandomPassable(grid, rng);
      absl::StatusOr<SearchOutcome> outcome = planner.FindPath(s, t, {}, &path);
      ASSERT_TRUE(outcome.ok()) << outcome.status();
      if (*outcome != SearchOutcome::kFound || s == t) continue;
      direct += planner.stats().used_direct;
      if (planner.stats().used_direct) {
        EXPECT_NEAR(planner.stats().planned_cost, path.cost(),
                    1e-5 * path.cost());
      } else {
        EXPECT_LE(path.cost(), planner.stats().planned_cost * (1 + 1e-5))
            << MapKindName(kind) << " " << PointString(s) << " -> "
            << PointString(t);
        shorter += path.cost() < planner.stats().planned_cost * (1 - 1e-5);
      }
    }
    EXPECT_GT(direct, 0);
    EXPECT_GT(shorter, 0);
  }
}

TEST(PlannerTest, FewerTurnsSavesRunsAtNoCost) {
  const Grid grid = RoomsGrid(192, 5);
  const World world = Build(grid, 16, 2, false);
  Planner planner(world);
  std::mt19937_64 rng(5);
  size_t runs_plain = 0, runs_fewer = 0;
  double cost_plain = 0, cost_fewer = 0;
  for (int q = 0; q < 40; ++q) {
    const Point s = testing::RandomPassable(grid, rng);
    const Point t = testing::RandomPassable(grid, rng);
    for (bool fewer : {false, true}) {
      PlanOptions options;
      options.smooth = true;
      options.free_crossings = true;
      options.fewer_turns = fewer;
      RunLengthPath path;
      ASSERT_TRUE(planner.FindPath(s, t, options, &path).ok());
      (fewer ? runs_fewer : runs_plain) += path.runs().size();
      (fewer ? cost_fewer : cost_plain) += path.cost();
    }
  }
  EXPECT_LT(runs_fewer, runs_plain) << cost_fewer << " " << cost_plain;
  // Ties broken differently pick other crossings in later windows: the same
  // cost up to a hair either way.
  EXPECT_LE(cost_fewer, cost_plain * (1 + 1e-3));
}

TEST(PlannerTest, TraceRecordsTheSearches) {
  const Grid grid = RoomsGrid(160, 3);
  const World world = Build(grid, 16, 2, false);
  Planner planner(world);
  PlanTrace trace;
  planner.set_trace(&trace);
  std::mt19937_64 rng(3);
  int long_queries = 0;
  for (int q = 0; q < 20; ++q) {
    const Point s = testing::RandomPassable(grid, rng);
    const Point t = testing::RandomPassable(grid, rng);
    trace.Clear();
    RunLengthPath path;
    PlanOptions options;
    options.smooth = true;
    ASSERT_TRUE(planner.FindPath(s, t, options, &path).ok());
    const PlanStats& st = planner.stats();
    const int64_t cells = st.connect.expanded + st.direct.expanded +
                          st.smooth.expanded + st.refine.expanded;
    const int64_t expanded = st.connect.expanded + st.direct.expanded +
                             st.smooth.expanded + st.refine.expanded +
                             st.abstract.expanded;
    const int64_t traced = static_cast<int64_t>(trace.expanded_cells.size() +
                                                trace.expanded_beacons.size());
    // Every expansion is traced once, as a cell (grid searches, the
    // connection's zone search) or a beacon (abstract searches), except the
    // virtual goal node of the top search and of the last level-2 window.
    EXPECT_LE(traced, expanded);
    EXPECT_GE(traced, expanded - 2);
    EXPECT_GE(static_cast<int64_t>(trace.expanded_cells.size()),
              st.direct.expanded + st.smooth.expanded);
    EXPECT_LE(static_cast<int64_t>(trace.expanded_cells.size()), cells);
    for (const Point& p : trace.expanded_cells) ASSERT_TRUE(grid.passable(p));
    if (!st.used_direct && st.abstract.expanded > 2) {
      ++long_queries;
      EXPECT_FALSE(trace.expanded_beacons.empty());
    }
  }
  EXPECT_GT(long_queries, 0);
  planner.set_trace(nullptr);
  trace.Clear();
  RunLengthPath path;
  ASSERT_TRUE(planner
                  .FindPath(testing::RandomPassable(grid, rng),
                            testing::RandomPassable(grid, rng), PlanOptions(),
                            &path)
                  .ok());
  EXPECT_TRUE(trace.expanded_cells.empty());
  EXPECT_TRUE(trace.expanded_beacons.empty());
}

TEST(PlannerTest, CursorYieldsTheSameMovesAsFullRefinement) {
  const Grid grid = Generated(MapKind::kRooms, 200, 150, 1, 10);
  const World world = Build(grid, 10, 2, false);
  Planner planner(world);
  std::mt19937_64 rng(3);
  for (int q = 0; q < 40; ++q) {
    const Point s = testing::RandomPassable(grid, rng);
    const Point t = testing::RandomPassable(grid, rng);
    RunLengthPath full;
    ASSERT_EQ(*planner.FindPath(s, t, PlanOptions(), &full),
              SearchOutcome::kFound);
    ASSERT_EQ(*planner.Plan(s, t, PlanOptions()), SearchOutcome::kFound);
    PathCursor cursor = planner.Cursor();
    RunLengthPath pieces;
    pieces.Reset(s);
    int64_t chunks = 0;
    while (!cursor.done()) {
      const int64_t before = pieces.steps();
      ASSERT_TRUE(cursor.Next(32, &pieces).ok());
      ASSERT_TRUE(pieces.steps() - before >= 32 || cursor.done());
      ++chunks;
    }
    const int64_t steps = pieces.steps();
    EXPECT_TRUE(cursor.Next(32, &pieces).ok());
    EXPECT_EQ(pieces.steps(), steps);  // nothing after the end
    EXPECT_EQ(pieces.runs(), full.runs());
    EXPECT_EQ(pieces.cost(), full.cost());
    if (full.steps() > 200) {
      EXPECT_GT(chunks, 2);
    }
  }
}

TEST(PlannerTest, EdgeCases) {
  const Grid grid =
      *Grid::Create(12, 6, {1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1,  //
                            1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1,  //
                            1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1,  //
                            1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1,  //
                            1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1,  //
                            1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1});
  const World world = Build(grid, 4, 2, false);
  Planner planner(world);
  RunLengthPath path;
  ASSERT_EQ(*planner.FindPath({1, 1}, {1, 1}, PlanOptions(), &path),
            SearchOutcome::kFound);
  EXPECT_TRUE(path.empty());
  ASSERT_EQ(*planner.FindPath({0, 0}, {11, 5}, PlanOptions(), &path),
            SearchOutcome::kUnreachable);
  EXPECT_EQ(planner.stats().connect.expanded, 0);
  EXPECT_EQ(
      planner.FindPath({5, 0}, {0, 0}, PlanOptions(), &path).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      planner.FindPath({0, 0}, {12, 0}, PlanOptions(), &path).status().code(),
      absl::StatusCode::kInvalidArgument);
}

// Planner::Smooth smooths a whole path with a smoothing query's smoother:
// a query's unsmoothed path, smoothed afterwards, keeps its endpoints,
// stays legal at its walked cost and costs no more than before
// (stats().cost_before_smoothing is the input's cost), on rooms, mazes and
// weighted terrain, by string pulling and (rooms, terrain) by window
// searches; where windows are searched, and on mazes, it is the smoothed
// query's path, run for run. The empty path is left empty.
TEST(PlannerTest, SmoothTakesAWholePath) {
  for (const auto& [kind, by_search] :
       {std::pair{MapKind::kRooms, false}, std::pair{MapKind::kMaze, false},
        std::pair{MapKind::kTerrain, false}, std::pair{MapKind::kRooms, true},
        std::pair{MapKind::kTerrain, true}}) {
    const Grid grid = Generated(kind, 192, 160, 6);
    const World world = Build(grid, 16, 2, false);
    Planner planner(world);
    std::mt19937_64 rng(6);
    int smoothed_shorter = 0;
    for (int q = 0; q < 25; ++q) {
      const Point s = testing::RandomPassable(grid, rng);
      const Point t = testing::RandomPassable(grid, rng);
      const std::string context = std::string(MapKindName(kind)) +
                                  (by_search ? " by search " : " ") +
                                  PointString(s) + " -> " + PointString(t);
      PlanOptions plain, smooth;
      smooth.smooth = true;
      smooth.smooth_by_search = by_search;
      RunLengthPath path, expected;
      absl::StatusOr<SearchOutcome> found =
          planner.FindPath(s, t, smooth, &expected);
      ASSERT_TRUE(found.ok()) << context << found.status();
      if (*found != SearchOutcome::kFound) continue;
      ASSERT_TRUE(planner.FindPath(s, t, plain, &path).ok()) << context;
      const double before = path.cost();
      // (Smooth follows the last plan's smooth_by_search.)
      ASSERT_TRUE(planner.FindPath(s, t, smooth, &expected).ok()) << context;
      ASSERT_TRUE(planner.Smooth(&path).ok()) << context;
      EXPECT_EQ(planner.stats().cost_before_smoothing, before) << context;
      EXPECT_EQ(path.start(), s) << context;
      absl::StatusOr<PathWalk> walk =
          WalkPath(grid, path, world.params().connectivity);
      ASSERT_TRUE(walk.ok()) << context << walk.status();
      EXPECT_EQ(walk->end, t) << context;
      EXPECT_EQ(walk->cost, path.cost()) << context;
      EXPECT_LE(path.cost(), before * (1 + 1e-12)) << context;
      // Window searches see the same windows either way; string pulling
      // sees the whole path at once instead of the refined part, and may
      // bend elsewhere (measured here, before weighted grids were pulled:
      // 18 of 25 rooms paths differ, 10 shorter, 7 as short, 1 longer).
      if (by_search || kind == MapKind::kMaze) {
        EXPECT_EQ(RunsToString(path.runs()), RunsToString(expected.runs()))
            << context;
      }
      smoothed_shorter += path.cost() < before * (1 - 1e-9);
    }
    // (A maze's refined paths here are already as short as smoothing
    // makes them.)
    if (kind != MapKind::kMaze) {
      EXPECT_GT(smoothed_shorter, 0) << MapKindName(kind);
    }
  }
  RunLengthPath empty;
  empty.Reset({3, 3});
  const World world =
      Build(Generated(MapKind::kRooms, 64, 64, 1), 16, 2, false);
  Planner planner(world);
  EXPECT_TRUE(planner.Smooth(&empty).ok());
  EXPECT_TRUE(empty.empty());
}

// Rooms (one cost: jump point windows) and weighted terrain (string
// pulling with its path costs; band A* windows, made on first use; zones
// of one cost linked by ways).
TEST(PlannerTest, WarmQueriesDoNotAllocate) {
  for (MapKind kind : {MapKind::kRooms, MapKind::kTerrain}) {
    const Grid grid = Generated(kind, 256, 256, 1, 15);
    for (bool cache : {false, true}) {
      const World world = Build(grid, 16, 2, cache);
      Planner planner(world);
      const std::vector<std::pair<Point, Point>> queries =
          testing::RandomPairs(grid, 40, 4);
      RunLengthPath path;
      // Unsmoothed, smoothed by string pulling and smoothed by window
      // searches.
      for (int mode = 0; mode < 3; ++mode) {
        PlanOptions options;
        options.smooth = mode > 0;
        options.smooth_by_search = mode == 2;
        for (int round = 0; round < 2; ++round) {  // warm-up
          for (const auto& [s, t] : queries) {
            ASSERT_TRUE(planner.FindPath(s, t, options, &path).ok());
          }
        }
        const int64_t before = testing::AllocationCount();
        for (const auto& [s, t] : queries) {
          ASSERT_TRUE(planner.FindPath(s, t, options, &path).ok());
        }
        EXPECT_EQ(testing::AllocationCount() - before, 0)
            << "kind " << static_cast<int>(kind) << " cache " << cache
            << " mode " << mode;
      }
    }
  }
}

}  // namespace
}  // namespace zonepath
