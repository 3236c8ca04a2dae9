// Offline build of an AgentWorld (agent_world.h): one world for many agent
// classes. Each class's abstraction is built on its guide grid
// (DeriveGuideGrid: the class grid of an unoriented class, the relaxation
// of an oriented one) with the same zone parameters; the terrain is kept
// once.
//
//   ASSIGN_OR_RETURN(AgentSet agents, ParseAgentFile("example.agents"));
//   ASSIGN_OR_RETURN(Grid terrain, ReadMapFile("mixed.map", agents.Legend()));
//   ASSIGN_OR_RETURN(AgentWorld world,
//                    BuildAgentWorld(std::move(terrain), agents, {}));
//   RETURN_IF_ERROR(SaveAgentWorldFile(world, "mixed.zpa"));
#ifndef ZONEPATH_AGENTS_BUILD_AGENT_WORLD_H_
#define ZONEPATH_AGENTS_BUILD_AGENT_WORLD_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "zonepath/agents/agent_file.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/grid/grid.h"
#include "zonepath/offline/build_world.h"

namespace zonepath {

struct AgentWorldBuildOptions {
  // Zone parameters and threads of every class build; each class builds
  // with its own connectivity (build.params.connectivity is ignored).
  BuildOptions build;
  // Classes to build, by name; empty: every class of the agent set
  // ("default" included). Naming an unknown class, or one twice, is
  // InvalidArgument.
  std::vector<std::string> classes;
  // The beacon spacing (BuildParams::beacon_spacing) of oriented classes'
  // guide worlds when build.params.beacon_spacing is 0: AgentPlanner
  // follows an oriented class's guide route closely, so a route bent to
  // the ends of long entrances costs the unit turns and detours (README
  // "Agents": 2.6 % -> 1.0 % over the optimum for a cart on the mixed
  // kind). 0: as the other classes.
  int32_t oriented_beacon_spacing = 8;
};

struct AgentWorldBuildReport {
  struct PerClass {
    std::string name;
    BuildReport build;
  };
  std::vector<PerClass> classes;
};

// Builds the class worlds one after the other (each with build.threads).
absl::StatusOr<AgentWorld> BuildAgentWorld(
    Grid terrain, AgentSet agents, const AgentWorldBuildOptions& options,
    AgentWorldBuildReport* report = nullptr);

// The same from files: the agent file (ParseAgentFile), then the .map read
// through its terrain legend (ReadMapFile(map_path, agents.Legend())).
// Errors name the file, line and field.
absl::StatusOr<AgentWorld> BuildAgentWorldFromFiles(
    const std::string& map_path, const std::string& agents_path,
    const AgentWorldBuildOptions& options,
    AgentWorldBuildReport* report = nullptr);

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_BUILD_AGENT_WORLD_H_
