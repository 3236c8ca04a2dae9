#include "zonepath/agents/class_path.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace zonepath {

absl::StatusOr<AgentWalk> CheckClassPath(const Grid& terrain,
                                         const AgentClass& agent,
                                         const RunLengthPath& path) {
  if (agent.oriented) {
    return absl::InvalidArgumentError(
        absl::StrCat("agent class '", agent.name,
                     "' is oriented: a direction path has no headings"));
  }
  AgentPath agent_path;
  FromRunLengthPath(path, &agent_path);
  return WalkAgentPath(terrain, agent, agent_path);
}

}  // namespace zonepath
