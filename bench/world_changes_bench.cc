// Changing worlds: incremental update vs full rebuild, in the same run, on a
// generated 1024x1024 rooms world (zone 32, 2 levels, 1 thread):
//   WorldChanges/one_cell        ApplyChanges: block one room cell
//   WorldChanges/block_16x16     ApplyChanges: block a 16x16 block
//   WorldChanges/cost_only_cell  ApplyChanges: change a cost (no passability
//                                change, so no component relabelling)
//   WorldChanges/full_rebuild    BuildWorld of the same grid
// Counter zones_searched: level-1 zones searched again per update.
// For 4096x4096 and other worlds use `zonepath changes WORLD SCRIPT
// --rebuild` (see README).
//
//   build/bench/zonepath_bench --benchmark_filter=WorldChanges
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/offline/world_changes.h"

namespace zonepath::bench {
namespace {

const World& RoomsWorld() {
  static const World* world = [] {
    MapGenOptions gen;
    gen.kind = MapKind::kRooms;
    gen.width = gen.height = 1024;
    gen.seed = 1;
    BuildOptions options;
    options.threads = 1;
    return new World(*BuildWorld(*GenerateMap(gen), options));
  }();
  return *world;
}

// The first passable cell at or after (x, y) along the row.
Point PassableFrom(const Grid& grid, Point p) {
  while (!grid.passable(p)) ++p.x;
  return p;
}

void BM_Apply(benchmark::State& state, int kind) {
  const World& world = RoomsWorld();
  std::vector<CellChange> changes;
  const Point p = PassableFrom(world.grid(), {500, 500});
  if (kind == 0) changes.push_back({p, kBlocked});
  if (kind == 1) {
    for (int32_t y = 0; y < 16; ++y)
      for (int32_t x = 0; x < 16; ++x)
        changes.push_back({{p.x + x, p.y + y}, kBlocked});
  }
  if (kind == 2) changes.push_back({p, world.grid().cost(p) == 1 ? 2 : 1});
  UpdateReport report;
  for (auto _ : state) {
    absl::StatusOr<World> next = ApplyChanges(world, changes, {}, &report);
    benchmark::DoNotOptimize(next);
  }
  state.counters["zones_searched"] =
      static_cast<double>(report.zones_searched[0]);
}

void BM_FullRebuild(benchmark::State& state) {
  const World& world = RoomsWorld();
  BuildOptions options;
  options.params = world.params();
  options.threads = 1;
  for (auto _ : state) {
    absl::StatusOr<World> rebuilt = BuildWorld(world.grid(), options);
    benchmark::DoNotOptimize(rebuilt);
  }
}

BENCHMARK_CAPTURE(BM_Apply, one_cell, 0)
    ->Name("WorldChanges/one_cell")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Apply, block_16x16, 1)
    ->Name("WorldChanges/block_16x16")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Apply, cost_only_cell, 2)
    ->Name("WorldChanges/cost_only_cell")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FullRebuild)
    ->Name("WorldChanges/full_rebuild")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zonepath::bench
