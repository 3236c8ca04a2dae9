// Path storage speed per codec, on smoothed planner paths of a generated
// 512 x 512 rooms world (so it runs without the shared maps):
//   PathCodec/<codec>/encode    EncodePath into a reused buffer
//   PathCodec/<codec>/decode    Parse + DecodePath into a reused path
//   PathCodec/<codec>/cell_at   cell at a random step (sparse index)
//   PathStore/<codec>/set_read_advance   one unit's update cycle
// items_per_second counts moves (steps); bits_per_step is the size.
// `zonepath mem WORLD SCEN` gives the same figures for any world.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_status.h"
#include "benchmark/benchmark.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/paths/path_codec.h"
#include "zonepath/paths/path_store.h"
#include "zonepath/runtime/planner.h"

namespace zonepath::bench {
namespace {

const std::vector<RunLengthPath>& Paths() {
  static const auto* paths = [] {
    auto* out = new std::vector<RunLengthPath>();
    MapGenOptions gen;
    gen.kind = MapKind::kRooms;
    gen.width = gen.height = 512;
    gen.seed = 2;
    const Grid grid = *GenerateMap(gen);
    const World world = *BuildWorld(grid, BuildOptions());
    Planner planner(world);
    std::mt19937_64 rng(3);
    PlanOptions options;
    options.smooth = true;
    while (out->size() < 300) {
      const Point s{static_cast<int32_t>(rng() % 512),
                    static_cast<int32_t>(rng() % 512)};
      const Point t{static_cast<int32_t>(rng() % 512),
                    static_cast<int32_t>(rng() % 512)};
      RunLengthPath path;
      absl::StatusOr<SearchOutcome> found =
          planner.FindPath(s, t, options, &path);
      if (found.ok() && *found == SearchOutcome::kFound && path.steps() > 200) {
        out->push_back(std::move(path));
      }
    }
    return out;
  }();
  return *paths;
}

int64_t TotalSteps() {
  int64_t steps = 0;
  for (const RunLengthPath& p : Paths()) steps += p.steps();
  return steps;
}

absl::StatusOr<std::vector<std::string>> EncodeAll(PathCodec codec,
                                                   size_t* bytes) {
  std::vector<std::string> encoded(Paths().size());
  *bytes = 0;
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (absl::Status s = EncodePath(codec, Paths()[i], &encoded[i]); !s.ok()) {
      return s;
    }
    *bytes += encoded[i].size();
  }
  return encoded;
}

void Encode(benchmark::State& state, PathCodec codec) {
  std::string out;
  size_t bytes = 0;
  if (!BenchOk(state, EncodeAll(codec, &bytes))) return;
  for (auto _ : state) {
    for (const RunLengthPath& path : Paths()) {
      if (!BenchOk(state, EncodePath(codec, path, &out))) return;
    }
  }
  state.SetItemsProcessed(state.iterations() * TotalSteps());
  state.counters["bits_per_step"] = 8.0 * bytes / TotalSteps();
}

void Decode(benchmark::State& state, PathCodec codec) {
  size_t bytes = 0;
  const absl::StatusOr<std::vector<std::string>> all = EncodeAll(codec, &bytes);
  if (!BenchOk(state, all)) return;
  const std::vector<std::string>& encoded = *all;
  RunLengthPath out;
  for (auto _ : state) {
    for (const std::string& e : encoded) {
      absl::StatusOr<EncodedPath> parsed = EncodedPath::Parse(e);
      if (!BenchOk(state, parsed) || !BenchOk(state, DecodePath(*parsed, &out)))
        return;
    }
  }
  state.SetItemsProcessed(state.iterations() * TotalSteps());
}

void CellAtStep(benchmark::State& state, PathCodec codec) {
  size_t bytes = 0;
  const absl::StatusOr<std::vector<std::string>> all = EncodeAll(codec, &bytes);
  if (!BenchOk(state, all)) return;
  const std::vector<std::string>& encoded = *all;
  std::mt19937_64 rng(5);
  for (auto _ : state) {
    const size_t i = rng() % encoded.size();
    const int64_t step = static_cast<int64_t>(rng() % (Paths()[i].steps() + 1));
    absl::StatusOr<EncodedPath> parsed = EncodedPath::Parse(encoded[i]);
    if (!BenchOk(state, parsed) || !BenchOk(state, CellAt(*parsed, step))) {
      return;
    }
  }
}

void StoreCycle(benchmark::State& state, PathCodec codec) {
  PathStoreOptions options;
  options.codec = codec;
  PathStore store(options);
  RunLengthPath next;
  size_t i = 0;
  for (auto _ : state) {
    const RunLengthPath& path = Paths()[i % Paths().size()];
    const UnitId unit(i++ % 1000);
    if (!BenchOk(state, store.Set(unit, path)) ||
        !BenchOk(state, store.Read(unit, 32, &next)) ||
        !BenchOk(state, store.Advance(unit, 16))) {
      return;
    }
  }
}

void Register() {
  for (PathCodec codec : kAllPathCodecs) {
    const std::string name(PathCodecName(codec));
    benchmark::RegisterBenchmark(("PathCodec/" + name + "/encode").c_str(),
                                 Encode, codec);
    benchmark::RegisterBenchmark(("PathCodec/" + name + "/decode").c_str(),
                                 Decode, codec);
    benchmark::RegisterBenchmark(("PathCodec/" + name + "/cell_at").c_str(),
                                 CellAtStep, codec);
    benchmark::RegisterBenchmark(
        ("PathStore/" + name + "/set_read_advance").c_str(), StoreCycle, codec);
  }
}

const bool registered = (Register(), true);

}  // namespace
}  // namespace zonepath::bench
