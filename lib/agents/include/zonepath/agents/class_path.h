// CheckClassPath: the legality check of a RunLengthPath (anchor
// coordinates) for an UNORIENTED agent class, on the terrain itself: a thin
// wrapper over FromRunLengthPath + WalkAgentPath (agent_path.h), which
// applies agent_class.h's rules to every covered cell of every position and
// the diagonal corner rule — never via a derived class grid, so it checks
// paths planned on DeriveClassGrid independently.
//
//   ASSIGN_OR_RETURN(AgentWalk walk, CheckClassPath(terrain, tank, path));
//   // walk.end: the end anchor; walk.cost: the summed cost
#ifndef ZONEPATH_AGENTS_CLASS_PATH_H_
#define ZONEPATH_AGENTS_CLASS_PATH_H_

#include "absl/status/statusor.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/path.h"

namespace zonepath {

// InvalidArgument for an oriented class, or (from WalkAgentPath) naming the
// run, the step and the cell of the first illegal move.
absl::StatusOr<AgentWalk> CheckClassPath(const Grid& terrain,
                                         const AgentClass& agent,
                                         const RunLengthPath& path);

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_CLASS_PATH_H_
