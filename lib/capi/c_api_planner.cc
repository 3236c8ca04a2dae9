// C API: planners, their last path, and path cursors.
#include <algorithm>
#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "c_api_internal.h"
#include "cursor_step.h"
#include "zonepath/grid/direction.h"

namespace zonepath::capi {
namespace {

zonepath_status ToPlanOptions(const zonepath_plan_options* options,
                              const char* function, PlanOptions* out) {
  *out = PlanOptions();
  if (options == nullptr) return ZONEPATH_OK;
  // 1.0 and 1.1 callers pass the layout before abstract_weight.
  ZONEPATH_C_CHECK(
      CheckStruct(options, function, "options",
                  offsetof(zonepath_plan_options, abstract_weight)));
  if (!(options->direct_search_zones >= 0)) {
    return InvalidArgument(function, ": options->direct_search_zones is ",
                           options->direct_search_zones, ", expected >= 0");
  }
  out->smooth = options->smooth != 0;
  out->fewer_turns = options->fewer_turns != 0;
  out->direct_search_zones = options->direct_search_zones;
  // Range-checked by the planner (InvalidArgument outside [1, 10]).
  if (Fits(*options, options->abstract_weight)) {
    out->abstract_weight = options->abstract_weight;
  }
  if (Fits(*options, options->free_crossings)) {
    out->free_crossings = options->free_crossings != 0;
  }
  if (Fits(*options, options->smooth_by_search)) {
    out->smooth_by_search = options->smooth_by_search != 0;
  }
  return ZONEPATH_OK;
}

// Shared by find_path and plan: argument checks, then `search`.
template <typename Search>
zonepath_status RunQuery(zonepath_planner* planner, zonepath_point start,
                         zonepath_point goal,
                         const zonepath_plan_options* options,
                         zonepath_outcome* outcome, const char* function,
                         Search&& search) {
  ZONEPATH_C_NOT_NULL(planner, function);
  ZONEPATH_C_NOT_NULL(outcome, function);
  ZONEPATH_C_CHECK(CheckPoint(start, function, "start"));
  ZONEPATH_C_CHECK(CheckPoint(goal, function, "goal"));
  PlanOptions plan_options;
  ZONEPATH_C_CHECK(ToPlanOptions(options, function, &plan_options));
  ++planner->generation;  // invalidates cursors and the old path
  planner->planned = false;
  EmptyPathUnlessKept<RunLengthPath> empty_on_failure{&planner->path,
                                                      {start.x, start.y}};
  planner->path.Reset({start.x, start.y});
  const absl::StatusOr<SearchOutcome> result =
      search(Point{start.x, start.y}, Point{goal.x, goal.y}, plan_options);
  if (!result.ok()) return ReportIn(function, result.status());
  empty_on_failure.keep = true;
  *outcome = ToOutcome(*result);
  return Succeed();
}

zonepath_run ToCRun(const Run& run) {
  return {static_cast<uint32_t>(run.direction), run.count};
}

}  // namespace
}  // namespace zonepath::capi

using namespace zonepath::capi;  // NOLINT: the C entry points below

extern "C" {

void zonepath_plan_options_init(zonepath_plan_options* options) {
  if (options == nullptr) return;
  const zonepath::PlanOptions defaults;
  *options = zonepath_plan_options{};
  options->struct_size = sizeof(*options);
  options->smooth = defaults.smooth ? 1 : 0;
  options->fewer_turns = defaults.fewer_turns ? 1 : 0;
  options->direct_search_zones = defaults.direct_search_zones;
  options->abstract_weight = defaults.abstract_weight;
  options->free_crossings = defaults.free_crossings ? 1 : 0;
  options->reserved = 0;
  options->smooth_by_search = defaults.smooth_by_search ? 1 : 0;
}

zonepath_status zonepath_planner_create(const zonepath_world* world,
                                        zonepath_planner** out) {
  constexpr const char* kFn = "zonepath_planner_create";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    *out = new zonepath_planner(world->world);
    return Succeed();
  });
}

void zonepath_planner_free(zonepath_planner* planner) { delete planner; }

zonepath_status zonepath_planner_find_path(zonepath_planner* planner,
                                           zonepath_point start,
                                           zonepath_point goal,
                                           const zonepath_plan_options* options,
                                           zonepath_outcome* outcome) {
  constexpr const char* kFn = "zonepath_planner_find_path";
  return Guard(kFn, [&] {
    return RunQuery(planner, start, goal, options, outcome, kFn,
                    [&](zonepath::Point s, zonepath::Point g,
                        const zonepath::PlanOptions& o) {
                      return planner->planner.FindPath(s, g, o, &planner->path);
                    });
  });
}

zonepath_status zonepath_planner_plan(zonepath_planner* planner,
                                      zonepath_point start, zonepath_point goal,
                                      const zonepath_plan_options* options,
                                      zonepath_outcome* outcome) {
  constexpr const char* kFn = "zonepath_planner_plan";
  return Guard(kFn, [&] {
    const zonepath_status status =
        RunQuery(planner, start, goal, options, outcome, kFn,
                 [&](zonepath::Point s, zonepath::Point g,
                     const zonepath::PlanOptions& o) {
                   return planner->planner.Plan(s, g, o);
                 });
    if (status == ZONEPATH_OK) planner->planned = true;
    return status;
  });
}

