// How many untimed passes a small world's queries need, right after a pass
// of a large world, before they run as fast as after a pass of their own.
// `zonepath report`'s scaling table times its smallest side alongside each
// larger world (kAlongsideWarmPasses in tools/zonepath/report_command.cc);
// this is the check behind that count.
//
//   build/bench/zonepath_warm_passes SMALL.zpw SMALL.scen LARGE.zpw
//       LARGE.scen ROUNDS WARM_PASSES
//
// Every round runs three phases, in an order that rotates from round to
// round: a plain pass over the queries of (self) the small world itself,
// (copy) a second copy of the small world read into memory, (large) the
// large world; then WARM_PASSES untimed passes of the small world's plain
// queries, then one timed pass. Prints, per phase, the median over queries
// of each query's median time over the rounds per 1000 of path cost, and
// its ratio to "self". A query is timed by FindPath (the report times Plan
// and its cursor, the same work). Every pass of a world, and the copy,
// must find the first pass's costs. Not a test: nothing here asserts a
// time.

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/zonepath/summary_stats.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/movingai/scenario.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/world/world_file.h"

namespace zonepath {
namespace {

// A loaded world with its planner, queries and the first pass's costs.
// The planner refers to *world and is declared after it.
struct QuerySet {
  std::unique_ptr<World> world;
  std::unique_ptr<Planner> planner;
  std::vector<ScenarioProblem> queries;
  // Per query, from the first pass: its path's cost, -1 for no path;
  // empty before the first pass.
  std::vector<double> costs;
};

absl::StatusOr<QuerySet> Load(const std::string& world_path,
                              const std::string& scen_path, bool map) {
  LoadOptions options;
  options.map = map;
  ASSIGN_OR_RETURN(World world, LoadWorldFile(world_path, options));
  ASSIGN_OR_RETURN(Scenario scen, ReadScenarioFile(scen_path));
  RETURN_IF_ERROR(CheckScenarioFitsGrid(scen, world.grid()));
  QuerySet set;
  set.world = std::make_unique<World>(std::move(world));
  set.planner = std::make_unique<Planner>(*set.world, PlannerOptions());
  set.queries = std::move(scen.problems);
  return set;
}

// One plain pass; appends each found query's time (µs) to (*times)[i] when
// `times` is given. The first pass keeps the costs; every later one must
// find them again.
absl::Status Pass(QuerySet& set, RunLengthPath* path,
                  std::vector<std::vector<double>>* times) {
  const bool first = set.costs.empty();
  for (size_t i = 0; i < set.queries.size(); ++i) {
    const ScenarioProblem& q = set.queries[i];
    const auto begin = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(
        SearchOutcome outcome,
        set.planner->FindPath(q.start, q.goal, PlanOptions(), path));
    const std::chrono::duration<double, std::micro> took =
        std::chrono::steady_clock::now() - begin;
    const double cost = outcome == SearchOutcome::kFound ? path->cost() : -1;
    if (first) set.costs.push_back(cost);
    if (cost != set.costs[i]) {
      return absl::InternalError(
          absl::StrCat("query ", i, ": cost ", cost, " after ", set.costs[i]));
    }
    if (times != nullptr && cost >= 0) (*times)[i].push_back(took.count());
  }
  return absl::OkStatus();
}

absl::Status TimePhases(const std::string& small_world,
                        const std::string& small_scen,
                        const std::string& large_world,
                        const std::string& large_scen, int rounds,
                        int warm_passes) {
  ASSIGN_OR_RETURN(QuerySet small, Load(small_world, small_scen, /*map=*/true));
  ASSIGN_OR_RETURN(QuerySet copy, Load(small_world, small_scen, /*map=*/false));
  ASSIGN_OR_RETURN(QuerySet large, Load(large_world, large_scen, /*map=*/true));
  const char* names[3] = {"self", "copy", "large"};
  QuerySet* before[3] = {&small, &copy, &large};
  std::vector<std::vector<std::vector<double>>> times(
      3, std::vector<std::vector<double>>(small.queries.size()));
  RunLengthPath path;
  for (QuerySet* set : before) RETURN_IF_ERROR(Pass(*set, &path, nullptr));
  if (copy.costs != small.costs) {
    return absl::InternalError("the copy of the small world found other costs");
  }
  for (int round = 0; round < rounds; ++round) {
    for (int k = 0; k < 3; ++k) {
      const int phase = (round + k) % 3;
      RETURN_IF_ERROR(Pass(*before[phase], &path, nullptr));
      for (int w = 0; w < warm_passes; ++w) {
        RETURN_IF_ERROR(Pass(small, &path, nullptr));
      }
      RETURN_IF_ERROR(Pass(small, &path, &times[phase]));
    }
  }
  double self = 0;
  for (int phase = 0; phase < 3; ++phase) {
    std::vector<double> per_kcost;
    for (size_t i = 0; i < small.queries.size(); ++i) {
      if (small.costs[i] <= 0) continue;
      per_kcost.push_back(1000 * cli::Median(times[phase][i]) / small.costs[i]);
    }
    if (per_kcost.empty()) return absl::NotFoundError("no query found a path");
    const double figure = cli::Median(per_kcost);
    if (phase == 0) self = figure;
    std::printf(
        "%-5s %8.1f us per 1000 cost  %.3fx self  (%zu queries, %d "
        "rounds, %d warm passes)\n",
        names[phase], figure, figure / self, per_kcost.size(), rounds,
        warm_passes);
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace zonepath

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr,
                 "usage: %s SMALL.zpw SMALL.scen LARGE.zpw LARGE.scen ROUNDS "
                 "WARM_PASSES\n",
                 argv[0]);
    return 2;
  }
  int rounds = 0, warm_passes = 0;
  if (!absl::SimpleAtoi(argv[5], &rounds) || rounds < 1 || rounds > 10000) {
    std::fprintf(stderr, "ROUNDS must be an integer in 1..10000, not '%s'\n",
                 argv[5]);
    return 2;
  }
  if (!absl::SimpleAtoi(argv[6], &warm_passes) || warm_passes < 0 ||
      warm_passes > 1000) {
    std::fprintf(stderr,
                 "WARM_PASSES must be an integer in 0..1000, not '%s'\n",
                 argv[6]);
    return 2;
  }
  const absl::Status status = zonepath::TimePhases(
      argv[1], argv[2], argv[3], argv[4], rounds, warm_passes);
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
