#include "zonepath/update/world_changes.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "zonepath/base/parallel_chunks.h"
#include "zonepath/update/build_connection_tables.h"
#include "zonepath/update/zone_kernels.h"

namespace zonepath {
namespace {

// Rebuild everything when more than 1/kFullRebuildShare of the level-1 zones
// change (e.g. a 1% scatter touches them all).
constexpr size_t kFullRebuildShare = 4;

}  // namespace

absl::StatusOr<World> ApplyChanges(const World& world,
                                   absl::Span<const CellChange> changes,
                                   const UpdateOptions& options,
                                   UpdateReport* report) {
  const absl::Time begin = absl::Now();
  const Grid& grid = world.grid();
  // Validate the whole batch before doing anything.
  for (size_t i = 0; i < changes.size(); ++i) {
    const CellChange& c = changes[i];
    if (!grid.InBounds(c.cell)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "change %d: cell %s is outside the %dx%d grid; no change applied", i,
          PointString(c.cell), grid.width(), grid.height()));
    }
    if (c.cost < 0 || c.cost > 255) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "change %d: cost %d for cell %s is not 0 (blocked) or 1..255; no "
          "change applied",
          i, c.cost, PointString(c.cell)));
    }
  }
  const int threads = ResolveThreads(options.threads);

  // The cells whose cost really changes (last change of a cell wins).
  std::vector<Grid::CellCost> effective;
  effective.reserve(changes.size());
  for (const CellChange& c : changes) {
    effective.push_back({grid.Index(c.cell), static_cast<uint8_t>(c.cost)});
  }
  std::stable_sort(effective.begin(), effective.end(),
                   [](const Grid::CellCost& a, const Grid::CellCost& b) {
                     return a.cell < b.cell;
                   });
  std::vector<Grid::CellCost> last;
  for (size_t i = 0; i < effective.size(); ++i) {
    if (i + 1 < effective.size() && effective[i + 1].cell == effective[i].cell)
      continue;
    if (grid.cost(effective[i].cell) != effective[i].cost) {
      last.push_back(effective[i]);
    }
  }

  UpdateReport local;
  local.changed_cells = static_cast<int64_t>(last.size());
  for (const Grid::CellCost& c : last) {
    if ((grid.cost(c.cell) == kBlocked) != (c.cost == kBlocked)) {
      local.passability_changed = true;
    }
  }
  const absl::Time grid_begin = absl::Now();
  Grid next = grid.WithCosts(last);
  local.grid_time = absl::Now() - grid_begin;

  // Level-1 zones holding a changed cell, then those whose beacons moved.
  const SharedAbstraction& old = world.abstraction();
  const SharedLevel& level1 = old.levels[0];
  const absl::Time levels_begin = absl::Now();
  std::vector<uint32_t> changed;
  for (const Grid::CellCost& c : last) {
    changed.push_back(level1.ZoneOf(grid.ToPoint(c.cell)).value());
  }
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  const std::vector<uint32_t> rehomed =
      update_internal::ZonesToRehome(old, next, changed);
  for (uint32_t z : rehomed) local.affected_zones.push_back(ZoneId(z));
  SharedAbstraction a;
  std::vector<std::vector<uint32_t>> rehomed_zones;  // per level
  if (rehomed.size() * kFullRebuildShare > level1.zone_count()) {
    // Most zones change: a parallel full build is cheaper than zone by zone.
    std::vector<update_internal::LevelBuildStats> stats;
    a = SharedAbstraction::FromFlat(update_internal::BuildAbstraction(
        next, old.params, threads, nullptr, &stats));
    for (const update_internal::LevelBuildStats& s : stats) {
      local.zones_searched.push_back(s.zones_searched);
    }
    local.rebuilt_fully = true;
  } else {
    update_internal::ZoneUpdateStats stats;
    absl::StatusOr<SharedAbstraction> updated =
        update_internal::UpdateAbstraction(old, next, rehomed, threads, &stats);
    if (!updated.ok()) return updated.status();
    a = *std::move(updated);
    local.zones_searched = stats.zones_searched;
    local.compacted = stats.compacted;
    rehomed_zones = std::move(stats.rehomed_zones);
  }
  for (const SharedLevel& level : a.levels) {
    local.zones_total.push_back(level.zone_count());
  }
  // The connection tables, if the world has them: the zones the update
  // touched recomputed, the rest shared.
  std::shared_ptr<const ConnectionTables> tables;
  if (const ConnectionTables* old_tables = world.connection_tables();
      old_tables != nullptr) {
    tables =
        local.rebuilt_fully
            ? BuildConnectionTables(a, next.width(), next.height(), threads)
            : UpdateConnectionTables(*old_tables, a, next.width(),
                                     next.height(), rehomed_zones);
  }
  local.levels_time = absl::Now() - levels_begin;
  World result(std::move(next), std::move(a), world.version() + 1,
               std::move(tables));
  local.owned_bytes = static_cast<int64_t>(result.OwnedBytes());
  local.total_bytes = static_cast<int64_t>(result.MemoryUsage());
  local.time = absl::Now() - begin;
  if (report != nullptr) *report = std::move(local);
  return result;
}

}  // namespace zonepath
