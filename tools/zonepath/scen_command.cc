// `zonepath scen MAP SCEN`: runs every problem of a MovingAI scenario file
// with one planner and reports solved count, optimality against the file's
// lengths, timing (total and time to the first 32 moves) and per-stage means.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "commands.h"
#include "common_flags.h"
#include "nlohmann/json.hpp"
#include "planner_flags.h"
#include "summary_stats.h"
#include "threads_flag.h"
#include "timed_plan.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/base/atomic_file.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/movingai/scenario.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/world/world_file.h"

ABSL_FLAG(std::string, algo, "astar",
          "planner: astar (exact grid A*), jps (exact jump point search: "
          "8-connected grids whose passable cells all cost the same) or hpa "
          "(hierarchical)");
ABSL_FLAG(double, weight, 1.0,
          "astar: heuristic weight w >= 1 (costs at most w x optimal)");
ABSL_FLAG(std::string, world, "",
          "hpa: world file from `zonepath build` (default: build in memory "
          "with default parameters)");
ABSL_FLAG(std::string, paths, "",
          "write one line per problem: index, status, cost, moves (E5,NE3)");

namespace zonepath::cli {
namespace {

constexpr int64_t kFirstSteps = 32;

struct ProblemResult {
  SearchOutcome outcome = SearchOutcome::kUnreachable;
  double cost = 0;
  std::string moves;
};

// Per-query measurements, summarised at the end.
struct Samples {
  std::vector<double> time_us, first_us, expanded, cost, subopt_pct,
      subopt_before_pct, runs, connect_us, abstract_us, refine_us, smooth_us,
      abstract_expanded, refine_expanded;
  // Per level refined, summed over the queries (PlanStats::refine_levels).
  decltype(PlanStats::refine_levels) refine_levels{};
  // Per level whose plan the query used (PlanStats::top_level; 0: the
  // direct path, whether or not an abstract search ran, or start == goal),
  // over the queries solved: a query planned on level 1 waits for a whole
  // level-1 search before its first moves (README, "Five more tries").
  struct ByTopLevel {
    int64_t queries = 0;
    double first_us = 0, time_us = 0, cost = 0;  // sums
  };
  std::array<ByTopLevel, kMaxLevelCount + 1> by_top_level{};
};

double Us(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

absl::StatusOr<std::unique_ptr<World>> LoadOrBuildWorld(
    const Grid& grid, Connectivity connectivity, const std::string& map_path) {
  const std::string world_path = absl::GetFlag(FLAGS_world);
  if (world_path.empty()) {
    BuildOptions build;
    build.params.connectivity = connectivity;
    ASSIGN_OR_RETURN(World built, BuildWorld(grid, build));
    return std::make_unique<World>(std::move(built));
  }
  // An agent world gives the --agent class's world (the map, read as that
  // class's grid, must be its terrain: checked below).
  ASSIGN_OR_RETURN(const bool agent_world, IsAgentWorldFile(world_path));
  std::optional<World> from_agents;
  if (agent_world) {
    ASSIGN_OR_RETURN(LoadedWorld chosen, LoadWorldFromFlags(world_path));
    from_agents = std::move(chosen.world);
  }
  ASSIGN_OR_RETURN(World loaded, from_agents.has_value()
                                     ? std::move(*from_agents)
                                     : LoadWorldFile(world_path));
  if (loaded.grid().CostVector() != grid.CostVector() ||
      loaded.grid().width() != grid.width()) {
    return absl::InvalidArgumentError(
        absl::StrCat(world_path, ": the world's grid differs from ", map_path));
  }

  return std::make_unique<World>(std::move(loaded));
}

// The --paths file: index, ok|unreachable, cost, moves per problem.
absl::Status WritePaths(const std::vector<ProblemResult>& results) {
  return WriteFileAtomically(
      absl::GetFlag(FLAGS_paths), [&](std::ostream& out) {
        for (size_t i = 0; i < results.size(); ++i) {
          const ProblemResult& r = results[i];
          out << absl::StrFormat(
              "%d\t%s\t%.9f\t%s\n", i,
              r.outcome == SearchOutcome::kFound ? "ok" : "unreachable", r.cost,
              r.moves);
        }
        return absl::OkStatus();
      });
}

// One problem's outcome and measurements.
struct Measured {
  absl::Status status;
  SearchOutcome outcome = SearchOutcome::kUnreachable;
  double time_us = 0, first_us = 0, expanded = 0;
  double cost = 0, cost_before_smoothing = 0;
  size_t runs = 0;
  std::string moves;  // only with --paths
  PlanStats stats;    // hpa only
};

// One thread's planners: exact A* on the grid, or the hierarchical planner.
class Solver {
 public:
  Solver(const Grid& grid, const World* world, const AStarOptions& options,
         const PlanOptions& plan_options, bool keep_moves)
      : astar_(grid),
        planner_(world != nullptr ? std::make_unique<Planner>(*world)
                                  : nullptr),
        options_(options),
        plan_options_(plan_options),
        keep_moves_(keep_moves) {}

  Measured Solve(const ScenarioProblem& p) {
    Measured m;
    TimedPlan timed;
    if (planner_ == nullptr) {
      const auto begin = std::chrono::steady_clock::now();
      timed.outcome = astar_.FindPath(p.start, p.goal, options_, &path_);
      timed.first = timed.total = std::chrono::steady_clock::now() - begin;
    } else {
      timed = PlanTimed(*planner_, p.start, p.goal, plan_options_, kFirstSteps,
                        &path_);
    }
    if (!timed.outcome.ok()) {
      m.status = timed.outcome.status();
      return m;
    }
    m.outcome = *timed.outcome;
    m.time_us = Us(timed.total);
    m.first_us = Us(timed.first);
    m.cost = m.cost_before_smoothing = path_.cost();
    m.runs = path_.runs().size();
    if (planner_ == nullptr) {
      m.expanded = static_cast<double>(astar_.stats().expanded);
    } else {
      m.stats = planner_->stats();
      if (plan_options_.smooth) {
        m.cost_before_smoothing = m.stats.cost_before_smoothing;
      }
      m.expanded = static_cast<double>(m.stats.total_expanded());
    }
    if (keep_moves_ && m.outcome == SearchOutcome::kFound) {
      m.moves = RunsToString(path_.runs());
    }
    return m;
  }

 private:
  GridAStar astar_;
  std::unique_ptr<Planner> planner_;
  const AStarOptions options_;
  const PlanOptions plan_options_;
  const bool keep_moves_;
  RunLengthPath path_;
};

// An oriented class (state = anchor x heading; starts heading N, any goal
// heading): exact class-aware A* on the terrain (--algo astar) or
// AgentPlanner on an agent world (--algo hpa --world W.zpa). One thread.
absl::Status RunOrientedScen(const std::string& map_path,
                             const std::string& scen_path,
                             const AgentClass& agent) {
  ASSIGN_OR_RETURN(const Grid terrain, LoadTerrainFromFlags(map_path));
  ASSIGN_OR_RETURN(const Scenario scenario, ReadScenarioFile(scen_path));
  RETURN_IF_ERROR(CheckScenarioFitsGrid(scenario, terrain));
  const std::string algo = absl::GetFlag(FLAGS_algo);
  const std::string world_path = absl::GetFlag(FLAGS_world);
  if (algo != "astar" && algo != "hpa") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--algo: unknown planner '", algo, "' (known: astar, hpa)"));
  }
  if ((algo == "hpa") == world_path.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--agent ", agent.name,
        " is oriented: --algo hpa needs --world (an agent world from build "
        "--agents), --algo astar takes none"));
  }
  ASSIGN_OR_RETURN(const int threads, ThreadsFromFlag(1, false));
  if (threads != 1) {
    return absl::InvalidArgumentError(
        "--threads: oriented classes are planned on one thread");
  }
  std::unique_ptr<AgentWorld> world;
  std::unique_ptr<AgentPlanner> planner;
  if (algo == "hpa") {
    AgentLoadOptions load;
    load.classes = {agent.name};
    ASSIGN_OR_RETURN(AgentWorld loaded, LoadAgentWorldFile(world_path, load));
    if (loaded.terrain().CostVector() != terrain.CostVector() ||
        loaded.terrain().width() != terrain.width()) {
      return absl::InvalidArgumentError(absl::StrCat(
          world_path, ": the agent world's terrain differs from ", map_path));
    }
    world = std::make_unique<AgentWorld>(std::move(loaded));
    planner = std::make_unique<AgentPlanner>(*world);
  }
  ClassAStar exact(terrain);
  const AgentPlanOptions options = AgentPlanOptionsFromFlags();
  const bool want_paths = !absl::GetFlag(FLAGS_paths).empty();
  std::vector<ProblemResult> results;
  Samples s;
  int64_t solved = 0, matches = 0;
  AgentPath path;
  const auto wall_begin = std::chrono::steady_clock::now();
  for (const ScenarioProblem& p : scenario.problems) {
    const auto begin = std::chrono::steady_clock::now();
    const absl::StatusOr<SearchOutcome> outcome =
        planner != nullptr
            ? planner->FindPath(agent.name, p.start, p.goal, options, &path)
            : exact.FindPath(agent, p.start, Direction::kN, p.goal, {}, &path);
    const double us = Us(std::chrono::steady_clock::now() - begin);
    if (!outcome.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          scenario.name, ":", p.line, ": ", outcome.status().message()));
    }
    s.time_us.push_back(us);
    s.expanded.push_back(static_cast<double>(
        planner != nullptr ? planner->oriented_stats().expanded
                           : exact.stats().expanded));
    ProblemResult r;
    r.outcome = *outcome;
    if (*outcome == SearchOutcome::kFound) {
      ++solved;
      r.cost = path.cost();
      s.runs.push_back(static_cast<double>(path.runs().size()));
      if (MatchesOptimal(r.cost, p.optimal)) ++matches;
      if (p.optimal > 0) {
        s.subopt_pct.push_back(100.0 * (r.cost - p.optimal) / p.optimal);
      }
      if (want_paths) r.moves = AgentRunsToString(path.runs());
    }
    if (want_paths) results.push_back(std::move(r));
  }
  const double wall_s = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - wall_begin)
                            .count();
  if (want_paths) RETURN_IF_ERROR(WritePaths(results));
  const int64_t queries = static_cast<int64_t>(scenario.problems.size());
  if (absl::GetFlag(FLAGS_json)) {
    const nlohmann::json j = {{"map", map_path},
                              {"scen", scen_path},
                              {"algo", algo},
                              {"agent", agent.name},
                              {"oriented", true},
                              {"queries", queries},
                              {"solved", solved},
                              {"optimal_matches", matches},
                              {"subopt_mean_pct", Mean(s.subopt_pct)},
                              {"time_us_mean", Mean(s.time_us)},
                              {"time_us_p50", Percentile(s.time_us, 50)},
                              {"time_us_p99", Percentile(s.time_us, 99)},
                              {"expanded_mean", Mean(s.expanded)},
                              {"runs_mean", Mean(s.runs)},
                              {"wall_seconds", wall_s}};
    std::printf("%s\n", j.dump().c_str());
    return absl::OkStatus();
  }
  std::printf(
      "%s: %s, oriented class %s, %lld queries, %lld solved, %lld optimal\n"
      "  suboptimality mean %.4f%%\n"
      "  time per query: mean %.1f us, p50 %.1f us, p99 %.1f us\n"
      "  expanded per query: mean %.0f\n",
      map_path.c_str(), algo.c_str(), agent.name.c_str(),
      static_cast<long long>(queries), static_cast<long long>(solved),
      static_cast<long long>(matches), Mean(s.subopt_pct), Mean(s.time_us),
      Percentile(s.time_us, 50), Percentile(s.time_us, 99), Mean(s.expanded));
  return absl::OkStatus();
}

