// AppendOneTurnPath: the straightest ways between two cells, tried before a
// search.
//
// Inside one zone, most of a level-1 edge's shortest ways are an octile
// line: a diagonal run and a straight one (on a 4-connected grid, an x run
// and a y run). When the caller knows the least cost between the two cells
// (the abstract edge's), such a way that is legal and costs no more is a
// shortest way, found by walking at most 2 x side cells instead of a
// search (refining a level-1 edge by a jump point search in its zone costs
// ~50 times as much; docs/measurements_history.md, "Straight level-1 edges").
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

#include <limits>
#include <optional>

#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/grid/path.h"

namespace zonepath {

// A way of at most two runs (FindOneTurnWay).
struct OneTurnWay {
  Run runs[2];
  int count = 0;  // 0 (a == b), 1 or 2
  double cost = 0;
};

// Appends way's runs to *path.
void AppendOneTurnWay(const OneTurnWay& way, RunLengthPath* path);

// The way AppendOneTurnPath would append, without appending it.
std::optional<OneTurnWay> FindOneTurnWay(const Grid& grid,
                                         Connectivity connectivity, Point a,
                                         Point b, double max_cost);
// The same way, read from the grid's open cell tiles (the same answer
// without reading its costs).
std::optional<OneTurnWay> FindOneTurnWay(const OpenCellTiles& tiles,
                                         Connectivity connectivity, Point a,
                                         Point b, double max_cost);

// For string pulling on a weighted grid: the first legal one-turn way from
// a to b whose walked cost (as FindOneTurnWay sums it) is no more than
// `cost`, the cost of the moves it would replace, to 1e-12 relative (as
// StraightenRunsNoCostlier's), not a float ulp: sums of exact step costs,
// not a float edge cost, bound it. Of the two orders, straight first when
// `continues` (the direction of the move into a, or nullopt) is that run's
// (no turn at a), else diagonal (x) first. O(|b - a|), bails out as soon
// as a step is illegal or the cost runs past the bound.
std::optional<OneTurnWay> FindOneTurnWayNoDearer(
    const Grid& grid, Connectivity connectivity, Point a, Point b, double cost,
    std::optional<Direction> continues);

namespace search_internal {
class OpenBits;
}  // namespace search_internal

// One-turn ways from one cell to many others, on a grid of one cost (every
// passable cell the same), where a legal one-turn way costs the least any
// way can (string pulling). The same ways as FindOneTurnWay with no cost
// limit (diagonal first, then straight first), found faster: the moves are
// read from the grid's open bits when given (GridAStar::grid_bits(): a
// straight run a few words), and the diagonal ray from the anchor is walked
// once per direction, as far as asked, so that a diagonal-first way costs
// one straight run's test.
//
//   OneTurnWaysFrom ways(grid, Connectivity::kEight);
//   ways.Reset(anchor, astar.grid_bits());
//   if (std::optional<OneTurnWay> way = ways.To(b)) ...
class OneTurnWaysFrom {
 public:
  // `grid` must outlive this object.
  OneTurnWaysFrom(const Grid& grid, Connectivity connectivity)
      : grid_(grid), connectivity_(connectivity) {}

  // From `anchor`, a passable cell of the grid; `bits`, the grid's whole
  // open bits or null, and `tiles`, its open cell tiles or null (read
  // where there are no bits), must outlive the next Reset.
  void Reset(Point anchor, const search_internal::OpenBits* bits,
             const OpenCellTiles* tiles = nullptr);
  // The first legal way to b (a cell of the grid), its cost HeuristicCost's;
  // nullopt if neither is legal, or if that cost is over `max_cost` (with
  // AppendOneTurnPath's one float ulp). Straight first when `continues`
  // (the direction of the move that reached the anchor, or nullopt) is that
  // run's: the way then adds no turn there.
  std::optional<OneTurnWay> To(
      Point b, std::optional<Direction> continues,
      double max_cost = std::numeric_limits<double>::infinity());

 private:
  // Whether `steps` moves in direction d from p are legal.
  bool RunLegal(Point p, Direction d, uint32_t steps) const;
  // How many of up to `steps` moves in direction d from p are legal in a
  // row, read from the tiles or the grid (no bits) cell by cell.
  uint32_t StepByStep(Point p, Direction d, uint32_t steps) const;
  // Whether the anchor's diagonal ray in direction d has `steps` legal
  // moves (walking it further if needed).
  bool RayReaches(Direction d, uint32_t steps);

  const Grid& grid_;
  Connectivity connectivity_;
  const search_internal::OpenBits* bits_ = nullptr;
  const OpenCellTiles* tiles_ = nullptr;
  Point anchor_;
  // Per diagonal direction (NE, SE, SW, NW): legal moves walked so far,
  // and whether the ray stopped there.
  uint32_t ray_[4] = {0, 0, 0, 0};
  bool ray_ends_[4] = {false, false, false, false};
};

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
