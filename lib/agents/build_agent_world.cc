#include "zonepath/agents/build_agent_world.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/offline/build_world.h"

namespace zonepath {

absl::StatusOr<AgentWorld> BuildAgentWorld(
    Grid terrain, AgentSet agents, const AgentWorldBuildOptions& options,
    AgentWorldBuildReport* report) {
  // The agent text must be writable, or the world could not be saved.
  RETURN_IF_ERROR(FormatAgentText(agents).status());
  std::vector<const AgentClass*> chosen;
  if (options.classes.empty()) {
    for (const AgentClass& c : agents.classes) chosen.push_back(&c);
  } else {
    std::set<std::string> seen;
    for (const std::string& name : options.classes) {
      ASSIGN_OR_RETURN(const AgentClass* c, agents.Find(name));
      if (!seen.insert(name).second) {
        return absl::InvalidArgumentError(
            absl::StrCat("agent class '", name, "' is named twice"));
      }
      chosen.push_back(c);
    }
    // In agent-file order, as the file's class table keeps them.
    std::sort(chosen.begin(), chosen.end());
  }
  // Automatic settings are resolved here, from the terrain's size (each
  // class grid has the terrain's), so that the check below knows the zone
  // size.
  const BuildParams params = ResolveBuildParams(
      options.build.params, terrain.width(), terrain.height());
  // Oriented classes' guide worlds take oriented_beacon_spacing when no
  // spacing is given; checked before any class is built, and only when an
  // oriented class is (so a large zone without one is not refused for it).
  BuildParams oriented = params;
  if (oriented.beacon_spacing == 0) {
    oriented.beacon_spacing = options.oriented_beacon_spacing;
  }
  if (std::any_of(chosen.begin(), chosen.end(),
                  [](const AgentClass* c) { return c->oriented; })) {
    if (absl::Status s = ValidateBuildParams(oriented); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("agent world build options (oriented_beacon_spacing ",
                       options.oriented_beacon_spacing, "): ", s.message()));
    }
  }
  AgentWorldBuildReport r;
  std::vector<AgentWorld::ClassWorldEntry> classes;
  for (const AgentClass* agent : chosen) {
    ASSIGN_OR_RETURN(Grid class_grid, DeriveGuideGrid(terrain, *agent));
    BuildOptions build = options.build;
    build.params = params;
    build.params.connectivity = agent->connectivity;
    if (agent->oriented) build.params.beacon_spacing = oriented.beacon_spacing;
    if (options.build.progress) {
      const std::string prefix = absl::StrCat("class ", agent->name, ": ");
      build.progress = [&options, prefix](const std::string& stage,
                                          int64_t done, int64_t total) {
        options.build.progress(prefix + stage, done, total);
      };
    }
    BuildReport build_report;
    absl::StatusOr<World> world =
        BuildWorld(std::move(class_grid), build, &build_report);
    if (!world.ok()) {
      return absl::Status(world.status().code(),
                          absl::StrCat("agent class '", agent->name,
                                       "': ", world.status().message()));
    }
    classes.push_back({*agent, *std::move(world)});
    r.classes.push_back({agent->name, std::move(build_report)});
  }
  if (report != nullptr) *report = std::move(r);
  return AgentWorld(std::move(agents), std::move(terrain), std::move(classes));
}

absl::StatusOr<AgentWorld> BuildAgentWorldFromFiles(
    const std::string& map_path, const std::string& agents_path,
    const AgentWorldBuildOptions& options, AgentWorldBuildReport* report) {
  ASSIGN_OR_RETURN(AgentSet agents, ParseAgentFile(agents_path));
  ASSIGN_OR_RETURN(Grid terrain, ReadMapFile(map_path, agents.Legend()));
  return BuildAgentWorld(std::move(terrain), std::move(agents), options,
                         report);
}

}  // namespace zonepath
