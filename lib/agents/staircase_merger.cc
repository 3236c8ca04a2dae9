#include "zonepath/agents/staircase_merger.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace zonepath {
namespace {

bool IsStep(const AgentRun& run) { return run.action != AgentAction::kTurn; }

bool SameMotion(const AgentRun& a, const AgentRun& b) {
  return a.action == b.action && a.heading == b.heading;
}

// The index of the first step run after `i` with only turns (at least one)
// between, or `runs.size()`.
size_t NextStep(const std::vector<AgentRun>& runs, size_t i) {
  size_t j = i + 1;
  while (j < runs.size() && !IsStep(runs[j])) ++j;
  return j > i + 1 ? j : runs.size();
}

// The state after `run` from (p, heading), legality not checked.
void Advance(const AgentRun& run, int eighths, Point* p, Direction* heading) {
  if (run.action == AgentAction::kTurn) {
    *heading = Rotate(*heading,
                      run.rotation * eighths * static_cast<int>(run.count % 8));
    return;
  }
  const Direction d = run.action == AgentAction::kBackward
                          ? Opposite(run.heading)
                          : run.heading;
  p->x += Dx(d) * static_cast<int32_t>(run.count);
  p->y += Dy(d) * static_cast<int32_t>(run.count);
  *heading = run.heading;
}

}  // namespace

absl::StatusOr<int64_t> StaircaseMerger::Merge(const Grid& terrain,
                                               const AgentClass& agent,
                                               AgentPath* path) {
  if (!agent.oriented || path->runs().size() < 7) return 0;
  runs_.assign(path->runs().begin(), path->runs().end());
  const int eighths = TurnEighths(agent);
  int64_t merges = 0;
  Point p = path->start();
  Direction heading = path->start_heading();
  size_t i = 0;
  while (i < runs_.size()) {
    if (IsStep(runs_[i])) {
      const size_t j = NextStep(runs_, i);
      const size_t k = j < runs_.size() ? NextStep(runs_, j) : runs_.size();
      const size_t l = k < runs_.size() ? NextStep(runs_, k) : runs_.size();
      if (l < runs_.size() && SameMotion(runs_[i], runs_[k]) &&
          SameMotion(runs_[j], runs_[l])) {
        // X a, turns, Y b, turns, X c, turns, Y d  ->  X a+c, turns, Y b+d.
        candidate_.clear();
        candidate_.push_back(runs_[i]);
        candidate_.back().count += runs_[k].count;
        candidate_.insert(candidate_.end(), runs_.begin() + i + 1,
                          runs_.begin() + j);
        candidate_.push_back(runs_[j]);
        candidate_.back().count += runs_[l].count;
        const absl::Span<const AgentRun> old(runs_.data() + i, l - i + 1);
        AgentWalk before, after;
        const bool old_legal =
            TryWalkAgentRuns(terrain, agent, p, heading, old, &before);
        if (old_legal &&
            TryWalkAgentRuns(terrain, agent, p, heading, candidate_, &after) &&
            after.end == before.end && after.heading == before.heading &&
            after.cost <= before.cost + 1e-9 * std::max(1.0, before.cost)) {
          runs_.erase(runs_.begin() + i + candidate_.size(),
                      runs_.begin() + l + 1);
          std::copy(candidate_.begin(), candidate_.end(), runs_.begin() + i);
          ++merges;
          continue;  // the merged runs may start another staircase
        }
      }
    }
    Advance(runs_[i], eighths, &p, &heading);
    ++i;
  }
  if (merges == 0) return 0;
  const Point start = path->start();
  const Direction start_heading = path->start_heading();
  path->Reset(start, start_heading);
  for (const AgentRun& run : runs_) {
    if (run.action == AgentAction::kTurn) {
      path->AppendTurn(run.rotation, run.count);
    } else {
      path->AppendStep(run.action, run.heading, run.count);
    }
  }
  AgentWalk walk;
  if (!TryWalkAgentRuns(terrain, agent, start, start_heading, path->runs(),
                        &walk)) {
    return absl::InternalError("merging staircases made an illegal path");
  }
  path->set_cost(walk.cost);
  return merges;
}

}  // namespace zonepath
