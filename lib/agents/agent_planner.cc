#include "zonepath/agents/agent_planner.h"

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
  ASSIGN_OR_RETURN(const AgentClass* agent, world_->agents().Find(class_name));
  if (agent->oriented) {
    if (!exact_.has_value()) exact_.emplace(world_->terrain());
    return exact_->FindPath(*agent, start, options.start_heading, goal,
                            options.exact, path);
  }
  ASSIGN_OR_RETURN(Planner * planner, ClassPlanner(class_name));
  ASSIGN_OR_RETURN(
      const SearchOutcome outcome,
      planner->FindPath(start, goal, options.hierarchical, &moves_));
  FromRunLengthPath(moves_, path);
  return outcome;
}

size_t AgentPlanner::MemoryUsage() const {
  size_t bytes = sizeof(*this) + moves_.MemoryUsage();
  for (const auto& p : planners_) {
    if (p != nullptr) bytes += p->MemoryUsage();
  }
  if (exact_.has_value()) bytes += exact_->MemoryUsage();
  return bytes;
}

}  // namespace zonepath
