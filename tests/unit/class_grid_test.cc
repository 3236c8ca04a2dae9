// Class grids for unoriented agent classes: DeriveClassGrid against
// PositionCost cell by cell; moves.h's rules on the derived grid equal to
// agent_class.h's rules on the terrain; and, on random grids, GridAStar and
// the HPA* Planner run on the derived grid return paths that CheckClassPath
// (the terrain-level oracle) accepts at the reported cost, GridAStar's cost
// equal to ClassAStar's optimum and reachability equal to ClassAStar's.
#include "zonepath/agents/class_grid.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "dijkstra_oracle.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/agents/class_path.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath {
namespace {

using testing::GridToText;
using testing::RandomGrid;

// Square classes of sides 1..4, rectangles, and two capability classes
// (types 1..5; a class may not enter some of them), 8- and 4-connected.
std::vector<AgentClass> TestClasses() {
  std::vector<AgentClass> out;
  auto make = [](std::string name, int w, int l, std::vector<int> costs,
                 Connectivity c = Connectivity::kEight) {
    AgentClass a;
    a.name = std::move(name);
    a.width = w;
    a.length = l;
    a.connectivity = c;
    for (size_t t = 0; t < costs.size(); ++t) {
      a.cost_of_type[t + 1] = static_cast<uint8_t>(costs[t]);
    }
    return a;
  };
  for (int s = 1; s <= 4; ++s) {
    out.push_back(make(absl::StrCat("square", s), s, s, {1, 2, 3, 4, 5}));
  }
  out.push_back(make("rect2x3", 2, 3, {2, 1, 3, 1, 4}));
  out.push_back(make("rect3x1", 3, 1, {1, 1, 1, 1, 1}, Connectivity::kFour));
  out.push_back(make("no_type_3", 1, 1, {2, 1, 0, 3, 5}));
  out.push_back(make("only_1_2", 2, 2, {3, 1, 0, 0, 0}, Connectivity::kFour));
  return out;
}

Grid TerrainGrid(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int w = 3 + static_cast<int>(rng() % 22);
  const int h = 3 + static_cast<int>(rng() % 22);
  const double blocked = static_cast<double>(rng() % 25) / 100.0;
  return RandomGrid(seed, {w, h, blocked, 5});
}

TEST(ClassGridTest, MatchesPositionCost) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Grid terrain = TerrainGrid(seed);
    for (const AgentClass& c : TestClasses()) {
      absl::StatusOr<Grid> derived = DeriveClassGrid(terrain, c);
      ASSERT_TRUE(derived.ok()) << derived.status();
      for (int y = 0; y < terrain.height(); ++y) {
        for (int x = 0; x < terrain.width(); ++x) {
          ASSERT_EQ(derived->cost(Point{x, y}),
                    PositionCost(terrain, c, {x, y}))
              << "seed " << seed << " class " << c.name << " at " << x << ","
              << y << "\n"
              << GridToText(terrain);
        }
      }
    }
  }
}

TEST(ClassGridTest, DefaultClassGivesTheTerrain) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Grid terrain = TerrainGrid(seed);
    absl::StatusOr<Grid> derived =
        DeriveClassGrid(terrain, AgentClass::Default());
    ASSERT_TRUE(derived.ok());
    EXPECT_EQ(derived->CostVector(), terrain.CostVector()) << "seed " << seed;
    EXPECT_EQ(derived->component_count(), terrain.component_count());
    // It is the terrain's own pages, not a copy of its bytes.
    EXPECT_TRUE(derived->SharesStorageWith(terrain)) << "seed " << seed;
    EXPECT_TRUE(SeesTerrainAsIs(terrain, AgentClass::Default()));
  }
  // Any 1 x 1 class to which the types on the map cost their own value
  // shares too; one type costing otherwise, or a larger footprint, derives.
  const Grid terrain = TerrainGrid(3);
  AgentClass same = AgentClass::Default();
  same.name = "same";
  same.cost_of_type[200] = 7;  // no cell of type 200 on this map
  ASSERT_EQ(terrain.CellsOfCost(200), 0);
  EXPECT_TRUE(DeriveClassGrid(terrain, same)->SharesStorageWith(terrain));
  AgentClass other = same;
  other.cost_of_type[2] = 3;
  ASSERT_GT(terrain.CellsOfCost(2), 0);
  const absl::StatusOr<Grid> derived = DeriveClassGrid(terrain, other);
  ASSERT_TRUE(derived.ok());
  EXPECT_FALSE(derived->SharesStorageWith(terrain));
  EXPECT_FALSE(SeesTerrainAsIs(terrain, other));
  AgentClass wide = same;
  wide.width = 2;
  EXPECT_FALSE(SeesTerrainAsIs(terrain, wide));
  EXPECT_FALSE(DeriveClassGrid(terrain, wide)->SharesStorageWith(terrain));
}

