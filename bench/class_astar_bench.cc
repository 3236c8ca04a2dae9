// Exact class-aware A* (ClassAStar) against GridAStar on the longest quarter
// of a 1024^2 MovingAI scenario (sc1/Cauldron): the default class (same
// answers as GridAStar, the price of the general footprint and heading
// code), a 3 x 3 square and an oriented 1 x 2 unit (4 headings, backward
// x2, turn 1, any goal heading). The query set is the longest-quarter
// problems whose start and goal are legal for all three classes and that
// all three reach, so every benchmark runs the same queries. Reports time
// per query and nodes expanded per query ("expanded"). Also HPA* (the
// Planner on a world built on the class grid) for the default class and
// the 3 x 3 square, plain and smoothed, with its mean suboptimality
// against ClassAStar: the issue's "size 3 within 1.5x of size 1, >= 20x
// faster than exact class-aware A*" ratios come from one run.
//
//   build/bench/zonepath_agents_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_maps.h"
#include "bench_status.h"
#include "benchmark/benchmark.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/build_agent_world.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath::bench {
namespace {

constexpr size_t kMaxQueries = 32;

struct Workload {
  Grid grid;
  std::vector<Query> queries;
  AgentClass square3;
  AgentClass cart;
  // HPA* worlds: on the terrain (default class) and on the 3 x 3 class grid.
  std::unique_ptr<World> default_world;
  std::unique_ptr<World> square3_world;
  // The cart's agent world (its guide world), for AgentPlanner.
  std::unique_ptr<AgentWorld> cart_world;
};

Workload* TheWorkload() {
  static Workload* work = []() -> Workload* {
    const auto map = SharedMapsDir() / "sc1" / "Cauldron.map";
    absl::StatusOr<Grid> grid = ReadMapFile(map.string());
    absl::StatusOr<Scenario> scen = ReadScenarioFile(map.string() + ".scen");
    if (!grid.ok() || !scen.ok()) {
      std::fprintf(stderr, "note: %s not readable; skipping\n", map.c_str());
      return nullptr;
    }
    auto* w = new Workload;
    w->grid = *std::move(grid);
    w->square3 = AgentClass::Default();
    w->square3.name = "square3";
    w->square3.width = w->square3.length = 3;
    w->cart = AgentClass::Default();
    w->cart.name = "cart1x2";
    w->cart.length = 2;
    w->cart.connectivity = Connectivity::kFour;
    w->cart.oriented = true;
    w->cart.backward_factor = 2.0;
    w->cart.turn_cost = 1.0;
    ClassAStar search(w->grid);
    AgentPath path;
    for (const Query& q : LongestQuarter(*scen)) {
      if (w->queries.size() == kMaxQueries) break;
      bool all = true;
      for (const AgentClass* c : {&w->square3, &w->cart}) {
        absl::StatusOr<SearchOutcome> outcome = search.FindPath(
            *c, q.start, Direction::kN, q.goal, ClassAStarOptions(), &path);
        all = all && outcome.ok() && *outcome == SearchOutcome::kFound;
      }
      if (all) w->queries.push_back(q);
    }
    BuildOptions build;  // the defaults `zonepath build` uses
    build.threads = 2;
    w->default_world = std::make_unique<World>(*BuildWorld(w->grid, build));
    w->square3_world = std::make_unique<World>(
        *BuildWorld(*DeriveClassGrid(w->grid, w->square3), build));
    // The cart's world as `zonepath build --agents` makes it (its guide
    // with the oriented classes' beacon spacing).
    // An agent file names every terrain type a class may enter: one line
    // per cost the map holds (Cauldron: 1), the cart's other types off
    // (the map has none, so its moves are the same).
    AgentSet agents;
    AgentClass cart = w->cart;
    // The grid's cell count per cost, kept by the grid (no scan).
    const std::vector<int64_t> counts = w->grid.Components().cost_counts;
    const std::string chars = ".abcdefghijklmnopqrstuvwxyz";
    for (int t = 1; t < 256; ++t) {
      if (counts[t] == 0 || agents.terrain_types.size() >= chars.size()) {
        cart.cost_of_type[t] = 0;
        continue;
      }
      agents.terrain_types.push_back({"t" + std::to_string(t),
                                      static_cast<uint8_t>(t),
                                      chars[agents.terrain_types.size()]});
    }
    agents.classes = {AgentClass::Default(), cart};
    AgentWorldBuildOptions cart_build;
    cart_build.build = build;
    cart_build.classes = {w->cart.name};
    w->cart_world = std::make_unique<AgentWorld>(
        *BuildAgentWorld(w->grid, std::move(agents), cart_build));
    std::fprintf(stderr,
                 "Cauldron: %zu longest-quarter queries legal and "
                 "reachable for every class\n",
                 w->queries.size());
    return w;
  }();
  return work;
}

// One iteration runs every query once (time / "queries" is the mean time
// of a query); "expanded" is the mean nodes expanded per query.
void SetCounters(benchmark::State& state, int64_t expanded, int64_t queries) {
  state.counters["expanded"] =
      benchmark::Counter(static_cast<double>(expanded) / queries);
  state.counters["queries"] = benchmark::Counter(
      static_cast<double>(queries) / static_cast<double>(state.iterations()));
}

void RunGridAStar(benchmark::State& state) {
  const Workload* work = TheWorkload();
  if (work == nullptr || work->queries.empty()) {
    state.SkipWithError("no Cauldron workload");
    return;
  }
  GridAStar astar(work->grid);
  RunLengthPath path;
  int64_t expanded = 0, queries = 0;
  for (auto _ : state) {
    for (const Query& q : work->queries) {
      if (!BenchOk(state,
                   astar.FindPath(q.start, q.goal, AStarOptions(), &path))) {
        return;
      }
      expanded += astar.stats().expanded;
      ++queries;
    }
  }
  SetCounters(state, expanded, queries);
}

// arg: 0 default class, 1 square3, 2 oriented cart.
void RunClassAStar(benchmark::State& state) {
  const Workload* work = TheWorkload();
  if (work == nullptr || work->queries.empty()) {
    state.SkipWithError("no Cauldron workload");
    return;
  }
  const AgentClass defaults = AgentClass::Default();
  const AgentClass* agent = state.range(0) == 0   ? &defaults
                            : state.range(0) == 1 ? &work->square3
                                                  : &work->cart;
  ClassAStar search(work->grid);
  AgentPath path;
  int64_t expanded = 0, queries = 0;
  for (auto _ : state) {
    for (const Query& q : work->queries) {
      if (!BenchOk(state,
                   search.FindPath(*agent, q.start, Direction::kN, q.goal,
                                   ClassAStarOptions(), &path))) {
        return;
      }
      expanded += search.stats().expanded;
      ++queries;
    }
  }
  SetCounters(state, expanded, queries);
}

// HPA* for an unoriented class: the Planner on a world built on the
// class grid, anchors as cells. arg 0: default class, 1: square3; arg 2:
// smoothed. "subopt_pct": mean cost over ClassAStar's optimum.
void RunClassHpa(benchmark::State& state) {
  const Workload* work = TheWorkload();
  if (work == nullptr || work->queries.empty()) {
    state.SkipWithError("no Cauldron workload");
    return;
  }
  const bool square = state.range(0) == 1;
  const World& world = square ? *work->square3_world : *work->default_world;
  const AgentClass defaults = AgentClass::Default();
  const AgentClass& agent = square ? work->square3 : defaults;
  // Optimal costs, outside the timed loop.
  std::vector<double> optimal;
  {
    ClassAStar search(work->grid);
    AgentPath path;
    for (const Query& q : work->queries) {
      auto outcome = search.FindPath(agent, q.start, Direction::kN, q.goal,
                                     ClassAStarOptions(), &path);
      if (!BenchOk(state, outcome)) return;
      if (*outcome != SearchOutcome::kFound) {
        state.SkipWithError("exact class A* found no path");
        return;
      }
      optimal.push_back(path.cost());
    }
  }
  Planner planner(world);
  PlanOptions options;
  options.smooth = state.range(1) != 0;
  RunLengthPath path;
  int64_t expanded = 0, queries = 0;
  double excess = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < work->queries.size(); ++i) {
      const Query& q = work->queries[i];
      auto outcome = planner.FindPath(q.start, q.goal, options, &path);
      if (!BenchOk(state, outcome)) return;
      if (*outcome != SearchOutcome::kFound) {
        state.SkipWithError("HPA* found no path");
        return;
      }
      expanded += planner.stats().total_expanded();
      excess += path.cost() / optimal[i] - 1.0;
      ++queries;
    }
  }
  SetCounters(state, expanded, queries);
  state.counters["subopt_pct"] = benchmark::Counter(100.0 * excess / queries);
}

