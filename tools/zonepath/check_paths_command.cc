// `zonepath check-paths MAP SCEN PATHS`: independently re-walks every path
// of a `zonepath scen --paths` file: each must be legal, start and end at the
// scenario's cells, and cost (walked) what the file says. With --agents and
// --agent, paths are anchor paths of that class, re-walked on the terrain
// under the footprint rules (CheckClassPath), not on the class grid.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "commands.h"
#include "common_flags.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/agents/class_path.h"
#include "zonepath/base/input_file.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/grid/path.h"
#include "zonepath/movingai/scenario.h"

namespace zonepath::cli {
namespace {

// Parses a paths file's moves and walks them from `start` on the terrain:
// for the class if one is given (an oriented class's moves carry turns and
// backward runs, start heading N, and are walked under its rules). Errors
// are InvalidArgument, prefixed "moves: " when the text does not parse.
absl::StatusOr<PathWalk> WalkMoves(const Grid& terrain,
                                   const std::optional<AgentClass>& agent,
                                   Point start, absl::string_view moves,
                                   Connectivity connectivity,
                                   AgentPath* scratch) {
  absl::StatusOr<AgentWalk> walk;
  if (agent.has_value() && agent->oriented) {
    if (absl::Status s = ParseAgentRuns(moves, start, Direction::kN, scratch);
        !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("moves: ", s.message()));
    }
    walk = WalkAgentPath(terrain, *agent, *scratch);
  } else {
    absl::StatusOr<std::vector<Run>> runs = ParseRuns(moves);
    if (!runs.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("moves: ", runs.status().message()));
    }
    if (!agent.has_value()) {
      return WalkRuns(terrain, start, *runs, connectivity);
    }
    RunLengthPath path;
    path.Reset(start);
    for (const Run& r : *runs) path.Append(r.direction, r.count);
    walk = CheckClassPath(terrain, *agent, path);
  }
  if (!walk.ok()) return walk.status();
  PathWalk out;
  out.end = walk->end;
  out.cost = walk->cost;
  return out;
}

absl::Status CheckPaths(const std::string& map_path,
                        const std::string& scen_path,
                        const std::string& paths_path) {
  ASSIGN_OR_RETURN(const std::optional<AgentClass> agent,
                   AgentClassFromFlags(/*allow_oriented=*/true));
  ASSIGN_OR_RETURN(const Grid terrain, LoadTerrainFromFlags(map_path));
  // Reachability of the class: the components of its class grid (of its
  // guide grid for an oriented class, where they only bound it).
  Grid grid;
  if (agent.has_value()) {
    ASSIGN_OR_RETURN(grid, DeriveGuideGrid(terrain, *agent));
  } else {
    grid = terrain;
  }
  const bool oriented = agent.has_value() && agent->oriented;
  std::optional<ClassAStar> exact;
  if (oriented) exact.emplace(terrain);
  AgentPath agent_path;
  ASSIGN_OR_RETURN(Scenario scenario, ReadScenarioFile(scen_path));
  RETURN_IF_ERROR(CheckScenarioFitsGrid(scenario, grid));
  ASSIGN_OR_RETURN(Connectivity connectivity, ConnectivityFromFlags());
  RETURN_IF_ERROR(CheckInputFile(paths_path));
  std::ifstream in(paths_path);
  if (!in)
    return absl::NotFoundError(absl::StrCat(paths_path, ": cannot open"));
  std::string line;
  size_t index = 0, ok = 0;
  while (std::getline(in, line)) {
    const std::string where = absl::StrCat(paths_path, ":", index + 1, ": ");
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    size_t i = 0;
    double cost = 0;
    if (f.size() != 4 || !absl::SimpleAtoi(f[0], &i) || i != index ||
        !absl::SimpleAtod(f[2], &cost)) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "expected index, status, cost, moves"));
    }
    if (!std::isfinite(cost) || cost < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "cost ", f[2], " is not a finite number >= 0"));
    }
    if (index >= scenario.problems.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "more paths than scenario problems"));
    }
    const ScenarioProblem& p = scenario.problems[index];
    if (f[1] == "ok") {
      absl::StatusOr<PathWalk> walk =
          WalkMoves(terrain, agent, p.start, f[3], connectivity, &agent_path);
      if (!walk.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, walk.status().message()));
      }
      if (!(walk->end == p.goal)) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, "path ends at ", PointString(walk->end),
                         ", goal is ", PointString(p.goal)));
      }
      if (std::abs(walk->cost - cost) > 1e-6 * std::max(1.0, cost)) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, "walked cost ", walk->cost, " differs from printed ", cost));
      }
      ++ok;
    } else if (f[1] != "unreachable") {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "unknown status '", f[1], "'"));
    } else if (oriented && grid.SameComponent(p.start, p.goal)) {
      // The guide's components only bound an oriented class's: ask the
      // exact search.
      ASSIGN_OR_RETURN(const SearchOutcome truth,
                       exact->FindPath(*agent, p.start, Direction::kN, p.goal,
                                       {}, &agent_path));
      if (truth == SearchOutcome::kFound) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, "claims unreachable, but the exact search reaches ",
            PointString(p.goal), " from ", PointString(p.start)));
      }
    } else if (!oriented && grid.SameComponent(p.start, p.goal)) {
      // Components are exact: the claim is checkable in O(1).
      return absl::InvalidArgumentError(
          absl::StrCat(where, "claims unreachable, but ", PointString(p.start),
                       " and ", PointString(p.goal), " are connected"));
    }
    ++index;
  }
  if (index != scenario.problems.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(paths_path, ": ", index, " paths for ",
                     scenario.problems.size(), " problems"));
  }
  std::printf(
      "%zu paths checked: %zu legal with matching cost, %zu "
      "unreachable\n",
      index, ok, index - ok);
  return absl::OkStatus();
}

int Run(const std::vector<std::string>& args) {
  absl::Status status = CheckPaths(args[0], args[1], args[2]);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kCheckPathsCommand = {
    "check-paths",
    "Re-walk every path of a `zonepath scen --paths` file and check it.",
    "usage: zonepath check-paths MAP SCEN PATHS [--agents FILE --agent "
    "CLASS]\n"
    "Fails (exit 1) on the first path that is illegal, ends elsewhere than "
    "its goal, or whose walked cost differs from the printed cost, or on an "
    "'unreachable' that is not. An oriented class's paths start heading N "
    "and are walked under its rules (turns and backward steps included).",
    {"common_flags.cc", "map_flags.cc", "agent_flags.cc"},
    3,
    3,
    &Run};

}  // namespace zonepath::cli
