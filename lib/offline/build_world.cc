#include "zonepath/offline/build_world.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "zonepath/base/parallel_chunks.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/update/build_connection_tables.h"
#include "zonepath/update/zone_kernels.h"

namespace zonepath {

absl::Status ValidateBuildParams(const BuildParams& p) {
  return CheckParamRanges(p, /*automatic=*/true);
}

absl::StatusOr<World> BuildWorld(Grid grid, const BuildOptions& options,
                                 BuildReport* report) {
  BuildReport local;
  ASSIGN_OR_RETURN(Abstraction a, BuildFlatAbstraction(grid, options, &local));
  std::shared_ptr<const ConnectionTables> tables;
  if (options.connection_tables) {
    const absl::Time begin = absl::Now();
    tables =
        BuildConnectionTables(a, grid.width(), grid.height(), local.threads);
    local.tables_time = absl::Now() - begin;
    local.time += local.tables_time;
  }
  if (report != nullptr) *report = local;
  return World(std::move(grid), a, 0, std::move(tables));
}

absl::StatusOr<Abstraction> BuildFlatAbstraction(const Grid& grid,
                                                 const BuildOptions& options,
                                                 BuildReport* report) {
  RETURN_IF_ERROR(ValidateBuildParams(options.params));
  const BuildParams params =
      ResolveBuildParams(options.params, grid.width(), grid.height());
  // Again with the zone size known (a beacon spacing below its minimum).
  RETURN_IF_ERROR(CheckParamRanges(params));
  const absl::Time begin = absl::Now();
  const int threads = ResolveThreads(options.threads);
  BuildReport local_report;
  local_report.threads = threads;

  absl::Mutex progress_mutex;
  update_internal::StageProgress progress;
  if (options.progress) {
    progress = [&options, &progress_mutex](int level) {
      return [&options, &progress_mutex,
              stage = absl::StrCat("level ", level + 1)](int64_t done,
                                                         int64_t total) {
        absl::MutexLock lock(&progress_mutex);
        options.progress(stage, done, total);
      };
    };
  }
  std::vector<update_internal::LevelBuildStats> stats;
  Abstraction a = update_internal::BuildAbstraction(grid, params, threads,
                                                    progress, &stats);
  for (const update_internal::LevelBuildStats& s : stats) {
    LevelReport r;
    r.zones = s.zones;
    r.beacons = s.nodes;
    r.edges = s.edges;
    r.time = absl::Seconds(s.seconds);
    local_report.levels.push_back(r);
  }
  local_report.time = absl::Now() - begin;
  if (report != nullptr) *report = local_report;
  return a;
}

}  // namespace zonepath
