// Flags shared by several zonepath subcommands (defined in common_flags.cc).
#ifndef ZONEPATH_TOOLS_ZONEPATH_COMMON_FLAGS_H_
#define ZONEPATH_TOOLS_ZONEPATH_COMMON_FLAGS_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/world/world.h"
#include "zonepath/world/world_file.h"

ABSL_DECLARE_FLAG(bool, json);
// map_flags.cc (commands that read a .map file).
ABSL_DECLARE_FLAG(std::string, legend);
ABSL_DECLARE_FLAG(std::string, connectivity);
ABSL_DECLARE_FLAG(std::string, agents);
ABSL_DECLARE_FLAG(std::string, agent);
// threads_flag.cc (build, scen). Unset: the command's default (build: all
// cores; scen: 1).
ABSL_DECLARE_FLAG(std::optional<int32_t>, threads);
// load_flags.cc (commands that load a world file).
ABSL_DECLARE_FLAG(bool, checksums);
ABSL_DECLARE_FLAG(bool, verify);
// memory_limit_flag.cc (gen, build and the commands that load a world).
ABSL_DECLARE_FLAG(uint64_t, memory_limit);

namespace zonepath::cli {

// World loading as the flags ask (--checksums, --verify, --memory_limit).
LoadOptions LoadOptionsFromFlags();

// Reads a map file with the legend chosen by --legend (or the --agents
// file's); with --agent, returns the class's grid (class_grid.h), on which
// every planner works unchanged in anchor coordinates.
absl::StatusOr<Grid> LoadMapFromFlags(const std::string& path);
// Reads a map file's terrain (never a class grid), legend as above.
absl::StatusOr<Grid> LoadTerrainFromFlags(const std::string& path);
// The class named by --agent in the --agents file; nullopt without --agent.
// Errors: --agent without --agents, a bad agent file, an unknown class, an
// oriented class unless `allow_oriented` (scen and check-paths plan and
// check those on the terrain; the map-reading commands cannot make their
// class grid).
absl::StatusOr<std::optional<AgentClass>> AgentClassFromFlags(
    bool allow_oriented = false);
// With --agent: the class and its terrain (--terrain MAP), after checking
// that `world` (loaded from `world_path`) is the class's world of that
// terrain. nullopt without --agent; an error for --terrain without --agent.
struct ClassWorld {
  AgentClass agent;
  Grid terrain;
};
absl::StatusOr<std::optional<ClassWorld>> ClassWorldFromFlags(
    const World& world, const std::string& world_path);
// A world file for a command that plans on one world: a plain world file
// (with --agent, checked as ClassWorldFromFlags does), or an agent world
// (agent_world.h), of which the class named by --agent ("default" when not
// given) is taken, with the terrain the file holds. `agent` is set for an
// agent world and for a plain one with --agent.
// An oriented class (whose world is only a guide: plan it with
// AgentPlanner on `agents`) is an error unless `allow_oriented`.
struct LoadedWorld {
  World world;
  std::optional<ClassWorld> agent;
  std::shared_ptr<const AgentWorld> agents;  // set for an agent world
};
absl::StatusOr<LoadedWorld> LoadWorldFromFlags(const std::string& path,
                                               bool allow_oriented = false);
// AgentPlanner options: the plan flags (planner_flags.cc), --follow_steps
// and --merge_staircases.
AgentPlanOptions AgentPlanOptionsFromFlags();
// The --connectivity flag ("8" or "4"; when not given, the --agent class's,
// else 8); an error if it differs from the --agent class's.
absl::StatusOr<Connectivity> ConnectivityFromFlags();
// The connectivity of `world` (loaded from `path`); an error if
// --connectivity was given and differs.
absl::StatusOr<Connectivity> ConnectivityForWorld(const World& world,
                                                  const std::string& path);

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_COMMON_FLAGS_H_
