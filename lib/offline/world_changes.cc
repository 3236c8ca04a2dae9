#include "zonepath/offline/world_changes.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "build_internal.h"

namespace zonepath {

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
  int threads = options.threads;
  if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());

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

  // Level-1 zones holding a changed cell. Zones across a border from one
  // get searched again only if their beacons move (BuildAbstraction checks).
  const Abstraction old = world.FlatAbstraction();
  offline_internal::PreviousBuild previous;
  previous.abstraction = &old;
  previous.beacons = &old.beacons;
  previous.changed_zones.assign(old.levels[0].zone_count(), 0);
  for (const Grid::CellCost& c : last) {
    previous.changed_zones[old.levels[0].ZoneOf(grid.ToPoint(c.cell)).value()] =
        1;
  }
  const absl::Time levels_begin = absl::Now();
  std::vector<offline_internal::LevelBuildStats> stats;
  std::vector<std::vector<uint8_t>> rebuilt;
  Abstraction a = offline_internal::BuildAbstraction(
      next, old.params, threads, nullptr, &previous, &stats, &rebuilt);
  local.levels_time = absl::Now() - levels_begin;
  for (uint32_t z = 0; z < rebuilt[0].size(); ++z) {
    if (rebuilt[0][z]) local.affected_zones.push_back(ZoneId(z));
  }
  for (const offline_internal::LevelBuildStats& s : stats) {
    local.zones_searched.push_back(s.zones_searched);
    local.zones_total.push_back(s.zones);
  }
  local.time = absl::Now() - begin;
  if (report != nullptr) *report = std::move(local);
  return World(std::move(next), std::move(a), world.version() + 1);
}

}  // namespace zonepath