TEST(ClassGridTest, RejectsOrientedAndBadFootprints) {
  const Grid terrain = TerrainGrid(1);
  AgentClass c = AgentClass::Default();
  c.oriented = true;
  EXPECT_EQ(DeriveClassGrid(terrain, c).status().code(),
            absl::StatusCode::kInvalidArgument);
  c.oriented = false;
  c.width = AgentClass::kMaxFootprint + 1;
  EXPECT_EQ(DeriveClassGrid(terrain, c).status().code(),
            absl::StatusCode::kInvalidArgument);
  // A footprint larger than the map: every cell blocked.
  c.width = c.length = AgentClass::kMaxFootprint;
  absl::StatusOr<Grid> tiny =
      DeriveClassGrid(*Grid::Create(3, 2, {1, 1, 1, 1, 1, 1}), c);
  ASSERT_TRUE(tiny.ok());
  EXPECT_EQ(tiny->passable_count(), 0);
}

// moves.h on the derived grid == agent_class.h's step rule on the terrain,
// for every anchor and direction.
TEST(ClassGridTest, DerivedMovesEqualClassRules) {
  for (uint64_t seed = 100; seed <= 140; ++seed) {
    const Grid terrain = TerrainGrid(seed);
    for (const AgentClass& c : TestClasses()) {
      const Grid derived = *DeriveClassGrid(terrain, c);
      for (int y = 0; y < terrain.height(); ++y) {
        for (int x = 0; x < terrain.width(); ++x) {
          const Point p{x, y};
          if (PositionCost(terrain, c, p) == 0) continue;
          for (int d = 0; d < kDirectionCount; ++d) {
            const Direction dir = static_cast<Direction>(d);
            const Point q = Step(p, dir);
            bool legal = PositionCost(terrain, c, q) != 0;
            if (IsDiagonal(dir)) {
              legal = legal && c.connectivity == Connectivity::kEight &&
                      PositionCost(terrain, c, {q.x, p.y}) != 0 &&
                      PositionCost(terrain, c, {p.x, q.y}) != 0;
            }
            ASSERT_EQ(CanStep(derived, p, dir, c.connectivity), legal)
                << "seed " << seed << " class " << c.name << " " << x << ","
                << y << " d " << d << "\n"
                << GridToText(terrain);
            if (legal) {
              ASSERT_EQ(StepCost(derived, p, dir),
                        StepCost(dir, PositionCost(terrain, c, p),
                                 PositionCost(terrain, c, q)));
            }
          }
        }
      }
    }
  }
}

