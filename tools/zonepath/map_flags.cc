// --legend, --connectivity, --agents and --agent: only for the subcommands
// that read a .map file (build, check-paths, demo, scen). Commands that read a
// world file take both from the world and reject the flags as unknown, rather
// than accept and ignore them.
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common_flags.h"
#include "zonepath/agents/agent_file.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/movingai/terrain_legend.h"

ABSL_FLAG(std::string, legend, "weighted",
          "map characters: 'movingai', 'weighted' (adds digits 1-9 as costs), "
          "optionally followed by ,CHAR=COST entries (0 = blocked)");
ABSL_FLAG(std::string, connectivity, "",
          "movement: 8 (octile, no corner cutting; the default) or 4; with a "
          "world file, the world's (a different value is an error)");
ABSL_FLAG(std::string, agents, "",
          "agent file (terrain types, their map characters, agent classes; "
          "see data/agents/example.agents); its legend replaces --legend");
ABSL_FLAG(std::string, agent, "",
          "agent class of --agents to plan for: the map becomes the class's "
          "grid (anchor coordinates; unoriented classes only) and the "
          "connectivity the class's");

namespace zonepath::cli {

absl::StatusOr<std::optional<AgentClass>> AgentClassFromFlags() {
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
  if (agent->oriented) {
    return absl::InvalidArgumentError(
        absl::StrCat("--agent ", name,
                     ": oriented classes have no class grid; the tools plan "
                     "for unoriented classes only"));
  }
  return *agent;
}

absl::StatusOr<Grid> LoadTerrainFromFlags(const std::string& path) {
  const std::string agents = absl::GetFlag(FLAGS_agents);
  if (!agents.empty()) {
    ASSIGN_OR_RETURN(AgentSet set, ParseAgentFile(agents));
    return ReadMapFile(path, set.Legend());
  }
  ASSIGN_OR_RETURN(TerrainLegend legend,
                   TerrainLegend::Parse(absl::GetFlag(FLAGS_legend)));
  return ReadMapFile(path, legend);
}

absl::StatusOr<Grid> LoadMapFromFlags(const std::string& path) {
  ASSIGN_OR_RETURN(std::optional<AgentClass> agent, AgentClassFromFlags());
  ASSIGN_OR_RETURN(Grid terrain, LoadTerrainFromFlags(path));
  if (!agent.has_value()) return terrain;
  return DeriveClassGrid(terrain, *agent);
}

absl::StatusOr<Connectivity> ConnectivityFromFlags() {
  ASSIGN_OR_RETURN(std::optional<AgentClass> agent, AgentClassFromFlags());
  const std::string name = absl::GetFlag(FLAGS_connectivity);
  if (name.empty()) {
    return agent.has_value() ? agent->connectivity : Connectivity::kEight;
  }
  std::optional<Connectivity> c = ParseConnectivity(name);
  if (!c.has_value()) {
    return absl::OutOfRangeError(
        absl::StrCat("--connectivity must be 8 or 4, got '", name, "'"));
  }
  if (agent.has_value() && *c != agent->connectivity) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--connectivity ", name, " differs from class '", agent->name,
        "', which is ", ConnectivityName(agent->connectivity), "-connected"));
  }
  return *c;
}

absl::StatusOr<Connectivity> ConnectivityForWorld(const World& world,
                                                  const std::string& path) {
  const Connectivity built = world.params().connectivity;
  if (absl::GetFlag(FLAGS_connectivity).empty()) return built;
  ASSIGN_OR_RETURN(const Connectivity asked, ConnectivityFromFlags());
  if (asked != built) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": the world is ", ConnectivityName(built),
        "-connected, --connectivity says ", ConnectivityName(asked)));
  }
  return built;
}

}  // namespace zonepath::cli
