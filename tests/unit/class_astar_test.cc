// ClassAStar and WalkAgentPath against a brute-force Dijkstra over
// (anchor, heading) written plainly here from the rules of agent_class.h,
// on random small grids of random terrain types, for unoriented squares of
// sizes 1..4 (8- and 4-connected), a 1 x 2 rectangle, two capability
// classes and two oriented units; ClassAStar for the default class against
// GridAStar and the MovingAI optimal lengths; no allocation after warm-up.
#include "zonepath/agents/class_astar.h"

#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "alloc_counter.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "random_terrain.h"
#include "shared_maps.h"
#include "test_cart.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- the plain oracle ------------------------------------------------------

// Class cost of (anchor, heading), 0 if illegal: every covered cell in the
// grid and passable for the class, the largest multiplier.
int PlainCost(const Grid& grid, const AgentClass& c, Point a, Direction h) {
  int w = c.width, l = c.length;
  if (c.oriented) {
    if (IsDiagonal(h)) {
      w = l = std::max(c.width, c.length);
    } else if (h == Direction::kE || h == Direction::kW) {
      std::swap(w, l);
    }
  }
  int worst = 0;
  for (int y = a.y; y < a.y + l; ++y) {
    for (int x = a.x; x < a.x + w; ++x) {
      if (!grid.InBounds({x, y})) return 0;
      const int m = c.cost_of_type[grid.cost(Point{x, y})];
      if (m == 0) return 0;
      worst = std::max(worst, m);
    }
  }
  return worst;
}

bool PlainSweep(const Grid& grid, const AgentClass& c, Point a) {
  const int m = std::max(c.width, c.length);
  for (int y = a.y; y < a.y + m; ++y) {
    for (int x = a.x; x < a.x + m; ++x) {
      if (!grid.InBounds({x, y}) ||
          c.cost_of_type[grid.cost(Point{x, y})] == 0) {
        return false;
      }
    }
  }
  return true;
}

// Headings of the class, as Direction values.
std::vector<Direction> Headings(const AgentClass& c) {
  if (!c.oriented) return {Direction::kN};
  std::vector<Direction> out;
  for (int d = 0; d < 8; d += c.connectivity == Connectivity::kFour ? 2 : 1) {
    out.push_back(static_cast<Direction>(d));
  }
  return out;
}

// dist[(y * W + x) * 8 + heading] from (start, start_heading).
std::vector<double> PlainDijkstra(const Grid& grid, const AgentClass& c,
                                  Point start, Direction start_heading) {
  const int w = grid.width();
  auto index = [&](Point p, Direction h) {
    return (static_cast<size_t>(p.y) * w + p.x) * 8 + static_cast<size_t>(h);
  };
  std::vector<double> dist(static_cast<size_t>(grid.cell_count()) * 8, kInf);
  using Item = std::tuple<double, int, int, int>;  // cost, x, y, heading
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  dist[index(start, start_heading)] = 0;
  queue.push({0.0, start.x, start.y, static_cast<int>(start_heading)});
  auto push = [&](Point q, Direction h, double d) {
    if (d < dist[index(q, h)]) {
      dist[index(q, h)] = d;
      queue.push({d, q.x, q.y, static_cast<int>(h)});
    }
  };
  while (!queue.empty()) {
    const auto [d, x, y, hi] = queue.top();
    queue.pop();
    const Point p{x, y};
    const Direction h = static_cast<Direction>(hi);
    if (d > dist[index(p, h)]) continue;
    const int here = PlainCost(grid, c, p, h);
    // Steps: (direction, factor).
    std::vector<std::pair<Direction, double>> steps;
    if (!c.oriented) {
      for (int k = 0; k < 8; ++k) {
        const Direction s = static_cast<Direction>(k);
        if (IsDiagonal(s) && c.connectivity == Connectivity::kFour) continue;
        steps.push_back({s, 1.0});
      }
    } else {
      steps.push_back({h, 1.0});
      steps.push_back({Opposite(h), c.backward_factor});
    }
    for (const auto& [s, factor] : steps) {
      const Point q{p.x + Dx(s), p.y + Dy(s)};
      const int there = PlainCost(grid, c, q, h);
      if (there == 0) continue;
      if (IsDiagonal(s) && (PlainCost(grid, c, {q.x, p.y}, h) == 0 ||
                            PlainCost(grid, c, {p.x, q.y}, h) == 0)) {
        continue;
      }
      const double mean = 0.5 * (here + there);
      push(q, h, d + (IsDiagonal(s) ? mean * kSqrt2 : mean) * factor);
    }
    if (c.oriented && PlainSweep(grid, c, p)) {
      const int inc = c.connectivity == Connectivity::kFour ? 2 : 1;
      push(p, Rotate(h, inc), d + c.turn_cost);
      push(p, Rotate(h, -inc), d + c.turn_cost);
    }
  }
  return dist;
}