// The pipeline on class grids, checked on the terrain: GridAStar (exact)
// and the HPA* Planner on a world built from the derived grid.
TEST(ClassGridTest, PlannersOnClassGridsGiveLegalPaths) {
  int64_t found = 0, unreachable = 0;
  for (uint64_t seed = 1000; seed < 1600; ++seed) {
    const Grid terrain = TerrainGrid(seed);
    std::mt19937_64 rng(seed);
    ClassAStar oracle(terrain);
    for (const AgentClass& c : TestClasses()) {
      if (rng() % 3 != 0) continue;  // a third of the classes per grid
      const Grid derived = *DeriveClassGrid(terrain, c);
      if (derived.passable_count() == 0) continue;
      BuildOptions build;
      build.params.zone_size = 4 + static_cast<int>(rng() % 5);
      build.params.levels = 1 + static_cast<int>(rng() % 2);
      build.params.group = 2;
      build.params.connectivity = c.connectivity;
      build.threads = 1;
      absl::StatusOr<World> world = BuildWorld(derived, build);
      ASSERT_TRUE(world.ok()) << world.status();
      Planner planner(*world);
      GridAStar astar(derived);
      AStarOptions astar_options;
      astar_options.connectivity = c.connectivity;
      std::vector<Point> open;
      for (int y = 0; y < derived.height(); ++y) {
        for (int x = 0; x < derived.width(); ++x) {
          if (derived.passable(Point{x, y})) open.push_back({x, y});
        }
      }
      for (int q = 0; q < 10; ++q) {
        const Point s = open[rng() % open.size()];
        const Point g = open[rng() % open.size()];
        const std::string context = absl::StrCat(
            "seed ", seed, " class ", c.name, " query ", q, " ", s.x, ",", s.y,
            " -> ", g.x, ",", g.y, "\n", GridToText(terrain));
        AgentPath best;
        absl::StatusOr<SearchOutcome> exact =
            oracle.FindPath(c, s, Direction::kN, g, ClassAStarOptions(), &best);
        ASSERT_TRUE(exact.ok()) << exact.status() << context;
        RunLengthPath path;
        absl::StatusOr<SearchOutcome> a =
            astar.FindPath(s, g, astar_options, &path);
        ASSERT_TRUE(a.ok()) << a.status() << context;
        ASSERT_EQ(*a, *exact) << context;
        if (*a == SearchOutcome::kFound) {
          absl::StatusOr<AgentWalk> walk = CheckClassPath(terrain, c, path);
          ASSERT_TRUE(walk.ok()) << walk.status() << context;
          ASSERT_EQ(walk->end, g) << context;
          const double tol = 1e-9 * std::max(1.0, best.cost());
          ASSERT_NEAR(walk->cost, path.cost(), tol) << context;
          ASSERT_NEAR(path.cost(), best.cost(), tol) << context;
        }
        RunLengthPath hpa;
        PlanOptions plan;
        plan.smooth = q % 2 == 1;  // smoothing too must respect footprints
        plan.fewer_turns = q % 4 < 2;
        absl::StatusOr<SearchOutcome> h = planner.FindPath(s, g, plan, &hpa);
        ASSERT_TRUE(h.ok()) << h.status() << context;
        ASSERT_EQ(*h, *exact) << context;
        if (*h == SearchOutcome::kFound) {
          ++found;
          absl::StatusOr<AgentWalk> walk = CheckClassPath(terrain, c, hpa);
          ASSERT_TRUE(walk.ok()) << walk.status() << context;
          ASSERT_EQ(walk->end, g) << context;
          const double tol = 1e-9 * std::max(1.0, hpa.cost());
          ASSERT_NEAR(walk->cost, hpa.cost(), tol) << context;
          ASSERT_GE(hpa.cost(), best.cost() - tol) << context;
        } else {
          ++unreachable;
        }
      }
    }
  }
  // Both outcomes must have been exercised for the test to mean anything.
  RecordProperty("found", static_cast<int>(found));
  RecordProperty("unreachable", static_cast<int>(unreachable));
  EXPECT_GT(found, 5000);
  EXPECT_GT(unreachable, 1000);
}

TEST(ClassPathTest, RejectsFootprintCollisions) {
  // 2x2 unit on a 4x3 map with a forest cell (type 3) it may not enter.
  //   . . . .
  //   . . T .
  //   . . . .
  const Grid terrain =
      *Grid::Create(4, 3, {1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1});
  AgentClass c;
  c.name = "cart";
  c.width = c.length = 2;
  c.cost_of_type[1] = 1;
  RunLengthPath path;
  path.Reset({0, 0});
  path.Append(Direction::kE, 1);  // anchor (1,0) covers (2,1): forest
  absl::StatusOr<AgentWalk> walk = CheckClassPath(terrain, c, path);
  EXPECT_EQ(walk.status().code(), absl::StatusCode::kInvalidArgument);
  // Names the run and the anchor it could not reach.
  EXPECT_NE(walk.status().message().find("run 0"), std::string::npos)
      << walk.status();
  EXPECT_NE(walk.status().message().find("(1,0)"), std::string::npos)
      << walk.status();
  c.cost_of_type[3] = 4;
  path.set_cost(0.5 * (1 + 4));
  walk = CheckClassPath(terrain, c, path);
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_EQ(walk->end, (Point{1, 0}));
  EXPECT_DOUBLE_EQ(walk->cost, 2.5);
  c.oriented = true;
  EXPECT_EQ(CheckClassPath(terrain, c, path).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace zonepath
