// --agents FILE and --agent CLASS: the commands that read a .map (build,
// check-paths, demo, scen: the map becomes the class grid, for unoriented
// classes), and the commands that load a world (query, render, mem, scen
// --world): a class world checked against --terrain, or one class of an
// agent world (LoadWorldFromFlags; query also plans oriented classes).
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common_flags.h"
#include "planner_flags.h"
#include "zonepath/agents/agent_file.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/base/status_macros.h"

ABSL_FLAG(std::string, agents, "",
          "agent file (terrain types, their map characters, agent classes; "
          "see data/agents/example.agents); its legend replaces --legend");
ABSL_FLAG(std::string, agent, "",
          "agent class to plan for: with --agents, the map becomes the "
          "class's grid (anchor coordinates; unoriented classes only) and "
          "the connectivity the class's; on an agent world, the class whose "
          "world to use (default: default; query also takes oriented "
          "classes)");

ABSL_FLAG(int32_t, follow_steps, zonepath::AgentPlanOptions().follow_steps,
          "oriented classes on an agent world: route cells the unit "
          "advances per bounded exact search (each looks twice as far); "
          "larger is closer to optimal and slower");

ABSL_FLAG(bool, merge_staircases, zonepath::AgentPlanOptions().merge_staircases,
          "oriented classes on an agent world: merge the staircases the "
          "horizon leaves (X a, Y b, X c, Y d -> X a+c, Y b+d where legal and "
          "no costlier)");

ABSL_FLAG(std::string, terrain, "",
          "with --agent: the map WORLD was built from (query checks the path "
          "for the class's footprint on it; render draws its terrain)");

namespace zonepath::cli {

absl::StatusOr<std::optional<AgentClass>> AgentClassFromFlags(
    bool allow_oriented) {
  const std::string file = absl::GetFlag(FLAGS_agents);
  const std::string name = absl::GetFlag(FLAGS_agent);
  if (file.empty()) {
    if (!name.empty()) {
      return absl::InvalidArgumentError("--agent needs --agents FILE");
    }
    return std::nullopt;
  }
  if (name.empty()) return std::nullopt;
  ASSIGN_OR_RETURN(AgentSet set, ParseAgentFile(file));
  ASSIGN_OR_RETURN(const AgentClass* agent, set.Find(name));
  if (agent->oriented && !allow_oriented) {
    return absl::InvalidArgumentError(
        absl::StrCat("--agent ", name,
                     ": oriented classes have no class grid; this command "
                     "plans unoriented classes (scen, check-paths and query "
                     "take oriented ones)"));
  }
  return *agent;
}

absl::StatusOr<std::optional<ClassWorld>> ClassWorldFromFlags(
    const World& world, const std::string& world_path) {
  ASSIGN_OR_RETURN(std::optional<AgentClass> agent, AgentClassFromFlags());
  const std::string map_path = absl::GetFlag(FLAGS_terrain);
  if (!agent.has_value()) {
    if (!map_path.empty()) {
      return absl::InvalidArgumentError("--terrain applies only with --agent");
    }
    return std::nullopt;
  }
  if (map_path.empty()) {
    return absl::InvalidArgumentError(
        "--agent needs --terrain MAP (the map the world was built from)");
  }
  ASSIGN_OR_RETURN(Grid terrain, LoadTerrainFromFlags(map_path));
  ASSIGN_OR_RETURN(const Grid class_grid, DeriveClassGrid(terrain, *agent));
  if (class_grid.width() != world.grid().width() ||
      class_grid.CostVector() != world.grid().CostVector() ||
      world.params().connectivity != agent->connectivity) {
    return absl::InvalidArgumentError(
        absl::StrCat(world_path, ": not the world of class '", agent->name,
                     "' on ", map_path, " (build it with build ", map_path,
                     " --agents ... --agent ", agent->name, ")"));
  }
  return ClassWorld{*std::move(agent), std::move(terrain)};
}

absl::StatusOr<LoadedWorld> LoadWorldFromFlags(const std::string& path,
                                               bool allow_oriented) {
  ASSIGN_OR_RETURN(const bool agent_world, IsAgentWorldFile(path));
  if (!agent_world) {
    ASSIGN_OR_RETURN(World world, LoadWorldFile(path, LoadOptionsFromFlags()));
    ASSIGN_OR_RETURN(std::optional<ClassWorld> agent,
                     ClassWorldFromFlags(world, path));
    return LoadedWorld{std::move(world), std::move(agent), nullptr};
  }
  if (!absl::GetFlag(FLAGS_terrain).empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": an agent world holds its terrain; drop --terrain"));
  }
  std::string name = absl::GetFlag(FLAGS_agent);
  if (name.empty()) name = "default";
  // Only the class planned for: the others cost no memory or load time.
  AgentLoadOptions options(LoadOptionsFromFlags());
  options.classes = {name};
  absl::StatusOr<AgentWorld> loaded = LoadAgentWorldFile(path, options);
  if (!loaded.ok() &&
      loaded.status().code() != absl::StatusCode::kFailedPrecondition) {
    return loaded.status();
  }
  if (!loaded.ok()) {
    return absl::Status(
        loaded.status().code(),
        absl::StrCat("--agent ", name, ": ", loaded.status().message()));
  }
  auto agents = std::make_shared<const AgentWorld>(*std::move(loaded));
  absl::StatusOr<const World*> world = agents->ClassWorld(name);
  if (!world.ok()) {
    return absl::Status(
        world.status().code(),
        absl::StrCat(path, ": --agent ", name, ": ", world.status().message()));
  }
  ASSIGN_OR_RETURN(const AgentClass* agent, agents->agents().Find(name));
  if (agent->oriented && !allow_oriented) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": --agent ", name,
        ": an oriented class (this command plans unoriented classes; scen, "
        "check-paths and query take oriented ones)"));
  }
  // The class world shares its pages (and the mapping) with `agents`.
  return LoadedWorld{**world, ClassWorld{*agent, agents->terrain()},
                     std::move(agents)};
}

AgentPlanOptions AgentPlanOptionsFromFlags() {
  AgentPlanOptions options;
  options.hierarchical = PlanOptionsFromFlags();
  options.follow_steps = absl::GetFlag(FLAGS_follow_steps);
  options.merge_staircases = absl::GetFlag(FLAGS_merge_staircases);
  return options;
}

}  // namespace zonepath::cli
