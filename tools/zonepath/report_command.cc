// `zonepath report -o DIR`: runs the benchmark suite and writes
// DIR/report.md (tables) and DIR/time_vs_length.png (query time against
// path length per algorithm). Every ratio compares figures measured in the
// same run: the map sets' on the same queries, the scaling table's between
// a world and its kind's smallest side timed in alternation.
//
// Sections: per map set (the MovingAI folders under --maps, plus generated
// worlds) exact A*, weighted A* (w = 1.2) and HPA* with / without smoothing
// and cached paths; build time and world size per map; query time by path
// length; batch throughput on 1 and 2 threads; scaling of build time, peak
// memory, file size, load and query time with the world's side.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "commands.h"
#include "line_plot.h"
#include "process_memory.h"
#include "random_queries.h"
#include "summary_stats.h"
#include "timed_plan.h"
#include "zonepath/base/atomic_file.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/movingai/scenario.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/batch.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/world/world_file.h"

ABSL_DECLARE_FLAG(std::string, o);  // output_flag.cc
ABSL_FLAG(std::string, maps, "../shared/maps",
          "folder of MovingAI map sets (one subfolder per set; skipped if "
          "missing)");
ABSL_FLAG(int32_t, max_queries, 300,
          "problems per map, spread evenly over its scenario (0 = all)");
ABSL_FLAG(std::vector<std::string>, scaling,
          std::vector<std::string>({"1024", "4096"}),
          "sides of the generated worlds in the scaling table");
ABSL_FLAG(int32_t, scaling_queries, 100,
          "random long queries per generated world in the scaling table, "
          "1..10000");
ABSL_FLAG(int32_t, scaling_passes, 3,
          "timed passes at least over each scaling world's queries, 1..100; "
          "a query's time is its median over the passes");
ABSL_FLAG(double, scaling_seconds, 1.0,
          "after --scaling-passes, more timed passes until this many seconds "
          "have gone by on each scaling world, 0..600 (1000 passes at most)");
ABSL_FLAG(std::vector<std::string>, scaling_kinds,
          std::vector<std::string>({"rooms", "maze", "terrain"}),
          "generated world kinds in the scaling table");
ABSL_FLAG(std::vector<std::string>, scaling_maps,
          std::vector<std::string>({"../shared/maps/cities/Boston_0_1024.map"}),
          "real maps, upscaled to each --scaling side (each cell a block), "
          "in the scaling table (skipped if missing)");
ABSL_FLAG(int32_t, scaling_exact, 10,
          "exact A* on this many of each scaling world's queries (for "
          "suboptimality), up to --scaling-exact-side");
ABSL_FLAG(int32_t, scaling_exact_side, 4096,
          "largest side on which the scaling table runs exact A*");

namespace zonepath::cli {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}
double Micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

enum Algo { kAStar, kWeighted, kHpa, kHpaSmooth, kHpaCached, kHpaCachedSmooth };
constexpr int kAlgoCount = 6;
struct AlgoInfo {
  const char* name;
  const char* color_name;
  Rgb color;
};
constexpr AlgoInfo kAlgos[kAlgoCount] = {
    {"A*", "black", {20, 20, 20}},
    {"wA* 1.2", "grey", {150, 150, 150}},
    {"HPA*", "blue", {40, 90, 220}},
    {"HPA* smoothed", "green", {30, 160, 60}},
    {"HPA* cached", "orange", {240, 140, 20}},
    {"HPA* cached smoothed", "red", {200, 30, 30}}};

struct Problem {
  Point start, goal;
  double optimal;
};

// One query's measurements.
struct Sample {
  double length;  // optimal cost
  double time_us, first_us, expanded, subopt_pct;
};

struct MapResult {
  std::string set, name;
  std::string path;  // the .map file; empty for generated worlds
  int64_t cells = 0;
  double build_s = 0, build_cached_s = 0;
  size_t world_bytes = 0, cached_world_bytes = 0;
  std::vector<Sample> samples[kAlgoCount];
};

// Every k-th problem, so the sample keeps the scenario's spread of lengths.
std::vector<Problem> Spread(const std::vector<Problem>& all, int32_t max) {
  if (max <= 0 || static_cast<int32_t>(all.size()) <= max) return all;
  std::vector<Problem> out;
  for (int32_t i = 0; i < max; ++i) {
    out.push_back(all[static_cast<size_t>(i) * all.size() / max]);
  }
  return out;
}

