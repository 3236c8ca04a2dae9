// StaircaseMerger: fewer turns on an oriented unit's path, after the fact.
//
// AgentPlanner's receding horizon follows a guide route that zigzags (a
// staircase through the zones' beacons), and each bounded search sees only
// its own stretch, so an oriented unit turns far more than it must: on open
// ground X a, Y b, X c, Y d (turns between) reaches the same state as
// X a+c, Y b+d with two turns fewer. Merge() tries that rewrite wherever
// four step runs alternate between two (action, heading) pairs, keeps it
// when the merged runs are legal for the class (WalkAgentPath's rules) and
// cost less (or the same, with fewer runs), and repeats until no rewrite
// applies. Every rewrite keeps the start and end states, so the path stays
// legal and complete; each costs one walk of the four runs.
//
//   StaircaseMerger merger;                  // one per planner: scratch
//   ASSIGN_OR_RETURN(int64_t merged, merger.Merge(terrain, cart, &path));
#ifndef ZONEPATH_AGENTS_STAIRCASE_MERGER_H_
#define ZONEPATH_AGENTS_STAIRCASE_MERGER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

class StaircaseMerger {
 public:
  // Rewrites `path`, a legal path of `agent` on `terrain`, in place and
  // returns the number of merges; when there were any, the path's cost
  // becomes its walked cost. InternalError if the rewritten path does not
  // walk (a bug). No allocation once the scratch has grown.
  absl::StatusOr<int64_t> Merge(const Grid& terrain, const AgentClass& agent,
                                AgentPath* path);
  size_t MemoryUsage() const {
    return (runs_.capacity() + candidate_.capacity()) * sizeof(AgentRun);
  }

 private:
  std::vector<AgentRun> runs_;
  std::vector<AgentRun> candidate_;
};

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_STAIRCASE_MERGER_H_
