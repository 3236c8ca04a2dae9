// `zonepath query WORLD SX SY GX GY`: one hierarchical query on a world file.
// With --agents FILE --agent CLASS --terrain MAP, WORLD must have been built
// for that class from MAP (`build --agent`), and the path is re-walked for
// the class's footprint on the terrain (CheckClassPath).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "commands.h"
#include "common_flags.h"
#include "nlohmann/json.hpp"
#include "planner_flags.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/agents/class_path.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/world/world_file.h"

ABSL_DECLARE_FLAG(std::string, terrain);  // agent_flags.cc

namespace zonepath::cli {
namespace {

nlohmann::json StageJson(const SearchStats& s) {
  return {{"expanded", s.expanded},
          {"generated", s.generated},
          {"time_us", absl::ToDoubleMicroseconds(s.time)}};
}

// An oriented class of an agent world: AgentPlanner (its guide world, then
// the class's rules), the path re-walked on the terrain.
absl::Status QueryOriented(const AgentWorld& world, const AgentClass& agent,
                           Point start, Point goal) {
  AgentPlanner planner(world);
  const AgentPlanOptions options = AgentPlanOptionsFromFlags();
  AgentPath path;
  const absl::Time begin = absl::Now();
  ASSIGN_OR_RETURN(const SearchOutcome outcome,
                   planner.FindPath(agent.name, start, goal, options, &path));
  const double time_us = absl::ToDoubleMicroseconds(absl::Now() - begin);
  if (outcome == SearchOutcome::kFound) {
    absl::StatusOr<AgentWalk> walk =
        WalkAgentPath(world.terrain(), agent, path);
    if (!walk.ok() || walk->end != goal ||
        std::abs(walk->cost - path.cost()) >
            1e-9 * std::max(1.0, path.cost())) {
      return absl::InternalError(absl::StrCat(
          "the planned path fails the rules of class '", agent.name, "': ",
          walk.ok() ? absl::StrCat("walked cost ", walk->cost)
                    : std::string(walk.status().message())));
    }
  }
  const OrientedStats& st = planner.oriented_stats();
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = {{"status", std::string(SearchOutcomeName(outcome))},
                        {"start", {start.x, start.y}},
                        {"goal", {goal.x, goal.y}},
                        {"agent", agent.name},
                        {"oriented", true},
                        {"cost", path.cost()},
                        {"steps", path.steps()},
                        {"turns", path.turns()},
                        {"runs", path.runs().size()},
                        {"moves", AgentRunsToString(path.runs())},
                        {"stretches", st.stretches},
                        {"widened", st.widened},
                        {"exact_fallbacks", st.exact_fallbacks},
                        {"expanded", st.expanded},
                        {"time_us", time_us}};
    std::printf("%s\n", j.dump().c_str());
    return absl::OkStatus();
  }
  std::printf("%s\n", std::string(SearchOutcomeName(outcome)).c_str());
  if (outcome != SearchOutcome::kFound) return absl::OkStatus();
  std::printf("cost %.6f, %lld steps and %lld turns in %zu runs\n", path.cost(),
              static_cast<long long>(path.steps()),
              static_cast<long long>(path.turns()), path.runs().size());
  std::printf("moves %s\n", AgentRunsToString(path.runs()).c_str());
  std::printf(
      "oriented class '%s': rules checked on the agent world's terrain: "
      "legal\n",
      agent.name.c_str());
  std::printf(
      "  %lld bounded searches (%lld widened, %lld exact fallbacks), %lld "
      "expanded, %.1f us\n",
      static_cast<long long>(st.stretches), static_cast<long long>(st.widened),
      static_cast<long long>(st.exact_fallbacks),
      static_cast<long long>(st.expanded), time_us);
  return absl::OkStatus();
}

absl::Status Query(const std::vector<std::string>& args) {
  int32_t v[4];
  for (int i = 0; i < 4; ++i) {
    if (!absl::SimpleAtoi(args[i + 1], &v[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("coordinate '", args[i + 1], "' is not an integer"));
    }
  }
  ASSIGN_OR_RETURN(LoadedWorld loaded,
                   LoadWorldFromFlags(args[0], /*allow_oriented=*/true));
  if (loaded.agent.has_value() && loaded.agent->agent.oriented) {
    return QueryOriented(*loaded.agents, loaded.agent->agent, {v[0], v[1]},
                         {v[2], v[3]});
  }
  const World& world = loaded.world;
  const std::optional<ClassWorld>& check = loaded.agent;
  Planner planner(world);
  const PlanOptions options = PlanOptionsFromFlags();
  RunLengthPath path;
  ASSIGN_OR_RETURN(
      SearchOutcome outcome,
      planner.FindPath({v[0], v[1]}, {v[2], v[3]}, options, &path));
  if (check.has_value() && outcome == SearchOutcome::kFound) {
    absl::StatusOr<AgentWalk> walk =
        CheckClassPath(check->terrain, check->agent, path);
    if (!walk.ok() || walk->end != Point{v[2], v[3]} ||
        std::abs(walk->cost - path.cost()) >
            1e-9 * std::max(1.0, path.cost())) {
      return absl::InternalError(absl::StrCat(
          "the planned path fails the footprint check of class '",
          check->agent.name, "': ",
          walk.ok() ? absl::StrCat("walked cost ", walk->cost, " to (",
                                   walk->end.x, ",", walk->end.y, ")")
                    : std::string(walk.status().message())));
    }
  }
  const PlanStats& st = planner.stats();
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = {
        {"status", std::string(SearchOutcomeName(outcome))},
        {"start", {v[0], v[1]}},
        {"goal", {v[2], v[3]}},
        {"agent", check.has_value() ? check->agent.name : "default"},
        {"cost", path.cost()},
        {"cost_before_smoothing", st.cost_before_smoothing},
        {"steps", path.steps()},
        {"runs", path.runs().size()},
        {"moves", RunsToString(path.runs())},
        {"abstract_nodes", st.abstract_nodes},
        {"used_direct_search", st.used_direct},
        {"stages",
         {{"direct", StageJson(st.direct)},
          {"connect", StageJson(st.connect)},
          {"abstract", StageJson(st.abstract)},
          {"refine", StageJson(st.refine)},
          {"smooth", StageJson(st.smooth)}}},
        {"time_us", absl::ToDoubleMicroseconds(st.total_time())}};
    std::printf("%s\n", j.dump().c_str());
    return absl::OkStatus();
  }
  std::printf("%s\n", std::string(SearchOutcomeName(outcome)).c_str());
  if (outcome != SearchOutcome::kFound) return absl::OkStatus();
  std::printf("cost %.6f (%.6f before smoothing), %lld steps in %zu runs\n",
              path.cost(), st.cost_before_smoothing,
              static_cast<long long>(path.steps()), path.runs().size());
  std::printf("moves %s\n", RunsToString(path.runs()).c_str());
  if (check.has_value()) {
    std::printf("footprint of class '%s' checked on %s: legal\n",
                check->agent.name.c_str(),
                loaded.agents != nullptr
                    ? "the agent world's terrain"
                    : absl::GetFlag(FLAGS_terrain).c_str());
  }
  auto line = [](const char* name, const SearchStats& s) {
    std::printf("  %-9s %8lld expanded %10.1f us\n", name,
                static_cast<long long>(s.expanded),
                absl::ToDoubleMicroseconds(s.time));
  };
  line("direct", st.direct);
  line("connect", st.connect);
  line("abstract", st.abstract);
  line("refine", st.refine);
  line("smooth", st.smooth);
  return absl::OkStatus();
}

int Run(const std::vector<std::string>& args) {
  absl::Status status = Query(args);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kQueryCommand = {
    "query",
    "Plan one path on a world file with the hierarchical planner.",
    "usage: zonepath query WORLD SX SY GX GY [--smooth] [--smooth-search] "
    "[--fewer-turns] "
    "[--free-crossings] [--abstract-weight W] "
    "[--json] [--checksums=false] [--agents FILE --agent CLASS --terrain MAP]\n"
    "With --agent, WORLD is the class's world (build --agent) of MAP, or "
    "an agent world (build --agents, no --terrain); coordinates are "
    "anchors; the path is checked for the footprint on the terrain. An "
    "oriented class of an agent world starts heading N, ends in any "
    "heading.",
    {"query_command.cc", "common_flags.cc", "planner_flags.cc", "load_flags.cc",
     "memory_limit_flag.cc", "agent_flags.cc"},
    5,
    5,
    &Run};

}  // namespace zonepath::cli
