// DeriveClassGrid: the grid on which an UNORIENTED agent class is a 1x1
// unit. Cell (x, y) of the derived grid holds the class cost of the
// footprint anchored at (x, y) (the largest multiplier over its covered
// cells; 0 = blocked if one of them is impassable for the class or outside
// the map).
//
// Why: on the derived grid, moves.h's rules (CanStep, StepCost, no corner
// cutting) give exactly the legal moves and costs of agent_class.h's rules
// for the class: a step is legal iff the destination position is legal, a
// diagonal needs both orthogonal positions legal, and a step costs
// StepCost(d, cost at p, cost at q). So GridAStar, BuildWorld and the
// Planner work unchanged for any unoriented class, in anchor coordinates,
// on the class's derived grid (with the class's connectivity).
//
// Cost: O(cells) time (separable sliding-window maximum, independent of the
// footprint size); scratch 2 bytes per cell, freed before the result's
// Grid::Create (which labels components).
// The default class gives a grid identical to the terrain: any class that
// SeesTerrainAsIs gets the terrain itself, a copy sharing its pages (no new
// memory; Grid::SharesStorageWith tells, so memory is counted once).
//
//   ASSIGN_OR_RETURN(Grid tank_grid, DeriveClassGrid(terrain, tank));
//   GridAStar search(tank_grid);   // anchors, tank.connectivity
#ifndef ZONEPATH_AGENTS_CLASS_GRID_H_
#define ZONEPATH_AGENTS_CLASS_GRID_H_

#include "absl/status/statusor.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

// Whether `agent` is 1 x 1, unoriented, and every type on `terrain` costs
// it its own value (as for the default class): its class grid is then the
// terrain as it is.
bool SeesTerrainAsIs(const Grid& terrain, const AgentClass& agent);

// InvalidArgument for an oriented class (its state includes a heading, so
// no single grid describes it) or a footprint outside 1..kMaxFootprint.
absl::StatusOr<Grid> DeriveClassGrid(const Grid& terrain,
                                     const AgentClass& agent);

// The grid an agent world plans a class's route on: the class grid for an
// unoriented class; for an oriented one, its *guide grid*, a relaxation:
// cell (x, y) holds the smaller class cost of the footprint anchored there
// heading N (width x length) or E (length x width), 0 if neither is legal.
// Every move of the oriented unit is a move on the guide grid costing no
// more (a step's destination is legal for the unit's heading; a diagonal
// heading's m x m square costs at least both; turns cost >= 0), so a route
// on it is a lower bound, and a goal unreachable on it is unreachable for
// the unit. O(cells), two class grids' work for an oriented class.
absl::StatusOr<Grid> DeriveGuideGrid(const Grid& terrain,
                                     const AgentClass& agent);

// The guide grid's cost at `anchor` (0 if illegal): O(footprint area).
uint8_t GuideCost(const Grid& terrain, const AgentClass& agent, Point anchor);

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_CLASS_GRID_H_
