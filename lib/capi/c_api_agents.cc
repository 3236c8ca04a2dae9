// C API: agent worlds (one terrain, a world per agent class) and agent
// planners (queries that name their class; oriented classes with turns).
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "c_api_internal.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/build_agent_world.h"
#include "zonepath/grid/direction.h"

struct zonepath_agent_world {
  explicit zonepath_agent_world(zonepath::AgentWorld w) : world(std::move(w)) {}
  zonepath::AgentWorld world;
};

struct zonepath_agent_planner {
  explicit zonepath_agent_planner(const zonepath::AgentWorld& w) : planner(w) {}
  zonepath::AgentPlanner planner;
  zonepath::AgentPath path;  // the last find_path's path
};

namespace zonepath::capi {
namespace {

// The C enums and the C++ ones they are cast to and from.
static_assert(ZONEPATH_AGENT_FORWARD ==
              static_cast<int>(AgentAction::kForward));
static_assert(ZONEPATH_AGENT_BACKWARD ==
              static_cast<int>(AgentAction::kBackward));
static_assert(ZONEPATH_AGENT_TURN == static_cast<int>(AgentAction::kTurn));
static_assert(static_cast<int>(Direction::kN) == 0 &&
              static_cast<int>(Direction::kE) == 2 &&
              static_cast<int>(Direction::kNW) == 7);

// A heading argument 0..7 (`allow_any`: also -1, returned as nullopt).
zonepath_status ToHeading(int32_t value, bool allow_any, const char* function,
                          const char* name, std::optional<Direction>* out) {
  if (allow_any && value == -1) {
    *out = std::nullopt;
    return ZONEPATH_OK;
  }
  if (value < 0 || value > 7) {
    return InvalidArgument(
        function, ": options->", name, " is ", value,
        allow_any ? ", expected 0..7 or -1 (any)" : ", expected 0..7");
  }
  *out = static_cast<Direction>(value);
  return ZONEPATH_OK;
}

zonepath_status ToAgentPlanOptions(const zonepath_agent_plan_options* options,
                                   const char* function,
                                   AgentPlanOptions* out) {
  *out = AgentPlanOptions();
  if (options == nullptr) return ZONEPATH_OK;
  ZONEPATH_C_CHECK(CheckStruct(options, function, "options"));
  std::optional<Direction> start;
  ZONEPATH_C_CHECK(ToHeading(options->start_heading, /*allow_any=*/false,
                             function, "start_heading", &start));
  ZONEPATH_C_CHECK(ToHeading(options->goal_heading, /*allow_any=*/true,
                             function, "goal_heading", &out->goal_heading));
  // Checked here for every class (the planner reads them for oriented
  // classes only), so that a bad value is an error whatever the class.
  if (options->follow_steps < 1 || options->follow_steps > kMaxFollowSteps) {
    return InvalidArgument(function, ": options->follow_steps is ",
                           options->follow_steps, ", expected 1..",
                           kMaxFollowSteps);
  }
  if (options->follow_margin < 0 || options->follow_margin > kMaxFollowMargin) {
    return InvalidArgument(function, ": options->follow_margin is ",
                           options->follow_margin, ", expected 0..",
                           kMaxFollowMargin);
  }
  out->start_heading = *start;
  out->hierarchical.smooth = options->smooth != 0;
  out->follow_steps = options->follow_steps;
  out->follow_margin = options->follow_margin;
  out->merge_staircases = options->merge_staircases != 0;
  return ZONEPATH_OK;
}

zonepath_agent_run ToCAgentRun(const AgentRun& run) {
  return {static_cast<uint32_t>(run.action),
          run.action == AgentAction::kTurn ? 0u
                                           : static_cast<uint32_t>(run.heading),
          run.rotation, run.count};
}

}  // namespace
}  // namespace zonepath::capi

using namespace zonepath::capi;  // NOLINT: the C entry points below

extern "C" {

void zonepath_agent_plan_options_init(zonepath_agent_plan_options* options) {
  if (options == nullptr) return;
  const zonepath::AgentPlanOptions defaults;
  *options = zonepath_agent_plan_options{};
  options->struct_size = sizeof(*options);
  options->smooth = defaults.hierarchical.smooth ? 1 : 0;
  options->start_heading = static_cast<int32_t>(defaults.start_heading);
  options->goal_heading = defaults.goal_heading.has_value()
                              ? static_cast<int32_t>(*defaults.goal_heading)
                              : -1;
  options->follow_steps = defaults.follow_steps;
  options->follow_margin = defaults.follow_margin;
  options->merge_staircases = defaults.merge_staircases ? 1 : 0;
}

zonepath_status zonepath_agent_world_build_from_map(
    const char* map_path, const char* agents_path,
    const zonepath_build_params* params, zonepath_agent_world** out) {
  constexpr const char* kFn = "zonepath_agent_world_build_from_map";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(map_path, kFn);
    ZONEPATH_C_NOT_NULL(agents_path, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    zonepath::AgentWorldBuildOptions options;
    ZONEPATH_C_CHECK(ToBuildOptions(params, kFn, &options.build));
    return Deliver<zonepath_agent_world>(
        zonepath::BuildAgentWorldFromFiles(map_path, agents_path, options), kFn,
        out);
  });
}