// Runs every algorithm on every problem, building the worlds first.
absl::StatusOr<MapResult> RunMap(const std::string& set,
                                 const std::string& name, const Grid& grid,
                                 const std::vector<Problem>& problems) {
  MapResult r;
  r.set = set;
  r.name = name;
  r.cells = grid.cell_count();
  Clock::time_point t0 = Clock::now();
  ASSIGN_OR_RETURN(World world, BuildWorld(grid, BuildOptions()));
  r.build_s = Seconds(Clock::now() - t0);
  r.world_bytes = SerializeWorld(world).size();
  BuildOptions cached_options;
  cached_options.params.cache_paths = true;
  t0 = Clock::now();
  ASSIGN_OR_RETURN(World cached, BuildWorld(grid, cached_options));
  r.build_cached_s = Seconds(Clock::now() - t0);
  r.cached_world_bytes = SerializeWorld(cached).size();

  GridAStar astar(grid);
  Planner planner(world), cached_planner(cached);
  RunLengthPath path;
  for (int a = 0; a < kAlgoCount; ++a) {
    // The first 10 problems run twice: a warm-up (scratch memory touched,
    // caches filled) and then the measured run, like every other problem.
    for (size_t i = 0;
         i < problems.size() + std::min<size_t>(10, problems.size()); ++i) {
      const bool warm_up = i < std::min<size_t>(10, problems.size());
      const Problem& p =
          problems[warm_up ? i : i - std::min<size_t>(10, problems.size())];
      Sample s{p.optimal, 0, 0, 0, 0};
      TimedPlan timed;
      if (a == kAStar || a == kWeighted) {
        AStarOptions options;
        options.weight = a == kWeighted ? 1.2 : 1.0;
        const Clock::time_point begin = Clock::now();
        timed.outcome = astar.FindPath(p.start, p.goal, options, &path);
        timed.first = timed.total = Clock::now() - begin;
        s.expanded = static_cast<double>(astar.stats().expanded);
      } else {
        Planner& pl = (a == kHpaCached || a == kHpaCachedSmooth)
                          ? cached_planner
                          : planner;
        PlanOptions options;
        options.smooth = a == kHpaSmooth || a == kHpaCachedSmooth;
        timed = PlanTimed(pl, p.start, p.goal, options, 32, &path);
        s.expanded = static_cast<double>(pl.stats().total_expanded());
      }
      if (!timed.outcome.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(name, ": ", timed.outcome.status().message()));
      }
      if (warm_up || *timed.outcome != SearchOutcome::kFound) continue;
      s.time_us = Micros(timed.total);
      s.first_us = Micros(timed.first);
      s.subopt_pct =
          p.optimal > 0 ? 100.0 * (path.cost() - p.optimal) / p.optimal : 0;
      r.samples[a].push_back(s);
    }
  }
  return r;
}

std::vector<double> Field(const std::vector<Sample>& samples,
                          double Sample::*field) {
  std::vector<double> out;
  for (const Sample& s : samples) out.push_back(s.*field);
  return out;
}

double MaxOf(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

// ------------------------------------------------------------ map sets

absl::StatusOr<std::vector<MapResult>> RunSharedMaps(const std::string& dir,
                                                     int32_t max_queries) {
  std::vector<MapResult> results;
  for (const std::filesystem::path map : FindMapsWithScenarios(dir)) {
    ASSIGN_OR_RETURN(Grid grid,
                     ReadMapFile(map.string(), TerrainLegend::Weighted()));
    ASSIGN_OR_RETURN(Scenario scen, ReadScenarioFile(map.string() + ".scen"));
    RETURN_IF_ERROR(CheckScenarioFitsGrid(scen, grid));
    std::vector<Problem> all;
    for (const ScenarioProblem& p : scen.problems) {
      all.push_back({p.start, p.goal, p.optimal});
    }
    std::fprintf(stderr, "report: %s\n", map.string().c_str());
    ASSIGN_OR_RETURN(MapResult r, RunMap(map.parent_path().filename().string(),
                                         map.stem().string(), grid,
                                         Spread(all, max_queries)));
    r.path = map.string();
    results.push_back(std::move(r));
  }
  return results;
}

// Generated 512^2 worlds; the exact A* cost is the optimum.
absl::StatusOr<std::vector<MapResult>> RunGeneratedMaps(int32_t queries) {
  std::vector<MapResult> results;
  for (MapKind kind : {MapKind::kRooms, MapKind::kMaze, MapKind::kTerrain}) {
    MapGenOptions gen;
    gen.kind = kind;
    gen.width = gen.height = 512;
    gen.seed = 1;
    if (kind == MapKind::kMaze) gen.feature = 4;
    ASSIGN_OR_RETURN(Grid grid, GenerateMap(gen));
    ASSIGN_OR_RETURN(std::vector<Query> random,
                     RandomLongQueries(grid, queries > 0 ? queries : 300, 5));
    GridAStar astar(grid);
    std::vector<Problem> problems;
    RunLengthPath path;
    for (const Query& q : random) {
      ASSIGN_OR_RETURN(SearchOutcome outcome,
                       astar.FindPath(q.start, q.goal, {}, &path));
      if (outcome == SearchOutcome::kFound) {
        problems.push_back({q.start, q.goal, path.cost()});
      }
    }
    std::fprintf(stderr, "report: generated %s\n",
                 std::string(MapKindName(kind)).c_str());
    ASSIGN_OR_RETURN(MapResult r,
                     RunMap("generated", absl::StrCat(MapKindName(kind), "512"),
                            grid, problems));
    results.push_back(std::move(r));
  }
  return results;
}

// ------------------------------------------------------------ throughput

struct Throughput {
  std::string map;
  int64_t queries = 0;
  double qps[2] = {0, 0};  // 1 and 2 threads, median of 3 alternating runs
};

Throughput MeasureThroughput(const MapResult& biggest, const Grid& grid,
                             const std::vector<Problem>& problems) {
  Throughput t;
  t.map = biggest.name;
  t.queries = static_cast<int64_t>(problems.size());
  absl::StatusOr<World> world = BuildWorld(grid, BuildOptions());
  if (!world.ok()) return t;
  std::vector<BatchQuery> queries;
  for (const Problem& p : problems) queries.push_back({p.start, p.goal});
  std::vector<BatchResult> results;
  std::vector<double> runs[2];
  for (int rep = 0; rep < 3; ++rep) {
    for (int threads : {1, 2}) {
      const Clock::time_point begin = Clock::now();
      PlanBatch(*world, queries, PlanOptions(), threads, &results);
      runs[threads - 1].push_back(queries.size() /
                                  Seconds(Clock::now() - begin));
    }
  }
  for (int i = 0; i < 2; ++i) t.qps[i] = Percentile(runs[i], 50);
  return t;
}

// ------------------------------------------------------------ scaling

struct ScalingRow {
  std::string kind;
  int32_t side = 0;
  int32_t levels = 0;
  int32_t passes = 0;  // timed passes run
  double build_s = 0, load_s = 0;
  int64_t build_peak = 0, load_peak = 0;
  size_t file_bytes = 0, world_memory = 0;
  double hpa_us_p50 = 0, smooth_us_p50 = 0, first_us_p50 = 0;
  double us_per_kcost = 0;  // p50 of HPA* µs per 1000 units of path cost
  // The same for the smallest side of this kind, timed after each of this
  // world's passes (on that side, its own; 0: it found no path).
  double reference_us_per_kcost = 0;
  double length_mean = 0;
  // Against exact A* on the first queries (where affordable; -1: not run).
  double astar_us_mean = -1, subopt_pct = -1, smooth_subopt_pct = -1;
  int exact_queries = 0;
};

// `map` upscaled so its longer side becomes `side` (each cell a block);
// OutOfRange if the map is larger than that.
absl::StatusOr<Grid> Upscaled(const std::string& map, int32_t side) {
  ASSIGN_OR_RETURN(Grid small, ReadMapFile(map, TerrainLegend::Weighted()));
  const int32_t f = side / std::max(small.width(), small.height());
  if (f < 1) {
    return absl::OutOfRangeError(absl::StrCat(map, " is larger than ", side));
  }
  const int64_t w = int64_t{small.width()} * f, h = int64_t{small.height()} * f;
  std::vector<uint8_t> costs(static_cast<size_t>(w * h));
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) {
      costs[static_cast<size_t>(y * w + x)] = small.cost(
          Point{static_cast<int32_t>(x / f), static_cast<int32_t>(y / f)});
    }
  }
  return Grid::Create(w, h, std::move(costs));
}

