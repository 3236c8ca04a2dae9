// Hierarchical planner vs exact A* on the longest quarter of each 1024-wide
// (or larger) shared MovingAI map, measured in the same run:
//   Planner/<map>/astar         exact grid A*, full query
//   Planner/<map>/jps           exact jump point search (AStarOptions)
//   Planner/<map>/hpa           connect + abstract search + full refinement
//   Planner/<map>/hpa_cached    the same on a world with cached paths
//   Planner/<map>/hpa_smooth    with smoothing (string pulling)
//   Planner/<map>/hpa_smooth_search  smoothing by window searches
//                               (PlanOptions::smooth_by_search)
//   Planner/<map>/hpa_free      with free crossings (PlanOptions)
//   Planner/<map>/hpa_free_smooth  both
//   Planner/<map>/hpa_first32   until the first 32 moves are available
//   Planner/<map>/hpa_smooth_first32  the same with smoothing (lazy)
//   Planner/<map>/hpa_smooth_search_first32  with window searches
//   Planner/<map>/<mode>_no_distance_tables  hpa, hpa_smooth, hpa_free and
//                               the first32 modes searching the top level
//                               (PlannerOptions::distance_table_nodes = 0)
//   Planner/<map>/<mode>_no_connection_tables  the same modes connecting at
//                               level 2, and refining its windows, by
//                               search (PlannerOptions::
//                               derive_connection_tables = false)
//   Planner/<map>/made          a planner made on a fresh copy of the world
//                               (its landmark, distance and connection
//                               tables built)
//   Planner/<map>/made_no_distance_tables, made_no_connection_tables  the
//                               same without those tables
// Counters: expanded (nodes per query), subopt_pct (mean vs scenario optimum).
//
//   build/bench/zonepath_bench --benchmark_filter=Planner
//
// Decision recorded here (see lib/runtime/planner.cc): the abstract search is
// hand-written over the CSR arrays with stamp-reset state rather than Boost's
// astar_search, which initialises every vertex per call (O(nodes) per query)
// and would make the runtime depend on Boost.
#include <cstdio>
#include <memory>

#include "bench_maps.h"
#include "bench_status.h"
#include "benchmark/benchmark.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath::bench {
namespace {

struct PlannerWorkload {
  std::unique_ptr<World> world;
  std::unique_ptr<World> cached_world;
  std::vector<Query> queries;
};

enum class Mode {
  kAStar,
  kJps,
  kHpa,
  kHpaCached,
  kHpaSmooth,
  kHpaSmoothSearch,
  kHpaFree,
  kHpaFreeSmooth,
  kHpaFirst32,
  kHpaSmoothFirst32,
  kHpaSmoothSearchFirst32
};

// The tables a planner derives from its world: all, or all but one kind.
enum class Tables { kAll, kNoDistance, kNoConnection };

PlannerOptions OptionsWith(Tables tables) {
  PlannerOptions options;
  if (tables == Tables::kNoDistance) options.distance_table_nodes = 0;
  if (tables == Tables::kNoConnection) options.derive_connection_tables = false;
  return options;
}

const char* SuffixOf(Tables tables) {
  switch (tables) {
    case Tables::kAll:
      return "";
    case Tables::kNoDistance:
      return "_no_distance_tables";
    case Tables::kNoConnection:
      return "_no_connection_tables";
  }
  return "";
}

void RunPlanner(benchmark::State& state, const PlannerWorkload* work, Mode mode,
                Tables tables) {
  const World& world =
      mode == Mode::kHpaCached ? *work->cached_world : *work->world;
  GridAStar astar(world.grid());
  Planner planner(world, OptionsWith(tables));
  RunLengthPath path;
  const bool first32 = mode == Mode::kHpaFirst32 ||
                       mode == Mode::kHpaSmoothFirst32 ||
                       mode == Mode::kHpaSmoothSearchFirst32;
  size_t i = 0;
  double expanded = 0, subopt = 0;
  int64_t n = 0;
  for (auto _ : state) {
    const Query& q = work->queries[i++ % work->queries.size()];
    if (mode == Mode::kAStar || mode == Mode::kJps) {
      AStarOptions options;
      options.jump_points = mode == Mode::kJps;
      if (!BenchOk(state, astar.FindPath(q.start, q.goal, options, &path))) {
        return;
      }
      expanded += astar.stats().expanded;
    } else if (first32) {
      path.Reset(q.start);
      PlanOptions options;
      options.smooth = mode != Mode::kHpaFirst32;
      options.smooth_by_search = mode == Mode::kHpaSmoothSearchFirst32;
      if (!BenchOk(state, planner.Plan(q.start, q.goal, options)) ||
          !BenchOk(state, planner.Cursor().Next(32, &path))) {
        return;
      }
    } else {
      PlanOptions options;
      options.smooth = mode == Mode::kHpaSmooth ||
                       mode == Mode::kHpaSmoothSearch ||
                       mode == Mode::kHpaFreeSmooth;
      options.smooth_by_search = mode == Mode::kHpaSmoothSearch;
      options.free_crossings =
          mode == Mode::kHpaFree || mode == Mode::kHpaFreeSmooth;
      if (!BenchOk(state, planner.FindPath(q.start, q.goal, options, &path))) {
        return;
      }
      expanded += planner.stats().total_expanded();
    }
    if (!first32 && q.optimal > 0) {
      subopt += 100 * (path.cost() - q.optimal) / q.optimal;
    }
    ++n;
  }
  state.counters["expanded"] = expanded / n;
  state.counters["subopt_pct"] = subopt / n;
}

// Making the world's first planner, which builds the tables it derives
// from the world (a fresh world each time: the copy is not timed).
void RunMade(benchmark::State& state, const PlannerWorkload* work,
             Tables tables) {
  const PlannerOptions options = OptionsWith(tables);
  const Abstraction flat = work->world->FlatAbstraction();
  size_t derived = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto fresh = std::make_unique<World>(work->world->grid(), flat);
    state.ResumeTiming();
    Planner planner(*fresh, options);
    benchmark::DoNotOptimize(&planner);
    state.PauseTiming();
    derived = fresh->DerivedBytes();
    fresh.reset();
    state.ResumeTiming();
  }
  state.counters["derived_bytes"] = static_cast<double>(derived);
}

