// StringPuller: string pulling over a stream of path cells.
//
// The puller stands at an anchor: a cell of the path, or a corner it made,
// from which a straight run leads to a cell of the path. From there it
// looks for the farthest later cell of the path, at most `lookahead` moves
// on, that a one-turn way reaches legally (one_turn_path.h: a diagonal and
// a straight run, either order; on a 4-connected grid an x and a y run).
// On a grid where every passable cell costs the same, such a way costs the
// octile (Manhattan) distance, the least any way can cost, so it is never
// dearer than the moves it replaces. On a weighted grid a way is taken
// only if its walked cost is no more than the moves it replaces (from a
// corner: the rest of the corner's run and the moves after it), so a way
// across dearer ground is not, and each stretch is still no dearer (README,
// "Weighted string pulling"). The puller then walks the way's first run only,
// and anchors at its corner: the next way starts there, off the path, the way a
// string pulled tight bends around the corner of a wall instead of at a cell
// the path happened to pass (measured: from a corner, one pass comes as close
// to the optimum as three from cells, and finds the optimum in corridors;
// README, "String pulling"). The farthest cell is looked for by doubling the
// reach along the path from kFirstReach and then bisecting: the cells a
// one-turn way reaches are not always a prefix of the path, so this finds a far
// cell, not always the farthest, in ~2 log2(lookahead) walks of a way.
//
//   StringPuller puller(grid, Connectivity::kEight);
//   puller.Reset(start, astar.grid_bits(), /*fewer_turns=*/true);
//   puller.AddRun(run); ...                   // the path's moves
//   puller.Pull(/*lookahead=*/256, /*final=*/false, &runs);  // appends
#ifndef ZONEPATH_RUNTIME_STRING_PULLER_H_
#define ZONEPATH_RUNTIME_STRING_PULLER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "zonepath/grid/geometry.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/search/one_turn_path.h"

namespace zonepath::runtime_internal {

class StringPuller {
 public:
  // The first reach tried from an anchor, in moves along the path: ways
  // reach past a few moves almost always, and starting the doubling there
  // saves its first tries.
  static constexpr int64_t kFirstReach = 16;

  // `grid` must outlive the puller. Ways are checked by their cost unless
  // grid.OneCost().
  StringPuller(const Grid& grid, Connectivity connectivity)
      : grid_(grid),
        connectivity_(connectivity),
        weighted_(!grid.OneCost()),
        ways_(grid, connectivity) {}

  // `bits`: the grid's open bits (GridAStar::grid_bits()) or null, and
  // `tiles`: its open cell tiles (GridAStar::cell_tiles()) or null, read
  // until the next Reset. fewer_turns: of a way's two orders, take first
  // the one continuing the last move's direction (else diagonal, or x,
  // first).
  void Reset(Point start, const search_internal::OpenBits* bits,
             bool fewer_turns, const OpenCellTiles* tiles = nullptr);
  // Appends the path's next moves (legal, from the last cell added).
  void AddRun(const Run& run) {
    const size_t at = cells_.size();
    cells_.resize(at + run.count);
    Point p = cells_[at - 1];
    for (uint32_t i = 0; i < run.count; ++i) {
      p = Step(p, run.direction);
      cells_[at + i] = p;
    }
    if (weighted_) AddCosts(at, run.direction);
  }
  // On a weighted grid: the summed step cost of every move added since
  // Reset, each read from its cells and added in order (as a walker sums
  // them). 0 on a grid of one cost.
  double cost() const { return weighted_ ? costs_.back() : 0; }
  // The last cell added.
  Point back() const { return cells_.back(); }
  // Moves of the path added beyond the anchor's cell (not yet pulled), plus
  // one while the anchor is a corner short of it: 0 when all is pulled.
  int64_t pending() const {
    return static_cast<int64_t>(cells_.size()) - 1 - index_ +
           (at_ != cells_[index_] ? 1 : 0);
  }
  // Pulls from the anchor on while more than `lookahead` (>= 1) moves are
  // pending (each pull makes fewer pending), or with `final` until none
  // are, appending the runs walked from the anchor to *out (a run going on
  // in the last one's direction lengthens it): legal moves, each stretch no
  // dearer than the moves it replaced, ending (with final) where the path
  // ends.
  void Pull(int64_t lookahead, bool final, std::vector<Run>* out);
  size_t MemoryUsage() const {
    return cells_.capacity() * sizeof(Point) +
           costs_.capacity() * sizeof(double);
  }

 private:
  // True if a one-turn way leads from the anchor to cells_[j]; keeps it in
  // way_ (else leaves way_ alone).
  bool Reaches(int64_t j);
  // Appends way_'s first `runs` runs to *out and moves the anchor to their
  // end.
  void Walk(int runs, std::vector<Run>* out);
  // costs_ of cells_[at ..], reached by moves in direction d.
  void AddCosts(size_t at, Direction d);

  const Grid& grid_;
  Connectivity connectivity_;
  bool weighted_;
  OneTurnWaysFrom ways_;  // from the anchor (grids of one cost)
  const search_internal::OpenBits* bits_ = nullptr;
  const OpenCellTiles* tiles_ = nullptr;
  bool fewer_turns_ = true;
  // The direction of the last move pulled (into the anchor), if any.
  std::optional<Direction> continues_;
  std::vector<Point> cells_;  // the path, from the anchor's cell on
  // The anchor: at_, which is cells_[index_] or a corner from which a
  // straight run leads to cells_[index_].
  Point at_;
  int64_t index_ = 0;
  Run rest_;        // while at_ is a corner: the run from it to cells_[index_]
  OneTurnWay way_;  // the last way Reaches found
  // Weighted grids: costs_[i] is the cost of the moves added up to
  // cells_[i] (from the start, so dropping pulled cells keeps the values),
  // and rest_cost_ the walked cost of rest_.
  std::vector<double> costs_;
  double rest_cost_ = 0;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_STRING_PULLER_H_