// Keeps a query's path cost (-1: not found) from its first timed pass in
// *kept, and from the next passes checks that they give the same (planning
// is deterministic); `what` names the run ("plain", "smoothed", ...).
absl::Status KeepOrCheckPassCost(const std::string& name, int32_t side,
                                 size_t query, absl::string_view what,
                                 int32_t pass, double cost, double* kept) {
  if (pass == 0) {
    *kept = cost;
    return absl::OkStatus();
  }
  if (cost == *kept) return absl::OkStatus();
  const auto text = [](double c) {
    return c < 0 ? std::string("not found") : absl::StrFormat("cost %.6f", c);
  };
  return absl::InternalError(absl::StrFormat(
      "%s %d: %s query %d: %s in timed pass %d, %s in the first", name, side,
      what, query, text(cost), pass + 1, text(*kept)));
}

// How long the scaling table times each world's queries: `passes` at
// least, then more until `seconds` have gone by (the smallest side's timing
// alongside included), kMaxPasses at most and kMaxSamples times per query
// kind in all (8 MB each).
struct PassLimits {
  static constexpr int32_t kMaxPasses = 1000;
  static constexpr size_t kMaxSamples = size_t{1} << 20;
  int32_t passes = 3;
  double seconds = 1.0;
};

// The smallest side of a kind (or map), kept loaded with its planner and
// queries while the larger sides of that kind run: each of them times it
// again after each of its own passes (TimeAlongside), so that both figures
// of the flat line's ratio see the machine under the same load. The
// planner holds a reference to the world and is declared after it, so it
// is destroyed first.
struct Reference {
  std::string name;
  int32_t side = 0;
  std::unique_ptr<World> world;
  std::unique_ptr<Planner> planner;  // on *world
  std::vector<Query> queries;
  std::vector<double> costs;  // per query: plain path cost, -1: not found
};

// Untimed passes of the smallest side's queries before it is timed
// alongside. Right after a pass of a rooms 16384² or 32768² world, rooms
// 1024² ran 12 % slower than after a pass of its own with one warm pass
// in between, 5–7 % with 3 and 1.5–3 % with 10: one pass over the same
// queries does not take the caches back (README, "The smallest side after
// a large world"; bench/warm_passes_after_large_world.cc).
constexpr int kAlongsideWarmPasses = 10;

// Runs `set`'s plain queries kAlongsideWarmPasses times untimed, then once
// timed, appending each found one's time to (*times)[i]; each must find
// the path of set.costs[i] again (-1: none).
absl::Status TimeAlongside(const Reference& set, RunLengthPath* path,
                           std::vector<std::vector<double>>* times) {
  Planner& planner = *set.planner;
  const std::vector<Query>& queries = set.queries;
  const std::vector<double>& costs = set.costs;
  for (int warm = 0; warm < kAlongsideWarmPasses; ++warm) {
    for (const Query& q : queries) {
      RETURN_IF_ERROR(
          PlanTimed(planner, q.start, q.goal, PlanOptions(), 32, path)
              .outcome.status());
    }
  }
  for (size_t i = 0; i < queries.size(); ++i) {
    if (costs[i] < 0) continue;
    const Query& q = queries[i];
    TimedPlan timed =
        PlanTimed(planner, q.start, q.goal, PlanOptions(), 32, path);
    ASSIGN_OR_RETURN(SearchOutcome outcome, std::move(timed.outcome));
    double kept = costs[i];
    RETURN_IF_ERROR(KeepOrCheckPassCost(
        set.name, set.side, i, "timed alongside, plain", /*pass=*/1,
        outcome == SearchOutcome::kFound ? path->cost() : -1, &kept));
    (*times)[i].push_back(Micros(timed.total));
  }
  return absl::OkStatus();
}