std::vector<std::unique_ptr<PlannerWorkload>>& Workloads() {
  static auto* w = new std::vector<std::unique_ptr<PlannerWorkload>>();
  return *w;
}

void Register() {
  const auto dir = SharedMapsDir();
  if (!std::filesystem::is_directory(dir)) {
    std::fprintf(stderr, "note: %s not found; skipping planner benchmarks\n",
                 dir.c_str());
    return;
  }
  for (const char* name : {"sc1/Cauldron", "cities/Boston_0_1024",
                           "sc1/AcrosstheCape", "dao/orz900d"}) {
    const std::string map = (dir / name).string() + ".map";
    absl::StatusOr<Grid> grid = ReadMapFile(map);
    absl::StatusOr<Scenario> scen = ReadScenarioFile(map + ".scen");
    if (!grid.ok() || !scen.ok()) continue;
    auto work = std::make_unique<PlannerWorkload>();
    BuildOptions build;
    work->world = std::make_unique<World>(*BuildWorld(*grid, build));
    build.params.cache_paths = true;
    work->cached_world = std::make_unique<World>(*BuildWorld(*grid, build));
    work->queries = LongestQuarter(*scen);
    const std::string base =
        "Planner/" + std::filesystem::path(name).filename().string();
    for (auto [suffix, mode] : std::vector<std::pair<const char*, Mode>>{
             {"astar", Mode::kAStar},
             {"jps", Mode::kJps},
             {"hpa", Mode::kHpa},
             {"hpa_cached", Mode::kHpaCached},
             {"hpa_smooth", Mode::kHpaSmooth},
             {"hpa_smooth_search", Mode::kHpaSmoothSearch},
             {"hpa_free", Mode::kHpaFree},
             {"hpa_free_smooth", Mode::kHpaFreeSmooth},
             {"hpa_first32", Mode::kHpaFirst32},
             {"hpa_smooth_first32", Mode::kHpaSmoothFirst32},
             {"hpa_smooth_search_first32", Mode::kHpaSmoothSearchFirst32}}) {
      benchmark::RegisterBenchmark((base + "/" + suffix).c_str(), RunPlanner,
                                   work.get(), mode, Tables::kAll)
          ->Unit(benchmark::kMicrosecond);
    }
    for (const Tables without : {Tables::kNoDistance, Tables::kNoConnection}) {
      for (auto [suffix, mode] : std::vector<std::pair<const char*, Mode>>{
               {"hpa", Mode::kHpa},
               {"hpa_smooth", Mode::kHpaSmooth},
               {"hpa_free", Mode::kHpaFree},
               {"hpa_first32", Mode::kHpaFirst32},
               {"hpa_smooth_first32", Mode::kHpaSmoothFirst32}}) {
        benchmark::RegisterBenchmark(
            (base + "/" + suffix + SuffixOf(without)).c_str(), RunPlanner,
            work.get(), mode, without)
            ->Unit(benchmark::kMicrosecond);
      }
    }
    for (const Tables tables :
         {Tables::kAll, Tables::kNoDistance, Tables::kNoConnection}) {
      benchmark::RegisterBenchmark((base + "/made" + SuffixOf(tables)).c_str(),
                                   RunMade, work.get(), tables)
          ->Unit(benchmark::kMillisecond);
    }
    Workloads().push_back(std::move(work));
  }
}

}  // namespace
}  // namespace zonepath::bench

namespace zonepath::bench {
void RegisterPlannerBenchmarks() { Register(); }
}  // namespace zonepath::bench