absl::Status RunScen(const std::string& map_path,
                     const std::string& scen_path) {
  ASSIGN_OR_RETURN(const std::optional<AgentClass> agent,
                   AgentClassFromFlags(/*allow_oriented=*/true));
  if (agent.has_value() && agent->oriented) {
    return RunOrientedScen(map_path, scen_path, *agent);
  }
  ASSIGN_OR_RETURN(Grid grid, LoadMapFromFlags(map_path));
  ASSIGN_OR_RETURN(Scenario scenario, ReadScenarioFile(scen_path));
  RETURN_IF_ERROR(CheckScenarioFitsGrid(scenario, grid));
  ASSIGN_OR_RETURN(Connectivity connectivity, ConnectivityFromFlags());
  const std::string algo = absl::GetFlag(FLAGS_algo);
  if (algo != "astar" && algo != "jps" && algo != "hpa") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--algo: unknown planner '", algo, "' (known: astar, jps, hpa)"));
  }
  if (algo != "hpa" && !absl::GetFlag(FLAGS_world).empty()) {
    return absl::OutOfRangeError("--world applies only with --algo hpa");
  }
  AStarOptions options;
  options.connectivity = connectivity;
  options.weight = absl::GetFlag(FLAGS_weight);
  if (!(options.weight >= 1) || !std::isfinite(options.weight)) {
    return absl::OutOfRangeError(
        absl::StrCat("--weight must be a number >= 1, got ", options.weight));
  }
  if (algo == "jps") {
    if (connectivity != Connectivity::kEight || options.weight != 1 ||
        !grid.OneCost()) {
      return absl::InvalidArgumentError(
          "--algo jps needs 8-connected moves, --weight 1 and a map whose "
          "passable cells all cost the same (use astar)");
    }
    options.jump_points = true;
  }
  ASSIGN_OR_RETURN(const int threads, ThreadsFromFlag(1, false));
  std::unique_ptr<World> world;
  if (algo == "hpa") {
    ASSIGN_OR_RETURN(world, LoadOrBuildWorld(grid, connectivity, map_path));
    // A world file decides; --connectivity, if given, must agree.
    ASSIGN_OR_RETURN(connectivity,
                     ConnectivityForWorld(*world, absl::GetFlag(FLAGS_world)));
    options.connectivity = connectivity;
  }
  const PlanOptions plan_options = PlanOptionsFromFlags();
  const bool smooth = plan_options.smooth;
  const bool want_paths = !absl::GetFlag(FLAGS_paths).empty();

  // Each thread takes the next problem; results land in problem order.
  const std::vector<ScenarioProblem>& problems = scenario.problems;
  std::vector<Measured> measured(problems.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    Solver solver(grid, world.get(), options, plan_options, want_paths);
    for (size_t i = next++; i < problems.size(); i = next++) {
      measured[i] = solver.Solve(problems[i]);
    }
  };
  const auto wall_begin = std::chrono::steady_clock::now();
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  const double wall_s = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - wall_begin)
                            .count();

  std::vector<ProblemResult> results;
  Samples s;
  int64_t solved = 0, matches = 0;
  for (size_t i = 0; i < problems.size(); ++i) {
    const ScenarioProblem& p = problems[i];
    Measured& m = measured[i];
    if (!m.status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(scenario.name, ":", p.line, ": ", m.status.message()));
    }
    s.time_us.push_back(m.time_us);
    s.first_us.push_back(m.first_us);
    s.expanded.push_back(m.expanded);
    if (world != nullptr) {
      const PlanStats& st = m.stats;
      s.connect_us.push_back(absl::ToDoubleMicroseconds(st.connect.time));
      s.abstract_us.push_back(absl::ToDoubleMicroseconds(st.abstract.time));
      s.refine_us.push_back(absl::ToDoubleMicroseconds(st.refine.time));
      s.smooth_us.push_back(absl::ToDoubleMicroseconds(st.smooth.time));
      s.abstract_expanded.push_back(static_cast<double>(st.abstract.expanded));
      s.refine_expanded.push_back(static_cast<double>(st.refine.expanded));
      for (size_t j = 0; j < st.refine_levels.size(); ++j) {
        s.refine_levels[j].windows += st.refine_levels[j].windows;
        s.refine_levels[j].expanded += st.refine_levels[j].expanded;
        s.refine_levels[j].fallbacks += st.refine_levels[j].fallbacks;
      }
    }
    ProblemResult r;
    r.outcome = m.outcome;
    if (m.outcome == SearchOutcome::kFound) {
      ++solved;
      if (world != nullptr) {
        const int top = std::clamp(m.stats.top_level, 0, kMaxLevelCount);
        Samples::ByTopLevel& b = s.by_top_level[top];
        ++b.queries;
        b.first_us += m.first_us;
        b.time_us += m.time_us;
        b.cost += m.cost;
      }
      r.cost = m.cost;
      s.cost.push_back(m.cost);
      s.runs.push_back(static_cast<double>(m.runs));
      if (MatchesOptimal(r.cost, p.optimal)) ++matches;
      if (p.optimal > 0) {
        s.subopt_pct.push_back(100.0 * (r.cost - p.optimal) / p.optimal);
        s.subopt_before_pct.push_back(
            100.0 * (m.cost_before_smoothing - p.optimal) / p.optimal);
      }
      r.moves = std::move(m.moves);
    }
    if (want_paths) results.push_back(std::move(r));
  }

  if (want_paths) RETURN_IF_ERROR(WritePaths(results));

  auto max_of = [](const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m = std::max(m, x);
    return m;
  };
  const int64_t queries = static_cast<int64_t>(scenario.problems.size());
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = {
        {"map", map_path},
        {"scen", scen_path},
        {"algo", algo},
        {"queries", queries},
        {"solved", solved},
        {"optimal_matches", matches},
        {"subopt_mean_pct", Mean(s.subopt_pct)},
        {"subopt_max_pct", max_of(s.subopt_pct)},
        {"time_us_mean", Mean(s.time_us)},
        {"time_us_p50", Percentile(s.time_us, 50)},
        {"time_us_p99", Percentile(s.time_us, 99)},
        {"expanded_mean", Mean(s.expanded)},
        {"cost_mean", Mean(s.cost)},  // of the paths found
        {"runs_mean", Mean(s.runs)},
        {"threads", threads},
        {"wall_seconds", wall_s},
        {"queries_per_second", queries / wall_s},
        {"first_steps_us_mean", Mean(s.first_us)},
        {"first_steps_us_p50", Percentile(s.first_us, 50)},
    };
    if (world == nullptr) {
      j["weight"] = options.weight;
    } else {
      j["smooth"] = smooth;
      j["smooth_by_search"] = plan_options.smooth_by_search;
      j["fewer_turns"] = plan_options.fewer_turns;
      j["world_params"] = {{"zone_size", world->params().zone_size},
                           {"levels", world->params().levels},
                           {"cache_paths", world->params().cache_paths},
                           {"beacon_spacing", world->params().beacon_spacing}};
      j["subopt_before_smoothing_mean_pct"] = Mean(s.subopt_before_pct);
      j["subopt_before_smoothing_max_pct"] = max_of(s.subopt_before_pct);
      j["connect_us_mean"] = Mean(s.connect_us);
      j["abstract_us_mean"] = Mean(s.abstract_us);
      j["refine_us_mean"] = Mean(s.refine_us);
      j["smooth_us_mean"] = Mean(s.smooth_us);
      j["abstract_expanded_mean"] = Mean(s.abstract_expanded);
      j["refine_expanded_mean"] = Mean(s.refine_expanded);
      // By the level whose path was refined: windows and expansions a query,
      // and the scenario's windows that fell back to the route before (rare,
      // so a total).
      nlohmann::json levels = nlohmann::json::array();
      const double n = std::max<double>(1.0, s.refine_expanded.size());
      for (int l = 1; l <= world->params().levels && l <= kMaxLevelCount; ++l) {
        levels.push_back({{"level", l},
                          {"windows_mean", s.refine_levels[l].windows / n},
                          {"expanded_mean", s.refine_levels[l].expanded / n},
                          {"fallbacks", s.refine_levels[l].fallbacks}});
      }
      j["refine_levels"] = levels;
      nlohmann::json tops = nlohmann::json::array();
      for (int l = 0; l <= kMaxLevelCount; ++l) {
        const Samples::ByTopLevel& b = s.by_top_level[l];
        if (b.queries == 0) continue;
        const double q = static_cast<double>(b.queries);
        tops.push_back({{"top_level", l},
                        {"queries", b.queries},
                        {"first_steps_us_mean", b.first_us / q},
                        {"time_us_mean", b.time_us / q},
                        {"cost_mean", b.cost / q}});
      }
      j["top_levels"] = tops;
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "%s: %s, %lld queries, %lld solved, %lld optimal\n"
        "  suboptimality mean %.4f%% max %.4f%%\n"
        "  time per query: mean %.1f us, p50 %.1f us, p99 %.1f us\n"
        "  time to the first %lld moves: mean %.1f us\n"
        "  expanded per query: mean %.0f\n"
        "  throughput: %.1f queries/s on %d thread(s)\n",
        map_path.c_str(), algo.c_str(), static_cast<long long>(queries),
        static_cast<long long>(solved), static_cast<long long>(matches),
        Mean(s.subopt_pct), max_of(s.subopt_pct), Mean(s.time_us),
        Percentile(s.time_us, 50), Percentile(s.time_us, 99),
        static_cast<long long>(kFirstSteps), Mean(s.first_us), Mean(s.expanded),
        queries / wall_s, threads);
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
    "usage: zonepath scen MAP SCEN [--algo astar|jps|hpa] [--weight W] "
    "[--world WORLD] [--smooth] [--smooth-search] [--fewer-turns] "
    "[--free-crossings] "
    "[--abstract-weight W] "
    "[--threads T] [--paths FILE] "
    "[--json] [--agents FILE --agent CLASS]\n"
    "With --agent, problems are anchor positions of the class, planned on "
    "its class grid (check the paths with check-paths --agent). An oriented "
    "class starts heading N and ends in any heading: --algo astar is the "
    "exact class-aware search, --algo hpa plans on an agent world (--world "
    "W.zpa); its moves include turns (R2, L1) and backward runs (~N3).\n"
    "Paths file lines: index<TAB>ok|unreachable<TAB>cost<TAB>moves.",
    {"scen_command.cc", "common_flags.cc", "map_flags.cc", "agent_flags.cc",
     "planner_flags.cc", "threads_flag.cc"},
    2,
    2,
    &Run};

}  // namespace zonepath::cli
