#include "zonepath/agents/agent_planner.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {

AgentPlanner::AgentPlanner(const AgentWorld& world,
                           const PlannerOptions& options)
    : world_(&world), options_(options), planners_(world.classes().size()) {}

absl::StatusOr<Planner*> AgentPlanner::ClassPlanner(
    absl::string_view class_name) {
  ASSIGN_OR_RETURN(const World* class_world, world_->ClassWorld(class_name));
  for (size_t i = 0; i < planners_.size(); ++i) {
    if (&world_->classes()[i].world != class_world) continue;
    if (planners_[i] == nullptr) {
      planners_[i] = std::make_unique<Planner>(*class_world, options_);
    }
    return planners_[i].get();
  }
  return absl::InternalError("class world not in the agent world's list");
}

absl::StatusOr<SearchOutcome> AgentPlanner::FindPath(
    absl::string_view class_name, Point start, Point goal,
    const AgentPlanOptions& options, AgentPath* path) {
  oriented_stats_ = OrientedStats();  // zero for an unoriented query
  ASSIGN_OR_RETURN(const AgentClass* agent, world_->agents().Find(class_name));
  if (agent->oriented) {
    return FindOriented(*agent, start, goal, options, path);
  }
  ASSIGN_OR_RETURN(Planner * planner, ClassPlanner(class_name));
  ASSIGN_OR_RETURN(
      const SearchOutcome outcome,
      planner->FindPath(start, goal, options.hierarchical, &moves_));
  FromRunLengthPath(moves_, path);
  return outcome;
}

Direction AgentPlanner::Append(const AgentClass& agent, const AgentPath& piece,
                               Direction heading, AgentPath* path) const {
  const int eighths = TurnEighths(agent);
  for (const AgentRun& run : piece.runs()) {
    if (run.action == AgentAction::kTurn) {
      path->AppendTurn(run.rotation, run.count);
      heading = Rotate(
          heading, run.rotation * eighths * static_cast<int>(run.count % 8));
    } else {
      path->AppendStep(run.action, run.heading, run.count);
      heading = run.heading;
    }
  }
  path->set_cost(path->cost() + piece.cost());
  return heading;
}

