// `zonepath demo`: the main job on an embedded default. Loads a map shipped
// in data/, builds its world in memory, plans a few long paths with the
// hierarchical planner and prints them with their statistics, next to exact
// A* on the same queries. Then (--agent-demo) the same for every class of
// data/agents/example.agents on a generated mixed-terrain world, where the
// classes' footprints and terrain costs give them different routes.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "commands.h"
#include "common_flags.h"
#include "zonepath/agents/agent_file.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/build_agent_world.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/agents/class_path.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"

#ifndef ZONEPATH_DEFAULT_MAP
#define ZONEPATH_DEFAULT_MAP "data/demo_terrain_512.map"
#endif
#ifndef ZONEPATH_DEFAULT_AGENTS
#define ZONEPATH_DEFAULT_AGENTS "data/agents/example.agents"
#endif

ABSL_FLAG(std::string, map, ZONEPATH_DEFAULT_MAP, "map to plan on");
ABSL_FLAG(int32_t, queries, 5, "number of long queries to plan");
ABSL_FLAG(bool, agent_demo, true,
          "then plan one long query for every class of "
          "data/agents/example.agents on a generated 384x384 mixed world "
          "(HPA* on the class's world beside the exact class-aware A*)");

namespace zonepath::cli {
namespace {

// Deterministic long queries: corner-to-corner pairs of passable cells in the
// largest component, found by scanning inwards from the four corners.
std::vector<std::pair<Point, Point>> LongQueries(const Grid& grid, int count) {
  std::vector<uint32_t> sizes(grid.component_count(), 0);
  for (int32_t y = 0; y < grid.height(); ++y) {
    for (int32_t x = 0; x < grid.width(); ++x) {
      const uint32_t label = grid.component({x, y});
      if (label != Grid::kNoComponent) ++sizes[label];
    }
  }
  const uint32_t main = static_cast<uint32_t>(
      std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
  // Nearest cell of the main component to a point, scanning square rings.
  auto nearest = [&](Point target) -> Point {
    const int32_t limit = std::max(grid.width(), grid.height());
    for (int32_t r = 0; r < limit; ++r) {
      for (int32_t dy = -r; dy <= r; ++dy) {
        for (int32_t dx = -r; dx <= r; ++dx) {
          if (std::max(std::abs(dx), std::abs(dy)) != r) continue;
          const Point p{target.x + dx, target.y + dy};
          if (grid.InBounds(p) && grid.component(p) == main) return p;
        }
      }
    }
    return target;
  };
  const int32_t w = grid.width() - 1, h = grid.height() - 1;
  const std::vector<std::pair<Point, Point>> anchors = {
      {{0, 0}, {w, h}},         {{w, 0}, {0, h}},
      {{0, h / 2}, {w, h / 2}}, {{w / 2, 0}, {w / 2, h}},
      {{w / 4, h}, {w, 0}},     {{0, h / 4}, {w, h}},
      {{w, h / 4}, {0, h}},     {{w / 2, h / 2}, {0, 0}}};
  std::vector<std::pair<Point, Point>> queries;
  for (int i = 0; i < count; ++i) {
    const auto& [a, b] = anchors[i % anchors.size()];
    queries.push_back({nearest(a), nearest(b)});
  }
  return queries;
}

absl::Status Demo() {
  const std::string map_path = absl::GetFlag(FLAGS_map);
  ASSIGN_OR_RETURN(Grid grid, LoadMapFromFlags(map_path));
  ASSIGN_OR_RETURN(Connectivity connectivity, ConnectivityFromFlags());
  if (grid.component_count() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(map_path, ": no passable cell to plan on"));
  }
  std::printf(
      "map %s: %dx%d, %lld passable cells, %u components, min cost %d\n",
      map_path.c_str(), grid.width(), grid.height(),
      static_cast<long long>(grid.passable_count()), grid.component_count(),
      grid.min_cost());
  AStarOptions options;
  options.connectivity = connectivity;
  RunLengthPath path, exact;
  const auto queries =
      LongQueries(grid, std::max(1, absl::GetFlag(FLAGS_queries)));

  BuildOptions build;
  build.params.connectivity = connectivity;
  BuildReport report;
  ASSIGN_OR_RETURN(World world, BuildWorld(std::move(grid), build, &report));
  std::printf("world built in %.1f ms: ",
              absl::ToDoubleMilliseconds(report.time));
  for (size_t i = 0; i < report.levels.size(); ++i) {
    std::printf("%slevel %zu: %lld zones, %lld beacons, %lld edges",
                i ? "; " : "", i + 1,
                static_cast<long long>(report.levels[i].zones),
                static_cast<long long>(report.levels[i].beacons),
                static_cast<long long>(report.levels[i].edges));
  }
  std::printf("\n");
  GridAStar astar(world.grid());  // the grid now lives in the world
  Planner planner(world);
  PlanOptions plan;
  plan.smooth = true;
  for (const auto& [start, goal] : queries) {
    ASSIGN_OR_RETURN(SearchOutcome outcome,
                     planner.FindPath(start, goal, plan, &path));
    std::printf("\n%s -> %s: %s\n", PointString(start).c_str(),
                PointString(goal).c_str(),
                std::string(SearchOutcomeName(outcome)).c_str());
    if (outcome != SearchOutcome::kFound) continue;
    const PlanStats& s = planner.stats();
    std::string runs = RunsToString(path.runs());
    if (runs.size() > 160) runs = runs.substr(0, 160) + "...";
    std::printf(
        "  cost %.3f (%.3f before smoothing), %lld steps in %zu runs\n"
        "  moves %s\n"
        "  hpa*: %.0f us (connect %.0f, abstract %.0f over %lld nodes, "
        "refine %.0f, smooth %.0f), %lld nodes expanded\n",
        path.cost(), s.cost_before_smoothing,
        static_cast<long long>(path.steps()), path.runs().size(), runs.c_str(),
        absl::ToDoubleMicroseconds(s.total_time()),
        absl::ToDoubleMicroseconds(s.connect.time),
        absl::ToDoubleMicroseconds(s.abstract.time),
        static_cast<long long>(s.abstract_nodes),
        absl::ToDoubleMicroseconds(s.refine.time),
        absl::ToDoubleMicroseconds(s.smooth.time),
        static_cast<long long>(s.total_expanded()));
    ASSIGN_OR_RETURN(SearchOutcome exact_outcome,
                     astar.FindPath(start, goal, options, &exact));
    if (exact_outcome == SearchOutcome::kFound) {
      std::printf(
          "  exact A*: cost %.3f (hpa* +%.2f%%), %.0f us, %lld nodes "
          "expanded\n",
          exact.cost(), 100 * (path.cost() - exact.cost()) / exact.cost(),
          absl::ToDoubleMicroseconds(astar.stats().time),
          static_cast<long long>(astar.stats().expanded));
    }
  }
  return absl::OkStatus();
}

// Share of a path's anchor positions on road (terrain type `road`).
double RoadShare(const Grid& terrain, const RunLengthPath& path, uint8_t road) {
  Point p = path.start();
  int64_t on_road = terrain.cost(p) == road, positions = 1;
  for (const Run& run : path.runs()) {
    for (uint32_t i = 0; i < run.count; ++i) {
      p = {p.x + Dx(run.direction), p.y + Dy(run.direction)};
      on_road += terrain.cost(p) == road;
      ++positions;
    }
  }
  return 100.0 * static_cast<double>(on_road) / static_cast<double>(positions);
}

absl::Status AgentDemo() {
  ASSIGN_OR_RETURN(const AgentSet set, ParseAgentFile(ZONEPATH_DEFAULT_AGENTS));
  MapGenOptions gen;
  gen.kind = MapKind::kMixed;
  gen.width = gen.height = 384;
  gen.seed = 1;
  ASSIGN_OR_RETURN(const Grid terrain, GenerateMap(gen));
  uint8_t road = 0;
  for (const TerrainType& t : set.terrain_types) {
    if (t.name == "road") road = t.type;
  }
  std::printf(
      "\nagents: %s on a generated %dx%d mixed world (zonepath gen --kind "
      "mixed --seed 1), one agent world for every class; per class, the "
      "corner-to-corner query of its largest component planned by name "
      "(AgentPlanner: smoothed HPA* on the class's world; for oriented "
      "classes a route on the guide world followed by bounded exact "
      "searches), exact class-aware A* on the terrain, and the path "
      "re-walked for the footprint\n",
      ZONEPATH_DEFAULT_AGENTS, terrain.width(), terrain.height());
  const absl::Time build_begin = absl::Now();
  ASSIGN_OR_RETURN(const AgentWorld world, BuildAgentWorld(terrain, set, {}));
  const double build_ms = absl::ToDoubleMilliseconds(absl::Now() - build_begin);
  AgentWorldFileSizes sizes;
  if (SerializeAgentWorld(world, &sizes).empty()) {
    return absl::InternalError("the agent world could not be serialised");
  }
  std::printf(
      "  agent world: %zu class worlds built in %.0f ms, file %llu bytes "
      "(terrain %llu, once)\n",
      world.classes().size(), build_ms,
      static_cast<unsigned long long>(sizes.total),
      static_cast<unsigned long long>(sizes.terrain));
  AgentPlanner planner(world);
  ClassAStar exact(terrain);
  for (const AgentClass& agent : set.classes) {
    // Endpoints from the class grid; for an oriented class, from the grid
    // of its turn square (m x m, m = the longer side): positions where it
    // can turn to any heading, between which it can always move (turn,
    // then step inside the square's legal positions), so the query has a
    // path (start heading N, goal heading free).
    AgentClass positions = agent;
    if (agent.oriented) {
      positions.oriented = false;
      positions.width = positions.length = std::max(agent.width, agent.length);
    }
    ASSIGN_OR_RETURN(Grid class_grid, DeriveClassGrid(terrain, positions));
    if (class_grid.component_count() == 0) {
      std::printf("  %-9s no legal position on this world\n",
                  agent.name.c_str());
      continue;
    }
    const auto [start, goal] = LongQueries(class_grid, 1)[0];
    AgentPlanOptions plan;
    plan.hierarchical.smooth = true;
    AgentPath path;
    // Timed the second time: the first makes the class's planner.
    RETURN_IF_ERROR(
        planner.FindPath(agent.name, start, goal, plan, &path).status());
    const absl::Time begin = absl::Now();
    ASSIGN_OR_RETURN(SearchOutcome outcome,
                     planner.FindPath(agent.name, start, goal, plan, &path));
    const double planned_us = absl::ToDoubleMicroseconds(absl::Now() - begin);
    if (outcome != SearchOutcome::kFound) {
      return absl::InternalError(absl::StrCat(
          "class ", agent.name, ": no path in its own largest component"));
    }
    ASSIGN_OR_RETURN(const AgentWalk walk, WalkAgentPath(terrain, agent, path));
    AgentPath optimal;
    ASSIGN_OR_RETURN(const SearchOutcome exact_outcome,
                     exact.FindPath(agent, start, Direction::kN, goal,
                                    ClassAStarOptions(), &optimal));
    if (exact_outcome != SearchOutcome::kFound) {
      return absl::InternalError(absl::StrCat(
          "class ", agent.name, ": the exact search found no path"));
    }
    RunLengthPath moves;
    const double road_share = ToRunLengthPath(path, &moves).ok()
                                  ? RoadShare(terrain, moves, road)
                                  : -1;
    std::printf(
        "  %-9s %dx%d %s-connected%s %s -> %s: %s cost %.1f in %.0f us "
        "(exact %.1f in %.0f us, +%.2f%%), %lld steps",
        agent.name.c_str(), agent.width, agent.length,
        agent.connectivity == Connectivity::kEight ? "8" : "4",
        agent.oriented ? " oriented" : "", PointString(start).c_str(),
        PointString(goal).c_str(), agent.oriented ? "guided" : "hpa*",
        path.cost(), planned_us, optimal.cost(),
        absl::ToDoubleMicroseconds(exact.stats().time),
        100 * (path.cost() - optimal.cost()) / optimal.cost(),
        static_cast<long long>(path.steps()));
    if (road_share >= 0) std::printf(", %.0f%% on road", road_share);
    std::printf(", footprint legal (walked cost %.1f)\n", walk.cost);
  }
  return absl::OkStatus();
}

int Run(const std::vector<std::string>&) {
  absl::Status status = Demo();
  if (status.ok() && absl::GetFlag(FLAGS_agent_demo)) status = AgentDemo();
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kDemoCommand = {
    "demo",
    "Build a world from a map in data/, plan long paths, compare with A*.",
    "usage: zonepath demo [--map MAP] [--queries N] [--agent_demo=false]",
    {"demo_command.cc", "common_flags.cc", "map_flags.cc", "agent_flags.cc"},
    0,
    0,
    &Run};

}  // namespace zonepath::cli