// `reference`: the kind's smallest side, kept from an earlier call; when
// empty, this world is it, timed alongside itself, and is kept there if
// `keep_as_reference` (a larger side follows).
absl::StatusOr<ScalingRow> RunScaling(const std::string& name, Grid grid,
                                      int32_t queries, const PassLimits& limits,
                                      const std::string& tmp_file,
                                      Reference* reference,
                                      bool keep_as_reference) {
  ScalingRow row;
  row.kind = name;
  row.side = std::max(grid.width(), grid.height());
  std::fprintf(stderr, "report: scaling %s %d\n", name.c_str(), row.side);
  {
    ResetPeakResident();
    const Clock::time_point begin = Clock::now();
    ASSIGN_OR_RETURN(World world, BuildWorld(std::move(grid), BuildOptions()));
    row.build_s = Seconds(Clock::now() - begin);
    row.build_peak = PeakResidentBytes();
    RETURN_IF_ERROR(SaveWorldFile(world, tmp_file));
    std::error_code error;
    row.file_bytes = std::filesystem::file_size(tmp_file, error);
    if (error) {
      return absl::InternalError(
          absl::StrCat(tmp_file, ": cannot read its size: ", error.message()));
    }
  }
  ResetPeakResident();
  const Clock::time_point begin = Clock::now();
  ASSIGN_OR_RETURN(World loaded, LoadWorldFile(tmp_file));
  row.load_s = Seconds(Clock::now() - begin);
  row.load_peak = PeakResidentBytes();
  // This world as its kind's smallest side would keep it (Reference).
  Reference own;
  own.name = name;
  own.side = row.side;
  own.world = std::make_unique<World>(std::move(loaded));
  row.world_memory = own.world->MemoryUsage();
  row.levels = own.world->params().levels;
  // The loaded world maps its pages; unlinking the file keeps them.
  std::error_code unlink_error;
  std::filesystem::remove(tmp_file, unlink_error);
  if (unlink_error) {
    return absl::InternalError(
        absl::StrCat(tmp_file, ": cannot remove it: ", unlink_error.message()));
  }
  ASSIGN_OR_RETURN(own.queries,
                   RandomLongQueries(own.world->grid(), queries, 9));
  own.planner = std::make_unique<Planner>(*own.world);
  own.costs.assign(own.queries.size(), -1);
  Planner& planner = *own.planner;
  const std::vector<Query>& random = own.queries;
  std::vector<double>& raw_cost = own.costs;  // filled by the first pass
  // The smallest side: this world itself when it is that side.
  const bool is_reference = reference->planner == nullptr;
  const Reference& smallest = is_reference ? own : *reference;
  RunLengthPath path;
  std::vector<double> smooth_cost(random.size(), -1);
  PlanOptions smooth;
  smooth.smooth = true;
  // An untimed pass over the queries, plain then smoothed, then rounds of
  // a plain pass and a smoothed pass (`limits`): every timed pass finds the
  // caches as the pass before left them (a whole 1024^2 world fits), and
  // none pays for a table the planner builds, or scratch it grows, on first
  // use. Timing each query's smoothed run right after its plain one, as
  // this did before, found that part of the world in the caches: the
  // smoothed median came out below the plain one on 10 of 12 worlds (rooms
  // 4096^2: 531 / 727 us). A query's time is its median over the passes,
  // so that a burst of other load in fewer than half of them leaves it
  // alone: with one pass each, rooms 32768^2's median query moved 1.3x
  // (7.10 / 9.16 ms) between two runs of one binary
  // (docs/measurements_history.md, "Scaling with one timed pass"). Not the
  // fastest pass: a small world runs hundreds of passes in its second and a
  // large one three, and the fastest of hundreds came out 10 % below the
  // fastest of three on rooms 1024^2, which would favour the small worlds.
  // A query's repeat comes after every other query of the world, so on a
  // large world its data has left the caches again. Passes run for a
  // second at least: a small world's three passes take a few
  // milliseconds, which another process running all that time (a build,
  // say) slowed alike, 1.5x on rooms 1024^2 in one run.
  for (const PlanOptions& options : {PlanOptions(), smooth}) {
    for (const Query& q : random) {
      RETURN_IF_ERROR(PlanTimed(planner, q.start, q.goal, options, 32, &path)
                          .outcome.status());
    }
  }
  const size_t n = random.size();
  // Per query, its time in each pass.
  std::vector<std::vector<double>> total(n), first(n), smooth_total(n);
  // And the smallest side's, timed after each pass.
  std::vector<std::vector<double>> alongside(smallest.queries.size());
  const Clock::time_point timing_began = Clock::now();
  int32_t pass = 0;
  for (; pass < limits.passes ||
         (pass < PassLimits::kMaxPasses &&
          static_cast<size_t>(pass + 1) * n <= PassLimits::kMaxSamples &&
          Seconds(Clock::now() - timing_began) < limits.seconds);
       ++pass) {
    for (size_t i = 0; i < n; ++i) {
      const Query& q = random[i];
      TimedPlan timed =
          PlanTimed(planner, q.start, q.goal, PlanOptions(), 32, &path);
      ASSIGN_OR_RETURN(SearchOutcome outcome, std::move(timed.outcome));
      const bool found = outcome == SearchOutcome::kFound && path.cost() > 0;
      RETURN_IF_ERROR(KeepOrCheckPassCost(name, row.side, i, "plain", pass,
                                          found ? path.cost() : -1,
                                          &raw_cost[i]));
      if (!found) continue;
      total[i].push_back(Micros(timed.total));
      first[i].push_back(Micros(timed.first));
    }
    for (size_t i = 0; i < n; ++i) {
      if (raw_cost[i] < 0) continue;
      const Query& q = random[i];
      TimedPlan smoothed =
          PlanTimed(planner, q.start, q.goal, smooth, 32, &path);
      ASSIGN_OR_RETURN(SearchOutcome outcome, std::move(smoothed.outcome));
      if (outcome != SearchOutcome::kFound) {
        return absl::InternalError(
            absl::StrCat(name, " ", row.side, ": query ", i,
                         " was found plain but not smoothed"));
      }
      RETURN_IF_ERROR(KeepOrCheckPassCost(name, row.side, i, "smoothed", pass,
                                          path.cost(), &smooth_cost[i]));
      smooth_total[i].push_back(Micros(smoothed.total));
    }
    RETURN_IF_ERROR(TimeAlongside(smallest, &path, &alongside));
  }
  row.passes = pass;
  std::vector<double> times, smooth_times, firsts, per_kcost, lengths;
  for (size_t i = 0; i < n; ++i) {
    if (raw_cost[i] < 0) continue;
    times.push_back(Median(total[i]));
    firsts.push_back(Median(first[i]));
    smooth_times.push_back(Median(smooth_total[i]));
    lengths.push_back(raw_cost[i]);
    per_kcost.push_back(1000 * times.back() / raw_cost[i]);
  }
  row.hpa_us_p50 = Percentile(times, 50);
  row.smooth_us_p50 = Percentile(smooth_times, 50);
  row.first_us_p50 = Percentile(firsts, 50);
  row.us_per_kcost = Percentile(per_kcost, 50);
  row.length_mean = Mean(lengths);
  std::vector<double> alongside_per_kcost;
  for (size_t i = 0; i < alongside.size(); ++i) {
    if (alongside[i].empty()) continue;
    alongside_per_kcost.push_back(1000 * Median(alongside[i]) /
                                  smallest.costs[i]);
  }
  row.reference_us_per_kcost = Median(alongside_per_kcost);
  if (row.side <= absl::GetFlag(FLAGS_scaling_exact_side)) {
    GridAStar astar(own.world->grid());
    std::vector<double> exact, raw_over, smooth_over;
    for (size_t i = 0;
         i < random.size() && static_cast<int32_t>(exact.size()) <
                                  absl::GetFlag(FLAGS_scaling_exact);
         ++i) {
      if (raw_cost[i] < 0) continue;
      const Clock::time_point t0 = Clock::now();
      ASSIGN_OR_RETURN(
          SearchOutcome outcome,
          astar.FindPath(random[i].start, random[i].goal, {}, &path));
      if (outcome != SearchOutcome::kFound) continue;
      exact.push_back(Micros(Clock::now() - t0));
      raw_over.push_back(100 * (raw_cost[i] - path.cost()) / path.cost());
      smooth_over.push_back(100 * (smooth_cost[i] - path.cost()) / path.cost());
    }
    row.astar_us_mean = Mean(exact);
    row.subopt_pct = Mean(raw_over);
    row.smooth_subopt_pct = Mean(smooth_over);
    row.exact_queries = static_cast<int>(exact.size());
  }
  if (is_reference && keep_as_reference) *reference = std::move(own);
  return row;
}

