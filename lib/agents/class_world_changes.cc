#include "zonepath/agents/class_world_changes.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {

absl::StatusOr<std::vector<CellChange>> ClassGridChanges(
    const Grid& class_grid, const Grid& terrain_after, const AgentClass& agent,
    absl::Span<const Point> changed_cells) {
  RETURN_IF_ERROR(CheckFootprint(agent));
  // The guide grid of an oriented class (class_grid.h) looks at both axis
  // footprints, so a change reaches anchors up to the longer side away.
  const int32_t reach_x =
      agent.oriented ? std::max(agent.width, agent.length) : agent.width;
  const int32_t reach_y =
      agent.oriented ? std::max(agent.width, agent.length) : agent.length;
  if (class_grid.width() != terrain_after.width() ||
      class_grid.height() != terrain_after.height()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "terrain is ", terrain_after.width(), "x", terrain_after.height(),
        ", the class grid ", class_grid.width(), "x", class_grid.height()));
  }
  // Anchors whose footprint covers a changed cell, sorted and unique.
  std::vector<CellIndex> anchors;
  anchors.reserve(changed_cells.size() * reach_x * reach_y);
  for (size_t i = 0; i < changed_cells.size(); ++i) {
    const Point c = changed_cells[i];
    if (!terrain_after.InBounds(c)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "changed cell ", i, " (", c.x, ",", c.y, ") is outside the ",
          terrain_after.width(), "x", terrain_after.height(), " terrain"));
    }
    for (int32_t y = std::max(0, c.y - reach_y + 1); y <= c.y; ++y) {
      for (int32_t x = std::max(0, c.x - reach_x + 1); x <= c.x; ++x) {
        anchors.push_back(class_grid.Index({x, y}));
      }
    }
  }
  std::sort(anchors.begin(), anchors.end());
  anchors.erase(std::unique(anchors.begin(), anchors.end()), anchors.end());
  std::vector<CellChange> out;
  for (CellIndex a : anchors) {
    const Point p = class_grid.ToPoint(a);
    const uint8_t cost = GuideCost(terrain_after, agent, p);
    if (cost != class_grid.cost(a)) out.push_back({p, cost});
  }
  return out;
}

absl::StatusOr<World> ApplyTerrainChanges(const World& class_world,
                                          const Grid& terrain_after,
                                          const AgentClass& agent,
                                          absl::Span<const Point> changed_cells,
                                          const UpdateOptions& options,
                                          UpdateReport* report) {
  ASSIGN_OR_RETURN(const std::vector<CellChange> changes,
                   ClassGridChanges(class_world.grid(), terrain_after, agent,
                                    changed_cells));
  return ApplyChanges(class_world, changes, options, report);
}

absl::StatusOr<AgentWorld> ApplyTerrainChanges(
    const AgentWorld& world, absl::Span<const CellChange> changes,
    const UpdateOptions& options) {
  const Grid& terrain = world.terrain();
  std::vector<Grid::CellCost> costs;
  std::vector<Point> cells;
  costs.reserve(changes.size());
  cells.reserve(changes.size());
  for (size_t i = 0; i < changes.size(); ++i) {
    const CellChange& c = changes[i];
    if (!terrain.InBounds(c.cell) || c.cost < 0 || c.cost > 255) {
      return absl::InvalidArgumentError(absl::StrCat(
          "terrain change ", i, ": cell (", c.cell.x, ",", c.cell.y, ") type ",
          c.cost, " (the terrain is ", terrain.width(), "x", terrain.height(),
          ", types 0..255)"));
    }
    costs.push_back({terrain.Index(c.cell), static_cast<uint8_t>(c.cost)});
    cells.push_back(c.cell);
  }
  Grid after = terrain.WithCosts(costs);
  std::vector<AgentWorld::ClassWorldEntry> classes;
  for (const AgentWorld::ClassWorldEntry& c : world.classes()) {
    absl::StatusOr<World> updated =
        ApplyTerrainChanges(c.world, after, c.agent, cells, options);
    if (!updated.ok()) {
      return absl::Status(updated.status().code(),
                          absl::StrCat("agent class '", c.agent.name,
                                       "': ", updated.status().message()));
    }
    classes.push_back({c.agent, *std::move(updated)});
  }
  return AgentWorld(world.agents(), std::move(after), std::move(classes));
}

}  // namespace zonepath
