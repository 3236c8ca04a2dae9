// DeriveClassGrid on a generated mixed world (1024² and 4096²) for square
// footprints 1, 3 and 8: the sliding-window maximum makes the time depend on
// the cell count, not on the footprint. Includes Grid::Create's component
// labelling of the result.
//   build/bench/zonepath_class_grid_bench --benchmark_repetitions=3

#include "bench_status.h"
#include "benchmark/benchmark.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/mapgen/generators.h"

namespace zonepath {
namespace {

const Grid& Mixed(int side) {
  static Grid small, large;
  Grid& g = side == 1024 ? small : large;
  if (g.cell_count() == 0) {
    MapGenOptions o;
    o.kind = MapKind::kMixed;
    o.width = o.height = side;
    o.seed = 1;
    g = *GenerateMap(o);
  }
  return g;
}

void BM_DeriveClassGrid(benchmark::State& state) {
  const Grid& terrain = Mixed(static_cast<int>(state.range(0)));
  AgentClass c = AgentClass::Default();
  c.width = c.length = static_cast<int>(state.range(1));
  c.cost_of_type[kMixedDeep] = 0;
  for (auto _ : state) {
    if (!BenchOk(state, DeriveClassGrid(terrain, c))) return;
  }
  state.counters["ns_per_cell"] =
      benchmark::Counter(static_cast<double>(terrain.cell_count()),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
}
BENCHMARK(BM_DeriveClassGrid)
    ->ArgsProduct({{1024, 4096}, {1, 3, 8}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace zonepath

BENCHMARK_MAIN();
