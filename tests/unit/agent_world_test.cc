// One world for many agent classes (issue 17): the agent world file keeps
// the terrain once and each class's abstraction; loaded, every class world
// is the world a separate build on its class grid gives (same bytes); the
// AgentPlanner answers per class with legal paths no cheaper than the exact
// class-aware search and with its reachability; terrain changes keep every
// class equal to a full rebuild; damaged files are errors naming the field.
// Seeds are printed on failure.
#include "zonepath/agents/agent_world.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "alloc_counter.h"
#include "gtest/gtest.h"
#include "random_terrain.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/build_agent_world.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/agents/class_world_changes.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/world/world_file.h"

namespace zonepath {
namespace {

AgentSet ExampleAgents() {
  absl::StatusOr<AgentSet> agents =
      ParseAgentFile(ZONEPATH_SOURCE_DIR "/data/agents/example.agents");
  EXPECT_TRUE(agents.ok()) << agents.status();
  return *std::move(agents);
}

Grid MixedTerrain(uint64_t seed, int32_t width, int32_t height) {
  MapGenOptions g;
  g.kind = MapKind::kMixed;
  g.width = width;
  g.height = height;
  g.seed = seed;
  return *GenerateMap(g);
}

AgentWorldBuildOptions SmallZones() {
  AgentWorldBuildOptions o;
  o.build.params.zone_size = 16;
  o.build.params.levels = 2;
  o.build.threads = 1;
  return o;
}

void ExpectSameClass(const AgentClass& a, const AgentClass& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.cost_of_type, b.cost_of_type) << a.name;
  EXPECT_EQ(a.width, b.width) << a.name;
  EXPECT_EQ(a.length, b.length) << a.name;
  EXPECT_EQ(a.connectivity, b.connectivity) << a.name;
  EXPECT_EQ(a.oriented, b.oriented) << a.name;
  EXPECT_EQ(a.backward_factor, b.backward_factor) << a.name;
  EXPECT_EQ(a.turn_cost, b.turn_cost) << a.name;
}

TEST(AgentWorldTest, AgentTextRoundTrips) {
  AgentSet agents = ExampleAgents();
  agents.classes.back().backward_factor = 1.0 / 3.0 + 1;  // not short
  const absl::StatusOr<std::string> text = FormatAgentText(agents);
  ASSERT_TRUE(text.ok()) << text.status();
  const absl::StatusOr<AgentSet> back = ParseAgentText(*text, "formatted");
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << *text;
  ASSERT_EQ(back->classes.size(), agents.classes.size());
  for (size_t i = 0; i < agents.classes.size(); ++i) {
    ExpectSameClass(back->classes[i], agents.classes[i]);
  }
  ASSERT_EQ(back->terrain_types.size(), agents.terrain_types.size());
  EXPECT_EQ(*FormatAgentText(*back), *text);

  AgentSet unnamed = agents;
  unnamed.classes[1].cost_of_type[200] = 3;  // type 200 has no terrain line
  EXPECT_EQ(FormatAgentText(unnamed).status().code(),
            absl::StatusCode::kInvalidArgument);
  // What no agent file can state is refused, not written.
  AgentSet reserved = agents;
  reserved.terrain_types[0].map_char = '@';
  EXPECT_EQ(FormatAgentText(reserved).status().code(),
            absl::StatusCode::kInvalidArgument);
  AgentSet wide = agents;
  wide.classes[1].width = AgentClass::kMaxFootprint + 1;
  EXPECT_EQ(FormatAgentText(wide).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(AgentWorldTest, AutomaticZoneSizeComesFromTheTerrain) {
  // One cell over 4096 a side: every class world gets zones of 64, and an
  // oriented class's spacing is checked against that size before any class
  // is built (4 suits zones of 32, not 64).
  const AgentSet agents = ExampleAgents();
  const Grid terrain = MixedTerrain(7, 4097, 24);
  AgentWorldBuildOptions o;
  o.build.threads = 1;
  const absl::StatusOr<AgentWorld> built = BuildAgentWorld(terrain, agents, o);
  ASSERT_TRUE(built.ok()) << built.status();
  ASSERT_EQ(built->classes().size(), agents.classes.size());
  for (const AgentWorld::ClassWorldEntry& c : built->classes()) {
    EXPECT_EQ(c.world.params().zone_size, 64) << c.agent.name;
  }
  o.oriented_beacon_spacing = 4;
  const absl::StatusOr<AgentWorld> narrow = BuildAgentWorld(terrain, agents, o);
  EXPECT_EQ(narrow.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(narrow.status().message().find(
                "agent world build options (oriented_beacon_spacing 4): "
                "beacon_spacing 4 not 0 or in 8..1024 for zone_size 64"),
            std::string::npos)
      << narrow.status();
}

TEST(AgentWorldTest, EachClassIsTheWorldOfItsOwnBuild) {
  const AgentSet agents = ExampleAgents();
  const Grid terrain = MixedTerrain(3, 120, 100);
  const AgentWorldBuildOptions o = SmallZones();
  const absl::StatusOr<AgentWorld> built = BuildAgentWorld(terrain, agents, o);
  ASSERT_TRUE(built.ok()) << built.status();
  AgentWorldFileSizes sizes;
  const std::string bytes = SerializeAgentWorld(*built, &sizes);
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(sizes.total, bytes.size());
  EXPECT_EQ(sizes.terrain, 120u * 100u);

  const absl::StatusOr<AgentWorld> loaded = ParseAgentWorld(bytes, "mixed.zpa");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->terrain().CostVector(), terrain.CostVector());
  std::vector<std::string> names;
  for (const AgentClass& c : agents.classes) names.push_back(c.name);
  ASSERT_EQ(loaded->classes().size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const AgentClass& agent = loaded->classes()[i].agent;
    EXPECT_EQ(agent.name, names[i]);
    BuildOptions separate = o.build;
    separate.params.connectivity = agent.connectivity;
    if (agent.oriented) {  // guides of oriented classes: their own spacing
      separate.params.beacon_spacing = o.oriented_beacon_spacing;
      EXPECT_GT(separate.params.beacon_spacing, 0);
    }
    absl::StatusOr<Grid> guide = DeriveGuideGrid(terrain, agent);
    ASSERT_TRUE(guide.ok()) << guide.status();
    const absl::StatusOr<World> own = BuildWorld(*std::move(guide), separate);
    ASSERT_TRUE(own.ok()) << own.status();
    const absl::StatusOr<const World*> shared = loaded->ClassWorld(agent.name);
    ASSERT_TRUE(shared.ok()) << shared.status();
    EXPECT_EQ(SerializeWorld(**shared), SerializeWorld(*own)) << agent.name;
  }
  // Loaded again, it saves to the same bytes.
  EXPECT_EQ(SerializeAgentWorld(*loaded), bytes);
  // Class worlds out of the agent set's order would not load: not saved.
  std::vector<AgentWorld::ClassWorldEntry> swapped = loaded->classes();
  std::swap(swapped[1], swapped[2]);
  const AgentWorld unordered(agents, terrain, std::move(swapped));
  const std::string path = absl::StrCat(::testing::TempDir(), "/unordered.zpa");
  EXPECT_EQ(SaveAgentWorldFile(unordered, path).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(std::ifstream(path).good());

  EXPECT_TRUE(loaded->ClassWorld("ship").ok());  // oriented: its guide
  EXPECT_EQ(loaded->ClassWorld("submarine").status().code(),
            absl::StatusCode::kInvalidArgument);

  AgentWorldBuildOptions some = o;
  some.classes = {"tank", "infantry"};
  const absl::StatusOr<AgentWorld> two = BuildAgentWorld(terrain, agents, some);
  ASSERT_TRUE(two.ok()) << two.status();
  ASSERT_EQ(two->classes().size(), 2u);
  EXPECT_EQ(two->classes()[0].agent.name, "infantry");  // file order
  EXPECT_EQ(two->ClassWorld("scout").status().code(),
            absl::StatusCode::kFailedPrecondition);
  some.classes = {"tank", "tank"};
  EXPECT_EQ(BuildAgentWorld(terrain, agents, some).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(AgentWorldTest, SavedAndMappedWorldLoadsTheSameClasses) {
  const AgentSet agents = ExampleAgents();
  const absl::StatusOr<AgentWorld> built =
      BuildAgentWorld(MixedTerrain(5, 90, 70), agents, SmallZones());
  ASSERT_TRUE(built.ok()) << built.status();
  const std::string path =
      absl::StrCat(::testing::TempDir(), "/agent_world_test.zpa");
  // Both forms of the class worlds: compact (version 2) and world files
  // (version 1) load to the same worlds, class by class.
  uint64_t file_bytes[2] = {0, 0};
  for (const bool compact : {true, false}) {
    AgentWorldWriteOptions write;
    write.compact_classes = compact;
    AgentWorldFileSizes sizes;
    ASSERT_TRUE(SaveAgentWorldFile(*built, path, &sizes, write).ok());
    file_bytes[compact ? 0 : 1] = sizes.total;
    for (const AgentWorldFileSizes::PerClass& c : sizes.classes) {
      EXPECT_EQ(c.compact, compact) << c.name;
    }
    for (const bool map : {true, false}) {
      LoadOptions options;
      options.map = map;
      options.verify_refinement = true;
      const absl::StatusOr<AgentWorld> loaded =
          LoadAgentWorldFile(path, options);
      ASSERT_TRUE(loaded.ok()) << loaded.status();
      EXPECT_EQ(SerializeAgentWorld(*loaded, nullptr, write),
                SerializeAgentWorld(*built, nullptr, write));
      ASSERT_EQ(loaded->classes().size(), built->classes().size());
      for (size_t i = 0; i < built->classes().size(); ++i) {
        EXPECT_EQ(SerializeWorld(loaded->classes()[i].world),
                  SerializeWorld(built->classes()[i].world))
            << built->classes()[i].agent.name << " compact " << compact;
      }
      // The default class plans on the terrain's pages, counted once.
      const World& fallback = **loaded->ClassWorld("default");
      EXPECT_TRUE(fallback.grid().SharesStorageWith(loaded->terrain()));
      size_t sum = loaded->terrain().MemoryUsage();
      for (const AgentWorld::ClassWorldEntry& c : loaded->classes()) {
        sum += c.world.MemoryUsage();
      }
      EXPECT_EQ(loaded->MemoryUsage(), sum - fallback.grid().MemoryUsage());
    }
  }
  EXPECT_LT(file_bytes[0], file_bytes[1]);
  ASSERT_TRUE(SaveAgentWorldFile(*built, path).ok());
  // Only some classes: the others are not loaded (and cost nothing).
  AgentLoadOptions some;
  some.classes = {"tank", "ship"};
  const absl::StatusOr<AgentWorld> two = LoadAgentWorldFile(path, some);
  ASSERT_TRUE(two.ok()) << two.status();
  ASSERT_EQ(two->classes().size(), 2u);
  EXPECT_EQ(SerializeWorld(**two->ClassWorld("tank")),
            SerializeWorld(**built->ClassWorld("tank")));
  EXPECT_EQ(two->ClassWorld("infantry").status().code(),
            absl::StatusCode::kFailedPrecondition);
  some.classes = {"zeppelin"};
  EXPECT_EQ(LoadAgentWorldFile(path, some).status().code(),
            absl::StatusCode::kInvalidArgument);
  LoadOptions tight;
  tight.memory_limit = 1000;
  EXPECT_EQ(LoadAgentWorldFile(path, tight).status().code(),
            absl::StatusCode::kResourceExhausted);
  // The up-front estimate: the file, a class grid's 4 bytes a cell per
  // class, and only for compact classes their expansion. A version-1 file
  // loads with just the first two; the compact one needs more.
  {
    const uint64_t cells = uint64_t{90} * 70;
    const uint64_t classes = built->classes().size();
    AgentWorldWriteOptions plain_classes;
    plain_classes.compact_classes = false;
    AgentWorldFileSizes sizes;
    ASSERT_TRUE(SaveAgentWorldFile(*built, path, &sizes, plain_classes).ok());
    LoadOptions just;
    just.memory_limit = sizes.total + 4 * cells * classes;
    EXPECT_TRUE(LoadAgentWorldFile(path, just).ok());
    ASSERT_TRUE(SaveAgentWorldFile(*built, path, &sizes).ok());
    just.memory_limit = sizes.total + 4 * cells * classes;
    EXPECT_EQ(LoadAgentWorldFile(path, just).status().code(),
              absl::StatusCode::kResourceExhausted);
    // One class: the largest compact class's expansion is counted, not
    // every class's.
    uint64_t largest = 0;
    for (const AgentWorldFileSizes::PerClass& c : sizes.classes) {
      largest = std::max(largest, c.bytes);
    }
    AgentLoadOptions one;
    one.classes = {"tank"};
    one.world.memory_limit = sizes.total + 4 * cells + 18 * largest;
    EXPECT_TRUE(LoadAgentWorldFile(path, one).ok());
    one.world.memory_limit = sizes.total + 4 * cells + 17 * largest;
    EXPECT_EQ(LoadAgentWorldFile(path, one).status().code(),
              absl::StatusCode::kResourceExhausted);
  }
  std::remove(path.c_str());
}

// Anchor positions legal for `agent` (any heading for oriented classes).
std::vector<Point> LegalAnchors(const Grid& terrain, const AgentClass& agent) {
  std::vector<Point> out;
  for (int32_t y = 0; y < terrain.height(); ++y) {
    for (int32_t x = 0; x < terrain.width(); ++x) {
      if (PositionCost(terrain, agent, {x, y}) != 0) out.push_back({x, y});
    }
  }
  return out;
}

// A found path is legal for the class, ends at `goal` (in `heading` if
// fixed) and costs what it walks, never less than the exact `oracle`.
void ExpectLegalPath(const Grid& terrain, const AgentClass& agent,
                     const AgentPath& path, Point goal,
                     std::optional<Direction> heading, const AgentPath& oracle,
                     const std::string& context) {
  const absl::StatusOr<AgentWalk> walk = WalkAgentPath(terrain, agent, path);
  ASSERT_TRUE(walk.ok()) << context << ": " << walk.status();
  EXPECT_EQ(walk->end, goal) << context;
  if (heading.has_value()) {
    EXPECT_EQ(walk->heading, *heading) << context;
  }
  EXPECT_NEAR(walk->cost, path.cost(), 1e-9 * (1 + path.cost())) << context;
  EXPECT_GE(path.cost(), oracle.cost() * (1 - 1e-9)) << context;
}

// The example file's classes, and two oriented units that fit the mixed
// kind's land: a 4-headed 1 x 2 cart that pays for reversing and turning,
// and an 8-headed 2 x 3 rover.
AgentSet TestAgents() {
  std::string text;
  {
    std::ifstream in(ZONEPATH_SOURCE_DIR "/data/agents/example.agents");
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  text +=
      "class cart size 1x2 connectivity 4 cost ground=1,road=1,forest=2 "
      "oriented yes backward 2 turn 1\n"
      "class rover size 2x3 connectivity 8 cost "
      "ground=1,road=1,hills=2,shallow=3 oriented yes backward 1.5 turn "
      "0.5\n";
  absl::StatusOr<AgentSet> agents = ParseAgentText(text, "test agents");
  EXPECT_TRUE(agents.ok()) << agents.status();
  return *std::move(agents);
}

TEST(AgentWorldTest, PlannerAnswersEveryClassLikeTheExactSearch) {
  const AgentSet agents = TestAgents();
  int64_t found = 0, unreachable = 0, oriented_found = 0;
  double oriented_excess = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const Grid terrain = MixedTerrain(seed, 96, 80);
    const absl::StatusOr<AgentWorld> world =
        BuildAgentWorld(terrain, agents, SmallZones());
    ASSERT_TRUE(world.ok()) << world.status();
    AgentPlanner planner(*world);
    ClassAStar exact(terrain);
    std::mt19937_64 rng(seed * 977);
    for (const AgentClass& agent : agents.classes) {
      const std::vector<Point> anchors = LegalAnchors(terrain, agent);
      if (anchors.size() < 2) continue;
      for (int q = 0; q < 12; ++q) {
        const Point s = anchors[rng() % anchors.size()];
        const Point g = anchors[rng() % anchors.size()];
        const std::string context =
            absl::StrCat("seed ", seed, " class ", agent.name, " (", s.x, ",",
                         s.y, ")->(", g.x, ",", g.y, ")");
        AgentPlanOptions options;
        options.hierarchical.smooth = q % 2 == 0;
        ClassAStarOptions exact_options;
        if (agent.oriented && q % 3 == 0) {
          // A fixed goal heading, where the unit fits heading E.
          const Direction e = Direction::kE;
          if (PositionCost(terrain, agent, g, e) != 0) {
            options.goal_heading = exact_options.goal_heading = e;
          }
        }
        options.follow_steps = 8 + static_cast<int>(rng() % 40);
        AgentPath path, oracle;
        const absl::StatusOr<SearchOutcome> got =
            planner.FindPath(agent.name, s, g, options, &path);
        const absl::StatusOr<SearchOutcome> want =
            exact.FindPath(agent, s, Direction::kN, g, exact_options, &oracle);
        ASSERT_TRUE(want.ok()) << context << ": " << want.status();
        ASSERT_TRUE(got.ok()) << context << ": " << got.status();
        ASSERT_EQ(*got, *want) << context;
        if (*got != SearchOutcome::kFound) {
          ++unreachable;
          continue;
        }
        ++found;
        ExpectLegalPath(terrain, agent, path, g, options.goal_heading, oracle,
                        context);
        if (agent.oriented && oracle.cost() > 0) {
          ++oriented_found;
          oriented_excess += path.cost() / oracle.cost() - 1;
        }
      }
    }
  }
  EXPECT_GT(found, 100);
  EXPECT_GT(unreachable, 0);
  ASSERT_GT(oriented_found, 40);
  const double mean_excess = oriented_excess / oriented_found;
  std::printf("oriented: %lld paths, mean %.3f%% over the optimum\n",
              static_cast<long long>(oriented_found), 100 * mean_excess);
  EXPECT_LT(mean_excess, 0.05);
  AgentSet only_default;
  only_default.classes.push_back(AgentClass::Default());
  const AgentWorld empty(only_default, MixedTerrain(1, 20, 20), {});
  AgentPlanner none(empty);
  AgentPath path;
  EXPECT_EQ(none.FindPath("tank", {1, 1}, {2, 2}, {}, &path).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(none.FindPath("default", {1, 1}, {2, 2}, {}, &path).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

// Types 0 (blocked) .. 4, reproducible from the seed.
Grid RandomTerrain(uint64_t seed) {
  return testing::RandomTerrain(seed, 8, 24, 25);
}

// Oriented classes on 200 random terrains, with short horizons and narrow
// boxes so that stretches are widened and the exact fallback runs: the
// same reachability as the exact search, legal paths at their cost, never
// below the optimum, ending in the goal heading when one is fixed.
TEST(AgentWorldTest, OrientedQueriesOnRandomTerrains) {
  const absl::StatusOr<AgentSet> agents = ParseAgentText(
      "terrain a 1 a\nterrain b 2 b\nterrain c 3 c\nterrain d 4 d\n"
      "class cart size 1x2 connectivity 4 cost a=1,b=1,c=2,d=5 oriented yes "
      "backward 2 turn 1\n"
      "class rover size 2x3 connectivity 8 cost a=1,b=2,c=3 oriented yes "
      "backward 1.5 turn 0.5\n"
      "class pole size 1x3 connectivity 8 cost a=1,b=1,c=1,d=1 oriented yes "
      "backward 1 turn 0\n",
      "test agents");
  ASSERT_TRUE(agents.ok()) << agents.status();
  int64_t found = 0, unreachable = 0, fallbacks = 0, widened = 0, skipped = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Grid terrain = RandomTerrain(seed);
    AgentWorldBuildOptions o;
    o.build.params.zone_size = 4 + static_cast<int>(seed % 5);
    o.build.params.levels = 1 + static_cast<int>(seed % 2);
    o.build.threads = 1;
    o.classes = {"cart", "rover", "pole"};
    const absl::StatusOr<AgentWorld> world =
        BuildAgentWorld(terrain, *agents, o);
    ASSERT_TRUE(world.ok()) << "seed " << seed << ": " << world.status();
    AgentPlanner planner(*world);
    ClassAStar exact(terrain);
    std::mt19937_64 rng(seed * 131);
    for (const AgentWorld::ClassWorldEntry& c : world->classes()) {
      const AgentClass& agent = c.agent;
      const std::vector<Point> anchors = LegalAnchors(terrain, agent);
      if (anchors.empty()) continue;
      for (int q = 0; q < 6; ++q) {
        const Point s = anchors[rng() % anchors.size()];
        const Point g = anchors[rng() % anchors.size()];
        AgentPlanOptions options;
        options.follow_steps = 1 + static_cast<int>(rng() % 10);
        options.follow_margin = static_cast<int>(rng() % 4);
        options.hierarchical.smooth = rng() % 2 == 0;
        ClassAStarOptions exact_options;
        if (q % 2 == 0) options.goal_heading = Direction::kN;
        exact_options.goal_heading = options.goal_heading;
        const std::string context = absl::StrCat(
            "seed ", seed, " class ", agent.name, " (", s.x, ",", s.y, ")->(",
            g.x, ",", g.y, ") follow ", options.follow_steps, " margin ",
            options.follow_margin, "\n", testing::TerrainText(terrain));
        AgentPath path, oracle;
        const absl::StatusOr<SearchOutcome> got =
            planner.FindPath(agent.name, s, g, options, &path);
        const absl::StatusOr<SearchOutcome> want =
            exact.FindPath(agent, s, Direction::kN, g, exact_options, &oracle);
        ASSERT_TRUE(want.ok()) << context << want.status();
        ASSERT_TRUE(got.ok()) << context << got.status();
        ASSERT_EQ(*got, *want) << context;
        fallbacks += planner.oriented_stats().exact_fallbacks;
        widened += planner.oriented_stats().widened;
        skipped += planner.oriented_stats().skipped;
        if (*got != SearchOutcome::kFound) {
          ++unreachable;
          continue;
        }
        ++found;
        ExpectLegalPath(terrain, agent, path, g, options.goal_heading, oracle,
                        context);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  std::printf(
      "%lld found, %lld unreachable, %lld widened, %lld skipped ahead, %lld "
      "fallbacks\n",
      static_cast<long long>(found), static_cast<long long>(unreachable),
      static_cast<long long>(widened), static_cast<long long>(skipped),
      static_cast<long long>(fallbacks));
  EXPECT_GT(found, 1000);
  EXPECT_GT(unreachable, 50);
  EXPECT_GT(widened, 0);
  EXPECT_GT(skipped, 0);
  EXPECT_GT(fallbacks, 0);
}

// Warm queries allocate nothing, for an unoriented class (the HPA*
// planner) and for an oriented one (guide route, bounded exact searches,
// widenings and the exact fallback included).
// oriented_beacon_spacing is checked against the zone size only when an
// oriented class is built: zones of 128 (spacing at least 16) build the
// unoriented classes with the default 8, and refuse an oriented one.
TEST(AgentWorldTest, OrientedSpacingCheckedOnlyForOrientedClasses) {
  const AgentSet agents = ExampleAgents();
  const Grid terrain = MixedTerrain(3, 160, 128);
  AgentWorldBuildOptions o;
  o.build.params.zone_size = 128;
  o.build.threads = 1;
  o.classes = {"tank", "boat"};
  const absl::StatusOr<AgentWorld> unoriented =
      BuildAgentWorld(terrain, agents, o);
  EXPECT_TRUE(unoriented.ok()) << unoriented.status();
  o.classes = {"tank", "wagon"};
  const absl::StatusOr<AgentWorld> oriented =
      BuildAgentWorld(terrain, agents, o);
  EXPECT_EQ(oriented.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(oriented.status().message().find("oriented_beacon_spacing 8"),
            std::string::npos)
      << oriented.status();
}

TEST(AgentWorldTest, WarmPlannerDoesNotAllocate) {
  const AgentSet agents = ExampleAgents();
  const Grid terrain = MixedTerrain(2, 96, 80);
  const absl::StatusOr<AgentWorld> world =
      BuildAgentWorld(terrain, agents, SmallZones());
  ASSERT_TRUE(world.ok()) << world.status();
  AgentPlanner planner(*world);
  std::mt19937_64 rng(11);
  struct Query {
    const char* agent;
    Point start, goal;
    int follow_steps;
  };
  std::vector<Query> queries;
  for (const char* name : {"tank", "wagon"}) {
    const absl::StatusOr<const AgentClass*> agent = agents.Find(name);
    ASSERT_TRUE(agent.ok());
    const std::vector<Point> anchors = LegalAnchors(terrain, **agent);
    ASSERT_GT(anchors.size(), 10u) << name;
    for (int i = 0; i < 20; ++i) {
      queries.push_back({name, anchors[rng() % anchors.size()],
                         anchors[rng() % anchors.size()],
                         1 + static_cast<int>(rng() % 30)});
    }
  }
  AgentPath path;
  int64_t widened = 0, fallbacks = 0, merged = 0;
  for (int round = 0; round < 3; ++round) {  // two rounds of warm-up
    const int64_t before = testing::AllocationCount();
    for (const Query& q : queries) {
      AgentPlanOptions options;
      options.follow_steps = q.follow_steps;
      options.follow_margin = 0;
      ASSERT_TRUE(
          planner.FindPath(q.agent, q.start, q.goal, options, &path).ok());
      widened += planner.oriented_stats().widened;
      fallbacks += planner.oriented_stats().exact_fallbacks;
      merged += planner.oriented_stats().merged;
    }
    if (round == 2) {
      EXPECT_EQ(testing::AllocationCount(), before);
    }
  }
  EXPECT_GT(widened, 0);
  EXPECT_GT(merged, 0);  // the staircase merger ran in the counted rounds
}

TEST(AgentWorldTest, TerrainChangesEqualAFullRebuild) {
  const AgentSet agents = ExampleAgents();
  const AgentWorldBuildOptions o = SmallZones();
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    Grid terrain = MixedTerrain(seed, 100, 90);
    absl::StatusOr<AgentWorld> world = BuildAgentWorld(terrain, agents, o);
    ASSERT_TRUE(world.ok()) << world.status();
    std::mt19937_64 rng(seed * 7);
    for (int batch = 0; batch < 4; ++batch) {
      std::vector<CellChange> changes;
      const int32_t x = static_cast<int32_t>(rng() % 90);
      const int32_t y = static_cast<int32_t>(rng() % 80);
      const int32_t type = static_cast<int32_t>(rng() % 7);
      for (int32_t j = 0; j < 5; ++j) {
        for (int32_t i = 0; i < 8; ++i)
          changes.push_back({{x + i, y + j}, type});
      }
      changes.push_back({{x, y}, static_cast<int32_t>(rng() % 7)});  // again
      const std::string context = absl::StrCat("seed ", seed, " batch ", batch);
      absl::StatusOr<AgentWorld> next = ApplyTerrainChanges(*world, changes);
      ASSERT_TRUE(next.ok()) << context << ": " << next.status();
      const absl::StatusOr<AgentWorld> rebuilt =
          BuildAgentWorld(next->terrain(), agents, o);
      ASSERT_TRUE(rebuilt.ok()) << context;
      EXPECT_EQ(next->terrain().cost(Point{x, y}), changes.back().cost)
          << context;
      ASSERT_EQ(SerializeAgentWorld(*next), SerializeAgentWorld(*rebuilt))
          << context;
      world = std::move(next);
    }
  }
  const absl::StatusOr<AgentWorld> world =
      BuildAgentWorld(MixedTerrain(1, 40, 40), agents, o);
  ASSERT_TRUE(world.ok());
  const std::vector<CellChange> outside = {{{40, 0}, 1}};
  EXPECT_EQ(ApplyTerrainChanges(*world, outside).status().code(),
            absl::StatusCode::kInvalidArgument);
  const std::vector<CellChange> bad_type = {{{1, 1}, 300}};
  EXPECT_EQ(ApplyTerrainChanges(*world, bad_type).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Byte offset of class table entry `i` of the agent world file `bytes`
// (i < 0: counted from the end), its entry, and `bytes` with it replaced.
size_t EntryAt(const std::string& bytes, int i) {
  AgentWorldHeader header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  const size_t index = i >= 0 ? i : header.class_count + i;
  return sizeof(header) + index * sizeof(AgentWorldClassEntry);
}
AgentWorldClassEntry EntryOf(const std::string& bytes, int i) {
  AgentWorldClassEntry e;
  std::memcpy(&e, bytes.data() + EntryAt(bytes, i), sizeof(e));
  return e;
}
std::string WithEntry(std::string bytes, int i, const AgentWorldClassEntry& e) {
  std::memcpy(bytes.data() + EntryAt(bytes, i), &e, sizeof(e));
  return bytes;
}

TEST(AgentWorldTest, DamagedFilesAreErrorsNamingTheField) {
  const AgentSet agents = ExampleAgents();
  const absl::StatusOr<AgentWorld> built =
      BuildAgentWorld(MixedTerrain(4, 64, 48), agents, SmallZones());
  ASSERT_TRUE(built.ok());
  const std::string bytes = SerializeAgentWorld(*built);
  auto message = [](const absl::StatusOr<AgentWorld>& w) {
    return std::string(w.status().message());
  };
  // Every truncation.
  for (size_t n = 0; n < bytes.size(); n += 97) {
    const absl::StatusOr<AgentWorld> w =
        ParseAgentWorld(bytes.substr(0, n), "cut.zpa");
    ASSERT_FALSE(w.ok()) << n;
  }
  // Not an agent world (a plain world file).
  const std::string plain = SerializeWorld(built->classes()[0].world);
  EXPECT_EQ(ParseAgentWorld(plain, "plain.zpw").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(LooksLikeAgentWorld(plain));
  EXPECT_TRUE(LooksLikeAgentWorld(bytes));
  // A flipped byte in the terrain, the agent text, a class world.
  AgentWorldHeader header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  const AgentWorldClassEntry last = EntryOf(bytes, -1);
  struct Flip {
    uint64_t at;
    std::string expect;
  };
  const std::string last_name = built->classes().back().agent.name;
  for (const Flip& f :
       {Flip{header.terrain_offset + 100, "terrain: checksum mismatch"},
        Flip{header.agents_offset + 3, "agent text: checksum mismatch"},
        Flip{last.offset + last.size / 2,
             absl::StrCat("class ", last_name, ": checksum mismatch")},
        Flip{20, "header_crc mismatch"}}) {
    std::string bad = bytes;
    bad[f.at] ^= 0x20;
    const absl::StatusOr<AgentWorld> w = ParseAgentWorld(bad, "bad.zpa");
    ASSERT_FALSE(w.ok()) << f.expect;
    EXPECT_NE(message(w).find(f.expect), std::string::npos) << message(w);
    EXPECT_NE(message(w).find("bad.zpa"), std::string::npos) << message(w);
  }
  // Without checksums, the structural checks still name what is wrong: a
  // class world's damaged header, an agent text that does not parse.
  LoadOptions no_crc;
  no_crc.verify_checksums = false;
  {
    // The compact class world's zone_size (after its magic, version,
    // width and height).
    ASSERT_EQ(last.encoding,
              static_cast<uint64_t>(ClassWorldEncoding::kCompact));
    std::string bad = bytes;
    bad[last.offset + 21] = 0x7f;
    const absl::StatusOr<AgentWorld> w =
        ParseAgentWorld(bad, "bad.zpa", no_crc);
    ASSERT_FALSE(w.ok());
    EXPECT_NE(
        message(w).find(absl::StrCat(
            "class ", last_name, ": compact abstraction: header: zone_size")),
        std::string::npos)
        << message(w);
  }
  {
    // The same in the world file form (format version 1).
    AgentWorldWriteOptions plain_classes;
    plain_classes.compact_classes = false;
    const std::string v1 = SerializeAgentWorld(*built, nullptr, plain_classes);
    AgentWorldHeader v1_header;
    std::memcpy(&v1_header, v1.data(), sizeof(v1_header));
    EXPECT_EQ(v1_header.version, 1u);
    const AgentWorldClassEntry v1_last = EntryOf(v1, -1);
    std::string bad = v1;
    bad[v1_last.offset + 33] = 0x7f;  // the class world's zone_size
    const absl::StatusOr<AgentWorld> w =
        ParseAgentWorld(bad, "bad.zpa", no_crc);
    ASSERT_FALSE(w.ok());
    EXPECT_NE(message(w).find(
                  absl::StrCat("class ", last_name, ": header: zone_size")),
              std::string::npos)
        << message(w);
    // A compact encoding is refused in a version-1 file.
    AgentWorldClassEntry compact_in_v1 = v1_last;
    compact_in_v1.encoding = 1;
    bad = WithEntry(v1, -1, compact_in_v1);
    const absl::StatusOr<AgentWorld> refused =
        ParseAgentWorld(bad, "bad.zpa", no_crc);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(message(refused).find("encoding 1 (a version-1 file has 0)"),
              std::string::npos)
        << message(refused);
  }
  {
    // Encoding 2 in a version-2 file; a version this build does not know.
    AgentWorldClassEntry unknown = last;
    unknown.encoding = 2;
    std::string bad = WithEntry(bytes, -1, unknown);
    const absl::StatusOr<AgentWorld> w =
        ParseAgentWorld(bad, "bad.zpa", no_crc);
    ASSERT_FALSE(w.ok());
    EXPECT_NE(message(w).find("encoding 2 (a version-2 file has 0 or 1)"),
              std::string::npos)
        << message(w);
    bad = bytes;
    AgentWorldHeader future = header;
    future.version = 3;
    std::memcpy(bad.data(), &future, sizeof(future));
    const absl::StatusOr<AgentWorld> v3 =
        ParseAgentWorld(bad, "bad.zpa", no_crc);
    EXPECT_EQ(v3.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(message(v3).find("version 3, this build reads versions 1 to 2"),
              std::string::npos)
        << message(v3);
  }
  {
    // The last class table entry pointing at the one before it.
    AgentWorldClassEntry moved = last;
    moved.offset = EntryOf(bytes, -2).offset;
    const std::string bad = WithEntry(bytes, -1, moved);
    const absl::StatusOr<AgentWorld> w =
        ParseAgentWorld(bad, "bad.zpa", no_crc);
    ASSERT_FALSE(w.ok());
    EXPECT_NE(message(w).find("overlaps the part before it"), std::string::npos)
        << message(w);
  }
  {
    std::string bad = bytes;
    bad[header.agents_offset] = '!';
    const absl::StatusOr<AgentWorld> w =
        ParseAgentWorld(bad, "bad.zpa", no_crc);
    ASSERT_FALSE(w.ok());
    EXPECT_NE(message(w).find("bad.zpa: agent text:1"), std::string::npos)
        << message(w);
  }
  // Random byte flips: an error or a world, never a crash.
  std::mt19937_64 rng(5);
  int refused = 0;
  for (int i = 0; i < 300; ++i) {
    std::string bad = bytes;
    bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    if (!ParseAgentWorld(bad, "flip.zpa", no_crc).ok()) ++refused;
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace zonepath
