// --agents FILE and --agent CLASS: the commands that read a .map (build,
// check-paths, demo, scen: the map becomes the class grid) and query (which
// re-walks the path for the class on the terrain given by --terrain).
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common_flags.h"
#include "zonepath/agents/agent_file.h"
#include "zonepath/base/status_macros.h"

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

}  // namespace zonepath::cli
