#include "zonepath/offline/build_world.h"

#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "build_internal.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {

using offline_internal::InterEdge;

absl::Status ValidateBuildParams(const BuildParams& p) {
  if (p.zone_size < 4 || p.zone_size > 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("zone size must be in 4..1024, got ", p.zone_size));
  }
  if (p.levels < 1 || p.levels > 8) {
    return absl::InvalidArgumentError(
        absl::StrCat("levels must be in 1..8, got ", p.levels));
  }
  if (p.group < 2 || p.group > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("group must be in 2..64, got ", p.group));
  }
  if (p.entrance_threshold < 2 || p.entrance_threshold > 1024) {
    return absl::InvalidArgumentError(absl::StrCat(
        "entrance threshold must be in 2..1024, got ", p.entrance_threshold));
  }
  return absl::OkStatus();
}

absl::StatusOr<World> BuildWorld(Grid grid, const BuildOptions& options,
                                 BuildReport* report) {
  const BuildParams& params = options.params;
  RETURN_IF_ERROR(ValidateBuildParams(params));
  const absl::Time begin = absl::Now();
  int threads = options.threads;
  if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());
  BuildReport local_report;
  local_report.threads = threads;

  absl::Mutex progress_mutex;
  auto stage_progress = [&](std::string stage) {
    return [&options, &progress_mutex, stage](int64_t done, int64_t total) {
      absl::MutexLock lock(&progress_mutex);
      options.progress(stage, done, total);
    };
  };
  std::function<void(int64_t, int64_t)> no_progress;

  Abstraction a;
  a.params = params;
  a.levels.resize(params.levels);
  for (int i = 0; i < params.levels; ++i) {
    a.levels[i] =
        AbstractLevel::WithGeometry(params, grid.width(), grid.height(), i);
  }

  std::vector<InterEdge> inter_edges;
  absl::Time level_begin = absl::Now();
  offline_internal::PlaceBeacons(grid, params, a.levels[0], &a.beacons,
                                 &inter_edges);
  offline_internal::BuildLevelOne(
      grid, params, threads, a.beacons, inter_edges, &a.levels[0],
      &a.cached_paths,
      options.progress ? stage_progress("level 1") : no_progress);
  for (int i = 0; i < params.levels; ++i) {
    if (i > 0) {
      level_begin = absl::Now();
      offline_internal::BuildUpperLevel(
          params, threads, a.beacons, inter_edges, a.levels[i - 1],
          &a.levels[i],
          options.progress ? stage_progress(absl::StrCat("level ", i + 1))
                           : no_progress);
    }
    LevelReport r;
    r.zones = a.levels[i].zone_count();
    r.beacons = a.levels[i].node_count();
    r.edges = static_cast<int64_t>(a.levels[i].edges.size());
    r.time = absl::Now() - level_begin;
    local_report.levels.push_back(r);
  }
  local_report.time = absl::Now() - begin;
  if (report != nullptr) *report = local_report;
  return World(std::move(grid), std::move(a));
}

}  // namespace zonepath