absl::StatusOr<SearchOutcome> AgentPlanner::FindOriented(
    const AgentClass& agent, Point start, Point goal,
    const AgentPlanOptions& options, AgentPath* path) {
  if (options.follow_steps < 1 || options.follow_steps > kMaxFollowSteps ||
      options.follow_margin < 0 || options.follow_margin > kMaxFollowMargin) {
    return absl::InvalidArgumentError(absl::StrCat(
        "follow_steps ", options.follow_steps, " (1..", kMaxFollowSteps,
        ") or follow_margin ", options.follow_margin, " (0..", kMaxFollowMargin,
        ") out of range"));
  }
  if (!exact_.has_value()) exact_.emplace(world_->terrain());
  const Grid& terrain = world_->terrain();
  // The endpoints as the exact search checks them (legal position for the
  // heading; a heading the class has), before the guide sees them.
  const Direction start_heading = options.start_heading;
  if (!terrain.InBounds(start) || !terrain.InBounds(goal) ||
      PositionCost(terrain, agent, start, start_heading) == kBlocked ||
      !ValidHeading(agent, start_heading) ||
      (options.goal_heading.has_value() &&
       (!ValidHeading(agent, *options.goal_heading) ||
        PositionCost(terrain, agent, goal, *options.goal_heading) ==
            kBlocked))) {
    ClassAStarOptions exact;
    exact.goal_heading = options.goal_heading;
    exact.max_expansions = 1;  // only its argument checks
    absl::StatusOr<SearchOutcome> checked =
        exact_->FindPath(agent, start, start_heading, goal, exact, &piece_);
    if (!checked.ok()) return checked.status();
    return absl::InvalidArgumentError("endpoint not legal for the class");
  }
  path->Reset(start, start_heading);
  ASSIGN_OR_RETURN(Planner * guide, ClassPlanner(agent.name));
  absl::StatusOr<SearchOutcome> routed =
      guide->FindPath(start, goal, options.hierarchical, &moves_);
  if (!routed.ok() &&
      routed.status().code() == absl::StatusCode::kInvalidArgument) {
    // A free goal heading with no heading legal at the goal.
    return absl::InvalidArgumentError(
        absl::StrCat("no heading of class '", agent.name,
                     "' is legal at the goal: ", routed.status().message()));
  }
  if (!routed.ok()) return routed.status();
  if (*routed != SearchOutcome::kFound) return *routed;

  // The route's cells, start and goal included.
  route_.clear();
  route_.push_back(moves_.start());
  for (const Run& run : moves_.runs()) {
    for (uint32_t i = 0; i < run.count; ++i) {
      const Point p = route_.back();
      route_.push_back({p.x + Dx(run.direction), p.y + Dy(run.direction)});
    }
  }
  const int m = std::max(agent.width, agent.length);
  const size_t stride = static_cast<size_t>(options.follow_steps);
  const size_t last = route_.size() - 1;
  Point at = start;
  Direction heading = start_heading;
  size_t reached = 0;  // route index the unit has about reached
  bool followed = true;
  const int margin = options.follow_margin + m;
  // The bounding box of the unit and route_[from..to].
  auto stretch_box = [&](size_t from, size_t to) {
    Rect box{at.x, at.y, at.x + 1, at.y + 1};
    for (size_t i = from; i <= to; ++i) {
      const Point c = route_[i];
      box = Rect{std::min(box.x0, c.x), std::min(box.y0, c.y),
                 std::max(box.x1, c.x + 1), std::max(box.y1, c.y + 1)};
    }
    return box;
  };
  // A bounded exact search from the unit to route_[target] (into piece_),
  // inside `box` widened by `widen` (m more on the far sides, for the
  // footprint): true if found. A waypoint none of whose allowed headings
  // fits in the box is not found, without a search (the search would call
  // it InvalidArgument, composing a message on a query that may yet
  // succeed); any error of the search itself is returned.
  auto search = [&](size_t target, const Rect& box,
                    int widen) -> absl::StatusOr<bool> {
    ClassAStarOptions exact;
    if (target == last) exact.goal_heading = options.goal_heading;
    exact.bounds =
        Rect{std::max(0, box.x0 - widen), std::max(0, box.y0 - widen),
             std::min(terrain.width(), box.x1 + widen + m),
             std::min(terrain.height(), box.y1 + widen + m)};
    if (!LegalInBounds(terrain, agent, route_[target], exact.goal_heading,
                       *exact.bounds)) {
      return false;
    }
    absl::StatusOr<SearchOutcome> searched =
        exact_->FindPath(agent, at, heading, route_[target], exact, &piece_);
    oriented_stats_.expanded += exact_->stats().expanded;
    if (!searched.ok()) return searched.status();
    return *searched == SearchOutcome::kFound;
  };
  // Receding horizon: search from the unit to the route cell two strides
  // ahead (in the box of that stretch and the unit, widened), keep the
  // first half of the steps found, and go on from where they end; so no
  // route cell but the goal is forced on the unit.
  while (true) {
    const size_t far = std::min(reached + 2 * stride, last);
    const Rect box = stretch_box(reached, far);
    // First in the stretch's box widened by the margin, then with 4 x the
    // margin.
    bool found = false;
    for (const int widen : {margin, 4 * margin}) {
      if (widen != margin) ++oriented_stats_.widened;
      ASSIGN_OR_RETURN(found, search(far, box, widen));
      if (found) break;
    }
    if (!found) {
      // The guide passes where the unit cannot (it is a relaxation: a bend
      // too tight for the unit to turn in, say). Aim further along the
      // route, past the spot, before searching the rest exactly: the whole
      // piece found is kept.
      // (Not from the last stretch: aiming further would repeat its search.)
      for (size_t skip = 1; skip <= kFollowSkips && !found && far < last;
           ++skip) {
        const size_t ahead = std::min(far + 2 * skip * stride, last);
        ++oriented_stats_.skipped;
        ASSIGN_OR_RETURN(
            found, search(ahead, stretch_box(reached, ahead), 4 * margin));
        if (found) {
          heading = Append(agent, piece_, heading, path);
          at = route_[ahead];
          reached = ahead;
        }
        if (ahead == last) break;
      }
      if (!found) {
        followed = false;
        break;
      }
      ++oriented_stats_.stretches;
      if (reached == last) break;
      continue;
    }
    ++oriented_stats_.stretches;
    const int64_t keep = piece_.steps() / 2;
    if (far == last || keep == 0) {
      heading = Append(agent, piece_, heading, path);
      at = route_[far];
      reached = far;
      if (far == last) break;
      continue;
    }
    // The first `keep` steps (and the turns before them), walked under the
    // rules for their end state and cost.
    prefix_.Reset(at, heading);
    int64_t steps = 0;
    for (const AgentRun& run : piece_.runs()) {
      if (run.action == AgentAction::kTurn) {
        prefix_.AppendTurn(run.rotation, run.count);
        continue;
      }
      const uint32_t take =
          static_cast<uint32_t>(std::min<int64_t>(run.count, keep - steps));
      prefix_.AppendStep(run.action, run.heading, take);
      steps += take;
      if (steps == keep) break;
    }
    ASSIGN_OR_RETURN(const AgentWalk walk,
                     WalkAgentPath(terrain, agent, prefix_));
    prefix_.set_cost(walk.cost);
    heading = Append(agent, prefix_, heading, path);
    at = walk.end;
    reached += stride;
  }
  if (!followed) {
    // The rest exactly, from where the unit is: reachability is the same
    // from there as from the start (every move can be undone).
    oriented_stats_.exact_fallbacks = 1;
    ClassAStarOptions exact;
    exact.goal_heading = options.goal_heading;
    ASSIGN_OR_RETURN(
        const SearchOutcome rest,
        exact_->FindPath(agent, at, heading, goal, exact, &piece_));
    oriented_stats_.expanded += exact_->stats().expanded;
    if (rest != SearchOutcome::kFound) {
      path->Reset(start, start_heading);
      return rest;
    }
    Append(agent, piece_, heading, path);
  }
  if (options.merge_staircases) {
    ASSIGN_OR_RETURN(oriented_stats_.merged,
                     merger_.Merge(terrain, agent, path));
  }
  return SearchOutcome::kFound;
}

size_t AgentPlanner::MemoryUsage() const {
  size_t bytes = sizeof(*this) + moves_.MemoryUsage() + piece_.MemoryUsage() +
                 prefix_.MemoryUsage() + route_.capacity() * sizeof(Point) +
                 merger_.MemoryUsage();
  for (const auto& p : planners_) {
    if (p != nullptr) bytes += p->MemoryUsage();
  }
  if (exact_.has_value()) bytes += exact_->MemoryUsage();
  return bytes;
}

}  // namespace zonepath
