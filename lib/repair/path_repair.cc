#include "zonepath/repair/path_repair.h"

#include <algorithm>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/grid/moves.h"

namespace zonepath {

const char* RepairKindName(RepairKind kind) {
  switch (kind) {
    case RepairKind::kUntouched:
      return "untouched";
    case RepairKind::kSpliced:
      return "spliced";
    case RepairKind::kReplanned:
      return "replanned";
    case RepairKind::kUnreachable:
      return "unreachable";
  }
  return "?";
}

PathRepairer::PathRepairer(const World& world)
    : world_(world), planner_(world), fresh_planner_(world) {}

absl::StatusOr<RepairResult> PathRepairer::Repair(
    UnitId unit, absl::Span<const ZoneId> affected_zones,
    const RepairOptions& options, PathStore* store) {
  if (!(options.fallback_ratio >= 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fallback_ratio must be >= 1, got ", options.fallback_ratio));
  }
  RETURN_IF_ERROR(store->Read(unit, -1, &remaining_));
  const Grid& grid = world_.grid();
  const ZoneLayout layout = world_.abstraction().levels[0].layout();
  auto affected = [&](Point p) {
    return std::binary_search(affected_zones.begin(), affected_zones.end(),
                              layout.ZoneOf(p));
  };
  // cells_[i]: the cell after i moves. A move is touched if any cell it
  // depends on (both ends, and for a diagonal the two cells it passes) lies
  // in an affected zone; every other move is exactly as legal and costly as
  // before the change.
  cells_.clear();
  directions_.clear();
  Point at = remaining_.start();
  cells_.push_back(at);
  int64_t first_touched = affected(at) ? 0 : -1;
  int64_t last_touched = first_touched;
  for (const Run& run : remaining_.runs()) {
    for (uint32_t i = 0; i < run.count; ++i) {
      const Point next = Step(at, run.direction);
      bool touched = affected(next);
      if (IsDiagonal(run.direction)) {
        touched =
            touched || affected({next.x, at.y}) || affected({at.x, next.y});
      }
      cells_.push_back(next);
      directions_.push_back(run.direction);
      if (touched) {
        last_touched = static_cast<int64_t>(cells_.size()) - 1;
        if (first_touched < 0) first_touched = last_touched;
      }
      at = next;
    }
  }
  const int64_t steps = static_cast<int64_t>(directions_.size());
  RepairResult result;
  if (last_touched < 0) {
    ASSIGN_OR_RETURN(PathWalk walk,
                     WalkPath(grid, remaining_, world_.params().connectivity));
    result.cost = walk.cost;
    return result;
  }
  const Point start = cells_.front(), goal = cells_.back();
  if (!grid.passable(start)) {
    return absl::FailedPreconditionError(
        absl::StrCat("unit ", unit.value(), " stands on ", PointString(start),
                     ", blocked since the change; its path is unchanged"));
  }
  if (!grid.SameComponent(start, goal)) {
    store->Remove(unit);
    result.kind = RepairKind::kUnreachable;
    result.replaced_steps = steps;
    return result;
  }
  // Keep the moves before the first touched one, re-plan from the cell
  // before it to the first cell after the last touched move, keep the rest.
  const int64_t leave = std::max<int64_t>(first_touched - 1, 0);
  const int64_t rejoin = std::min(last_touched + 1, steps);
  auto moves_cost = [&](int64_t begin, int64_t end) {
    double cost = 0;
    for (int64_t i = begin; i < end; ++i) {
      cost += StepCost(directions_[i], grid.cost(cells_[i]),
                       grid.cost(cells_[i + 1]));
    }
    return cost;
  };
  const double prefix_cost = moves_cost(0, leave);
  const double rest_cost = moves_cost(rejoin, steps);
  // Re-planning from the position to the goal is a fresh plan already.
  const bool whole = leave == 0 && rejoin == steps;
  // Plan the detour but refine only the plan that wins: for a long detour
  // around a large obstacle, refining a splice that the bound then rejects
  // would cost as much as the fresh plan itself.
  ASSIGN_OR_RETURN(SearchOutcome outcome,
                   planner_.Plan(cells_[leave], cells_[rejoin], options.plan));
  if (outcome != SearchOutcome::kFound) {
    return absl::InternalError(absl::StrCat(
        "no detour from ", PointString(cells_[leave]), " to ",
        PointString(cells_[rejoin]), " although they share a component"));
  }
  const double splice_estimate =
      prefix_cost + planner_.stats().planned_cost + rest_cost;
  bool keep_splice = !whole;
  if (keep_splice) {
    const double lower_bound = HeuristicCost(
        start, goal, world_.params().connectivity, grid.min_cost());
    if (splice_estimate > options.fallback_ratio * lower_bound) {
      ASSIGN_OR_RETURN(outcome, fresh_planner_.Plan(start, goal, options.plan));
      result.fresh_searched = true;
      keep_splice = outcome == SearchOutcome::kFound &&
                    splice_estimate <= options.fallback_ratio *
                                           fresh_planner_.stats().planned_cost;
    }
  }
  Planner& chosen = keep_splice || whole ? planner_ : fresh_planner_;
  detour_.Reset(keep_splice || whole ? cells_[leave] : start);
  // The cursor smooths as it refines when options.plan.smooth is set.
  PathCursor cursor = chosen.Cursor();
  while (!cursor.done()) {
    RETURN_IF_ERROR(
        cursor.Next(std::numeric_limits<int64_t>::max() / 2, &detour_));
  }
  if (keep_splice) {
    // front_ = kept prefix + detour, replacing the first `rejoin` moves.
    front_.Reset(start);
    for (int64_t i = 0; i < leave; ++i) front_.Append(directions_[i]);
    front_.AddCost(prefix_cost);
    for (const Run& run : detour_.runs()) {
      front_.Append(run.direction, run.count);
    }
    front_.AddCost(detour_.cost());
    RETURN_IF_ERROR(store->Splice(unit, rejoin, front_));
    result.kind = RepairKind::kSpliced;
    result.replaced_steps = rejoin;
    result.cost = front_.cost() + rest_cost;
  } else {
    RETURN_IF_ERROR(store->Set(unit, detour_));
    result.kind = RepairKind::kReplanned;
    result.replaced_steps = steps;
    result.cost = detour_.cost();
  }
  return result;
}

}  // namespace zonepath
