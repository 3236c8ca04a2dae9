// The full build pipeline: beacons -> level 1 -> levels 2.. .
#include <algorithm>

#include "absl/time/clock.h"
#include "build_internal.h"

namespace zonepath::offline_internal {

Abstraction BuildAbstraction(const Grid& grid, const BuildParams& params,
                             int threads, const StageProgress& progress,
                             std::vector<LevelBuildStats>* stats) {
  Abstraction a;
  a.params = params;
  a.levels.resize(params.levels);
  for (int i = 0; i < params.levels; ++i) {
    a.levels[i] =
        AbstractLevel::WithGeometry(params, grid.width(), grid.height(), i);
  }
  if (stats != nullptr) stats->assign(params.levels, LevelBuildStats());

  std::vector<InterEdge> inter_edges;
  absl::Time level_begin = absl::Now();
  PlaceBeacons(grid, params, a.levels[0], &a.beacons, &inter_edges);
  for (int i = 0; i < params.levels; ++i) {
    if (i > 0) level_begin = absl::Now();
    AbstractLevel& level = a.levels[i];
    std::function<void(int64_t, int64_t)> level_progress;
    if (progress) level_progress = progress(i);
    if (i == 0) {
      SetLevelOneNodes(a.beacons, &level);
      BuildLevelOne(grid, params, threads, a.beacons, inter_edges, &level,
                    &a.cached_paths, level_progress);
    } else {
      std::vector<InterEdge> crossings;
      SetUpperLevelNodes(a.beacons, inter_edges, a.levels[i - 1], &level,
                         &crossings);
      inter_edges = std::move(crossings);  // level k's, for level k+1
      BuildUpperLevel(threads, a.beacons, inter_edges, a.levels[i - 1], &level,
                      level_progress);
    }
    if (stats != nullptr) {
      LevelBuildStats& s = (*stats)[i];
      s.zones = level.zone_count();
      s.nodes = level.node_count();
      s.edges = static_cast<int64_t>(level.edges.size());
      s.zones_searched = s.zones;
      s.seconds = absl::ToDoubleSeconds(absl::Now() - level_begin);
    }
  }
  return a;
}

}  // namespace zonepath::offline_internal
