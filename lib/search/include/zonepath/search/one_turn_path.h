// AppendOneTurnPath: the straightest ways between two cells, tried before a
// search.
//
// Inside one zone, most of a level-1 edge's shortest ways are an octile
// line: a diagonal run and a straight one (on a 4-connected grid, an x run
// and a y run). When the caller knows the least cost between the two cells
// (the abstract edge's), such a way that is legal and costs no more is a
// shortest way, found by walking at most 2 x side cells instead of a
// search (refining a level-1 edge by a jump point search in its zone costs
// ~50 times as much; README, "Straight level-1 edges").
//
//   RunLengthPath moves;
//   moves.Reset(a);
//   if (std::optional<double> cost = AppendOneTurnPath(
//           grid, Connectivity::kEight, a, b, edge_cost, &moves)) {
//     ...  // moves reach b, legal, *cost <= edge_cost (within 2^-23)
//   } else {
//     ...  // search
//   }
#ifndef ZONEPATH_SEARCH_ONE_TURN_PATH_H_
#define ZONEPATH_SEARCH_ONE_TURN_PATH_H_

#include <optional>

#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/path.h"

namespace zonepath {

// Tries the ways from a to b of at most two runs, diagonal first then
// straight first (4-connected: x first then y first), every step legal
// (moves.h), summing their cost from the cells as StepCost does. The first
// whose cost is at most max_cost (plus one float ulp relative, 2^-23:
// abstract edge costs are floats) is appended to *path and its cost
// returned (a == b: the empty way, 0); otherwise nullopt, *path untouched. a
// and b must be cells of `grid`. Such a way never leaves the rectangle spanned
// by a and b, so it stays inside any rectangle (a zone) that holds both. O(|b -
// a|), no allocation beyond *path's runs.
std::optional<double> AppendOneTurnPath(const Grid& grid,
                                        Connectivity connectivity, Point a,
                                        Point b, double max_cost,
                                        RunLengthPath* path);

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_ONE_TURN_PATH_H_