// ---- classes and grids -----------------------------------------------------

AgentClass Square(int s, Connectivity connectivity) {
  AgentClass c = AgentClass::Default();
  c.name = absl::StrCat("square", s,
                        connectivity == Connectivity::kFour ? "/4" : "/8");
  c.width = c.length = s;
  c.connectivity = connectivity;
  return c;
}

std::vector<AgentClass> TestClasses() {
  std::vector<AgentClass> classes;
  for (int s = 1; s <= 4; ++s) {
    classes.push_back(Square(s, Connectivity::kEight));
    classes.push_back(Square(s, Connectivity::kFour));
  }
  AgentClass rect = AgentClass::Default();
  rect.name = "rect1x2";
  rect.length = 2;
  classes.push_back(rect);
  AgentClass tank = AgentClass::Default();  // never on type 4
  tank.name = "tank";
  tank.cost_of_type[4] = 0;
  classes.push_back(tank);
  AgentClass infantry = Square(2, Connectivity::kEight);  // swamp costs 3x
  infantry.name = "infantry2";
  infantry.cost_of_type[3] = 9;
  classes.push_back(infantry);
  classes.push_back(testing::TestCart(Connectivity::kFour, "cart1x2/4"));
  AgentClass boat = AgentClass::Default();
  boat.name = "boat2x1/8";
  boat.width = 2;
  boat.oriented = true;
  boat.backward_factor = 1.5;
  boat.turn_cost = 0.5;
  classes.push_back(boat);
  // 4-headed with expensive turns, cheap backing up and no type-1 ground
  // (cheapest multiplier 2): the bounds of the heuristic's turn and
  // backward terms (FourHeadedExtra) at other ratios than the cart's.
  AgentClass wagon = testing::TestCart(Connectivity::kFour, "wagon1x3/4");
  wagon.length = 3;
  wagon.backward_factor = 1.25;
  wagon.turn_cost = 7;
  wagon.cost_of_type[1] = 0;
  classes.push_back(wagon);
  AgentClass sled = testing::TestCart(Connectivity::kFour, "sled1x1/4");
  sled.length = 1;
  sled.backward_factor = 1;
  sled.turn_cost = 0.25;
  classes.push_back(sled);
  return classes;
}

AgentClass ClassNamed(const std::string& name) {
  for (const AgentClass& c : TestClasses()) {
    if (c.name == name) return c;
  }
  ADD_FAILURE() << "no test class " << name;
  return AgentClass::Default();
}

// Types 0 (blocked) .. 4, reproducible from the seed.
Grid RandomTerrain(uint64_t seed) {
  return testing::RandomTerrain(seed, 5, 10, 30);
}

// Legal positions (anchor, heading) of the class on the grid.
std::vector<std::pair<Point, Direction>> LegalPositions(const Grid& grid,
                                                        const AgentClass& c) {
  std::vector<std::pair<Point, Direction>> out;
  for (int y = 0; y < grid.height(); ++y) {
    for (int x = 0; x < grid.width(); ++x) {
      for (Direction h : Headings(c)) {
        if (PlainCost(grid, c, {x, y}, h) != 0) out.push_back({{x, y}, h});
      }
    }
  }
  return out;
}

// ---- the tests -------------------------------------------------------------

