// Changing worlds: apply a batch of cell changes (doors close, bridges burn,
// walls are built) to a built world, searching again only where it matters.
// Runtime-safe (zonepath::update links world and search only, no Boost): a
// game that changes its world links it next to zonepath::runtime.
//
// Only level-1 zones whose cells changed, or whose beacons moved because a
// border they share changed, are searched again; above level 1, only the
// zones that contain one of those. The result is the world a full
// BuildWorld of the changed grid would give (the same bytes when saved),
// with version() one higher.
//
// Copy-on-write per zone: the new world shares every page of its arrays
// that the update does not write with the input world. Rebuilt zones get
// fresh id ranges at the end of the arrays, and their neighbours' edge lists
// are rewritten there too; nothing else is copied, so a small change costs
// time and memory in proportion to the zones it reaches, not to the world
// (UpdateReport::owned_bytes). Old ranges stay unused until dead entries
// outnumber live ones; that update lays the whole abstraction out afresh
// (O(world), `compacted`). When more than a quarter of the level-1 zones
// change, a full parallel build is used instead (`rebuilt_fully`).
//
// The input world is not modified: readers may keep planning on it while
// the next version is built (see WorldVersions for sharing versions).
//
//   std::vector<CellChange> changes = {{{10, 4}, kBlocked}, {{11, 4}, 3}};
//   UpdateReport report;
//   ASSIGN_OR_RETURN(World next, ApplyChanges(world, changes, {}, &report));
//   for (ZoneId z : report.affected_zones) { /* re-check paths through z */ }
#ifndef ZONEPATH_UPDATE_WORLD_CHANGES_H_
#define ZONEPATH_UPDATE_WORLD_CHANGES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "zonepath/world/world.h"

namespace zonepath {

// Sets one cell's cost: 0 (kBlocked) or a terrain cost 1..255. Within one
// batch, a later change of the same cell wins.
struct CellChange {
  Point cell;
  int32_t cost = kBlocked;
};

struct UpdateOptions {
  // Threads for the zone searches (0 = all hardware threads). The result
  // does not depend on it.
  int threads = 1;
};

struct UpdateReport {
  int64_t changed_cells = 0;  // cells whose cost actually changed
  // Level-1 zones searched again (sorted): the zones whose cells or beacons
  // changed. Paths through any other zone are unaffected.
  std::vector<ZoneId> affected_zones;
  // Zones searched again per level (index 0 = level 1) and in all.
  std::vector<int64_t> zones_searched;
  std::vector<int64_t> zones_total;
  bool passability_changed = false;  // a cell turned blocked or passable
  bool rebuilt_fully = false;  // too many zones changed: built from scratch
  bool compacted = false;      // laid out afresh to drop dead ranges
  // Bytes of pages the new world wrote (copied or added) and bytes it reads
  // in all; the rest is shared with the input world.
  int64_t owned_bytes = 0;
  int64_t total_bytes = 0;
  absl::Duration grid_time;    // new grid (+ components)
  absl::Duration levels_time;  // beacons and all levels
  absl::Duration time;         // whole update
};

// Checks every change first: a cell outside the grid or a cost outside
// 0..255 rejects the whole batch (InvalidArgument naming the change's index)
// and nothing is built. An empty batch (or one that changes nothing) gives
// an equal world with the next version.
absl::StatusOr<World> ApplyChanges(const World& world,
                                   absl::Span<const CellChange> changes,
                                   const UpdateOptions& options = {},
                                   UpdateReport* report = nullptr);

}  // namespace zonepath

#endif  // ZONEPATH_UPDATE_WORLD_CHANGES_H_