// ------------------------------------------------------------ writing

std::string Mb(double bytes) { return absl::StrFormat("%.1f", bytes / 1e6); }

void WriteSetTables(std::ostream& out, const std::vector<MapResult>& maps) {
  std::map<std::string, std::vector<const MapResult*>> sets;
  for (const MapResult& m : maps) sets[m.set].push_back(&m);
  for (const auto& [set, members] : sets) {
    std::string names;
    for (const MapResult* m : members) {
      absl::StrAppend(&names, names.empty() ? "" : ", ", m->name);
    }
    out << "\n### " << set << " (" << names << ")\n\n"
        << "| algorithm | queries | mean µs | p50 µs | p99 µs | first 32 "
           "moves µs | expanded | subopt mean % | subopt max % | speed vs "
           "A* |\n|---|---|---|---|---|---|---|---|---|---|\n";
    double astar_mean = 0;
    for (int a = 0; a < kAlgoCount; ++a) {
      std::vector<Sample> all;
      for (const MapResult* m : members) {
        all.insert(all.end(), m->samples[a].begin(), m->samples[a].end());
      }
      const std::vector<double> t = Field(all, &Sample::time_us);
      const double mean = Mean(t);
      if (a == kAStar) astar_mean = mean;
      out << absl::StrFormat(
          "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | "
          "%.1f× |\n",
          kAlgos[a].name, all.size(), mean, Percentile(t, 50),
          Percentile(t, 99), Mean(Field(all, &Sample::first_us)),
          Mean(Field(all, &Sample::expanded)),
          Mean(Field(all, &Sample::subopt_pct)),
          MaxOf(Field(all, &Sample::subopt_pct)),
          mean > 0 ? astar_mean / mean : 0);
    }
  }
}