TEST(ClassAStarTest, MatchesPlainDijkstraForEveryClass) {
  const std::vector<AgentClass> classes = TestClasses();
  int64_t found = 0, unreachable = 0;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    const Grid grid = RandomTerrain(seed);
    ClassAStar search(grid);
    AgentPath path;
    std::mt19937_64 rng(seed * 31 + 7);
    for (const AgentClass& c : classes) {
      const auto legal = LegalPositions(grid, c);
      if (legal.empty()) continue;
      const auto [start, start_heading] = legal[rng() % legal.size()];
      const std::vector<double> dist =
          PlainDijkstra(grid, c, start, start_heading);
      for (int q = 0; q < 4; ++q) {
        const auto [goal, goal_h] = legal[rng() % legal.size()];
        ClassAStarOptions options;
        if (c.oriented && q % 2 == 0) options.goal_heading = goal_h;
        double expected = kInf;
        for (Direction h : Headings(c)) {
          if (options.goal_heading.has_value() && h != *options.goal_heading) {
            continue;
          }
          expected = std::min(
              expected,
              dist[(static_cast<size_t>(goal.y) * grid.width() + goal.x) * 8 +
                   static_cast<size_t>(h)]);
        }
        const std::string context = absl::StrCat(
            "seed ", seed, " class ", c.name, " start ", PointString(start),
            " ", DirectionName(start_heading), " goal ", PointString(goal),
            options.goal_heading.has_value()
                ? absl::StrCat(" ", DirectionName(*options.goal_heading))
                : " any",
            "\n", testing::TerrainText(grid));
        absl::StatusOr<SearchOutcome> outcome =
            search.FindPath(c, start, start_heading, goal, options, &path);
        ASSERT_TRUE(outcome.ok()) << context << outcome.status();
        if (std::isinf(expected)) {
          ASSERT_EQ(*outcome, SearchOutcome::kUnreachable) << context;
          ++unreachable;
          continue;
        }
        ASSERT_EQ(*outcome, SearchOutcome::kFound) << context;
        ++found;
        const double tolerance = 1e-9 * std::max(1.0, expected);
        ASSERT_NEAR(path.cost(), expected, tolerance)
            << context << AgentRunsToString(path.runs());
        absl::StatusOr<AgentWalk> walk = WalkAgentPath(grid, c, path);
        ASSERT_TRUE(walk.ok()) << context << walk.status();
        ASSERT_EQ(walk->end, goal) << context;
        if (options.goal_heading.has_value()) {
          ASSERT_EQ(walk->heading, *options.goal_heading) << context;
        }
        ASSERT_NEAR(walk->cost, path.cost(), tolerance) << context;
      }
    }
  }
  // The random maps must exercise both answers.
  EXPECT_GT(found, 1000);
  EXPECT_GT(unreachable, 100);
}

TEST(ClassAStarTest, DefaultClassMatchesGridAStar) {
  const AgentClass c = AgentClass::Default();
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Grid grid =
        testing::RandomGrid(seed, {48 + static_cast<int>(seed % 17), 40, 0.25,
                                   1 + static_cast<int>(seed % 2) * 8});
    if (grid.passable_count() == 0) continue;
    ClassAStar search(grid);
    GridAStar astar(grid);
    AgentPath path;
    RunLengthPath expected;
    for (const auto& [s, g] : testing::RandomPairs(grid, 10, seed)) {
      absl::StatusOr<SearchOutcome> want =
          astar.FindPath(s, g, AStarOptions(), &expected);
      absl::StatusOr<SearchOutcome> got =
          search.FindPath(c, s, Direction::kN, g, ClassAStarOptions(), &path);
      ASSERT_TRUE(want.ok() && got.ok()) << seed;
      ASSERT_EQ(*got, *want) << "seed " << seed;
      if (*got != SearchOutcome::kFound) continue;
      ASSERT_NEAR(path.cost(), expected.cost(), 1e-9 * expected.cost())
          << "seed " << seed;
      RunLengthPath converted;
      ASSERT_TRUE(ToRunLengthPath(path, &converted).ok());
      absl::StatusOr<PathWalk> walk =
          WalkPath(grid, converted, Connectivity::kEight);
      ASSERT_TRUE(walk.ok()) << walk.status();
      ASSERT_EQ(walk->end, g);
    }
  }
}

TEST(ClassAStarTest, DefaultClassMatchesGridAStarInsideBounds) {
  const AgentClass c = AgentClass::Default();
  int found = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Grid grid = testing::RandomGrid(seed, {40, 40, 0.3, 3});
    const Rect bounds{6, 4, 30, 33};
    ClassAStar search(grid);
    GridAStar astar(grid);
    AgentPath path;
    RunLengthPath expected;
    AStarOptions grid_options;
    grid_options.bounds = bounds;
    ClassAStarOptions options;
    options.bounds = bounds;
    for (const auto& [s, g] : testing::RandomPairs(grid, 40, seed)) {
      if (!bounds.Contains(s) || !bounds.Contains(g)) continue;
      absl::StatusOr<SearchOutcome> want =
          astar.FindPath(s, g, grid_options, &expected);
      absl::StatusOr<SearchOutcome> got =
          search.FindPath(c, s, Direction::kN, g, options, &path);
      ASSERT_TRUE(want.ok() && got.ok()) << seed;
      ASSERT_EQ(*got, *want) << "seed " << seed;
      if (*got != SearchOutcome::kFound) continue;
      ++found;
      ASSERT_NEAR(path.cost(), expected.cost(), 1e-9 * expected.cost())
          << "seed " << seed;
      Point p = path.start();
      for (const AgentRun& run : path.runs()) {
        for (uint32_t i = 0; i < run.count; ++i) {
          p = Step(p, run.heading);
          ASSERT_TRUE(bounds.Contains(p)) << "seed " << seed;
        }
      }
    }
  }
  EXPECT_GT(found, 100);
}

