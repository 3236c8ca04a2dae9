// `zonepath scen MAP SCEN`: runs every problem of a MovingAI scenario file
// and reports solved count, optimality against the file's lengths and timing.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "commands.h"
#include "common_flags.h"
#include "nlohmann/json.hpp"
#include "summary_stats.h"
#include "zonepath/base/atomic_file.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/movingai/scenario.h"
#include "zonepath/search/grid_astar.h"

ABSL_FLAG(std::string, algo, "astar", "planner: astar");
ABSL_FLAG(double, weight, 1.0,
          "A* heuristic weight w >= 1 (costs at most w x optimal)");
ABSL_FLAG(std::string, paths, "",
          "write one line per problem: index, status, cost, moves (E5,NE3)");

namespace zonepath::cli {
namespace {

struct ProblemResult {
  SearchOutcome outcome = SearchOutcome::kUnreachable;
  double cost = 0;
  std::string moves;
};

absl::Status RunScen(const std::string& map_path,
                     const std::string& scen_path) {
  ASSIGN_OR_RETURN(Grid grid, LoadMapFromFlags(map_path));
  ASSIGN_OR_RETURN(Scenario scenario, ReadScenarioFile(scen_path));
  RETURN_IF_ERROR(CheckScenarioFitsGrid(scenario, grid));
  ASSIGN_OR_RETURN(Connectivity connectivity, ConnectivityFromFlags());
  const std::string algo = absl::GetFlag(FLAGS_algo);
  if (algo != "astar") {
    return absl::InvalidArgumentError(
        absl::StrCat("--algo: unknown planner '", algo, "' (known: astar)"));
  }
  AStarOptions options;
  options.connectivity = connectivity;
  options.weight = absl::GetFlag(FLAGS_weight);
  GridAStar astar(grid);
  RunLengthPath path;

  const bool want_paths = !absl::GetFlag(FLAGS_paths).empty();
  std::vector<ProblemResult> results;
  std::vector<double> times_us, expanded, subopt_pct;
  int64_t solved = 0, matches = 0;
  for (const ScenarioProblem& p : scenario.problems) {
    const auto begin = std::chrono::steady_clock::now();
    absl::StatusOr<SearchOutcome> outcome =
        astar.FindPath(p.start, p.goal, options, &path);
    const auto end = std::chrono::steady_clock::now();
    if (!outcome.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          scenario.name, ":", p.line, ": ", outcome.status().message()));
    }
    times_us.push_back(
        std::chrono::duration<double, std::micro>(end - begin).count());
    expanded.push_back(static_cast<double>(astar.stats().expanded));
    ProblemResult r;
    r.outcome = *outcome;
    if (*outcome == SearchOutcome::kFound) {
      ++solved;
      r.cost = path.cost();
      if (MatchesOptimal(r.cost, p.optimal)) ++matches;
      if (p.optimal > 0)
        subopt_pct.push_back(100.0 * (r.cost - p.optimal) / p.optimal);
      if (want_paths) r.moves = RunsToString(path.runs());
    }
    if (want_paths) results.push_back(std::move(r));
  }

  if (want_paths) {
    RETURN_IF_ERROR(
        WriteFileAtomically(absl::GetFlag(FLAGS_paths), [&](std::ostream& out) {
          for (size_t i = 0; i < results.size(); ++i) {
            const ProblemResult& r = results[i];
            out << absl::StrFormat(
                "%d\t%s\t%.9f\t%s\n", i,
                r.outcome == SearchOutcome::kFound ? "ok" : "unreachable",
                r.cost, r.moves);
          }
          return absl::OkStatus();
        }));
  }

  double subopt_max = 0;
  for (double s : subopt_pct) subopt_max = std::max(subopt_max, s);
  const int64_t queries = static_cast<int64_t>(scenario.problems.size());
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = {
        {"map", map_path},
        {"scen", scen_path},
        {"algo", algo},
        {"weight", options.weight},
        {"queries", queries},
        {"solved", solved},
        {"optimal_matches", matches},
        {"subopt_mean_pct", Mean(subopt_pct)},
        {"subopt_max_pct", subopt_max},
        {"time_us_mean", Mean(times_us)},
        {"time_us_p50", Percentile(times_us, 50)},
        {"time_us_p99", Percentile(times_us, 99)},
        {"expanded_mean", Mean(expanded)},
    };
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "%s: %s, %lld queries, %lld solved, %lld optimal\n"
        "  suboptimality mean %.4f%% max %.4f%%\n"
        "  time per query: mean %.1f us, p50 %.1f us, p99 %.1f us\n"
        "  expanded per query: mean %.0f\n",
        map_path.c_str(), algo.c_str(), static_cast<long long>(queries),
        static_cast<long long>(solved), static_cast<long long>(matches),
        Mean(subopt_pct), subopt_max, Mean(times_us), Percentile(times_us, 50),
        Percentile(times_us, 99), Mean(expanded));
  }
  return absl::OkStatus();
}

int Run(const std::vector<std::string>& args) {
  absl::Status status = RunScen(args[0], args[1]);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kScenCommand = {
    "scen",
    "Run every problem of a MovingAI scenario file and report quality and "
    "speed.",
    "usage: zonepath scen MAP SCEN [--algo astar] [--weight W] [--paths FILE] "
    "[--json]\n"
    "Paths file lines: index<TAB>ok|unreachable<TAB>cost<TAB>moves.",
    {"scen_command.cc", "common_flags.cc"},
    2,
    2,
    &Run};

}  // namespace zonepath::cli
