// Changing the terrain under per-class worlds: a class world (built on
// DeriveClassGrid(terrain, class)) follows terrain changes through the
// class-grid cells they reach, then ApplyChanges. The result is the world a
// full build of the changed terrain's class grid would give (the same bytes
// when saved), as for any world.
//
// A terrain cell (x, y) is covered by the footprints anchored at
// [x - width + 1, x] x [y - length + 1, y], so a change reaches at most
// width x length class-grid cells; each is recomputed from the changed
// terrain (RectCost, O(footprint)). Cost: O(changes x footprint area) plus
// ApplyChanges on the cells whose class cost really changed.
//
//   Grid terrain_after = terrain.WithCosts(terrain_changes);
//   for (auto& [agent, world] : class_worlds) {
//     ASSIGN_OR_RETURN(world, ApplyTerrainChanges(world, terrain_after, agent,
//                                                 changed_cells));
//   }
#ifndef ZONEPATH_AGENTS_CLASS_WORLD_CHANGES_H_
#define ZONEPATH_AGENTS_CLASS_WORLD_CHANGES_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/grid/grid.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world.h"

namespace zonepath {

// The class-grid changes that terrain changes at `changed_cells` make, read
// from `terrain_after` (the terrain with the changes applied), for
// ApplyChanges on a world built on `class_grid` (the class grid before).
// Only cells whose class cost changes are listed, in row-major order.
// For an oriented class the grid is its guide grid (DeriveGuideGrid: the
// reach is the longer side both ways). InvalidArgument for a bad
// footprint, a terrain whose
// size differs from the class grid's, or a changed cell outside it.
absl::StatusOr<std::vector<CellChange>> ClassGridChanges(
    const Grid& class_grid, const Grid& terrain_after, const AgentClass& agent,
    absl::Span<const Point> changed_cells);

// ClassGridChanges, then ApplyChanges on `class_world`.
absl::StatusOr<World> ApplyTerrainChanges(const World& class_world,
                                          const Grid& terrain_after,
                                          const AgentClass& agent,
                                          absl::Span<const Point> changed_cells,
                                          const UpdateOptions& options = {},
                                          UpdateReport* report = nullptr);

// The agent world after terrain changes: the terrain with `changes` (cell,
// new terrain type 0..255; a later change of a cell wins) and every class
// world updated as above. Saved, it is the file BuildAgentWorld gives for
// the changed terrain. InvalidArgument names a change outside the terrain
// or with a type outside 0..255.
absl::StatusOr<AgentWorld> ApplyTerrainChanges(
    const AgentWorld& world, absl::Span<const CellChange> changes,
    const UpdateOptions& options = {});

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_CLASS_WORLD_CHANGES_H_
