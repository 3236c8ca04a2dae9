// AgentPath: the path of one unit of an AgentClass — start anchor, start
// heading, and run-length actions (forward steps, backward steps, turns in
// place) — and WalkAgentPath, the legality oracle that replays it under the
// movement rules of agent_class.h.
//
// Encoding. A run is {action, heading, rotation, count}:
//  - kForward: `count` steps in direction `heading`; the unit's heading is
//    `heading` for the whole run. For an oriented class it must equal the
//    unit's heading when the run starts (stored anyway, so a run reads on
//    its own and converts to a RunLengthPath run without replaying turns).
//  - kBackward: `count` steps in direction Opposite(`heading`), the unit
//    still facing `heading` (oriented classes only).
//  - kTurn: `count` turns in place by one heading increment each (90 degrees
//    for 4 headings, 45 for 8) in the sense of `rotation`: +1 clockwise
//    (N -> E), -1 counter-clockwise (N -> W). `heading` is unused (kN).
//    Oriented classes only. A turn of 180 degrees with 4 headings is the run
//    {kTurn, rotation +1, count 2} (the search emits the clockwise one).
// An unoriented class's path has start heading N and forward runs only:
// every step is "forward" in its own direction, so its runs are exactly a
// RunLengthPath's runs (FromRunLengthPath / ToRunLengthPath convert both
// ways, losslessly). An oriented path without turns converts to a
// RunLengthPath too (backward runs become steps in the opposite direction);
// the heading, constant along such a path, is the start heading.
//
// Storage: agent_path_codec.h stores an AgentPath losslessly, turns
// included, as a small header and turn table followed by the movement in
// any codec of zonepath::paths (formats unchanged).
//
//   AgentPath path;
//   path.Reset({4, 4}, Direction::kN);
//   path.AppendStep(AgentAction::kForward, Direction::kN, 3);  // N3
//   path.AppendTurn(+1);                                       // R1
//   path.AppendStep(AgentAction::kBackward, Direction::kE, 2); // ~E2
//   ASSIGN_OR_RETURN(AgentWalk walk, WalkAgentPath(grid, tank, path));
#ifndef ZONEPATH_AGENTS_AGENT_PATH_H_
#define ZONEPATH_AGENTS_AGENT_PATH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/grid/direction.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/path.h"

namespace zonepath {

enum class AgentAction : uint8_t { kForward, kBackward, kTurn };

struct AgentRun {
  AgentAction action = AgentAction::kForward;
  Direction heading = Direction::kN;  // steps: heading during the run
  int8_t rotation = 0;                // turns: +1 clockwise, -1 counter
  uint32_t count = 0;                 // >= 1 in a well-formed path
  friend bool operator==(AgentRun, AgentRun) = default;
};

class AgentPath {
 public:
  // Empties the path and sets its start; keeps the capacity.
  void Reset(Point start, Direction heading = Direction::kN) {
    start_ = start;
    start_heading_ = heading;
    runs_.clear();
    steps_ = 0;
    turns_ = 0;
    cost_ = 0;
  }
  // Appends `count` >= 1 forward or backward steps with heading `heading`,
  // merging with the last run if it is the same action and heading.
  void AppendStep(AgentAction action, Direction heading, uint32_t count = 1) {
    if (!runs_.empty() && runs_.back().action == action &&
        runs_.back().heading == heading) {
      runs_.back().count += count;
    } else {
      runs_.push_back({action, heading, 0, count});
    }
    steps_ += count;
  }
  // Appends `count` >= 1 turns by one increment in the sense of `rotation`
  // (+1 or -1), merging with a last turn run of the same sense.
  void AppendTurn(int rotation, uint32_t count = 1) {
    const int8_t r = rotation > 0 ? 1 : -1;
    if (!runs_.empty() && runs_.back().action == AgentAction::kTurn &&
        runs_.back().rotation == r) {
      runs_.back().count += count;
    } else {
      runs_.push_back({AgentAction::kTurn, Direction::kN, r, count});
    }
    turns_ += count;
  }
  void set_cost(double cost) { cost_ = cost; }
  void reserve(size_t runs) { runs_.reserve(runs); }

  Point start() const { return start_; }
  Direction start_heading() const { return start_heading_; }
  const std::vector<AgentRun>& runs() const { return runs_; }
  int64_t steps() const { return steps_; }  // forward + backward steps
  int64_t turns() const { return turns_; }  // turn increments
  double cost() const { return cost_; }     // as computed by the planner
  bool empty() const { return runs_.empty(); }
  size_t MemoryUsage() const {
    return sizeof(*this) + runs_.capacity() * sizeof(AgentRun);
  }

 private:
  Point start_;
  Direction start_heading_ = Direction::kN;
  std::vector<AgentRun> runs_;
  int64_t steps_ = 0;
  int64_t turns_ = 0;
  double cost_ = 0;
};

// "N3,R1,~E2,L2": forward runs as in RunsToString, backward runs prefixed
// with '~', turn runs as R (clockwise) or L (counter-clockwise) and count.
std::string AgentRunsToString(const std::vector<AgentRun>& runs);
// The inverse: `out` is reset to (start, heading) and gets the runs of
// `text` (its cost left 0: WalkAgentPath computes it). InvalidArgument
// naming the run for anything AgentRunsToString does not write (counts
// 1..2^32-1).
absl::Status ParseAgentRuns(absl::string_view text, Point start,
                            Direction heading, AgentPath* out);

// An unoriented path from a RunLengthPath (same start, runs and cost; start
// heading N). `out` is reset first and keeps its capacity.
void FromRunLengthPath(const RunLengthPath& path, AgentPath* out);
// The RunLengthPath of a path without turns (backward runs become steps in
// the opposite direction); InvalidArgument if it has a turn. `out` is reset
// first and keeps its capacity.
absl::Status ToRunLengthPath(const AgentPath& path, RunLengthPath* out);

// Eighths of a turn per turn increment of an oriented class: 2 with 4
// headings, 1 with 8.
inline int TurnEighths(const AgentClass& agent) {
  return agent.HeadingCount() == 4 ? 2 : 1;
}
// True if `heading` is one of the class's headings (N for unoriented
// classes, N/E/S/W for 4-headed ones).
inline bool ValidHeading(const AgentClass& agent, Direction heading) {
  if (!agent.oriented) return heading == Direction::kN;
  return agent.HeadingCount() == 8 || !IsDiagonal(heading);
}

struct AgentWalk {
  Point end;
  Direction heading = Direction::kN;
  double cost = 0;
};

// Replays `path` for `agent` under the rules of agent_class.h: the start
// position and every position reached must be legal for the class, a
// diagonal step needs both orthogonal positions legal, a turn needs the
// turn sweep legal, an oriented class steps only along its heading (and
// backward only if oriented; 4-headed units only on N/E/S/W headings), an
// unoriented class never turns. Returns the end anchor, end heading and
// summed cost, or InvalidArgument naming the run index, the step or turn
// within it, and the cell.
absl::StatusOr<AgentWalk> WalkAgentPath(const Grid& terrain,
                                        const AgentClass& agent,
                                        const AgentPath& path);

// The same walk of `runs` from (start, heading), without a message: false
// at the first illegal action (`out` then unspecified). Allocates nothing,
// for searches that try many candidate runs.
bool TryWalkAgentRuns(const Grid& terrain, const AgentClass& agent, Point start,
                      Direction heading, absl::Span<const AgentRun> runs,
                      AgentWalk* out);

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_AGENT_PATH_H_
