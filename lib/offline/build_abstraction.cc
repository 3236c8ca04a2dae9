// The build pipeline shared by full builds and incremental updates:
// beacons -> level 1 -> levels 2.. .
#include <algorithm>

#include "absl/time/clock.h"
#include "build_internal.h"

namespace zonepath::offline_internal {
namespace {

// Zones of `now` whose node cells differ from those of `old` (same
// geometry), or that are forced.
std::vector<uint8_t> ZonesToRebuild(const AbstractLevel& old,
                                    const std::vector<Point>& old_beacons,
                                    const AbstractLevel& now,
                                    const std::vector<Point>& new_beacons,
                                    std::vector<uint8_t> forced) {
  for (uint32_t z = 0; z < now.zone_count(); ++z) {
    if (forced[z]) continue;
    const uint32_t begin = now.zone_node_begin[z];
    const uint32_t count = now.zone_node_begin[z + 1] - begin;
    const uint32_t old_begin = old.zone_node_begin[z];
    if (old.zone_node_begin[z + 1] - old_begin != count) {
      forced[z] = 1;
      continue;
    }
    for (uint32_t i = 0; i < count; ++i) {
      if (new_beacons[now.node_beacon[begin + i]] !=
          old_beacons[old.node_beacon[old_begin + i]]) {
        forced[z] = 1;
        break;
      }
    }
  }
  return forced;
}

// Level `above` zones that contain a zone of `below` marked in `marked`.
std::vector<uint8_t> ParentsOf(const AbstractLevel& below,
                               const std::vector<uint8_t>& marked,
                               const AbstractLevel& above, const Grid& grid) {
  std::vector<uint8_t> parents(above.zone_count(), 0);
  for (uint32_t z = 0; z < below.zone_count(); ++z) {
    if (!marked[z]) continue;
    const Rect r = below.ZoneRect(ZoneId(z), grid.width(), grid.height());
    parents[above.ZoneOf({r.x0, r.y0}).value()] = 1;
  }
  return parents;
}

}  // namespace

Abstraction BuildAbstraction(const Grid& grid, const BuildParams& params,
                             int threads, const StageProgress& progress,
                             const PreviousBuild* previous,
                             std::vector<LevelBuildStats>* stats,
                             std::vector<std::vector<uint8_t>>* rebuilt) {
  Abstraction a;
  a.params = params;
  a.levels.resize(params.levels);
  for (int i = 0; i < params.levels; ++i) {
    a.levels[i] =
        AbstractLevel::WithGeometry(params, grid.width(), grid.height(), i);
  }
  if (stats != nullptr) stats->assign(params.levels, LevelBuildStats());
  if (rebuilt != nullptr) rebuilt->assign(params.levels, {});

  std::vector<InterEdge> inter_edges;
  absl::Time level_begin = absl::Now();
  PlaceBeacons(grid, params, a.levels[0], &a.beacons, &inter_edges);
  std::vector<uint8_t> searched;  // zones searched at the level below
  for (int i = 0; i < params.levels; ++i) {
    if (i > 0) level_begin = absl::Now();
    AbstractLevel& level = a.levels[i];
    if (i == 0) {
      SetLevelOneNodes(a.beacons, &level);
    } else {
      SetUpperLevelNodes(a.beacons, inter_edges, &level);
    }
    LevelReuse reuse;
    if (previous != nullptr) {
      const AbstractLevel& old = previous->abstraction->levels[i];
      reuse.old = &old;
      if (i == 0 && params.cache_paths) {
        reuse.old_paths = &previous->abstraction->cached_paths;
      }
      reuse.rebuild = ZonesToRebuild(
          old, *previous->beacons, level, a.beacons,
          i == 0 ? previous->changed_zones
                 : ParentsOf(a.levels[i - 1], searched, level, grid));
    }
    std::function<void(int64_t, int64_t)> level_progress;
    if (progress) level_progress = progress(i);
    if (i == 0) {
      BuildLevelOne(grid, params, threads, a.beacons, inter_edges,
                    previous != nullptr ? &reuse : nullptr, &level,
                    &a.cached_paths, level_progress);
    } else {
      BuildUpperLevel(threads, a.beacons, inter_edges, a.levels[i - 1],
                      previous != nullptr ? &reuse : nullptr, &level,
                      level_progress);
    }
    if (previous != nullptr) {
      searched = std::move(reuse.rebuild);
    } else {
      searched.assign(level.zone_count(), 1);
    }
    if (stats != nullptr) {
      LevelBuildStats& s = (*stats)[i];
      s.zones = level.zone_count();
      s.nodes = level.node_count();
      s.edges = static_cast<int64_t>(level.edges.size());
      s.zones_searched = std::count(searched.begin(), searched.end(), 1);
      s.seconds = absl::ToDoubleSeconds(absl::Now() - level_begin);
    }
    if (rebuilt != nullptr) (*rebuilt)[i] = searched;
  }
  return a;
}

}  // namespace zonepath::offline_internal
