// Exact class-aware A* (ClassAStar) against GridAStar on the longest quarter
// of a 1024^2 MovingAI scenario (sc1/Cauldron): the default class (same
// answers as GridAStar, the price of the general footprint and heading
// code), a 3 x 3 square and an oriented 1 x 2 unit (4 headings, backward
// x2, turn 1, any goal heading). The query set is the longest-quarter
// problems whose start and goal are legal for all three classes and that
// all three reach, so every benchmark runs the same queries. Reports time
// per query and nodes expanded per query ("expanded").
//
//   build/bench/zonepath_agents_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_maps.h"
#include "benchmark/benchmark.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath::bench {
namespace {

constexpr size_t kMaxQueries = 32;

struct Workload {
  Grid grid;
  std::vector<Query> queries;
  AgentClass square3;
  AgentClass cart;
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
      auto outcome = astar.FindPath(q.start, q.goal, AStarOptions(), &path);
      benchmark::DoNotOptimize(outcome);
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
      auto outcome = search.FindPath(*agent, q.start, Direction::kN, q.goal,
                                     ClassAStarOptions(), &path);
      benchmark::DoNotOptimize(outcome);
      expanded += search.stats().expanded;
      ++queries;
    }
  }
  SetCounters(state, expanded, queries);
}

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
