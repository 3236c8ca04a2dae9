// --legend and --connectivity: only for the subcommands that read a .map
// file (build, check-paths, demo, scen). Commands that read a
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
namespace zonepath::cli {

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
  // Only the class's connectivity is read: an oriented one has one too.
  ASSIGN_OR_RETURN(std::optional<AgentClass> agent,
                   AgentClassFromFlags(/*allow_oriented=*/true));
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