zonepath_status zonepath_planner_get_stats(const zonepath_planner* planner,
                                           zonepath_plan_stats* stats) {
  constexpr const char* kFn = "zonepath_planner_get_stats";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(planner, kFn);
    // 1.0 callers pass the layout before top_level.
    ZONEPATH_C_CHECK(CheckStruct(stats, kFn, "stats",
                                 offsetof(zonepath_plan_stats, top_level)));
    const zonepath::PlanStats& s = planner->planner.stats();
    stats->used_direct = s.used_direct ? 1 : 0;
    stats->expanded = s.total_expanded();
    stats->generated = s.connect.generated + s.abstract.generated +
                       s.refine.generated + s.smooth.generated +
                       s.direct.generated;
    stats->abstract_nodes = s.abstract_nodes;
    stats->time_us = absl::ToDoubleMicroseconds(s.total_time());
    stats->planned_cost = s.planned_cost;
    if (Fits(*stats, stats->top_level)) stats->top_level = s.top_level;
    return Succeed();
  });
}

zonepath_status zonepath_planner_path_info(const zonepath_planner* planner,
                                           zonepath_path_info* info) {
  constexpr const char* kFn = "zonepath_planner_path_info";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(planner, kFn);
    ZONEPATH_C_CHECK(CheckStruct(info, kFn, "info"));
    const zonepath::RunLengthPath& path = planner->path;
    info->start = {path.start().x, path.start().y};
    info->steps = path.steps();
    info->runs = static_cast<int64_t>(path.runs().size());
    info->cost = path.cost();
    return Succeed();
  });
}

zonepath_status zonepath_planner_path_runs(const zonepath_planner* planner,
                                           zonepath_run* runs, size_t capacity,
                                           size_t* needed) {
  constexpr const char* kFn = "zonepath_planner_path_runs";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(planner, kFn);
    const std::vector<zonepath::Run>& path_runs = planner->path.runs();
    ZONEPATH_C_CHECK(
        CheckBuffer(runs, capacity, needed, path_runs.size(), kFn, "runs"));
    if (runs != nullptr) {
      std::transform(path_runs.begin(), path_runs.end(), runs, ToCRun);
    }
    return Succeed();
  });
}

zonepath_status zonepath_planner_path_cells(const zonepath_planner* planner,
                                            zonepath_point* cells,
                                            size_t capacity, size_t* needed) {
  constexpr const char* kFn = "zonepath_planner_path_cells";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(planner, kFn);
    const zonepath::RunLengthPath& path = planner->path;
    const size_t count = static_cast<size_t>(path.steps()) + 1;
    ZONEPATH_C_CHECK(CheckBuffer(cells, capacity, needed, count, kFn, "cells"));
    if (cells != nullptr) {
      zonepath::Point at = path.start();
      size_t i = 0;
      cells[i++] = {at.x, at.y};
      for (const zonepath::Run& run : path.runs()) {
        for (uint32_t k = 0; k < run.count; ++k) {
          at = {at.x + zonepath::Dx(run.direction),
                at.y + zonepath::Dy(run.direction)};
          cells[i++] = {at.x, at.y};
        }
      }
    }
    return Succeed();
  });
}

zonepath_status zonepath_cursor_create(zonepath_planner* planner,
                                       zonepath_cursor** out) {
  constexpr const char* kFn = "zonepath_cursor_create";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(planner, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    if (!planner->planned) {
      return Fail(absl::FailedPreconditionError(
          absl::StrCat(kFn,
                       ": the planner's last query was not a successful "
                       "zonepath_planner_plan")));
    }
    *out = new zonepath_cursor(planner, planner->planner.Cursor());
    return Succeed();
  });
}

void zonepath_cursor_free(zonepath_cursor* cursor) { delete cursor; }

zonepath_status zonepath_cursor_next(zonepath_cursor* cursor, int64_t min_steps,
                                     zonepath_run* runs, size_t capacity,
                                     size_t* written, int* done) {
  constexpr const char* kFn = "zonepath_cursor_next";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(cursor, kFn);
    ZONEPATH_C_NOT_NULL(runs, kFn);
    ZONEPATH_C_NOT_NULL(written, kFn);
    ZONEPATH_C_NOT_NULL(done, kFn);
    if (capacity == 0) return InvalidArgument(kFn, ": capacity is 0");
    if (min_steps < 1) {
      return InvalidArgument(kFn, ": min_steps is ", min_steps,
                             ", expected >= 1");
    }
    if (cursor->owner->generation != cursor->generation) {
      return Fail(absl::FailedPreconditionError(absl::StrCat(
          kFn, ": the planner planned again since this cursor was made")));
    }
    zonepath::RunLengthPath& pending = cursor->pending;
    if (cursor->pending_next == pending.runs().size() && cursor->more) {
      pending.Reset(pending.start());
      cursor->pending_next = 0;
      absl::StatusOr<bool> more =
          zonepath::bindings::CursorStep(cursor->cursor, min_steps, &pending);
      if (!more.ok()) {
        cursor->more = false;
        return ReportIn(kFn, more.status());
      }
      cursor->more = *more;
    }
    const size_t available = pending.runs().size() - cursor->pending_next;
    const size_t n = std::min(available, capacity);
    std::transform(pending.runs().begin() + cursor->pending_next,
                   pending.runs().begin() + cursor->pending_next + n, runs,
                   ToCRun);
    cursor->pending_next += n;
    *written = n;
    *done = !cursor->more && cursor->pending_next == pending.runs().size();
    return Succeed();
  });
}

}  // extern "C"