TEST(ClassAStarTest, DefaultClassReproducesMovingAiOptimalLengths) {
  const std::filesystem::path map =
      testing::SharedMapsDir() / "dao" / "den520d.map";
  if (!std::filesystem::exists(map)) GTEST_SKIP() << "no " << map;
  absl::StatusOr<testing::SharedMap> shared = testing::LoadSharedMap(map);
  ASSERT_TRUE(shared.ok()) << shared.status();
  ClassAStar search(shared->grid);
  AgentPath path;
  const AgentClass c = AgentClass::Default();
  int checked = 0;
  // Every 5th problem: a sample over all buckets.
  for (size_t i = 0; i < shared->scenario.problems.size(); i += 5) {
    const ScenarioProblem& p = shared->scenario.problems[i];
    absl::StatusOr<SearchOutcome> outcome = search.FindPath(
        c, p.start, Direction::kN, p.goal, ClassAStarOptions(), &path);
    ASSERT_TRUE(outcome.ok()) << p.line << outcome.status();
    ASSERT_EQ(*outcome, SearchOutcome::kFound) << p.line;
    EXPECT_TRUE(MatchesOptimal(path.cost(), p.optimal))
        << "line " << p.line << " cost " << path.cost() << " optimal "
        << p.optimal;
    absl::StatusOr<AgentWalk> walk = WalkAgentPath(shared->grid, c, path);
    ASSERT_TRUE(walk.ok()) << walk.status();
    ASSERT_NEAR(walk->cost, path.cost(), 1e-9 * path.cost());
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(ClassAStarTest, NoAllocationAfterWarmUp) {
  const Grid grid = testing::RandomGrid(5, {64, 64, 0.2, 3});
  const std::vector<AgentClass> classes = TestClasses();
  for (const AgentClass& c : {classes[0], classes[4], classes.back()}) {
    const auto legal = LegalPositions(grid, c);
    ASSERT_GE(legal.size(), 2u);
    ClassAStar search(grid);
    AgentPath path;
    std::vector<std::pair<Point, Direction>> ends = {legal.front(),
                                                     legal.back()};
    auto run = [&] {
      ASSERT_TRUE(search
                      .FindPath(c, ends[0].first, ends[0].second, ends[1].first,
                                ClassAStarOptions(), &path)
                      .ok());
    };
    run();  // warm-up: tiles, open list, path buffer
    const int64_t before = testing::AllocationCount();
    run();
    run();
    EXPECT_EQ(testing::AllocationCount(), before) << c.name;
  }
}

// One search shared by classes of 1, 4 and 8 headings (as AgentPlanner
// shares its exact search): once each class has run, alternating between
// them allocates nothing (a node table per heading count, kept).
TEST(ClassAStarTest, AlternatingHeadingCountsDoNotAllocate) {
  const Grid grid = testing::RandomGrid(6, {64, 64, 0.2, 3});
  const std::vector<AgentClass> classes = {ClassNamed("square2/8"),
                                           ClassNamed("cart1x2/4"),
                                           ClassNamed("boat2x1/8")};
  ClassAStar search(grid);
  AgentPath path;
  std::vector<std::pair<Point, Direction>> starts, goals;
  for (const AgentClass& c : classes) {
    const auto legal = LegalPositions(grid, c);
    ASSERT_GE(legal.size(), 2u) << c.name;
    starts.push_back(legal.front());
    goals.push_back(legal.back());
  }
  auto run = [&](size_t i) {
    ASSERT_TRUE(search
                    .FindPath(classes[i], starts[i].first, starts[i].second,
                              goals[i].first, ClassAStarOptions(), &path)
                    .ok())
        << classes[i].name;
  };
  for (size_t i = 0; i < classes.size(); ++i) run(i);  // warm-up, each kind
  const size_t warm_memory = search.MemoryUsage();
  const int64_t before = testing::AllocationCount();
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < classes.size(); ++i) run(i);
  }
  EXPECT_EQ(testing::AllocationCount(), before);
  EXPECT_EQ(search.MemoryUsage(), warm_memory);
}