void WriteBuildTable(std::ostream& out, const std::vector<MapResult>& maps) {
  out << "\n| set | map | cells | build s | world MB | build with cached "
         "paths s | world with cached paths MB |\n"
         "|---|---|---|---|---|---|---|\n";
  for (const MapResult& m : maps) {
    out << absl::StrFormat("| %s | %s | %d | %.3f | %s | %.3f | %s |\n", m.set,
                           m.name, m.cells, m.build_s, Mb(m.world_bytes),
                           m.build_cached_s, Mb(m.cached_world_bytes));
  }
}

// Length bins: [0, 32), [32, 64), ... doubling, by optimal cost.
int LengthBin(double length) {
  int bin = 0;
  for (double edge = 32; length >= edge && bin < 8; edge *= 2) ++bin;
  return bin;
}

std::vector<Series> WriteLengthTable(std::ostream& out,
                                     const std::vector<MapResult>& maps) {
  constexpr int kBins = 9;
  std::vector<double> times[kAlgoCount][kBins], lengths[kBins];
  for (const MapResult& m : maps) {
    for (int a = 0; a < kAlgoCount; ++a) {
      for (const Sample& s : m.samples[a]) {
        times[a][LengthBin(s.length)].push_back(s.time_us);
        if (a == kAStar) lengths[LengthBin(s.length)].push_back(s.length);
      }
    }
  }
  out << "\n| path length | queries";
  for (const AlgoInfo& info : kAlgos) out << " | " << info.name << " µs";
  out << " | A* / HPA* |\n|---|---";
  for (int a = 0; a < kAlgoCount; ++a) out << "|---";
  out << "|---|\n";
  std::vector<Series> series;
  for (const AlgoInfo& info : kAlgos)
    series.push_back({info.name, info.color, {}});
  for (int b = 0; b < kBins; ++b) {
    if (lengths[b].empty()) continue;
    const std::string range = b == 0 ? "< 32"
                              : b == kBins - 1
                                  ? absl::StrCat("≥ ", 32 << (b - 1))
                                  : absl::StrCat(32 << (b - 1), "–", (32 << b));
    out << "| " << range << " | " << lengths[b].size();
    for (int a = 0; a < kAlgoCount; ++a) {
      out << absl::StrFormat(" | %.0f", Mean(times[a][b]));
      if (!times[a][b].empty()) {
        series[a].points.push_back({Mean(lengths[b]), Mean(times[a][b])});
      }
    }
    const double hpa = Mean(times[kHpa][b]);
    out << absl::StrFormat(" | %.1f× |\n",
                           hpa > 0 ? Mean(times[kAStar][b]) / hpa : 0);
  }
  return series;
}