zonepath_status zonepath_agent_world_load(const char* path,
                                          const char* const* classes,
                                          size_t class_count,
                                          zonepath_agent_world** out) {
  constexpr const char* kFn = "zonepath_agent_world_load";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(path, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    if (classes == nullptr && class_count != 0) {
      return InvalidArgument(kFn, ": classes is NULL but class_count is ",
                             class_count);
    }
    zonepath::AgentLoadOptions options;
    for (size_t i = 0; i < class_count; ++i) {
      if (classes[i] == nullptr) {
        return InvalidArgument(kFn, ": classes[", i, "] is NULL");
      }
      options.classes.emplace_back(classes[i]);
    }
    return Deliver<zonepath_agent_world>(
        zonepath::LoadAgentWorldFile(path, options), kFn, out);
  });
}

zonepath_status zonepath_agent_world_save(const zonepath_agent_world* world,
                                          const char* path) {
  constexpr const char* kFn = "zonepath_agent_world_save";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    ZONEPATH_C_NOT_NULL(path, kFn);
    return ReportIn(kFn, zonepath::SaveAgentWorldFile(world->world, path));
  });
}

zonepath_status zonepath_agent_world_get_info(const zonepath_agent_world* world,
                                              zonepath_agent_world_info* info) {
  constexpr const char* kFn = "zonepath_agent_world_get_info";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    ZONEPATH_C_CHECK(CheckStruct(info, kFn, "info"));
    const zonepath::AgentWorld& w = world->world;
    info->width = w.terrain().width();
    info->height = w.terrain().height();
    info->classes = static_cast<int32_t>(w.classes().size());
    info->memory_bytes = w.MemoryUsage();
    return Succeed();
  });
}

zonepath_status zonepath_agent_world_class_info(
    const zonepath_agent_world* world, size_t index,
    zonepath_agent_class_info* info) {
  constexpr const char* kFn = "zonepath_agent_world_class_info";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    ZONEPATH_C_CHECK(CheckStruct(info, kFn, "info"));
    const auto& classes = world->world.classes();
    if (index >= classes.size()) {
      return Fail(absl::OutOfRangeError(
          absl::StrCat(kFn, ": index ", index, ", the world has ",
                       classes.size(), " classes")));
    }
    const zonepath::AgentClass& agent = classes[index].agent;
    info->name = agent.name.c_str();
    info->width = agent.width;
    info->length = agent.length;
    info->connectivity =
        agent.connectivity == zonepath::Connectivity::kFour ? 4 : 8;
    info->oriented = agent.oriented ? 1 : 0;
    info->backward_factor = agent.backward_factor;
    info->turn_cost = agent.turn_cost;
    return Succeed();
  });
}

void zonepath_agent_world_free(zonepath_agent_world* world) { delete world; }

zonepath_status zonepath_agent_planner_create(const zonepath_agent_world* world,
                                              zonepath_agent_planner** out) {
  constexpr const char* kFn = "zonepath_agent_planner_create";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    *out = new zonepath_agent_planner(world->world);
    return Succeed();
  });
}

void zonepath_agent_planner_free(zonepath_agent_planner* planner) {
  delete planner;
}

zonepath_status zonepath_agent_planner_find_path(
    zonepath_agent_planner* planner, const char* agent, zonepath_point start,
    zonepath_point goal, const zonepath_agent_plan_options* options,
    zonepath_outcome* outcome) {
  constexpr const char* kFn = "zonepath_agent_planner_find_path";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(planner, kFn);
    // Whatever fails below, an error or an exception half-way through the
    // search, leaves an empty path at `start`, heading N.
    const zonepath::Point s{start.x, start.y};
    EmptyPathUnlessKept<zonepath::AgentPath> empty_on_failure{&planner->path,
                                                              s};
    ZONEPATH_C_NOT_NULL(agent, kFn);
    ZONEPATH_C_NOT_NULL(outcome, kFn);
    ZONEPATH_C_CHECK(CheckPoint(start, kFn, "start"));
    ZONEPATH_C_CHECK(CheckPoint(goal, kFn, "goal"));
    zonepath::AgentPlanOptions plan_options;
    ZONEPATH_C_CHECK(ToAgentPlanOptions(options, kFn, &plan_options));
    const absl::StatusOr<zonepath::SearchOutcome> result =
        planner->planner.FindPath(agent, s, {goal.x, goal.y}, plan_options,
                                  &planner->path);
    if (!result.ok()) return ReportIn(kFn, result.status());
    empty_on_failure.keep = true;
    *outcome = ToOutcome(*result);
    return Succeed();
  });
}

zonepath_status zonepath_agent_planner_path_info(
    const zonepath_agent_planner* planner, zonepath_agent_path_info* info) {
  constexpr const char* kFn = "zonepath_agent_planner_path_info";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(planner, kFn);
    ZONEPATH_C_CHECK(CheckStruct(info, kFn, "info"));
    const zonepath::AgentPath& path = planner->path;
    info->start = {path.start().x, path.start().y};
    info->start_heading = static_cast<int32_t>(path.start_heading());
    info->steps = path.steps();
    info->turns = path.turns();
    info->runs = static_cast<int64_t>(path.runs().size());
    info->cost = path.cost();
    return Succeed();
  });
}

zonepath_status zonepath_agent_planner_path_runs(
    const zonepath_agent_planner* planner, zonepath_agent_run* runs,
    size_t capacity, size_t* needed) {
  constexpr const char* kFn = "zonepath_agent_planner_path_runs";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(planner, kFn);
    const std::vector<zonepath::AgentRun>& path_runs = planner->path.runs();
    ZONEPATH_C_CHECK(
        CheckBuffer(runs, capacity, needed, path_runs.size(), kFn, "runs"));
    if (runs != nullptr) {
      std::transform(path_runs.begin(), path_runs.end(), runs, ToCAgentRun);
    }
    return Succeed();
  });
}

}  // extern "C"