TEST(ClassAStarTest, RejectsIllegalEndpointsAndHeadings) {
  const Grid grid = *Grid::Create(4, 4, std::vector<uint8_t>(16, 1));
  ClassAStar search(grid);
  AgentPath path;
  AgentClass big = Square(3, Connectivity::kEight);
  EXPECT_FALSE(search
                   .FindPath(big, {2, 2}, Direction::kN, {0, 0},
                             ClassAStarOptions(), &path)
                   .ok());
  AgentClass cart = ClassNamed("cart1x2/4");
  ASSERT_TRUE(cart.oriented);
  EXPECT_FALSE(search
                   .FindPath(cart, {0, 0}, Direction::kNE, {0, 0},
                             ClassAStarOptions(), &path)
                   .ok());
  // Anchors at the far ends of int32 are outside, never wrapped inside.
  for (const AgentClass& c : {big, cart}) {
    for (const Point p : {Point{std::numeric_limits<int32_t>::max(), 0},
                          Point{0, std::numeric_limits<int32_t>::max()},
                          Point{std::numeric_limits<int32_t>::min(), 0}}) {
      EXPECT_EQ(
          search
              .FindPath(c, p, Direction::kN, {0, 0}, ClassAStarOptions(), &path)
              .status()
              .code(),
          absl::StatusCode::kInvalidArgument)
          << c.name << " " << PointString(p);
      EXPECT_EQ(
          search
              .FindPath(c, {0, 0}, Direction::kN, p, ClassAStarOptions(), &path)
              .status()
              .code(),
          absl::StatusCode::kInvalidArgument)
          << c.name << " " << PointString(p);
    }
  }
  ClassAStarOptions limit;
  limit.max_expansions = 1;
  absl::StatusOr<SearchOutcome> outcome =
      search.FindPath(cart, {0, 0}, Direction::kN, {3, 2}, limit, &path);
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(*outcome, SearchOutcome::kLimitReached);
}

// ---- WalkAgentPath and the encoding -----------------------------------------

TEST(AgentPathTest, WalkAppliesTheRules) {
  // 6 x 6 open grid of type 1 with one blocked cell at (4, 1).
  std::vector<uint8_t> types(36, 1);
  types[1 * 6 + 4] = 0;
  const Grid grid = *Grid::Create(6, 6, std::move(types));
  AgentClass cart =
      ClassNamed("cart1x2/4");  // 1 x 2, 4 headings, back x2, turn 1
  AgentPath path;
  path.Reset({0, 0}, Direction::kS);
  path.AppendStep(AgentAction::kForward, Direction::kS, 2);   // to (0,2)
  path.AppendTurn(-1);                                        // S -> E
  path.AppendStep(AgentAction::kForward, Direction::kE, 3);   // to (3,2)
  path.AppendStep(AgentAction::kBackward, Direction::kE, 1);  // to (2,2)
  EXPECT_EQ(AgentRunsToString(path.runs()), "S2,L1,E3,~E1");
  absl::StatusOr<AgentWalk> walk = WalkAgentPath(grid, cart, path);
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_EQ(walk->end, (Point{2, 2}));
  EXPECT_EQ(walk->heading, Direction::kE);
  EXPECT_DOUBLE_EQ(walk->cost, 2 + 1 + 3 + 2);
  // A step run whose heading is not the unit's heading.
  path.Reset({0, 0}, Direction::kS);
  path.AppendStep(AgentAction::kForward, Direction::kE, 1);
  EXPECT_FALSE(WalkAgentPath(grid, cart, path).ok());
  // Turning at (3, 0) sweeps (4, 1), which is blocked.
  path.Reset({3, 0}, Direction::kE);
  path.AppendTurn(+1);
  absl::StatusOr<AgentWalk> blocked = WalkAgentPath(grid, cart, path);
  ASSERT_FALSE(blocked.ok());
  EXPECT_NE(blocked.status().message().find("run 0"), std::string::npos);
  // An unoriented class never turns and converts to RunLengthPath and back.
  const AgentClass unit = AgentClass::Default();
  EXPECT_FALSE(WalkAgentPath(grid, unit, path).ok());
  RunLengthPath runs;
  runs.Reset({0, 0});
  runs.Append(Direction::kSE, 2);
  runs.Append(Direction::kE, 1);
  runs.set_cost(1 + 2 * kSqrt2);
  AgentPath converted;
  FromRunLengthPath(runs, &converted);
  walk = WalkAgentPath(grid, unit, converted);
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_NEAR(walk->cost, runs.cost(), 1e-12);
  RunLengthPath back;
  ASSERT_TRUE(ToRunLengthPath(converted, &back).ok());
  EXPECT_EQ(back.runs(), runs.runs());
  EXPECT_EQ(back.start(), runs.start());
  // A diagonal step cutting the corner at (4, 1).
  converted.Reset({3, 2});
  converted.AppendStep(AgentAction::kForward, Direction::kNE, 1);
  EXPECT_FALSE(WalkAgentPath(grid, unit, converted).ok());
}

}  // namespace
}  // namespace zonepath