// The oriented cart by AgentPlanner: a route on its guide world followed
// by bounded exact searches of arg 0 route cells each; arg 1: the route
// smoothed; arg 2: staircases merged. "subopt_pct" against ClassAStar's
// optimum, "widened", "fallbacks" and "merged" per query.
void RunOrientedPlanner(benchmark::State& state) {
  const Workload* work = TheWorkload();
  if (work == nullptr || work->queries.empty()) {
    state.SkipWithError("no Cauldron workload");
    return;
  }
  // The optimum of each query, searched once for every argument set.
  static const std::vector<double>* const optimal_costs =
      [&]() -> std::vector<double>* {
    auto* costs = new std::vector<double>();
    ClassAStar search(work->grid);
    AgentPath path;
    for (const Query& q : work->queries) {
      auto outcome = search.FindPath(work->cart, q.start, Direction::kN, q.goal,
                                     ClassAStarOptions(), &path);
      if (!outcome.ok() || *outcome != SearchOutcome::kFound) return nullptr;
      costs->push_back(path.cost());
    }
    return costs;
  }();
  if (optimal_costs == nullptr) {
    state.SkipWithError("the exact search failed on a Cauldron query");
    return;
  }
  const std::vector<double>& optimal = *optimal_costs;
  AgentPlanner planner(*work->cart_world);
  AgentPlanOptions options;
  options.follow_steps = static_cast<int>(state.range(0));
  options.hierarchical.smooth = state.range(1) != 0;
  options.merge_staircases = state.range(2) != 0;
  AgentPath path;
  int64_t expanded = 0, queries = 0, widened = 0, fallbacks = 0, merged = 0;
  double excess = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < work->queries.size(); ++i) {
      const Query& q = work->queries[i];
      auto outcome =
          planner.FindPath(work->cart.name, q.start, q.goal, options, &path);
      if (!BenchOk(state, outcome)) return;
      if (*outcome != SearchOutcome::kFound) {
        state.SkipWithError("AgentPlanner found no path");
        return;
      }
      const OrientedStats& st = planner.oriented_stats();
      expanded += st.expanded;
      widened += st.widened;
      fallbacks += st.exact_fallbacks;
      merged += st.merged;
      excess += path.cost() / optimal[i] - 1.0;
      ++queries;
    }
  }
  SetCounters(state, expanded, queries);
  state.counters["subopt_pct"] = benchmark::Counter(100.0 * excess / queries);
  state.counters["widened"] =
      benchmark::Counter(static_cast<double>(widened) / queries);
  state.counters["fallbacks"] =
      benchmark::Counter(static_cast<double>(fallbacks) / queries);
  state.counters["merged"] =
      benchmark::Counter(static_cast<double>(merged) / queries);
}

BENCHMARK(RunOrientedPlanner)
    ->Name("Agents/AgentPlanner/oriented1x2")
    ->ArgsProduct({{16, 24, 32}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

BENCHMARK(RunClassHpa)
    ->Name("Agents/HPA/default")
    ->Args({0, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);
BENCHMARK(RunClassHpa)
    ->Name("Agents/HPA/square3")
    ->Args({1, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);
BENCHMARK(RunClassHpa)
    ->Name("Agents/HPA/default_smooth")
    ->Args({0, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);
BENCHMARK(RunClassHpa)
    ->Name("Agents/HPA/square3_smooth")
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);

BENCHMARK(RunGridAStar)
    ->Name("Agents/GridAStar/default")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(RunClassAStar)
    ->Name("Agents/ClassAStar/default")
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(RunClassAStar)
    ->Name("Agents/ClassAStar/square3")
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(RunClassAStar)
    ->Name("Agents/ClassAStar/oriented1x2")
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace zonepath::bench

BENCHMARK_MAIN();
