// Changing worlds: incremental update vs full rebuild, in the same run, on a
// generated 1024x1024 rooms world (zone 32, 2 levels, 1 thread):
//   WorldChanges/one_cell        ApplyChanges: block one room cell
//   WorldChanges/block_16x16     ApplyChanges: block a 16x16 block
//   WorldChanges/cost_only_cell  ApplyChanges: change a cost (no passability
//                                change, so no component relabelling)
//   WorldChanges/full_rebuild    BuildWorld of the same grid
//   WorldChanges/compaction      laying the abstraction out afresh, as an
//                                update does once dead ranges outgrow live
//                                ones (ToFlat + FromFlat)
//   WorldChanges/plan_built      FindPath on the built world, and
//   WorldChanges/plan_updated    on the same world after 1000 single-cell
//                                updates (zones re-homed all over the
//                                arrays: the cost of lost locality)
// Counters: zones_searched (level-1 zones searched again per update) and
// owned_kb (pages the new version wrote; the rest is shared).
// For 4096x4096 and other worlds use `zonepath changes WORLD SCRIPT
// --rebuild` (see README).
//
//   build/bench/zonepath_bench --benchmark_filter=WorldChanges
#include <memory>
#include <random>
#include <vector>

#include "bench_status.h"
#include "benchmark/benchmark.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/update/world_changes.h"

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
    if (!BenchOk(state, ApplyChanges(world, changes, {}, &report))) return;
  }
  state.counters["zones_searched"] =
      static_cast<double>(report.zones_searched[0]);
  state.counters["owned_kb"] = static_cast<double>(report.owned_bytes) / 1024;
}

void BM_Compaction(benchmark::State& state) {
  const World& world = RoomsWorld();
  for (auto _ : state) {
    SharedAbstraction a =
        SharedAbstraction::FromFlat(world.abstraction().ToFlat());
    benchmark::DoNotOptimize(a);
  }
}

// RoomsWorld after 1000 random single-cell changes (each blocks or opens a
// cell), applied one by one.
const World& UpdatedRoomsWorld() {
  static const World* world = [] {
    World w = RoomsWorld();
    std::mt19937_64 rng(3);
    for (int i = 0; i < 1000; ++i) {
      const Point p{static_cast<int32_t>(rng() % 1024),
                    static_cast<int32_t>(rng() % 1024)};
      w = *ApplyChanges(w, {{p, w.grid().passable(p) ? 0 : 1}});
    }
    return new World(std::move(w));
  }();
  return *world;
}

void BM_Plan(benchmark::State& state, bool updated) {
  const World& world = updated ? UpdatedRoomsWorld() : RoomsWorld();
  const Grid& grid = UpdatedRoomsWorld().grid();  // same queries for both
  std::mt19937_64 rng(5);
  std::vector<std::pair<Point, Point>> queries;
  while (queries.size() < 200) {
    const Point s{static_cast<int32_t>(rng() % 1024),
                  static_cast<int32_t>(rng() % 1024)};
    const Point t{static_cast<int32_t>(rng() % 1024),
                  static_cast<int32_t>(rng() % 1024)};
    if (grid.SameComponent(s, t) && world.grid().SameComponent(s, t)) {
      queries.push_back({s, t});
    }
  }
  Planner planner(world);
  RunLengthPath path;
  size_t next = 0;
  for (auto _ : state) {
    const auto& [s, t] = queries[next++ % queries.size()];
    if (!BenchOk(state, planner.FindPath(s, t, PlanOptions(), &path))) return;
  }
}

void BM_FullRebuild(benchmark::State& state) {
  const World& world = RoomsWorld();
  BuildOptions options;
  options.params = world.params();
  options.threads = 1;
  for (auto _ : state) {
    if (!BenchOk(state, BuildWorld(world.grid(), options))) return;
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
BENCHMARK(BM_Compaction)
    ->Name("WorldChanges/compaction")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Plan, built, false)
    ->Name("WorldChanges/plan_built")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Plan, updated, true)
    ->Name("WorldChanges/plan_updated")
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace zonepath::bench
