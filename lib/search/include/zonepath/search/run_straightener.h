// StraightenRuns: fewer turns at the same cost, on a grid whose passable
// cells all cost the same (every map of the MovingAI benchmarks, mazes and
// rooms; not weighted terrain).
//
// Wherever runs X a, Y b, X c follow each other, Y b moves before or after
// them (Y b, X a+c or X a+c, Y b) if every cell that crosses is open (inside
// `bounds` and `corridor`, passable, and a diagonal step with both orthogonal
// cells open, as moves.h requires): the same steps in another order, so the
// same cost and end, and fewer runs to store. Repeats until nothing changes;
// O(steps) per pass, a few passes. Jump point searches (AStarOptions::
// jump_points) take a diagonal-first way around every corner and use it;
// the planner's smoother straightens each stretch it commits.
//
//   std::vector<Run> runs(path.runs().begin(), path.runs().end());
//   if (StraightenRuns(grid, grid.bounds(), nullptr, path.start(), &runs)) {
//     ...  // same cost, runs.size() <= path.runs().size()
//   }
#ifndef ZONEPATH_SEARCH_RUN_STRAIGHTENER_H_
#define ZONEPATH_SEARCH_RUN_STRAIGHTENER_H_

#include <vector>

#include "zonepath/grid/grid.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath {

// `runs` must be walkable from `start` under those rules. Returns false,
// leaving `runs` as they are, when the grid has passable cells of more than
// one cost (reordering would change the cost there). Allocates nothing: the
// vector only shrinks.
bool StraightenRuns(const Grid& grid, const Rect& bounds,
                    const RowSpans* corridor, Point start,
                    std::vector<Run>* runs);

// The same without a corridor, read from the grid's open cell tiles (which
// exist only for a grid of one cost): the same runs, without reading the
// grid's costs.
void StraightenRuns(const OpenCellTiles& tiles, const Rect& bounds, Point start,
                    std::vector<Run>* runs);

// On any grid, weighted too: the same moves of Y b, where the new order is
// legal inside the grid and costs no more than X a, Y b, X c did (each step's
// cost read from its cells; to 1e-12 relative, as AppendPath's tie rule:
// equal sums in another order differ in their last bits). The smoother's
// weighted stretches (A* windows keep fewer ties straight than a Dijkstra
// did). `runs` must be walkable from `start`; allocates nothing.
void StraightenRunsNoCostlier(const Grid& grid, Point start,
                              std::vector<Run>* runs);

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_RUN_STRAIGHTENER_H_
