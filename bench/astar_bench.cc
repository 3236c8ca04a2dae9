// Exact grid A* on long queries: the longest quarter of each shared MovingAI
// scenario file (the set README's comparison with warthog-core uses) and
// corner-to-corner queries on generated 1024^2 worlds. Reports time per
// query, nodes expanded per query (counter "expanded") and expansions per
// second ("expanded_per_s"), which compares maps of different sizes.
//
//   build/bench/zonepath_bench --benchmark_filter=AStar/movingai/Cauldron
#include <cstdio>
#include <memory>
#include <random>

#include "bench_maps.h"
#include "bench_status.h"
#include "benchmark/benchmark.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath::bench {
namespace {

struct Workload {
  Grid grid;
  std::vector<Query> queries;
};

void RunAStar(benchmark::State& state, const Workload* work) {
  GridAStar astar(work->grid);
  RunLengthPath path;
  size_t i = 0;
  int64_t expanded = 0, queries = 0;
  for (auto _ : state) {
    const Query& q = work->queries[i++ % work->queries.size()];
    if (!BenchOk(state,
                 astar.FindPath(q.start, q.goal, AStarOptions(), &path))) {
      return;
    }
    expanded += astar.stats().expanded;
    ++queries;
  }
  state.counters["expanded"] =
      benchmark::Counter(static_cast<double>(expanded) / queries);
  state.counters["expanded_per_s"] = benchmark::Counter(
      static_cast<double>(expanded), benchmark::Counter::kIsRate);
}

std::vector<std::unique_ptr<Workload>>& Workloads() {
  static auto* workloads = new std::vector<std::unique_ptr<Workload>>();
  return *workloads;
}

void RegisterSharedMaps() {
  const auto dir = SharedMapsDir();
  if (!std::filesystem::is_directory(dir)) {
    std::fprintf(stderr, "note: %s not found; skipping MovingAI benchmarks\n",
                 dir.c_str());
    return;
  }
  for (const std::string& map : FindMapsWithScenarios(dir.string())) {
    absl::StatusOr<Grid> grid = ReadMapFile(map);
    absl::StatusOr<Scenario> scen = ReadScenarioFile(map + ".scen");
    if (!grid.ok() || !scen.ok()) continue;
    auto work = std::make_unique<Workload>();
    work->grid = *std::move(grid);
    work->queries = LongestQuarter(*scen);
    benchmark::RegisterBenchmark(
        ("AStar/movingai/" + std::filesystem::path(map).stem().string())
            .c_str(),
        RunAStar, work.get())
        ->Unit(benchmark::kMicrosecond);
    Workloads().push_back(std::move(work));
  }
}

void RegisterGenerated() {
  for (MapKind kind :
       {MapKind::kRooms, MapKind::kMaze, MapKind::kRandom, MapKind::kTerrain}) {
    MapGenOptions o;
    o.kind = kind;
    o.width = o.height = 1024;
    o.feature = kind == MapKind::kMaze ? 4 : 0;
    o.seed = 1;
    auto work = std::make_unique<Workload>();
    work->grid = *GenerateMap(o);
    std::mt19937_64 rng(1);
    while (work->queries.size() < 64) {
      Point a{static_cast<int32_t>(rng() % 128),
              static_cast<int32_t>(rng() % 128)};
      Point b{1023 - static_cast<int32_t>(rng() % 128),
              1023 - static_cast<int32_t>(rng() % 128)};
      if (work->grid.SameComponent(a, b)) work->queries.push_back({a, b, 0});
    }
    benchmark::RegisterBenchmark(
        ("AStar/generated/" + std::string(MapKindName(kind)) + "_1024").c_str(),
        RunAStar, work.get())
        ->Unit(benchmark::kMicrosecond);
    Workloads().push_back(std::move(work));
  }
}

}  // namespace
}  // namespace zonepath::bench

namespace zonepath::bench {
void RegisterPlannerBenchmarks();
}  // namespace zonepath::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  zonepath::bench::RegisterSharedMaps();
  zonepath::bench::RegisterGenerated();
  zonepath::bench::RegisterPlannerBenchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