absl::Status Report(const std::vector<std::string>&) {
  const std::string dir = absl::GetFlag(FLAGS_o);
  if (dir.empty()) return absl::InvalidArgumentError("-o DIR is required");
  std::vector<int32_t> sides;
  for (const std::string& s : absl::GetFlag(FLAGS_scaling)) {
    int32_t side = 0;
    if (!absl::SimpleAtoi(s, &side) || side < 64 || side > 65536) {
      return absl::OutOfRangeError(
          absl::StrCat("--scaling: '", s, "' is not a side in 64..65536"));
    }
    sides.push_back(side);
  }
  // Smallest first: it becomes its kind's reference (RunScaling).
  std::sort(sides.begin(), sides.end());
  const int32_t scaling_queries = absl::GetFlag(FLAGS_scaling_queries);
  if (scaling_queries < 1 || scaling_queries > 10000) {
    return absl::OutOfRangeError(absl::StrCat(
        "--scaling-queries: ", scaling_queries, " is not in 1..10000"));
  }
  const int32_t scaling_passes = absl::GetFlag(FLAGS_scaling_passes);
  if (scaling_passes < 1 || scaling_passes > 100) {
    return absl::OutOfRangeError(absl::StrCat(
        "--scaling-passes: ", scaling_passes, " is not in 1..100"));
  }
  PassLimits limits;
  limits.passes = scaling_passes;
  limits.seconds = absl::GetFlag(FLAGS_scaling_seconds);
  if (!(limits.seconds >= 0 && limits.seconds <= 600)) {
    return absl::OutOfRangeError(absl::StrCat(
        "--scaling-seconds: ", limits.seconds, " is not in 0..600"));
  }
  std::vector<MapKind> kinds;
  for (const std::string& name : absl::GetFlag(FLAGS_scaling_kinds)) {
    std::optional<MapKind> kind = ParseMapKind(name);
    if (!kind.has_value()) {
      return absl::OutOfRangeError(
          absl::StrCat("--scaling-kinds: '", name, "' is not a world kind"));
    }
    kinds.push_back(*kind);
  }
  // The flags are sound: only now is anything written.
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create ", dir, ": ", error.message()));
  }
  const int32_t max_queries = absl::GetFlag(FLAGS_max_queries);
  const Clock::time_point started = Clock::now();

  ASSIGN_OR_RETURN(std::vector<MapResult> maps,
                   RunSharedMaps(absl::GetFlag(FLAGS_maps), max_queries));
  ASSIGN_OR_RETURN(std::vector<MapResult> generated,
                   RunGeneratedMaps(max_queries));
  maps.insert(maps.end(), generated.begin(), generated.end());

  // Throughput on the map with the most cells (its sampled problems).
  const MapResult* biggest = &maps.front();
  for (const MapResult& m : maps) {
    if (m.cells > biggest->cells) biggest = &m;
  }
  Throughput throughput;
  if (!biggest->path.empty()) {
    ASSIGN_OR_RETURN(Grid grid,
                     ReadMapFile(biggest->path, TerrainLegend::Weighted()));
    ASSIGN_OR_RETURN(Scenario scen, ReadScenarioFile(biggest->path + ".scen"));
    std::vector<Problem> all;
    for (const ScenarioProblem& p : scen.problems) {
      all.push_back({p.start, p.goal, p.optimal});
    }
    throughput = MeasureThroughput(*biggest, grid, all);
  }

  std::vector<ScalingRow> scaling;
  const std::string tmp_world =
      (std::filesystem::path(dir) / "scaling.zpw.tmp").string();
  // Kind by kind (then map by map), smallest side first: that side stays
  // loaded while the larger ones run (Reference), and only one kind's at a
  // time. The table lists the rows by side. `grid_of` gives a side's grid,
  // or nullopt where the kind has none of that side.
  const auto run_sides =
      [&](const std::string& name,
          absl::FunctionRef<absl::StatusOr<std::optional<Grid>>(int32_t)>
              grid_of) -> absl::Status {
    Reference reference;
    for (int32_t side : sides) {
      ASSIGN_OR_RETURN(std::optional<Grid> grid, grid_of(side));
      if (!grid.has_value()) continue;
      ASSIGN_OR_RETURN(ScalingRow row,
                       RunScaling(name, *std::move(grid), scaling_queries,
                                  limits, tmp_world, &reference,
                                  /*keep_as_reference=*/side < sides.back()));
      scaling.push_back(std::move(row));
    }
    return absl::OkStatus();
  };
  for (MapKind kind : kinds) {
    RETURN_IF_ERROR(
        run_sides(std::string(MapKindName(kind)),
                  [&](int32_t side) -> absl::StatusOr<std::optional<Grid>> {
                    MapGenOptions gen;
                    gen.kind = kind;
                    gen.width = gen.height = side;
                    gen.seed = 1;
                    if (kind == MapKind::kMaze) gen.feature = 4;
                    return GenerateMap(gen);
                  }));
  }
  for (const std::string& map : absl::GetFlag(FLAGS_scaling_maps)) {
    if (!std::filesystem::exists(map)) continue;
    RETURN_IF_ERROR(
        run_sides(std::filesystem::path(map).stem().string() + " (upscaled)",
                  [&](int32_t side) -> absl::StatusOr<std::optional<Grid>> {
                    absl::StatusOr<Grid> upscaled = Upscaled(map, side);
                    if (absl::IsOutOfRange(upscaled.status()))
                      return std::nullopt;
                    return upscaled;
                  }));
  }
  std::stable_sort(
      scaling.begin(), scaling.end(),
      [](const ScalingRow& a, const ScalingRow& b) { return a.side < b.side; });

  std::vector<Series> series;
  const std::string md = (std::filesystem::path(dir) / "report.md").string();
  RETURN_IF_ERROR(WriteFileAtomically(md, [&](std::ostream& out) {
    out << "# zonepath benchmark report\n\n"
        << absl::StrFormat(
               "Generated by `zonepath report -o %s --maps %s --max-queries "
               "%d --scaling %s --scaling-queries %d --scaling-passes %d "
               "--scaling-seconds %g "
               "--scaling-kinds %s "
               "--scaling-maps '%s' --scaling-exact %d --scaling-exact-side "
               "%d` in %.0f s on %d "
               "hardware threads. Times are wall-clock per query (single "
               "thread unless said), so they are only comparable within this "
               "report. Worlds: automatic zone size (32 cells up to 4096 a "
               "side, 64 above) and levels (defaults); planner defaults "
               "(fewer turns on).\n",
               dir, absl::GetFlag(FLAGS_maps), max_queries,
               absl::StrJoin(absl::GetFlag(FLAGS_scaling), ","),
               absl::GetFlag(FLAGS_scaling_queries), scaling_passes,
               limits.seconds,
               absl::StrJoin(absl::GetFlag(FLAGS_scaling_kinds), ","),
               absl::StrJoin(absl::GetFlag(FLAGS_scaling_maps), ","),
               absl::GetFlag(FLAGS_scaling_exact),
               absl::GetFlag(FLAGS_scaling_exact_side),
               Seconds(Clock::now() - started),
               std::thread::hardware_concurrency());
    out << "\n## Query time and quality per map set\n\n"
           "Each problem is planned by every algorithm in turn; \"speed vs "
           "A*\" is the exact A* mean divided by the algorithm's mean on the "
           "same problems. Suboptimality is against the scenario's optimal "
           "length (generated worlds: the exact A* cost). \"first 32 moves\" "
           "is the time until a `PathCursor` has produced 32 moves (for A* "
           "the whole query).\n";
    WriteSetTables(out, maps);
    out << "\n## Build time and world size per map\n";
    WriteBuildTable(out, maps);
    out << "\n## Query time by path length (all maps)\n\n"
           "Mean µs per query, by the optimal path cost. Plot: "
           "`time_vs_length.png` (log-log; x = mean path cost of the bin, "
           "y = mean µs; colours: ";
    for (int a = 0; a < kAlgoCount; ++a) {
      out << (a ? ", " : "") << kAlgos[a].name << " " << kAlgos[a].color_name;
    }
    out << ").\n";
    series = WriteLengthTable(out, maps);
    out << "\n![time vs length](time_vs_length.png)\n";
    out << "\n## Batch throughput\n\n";
    if (throughput.queries > 0) {
      out << absl::StrFormat(
          "`PlanBatch` (HPA*, one `Planner` per thread) on all %d problems "
          "of %s, median of 3: 1 thread %.0f queries/s, 2 threads %.0f "
          "queries/s (%.2f×).\n",
          throughput.queries, throughput.map, throughput.qps[0],
          throughput.qps[1], throughput.qps[1] / throughput.qps[0]);
    } else {
      out << "Skipped (no MovingAI maps).\n";
    }
    out << "\n## Scaling with the world's size\n\n"
           "Generated worlds (`zonepath gen --kind K --width N --height N "
           "--seed 1`) and real maps upscaled (each cell a block), built with "
           "all cores and automatic levels. Peak memory is the kernel's peak "
           "resident size (VmHWM) during the build and during the load, "
           "including the process's baseline. Queries: random long queries "
           "(endpoints at least a quarter of the side apart when possible). "
           "After an untimed pass over them (plain, then smoothed), timed "
           "passes (a plain pass, then a smoothed one) time each query, "
        << scaling_passes << " at least and more until "
        << absl::StrFormat("%g", limits.seconds)
        << " s have gone by (column \"timed passes\"); a query's time (plain, "
           "smoothed, first 32 moves) is its median over the passes, and the "
           "table "
           "gives medians (p50) over the queries. \"µs per 1000 cost\" is "
           "the median of query time over path cost: flat when a query's "
           "time grows only with its path's cost, not with the world. "
           "Each kind's (or map's) smallest side stays loaded while its "
           "larger sides run, and after each of a world's passes the "
           "smallest side's plain queries run again, "
        << kAlongsideWarmPasses
        << " times untimed (after one untimed pass, a small world timed "
           "right after a large world's pass ran 12 % slower than after its "
           "own; after ten, 1.5-3 %) and once timed (on the "
           "smallest side itself, after its own): \"smallest side "
           "alongside\" is its µs per 1000 cost from those runs, and "
           "\"against it\" is this row's over it, so that both halves of "
           "the flat line's ratio see the machine under the same load. Those "
           "runs count in the seconds of passes, and the build and load "
           "peaks include the smallest side kept loaded. Suboptimality is "
           "against exact A* on the first queries where affordable.\n\n"
           "| world | side | levels | build s | build peak MB | file MB | "
           "load s | load peak MB | world in memory MB | timed passes | first "
           "32 moves µs | HPA* µs | µs per 1000 cost | smallest side "
           "alongside | against it | smoothed µs | mean path cost | subopt % "
           "(smoothed %) | A* mean µs |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---"
           "|---|---|---|\n";
    for (const ScalingRow& r : scaling) {
      const std::string exact =
          r.exact_queries == 0
              ? std::string("—")
              : absl::StrFormat("%.2f (%.2f), %d queries", r.subopt_pct,
                                r.smooth_subopt_pct, r.exact_queries);
      // The flat line: this row's µs per 1000 cost over that of its kind's
      // smallest side timed alongside ("—" where either found no path).
      std::string reference = "—", against = "—";
      if (r.reference_us_per_kcost > 0 && r.us_per_kcost > 0) {
        reference = absl::StrFormat("%.1f", r.reference_us_per_kcost);
        against =
            absl::StrFormat("%.2f×", r.us_per_kcost / r.reference_us_per_kcost);
      }
      out << absl::StrFormat(
          "| %s | %d | %d | %.2f | %s | %s | %.2f | %s | %s | %d | %.0f | "
          "%.0f | %.1f | %s | %s | %.0f | %.0f | %s | %s |\n",
          r.kind, r.side, r.levels, r.build_s, Mb(r.build_peak),
          Mb(r.file_bytes), r.load_s, Mb(r.load_peak), Mb(r.world_memory),
          r.passes, r.first_us_p50, r.hpa_us_p50, r.us_per_kcost, reference,
          against, r.smooth_us_p50, r.length_mean, exact,
          r.astar_us_mean < 0 ? std::string("—")
                              : absl::StrFormat("%.0f", r.astar_us_mean));
    }
    return absl::OkStatus();
  }));
  const std::string png =
      (std::filesystem::path(dir) / "time_vs_length.png").string();
  RETURN_IF_ERROR(WritePngFile(LogLogPlot(series, 900, 560), png));
  std::printf("wrote %s and %s\n", md.c_str(), png.c_str());
  return absl::OkStatus();
}

int Run(const std::vector<std::string>& args) {
  absl::Status status = Report(args);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kReportCommand = {
    "report",
    "Run the benchmark suite and write a Markdown report with a plot.",
    "usage: zonepath report -o DIR [--maps DIR] [--max-queries N] "
    "[--scaling 1024,4096,...] [--scaling-queries N] [--scaling-passes P] "
    "[--scaling-seconds S] "
    "[--scaling-maps M,...] "
    "[--scaling-kinds rooms,maze,terrain] [--scaling-exact N] "
    "[--scaling-exact-side S]\n"
    "Writes DIR/report.md and DIR/time_vs_length.png.",
    {"report_command.cc", "output_flag.cc"},
    0,
    0,
    &Run};

}  // namespace zonepath::cli
