// StreamSmoother: smooths a path while it is being refined, so a cursor's
// first moves wait only for the first window, not for the whole path.
//
// Refined moves go in (AddRun); smoothed moves come out (Commit) once no
// later stage can change them.
//
// By default the path is string-pulled (string_puller.h): stretches of it
// become one-turn ways, bending at corners off the path, looking
// `pull_lookahead` moves ahead (`pull_first` until twice that many are out,
// so the first moves wait for little). On a grid of one cost such a way
// costs the least any way can; on a weighted grid a way is taken only
// where it costs no more than the moves it replaces. It walks cells, never
// searches (README, "String pulling", "Weighted string pulling").
//
// With by_search (PlanOptions::smooth_by_search) each window of moves is
// searched again exactly in a band around the window's path (jump points
// on a grid of one cost; elsewhere an A* over a framed copy of the band,
// ZoneDijkstra::RunLoadedTo) and replaced when the search finds it shorter
// (or, with fewer_turns, equally short with fewer runs); then its first
// `advance` moves are committed (with fewer_turns, straightened:
// StraightenRuns, on a weighted grid StraightenRunsNoCostlier), so the next
// window starts inside it and every junction between two windows lies
// inside a later one. The first window may be shorter than the rest, so
// that the first moves wait for less refinement and search. A window is
// skipped without a search when its cost already equals the heuristic
// lower bound (a straight or octile-optimal stretch on cheapest ground) and
// it has at most two runs.
//
//   StreamSmoother smoother(grid, connectivity, &astar,
//                           {.first = 64, .first_advance = 32,
//                            .window = 224, .advance = 168, .margin = 8});
//   smoother.Reset(start, /*fewer_turns=*/true);
//   smoother.AddRun(run); ...
//   RETURN_IF_ERROR(smoother.Commit(/*final=*/false, &out, &stats));
#ifndef ZONEPATH_RUNTIME_SMOOTHER_H_
#define ZONEPATH_RUNTIME_SMOOTHER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "string_puller.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/search_stats.h"
#include "zonepath/search/zone_dijkstra.h"

namespace zonepath::runtime_internal {

// Window sizes, in moves. Each window's box (its path's bounding box grown
// by `margin`) should fit GridAStar::kLocalSide, or its search leaves the
// bit-parallel local table.
struct SmoothWindows {
  // String pulling's lookahead, in moves (>= 1), until 2 x pull_first
  // moves are committed (so that the first moves wait for little
  // refinement), and after.
  int32_t pull_first = 32;
  int32_t pull_lookahead = 512;
  // Windows searched again (by_search).
  int32_t first = 64;          // the first window after Reset, >= 4
  int32_t first_advance = 32;  // moves it commits, 1 .. first
  int32_t window = 64;         // every later window, >= 4
  int32_t advance = 32;        // moves each commits, 1 .. window
  int32_t margin = 8;          // band around the path searched, >= 1 cells
};

class StreamSmoother {
 public:
  // Weighted windows whose box has at most this side are searched by the
  // band's A* (ZoneDijkstra::RunLoadedTo), made on first use: 17 bytes a
  // cell of the largest box (~1.1 MB at this side) and a queue that grows,
  // while warming up, to the most entries a window pushed (16 bytes each, a
  // few per band cell); larger boxes by GridAStar.
  static constexpr int32_t kMaxBandSide = 256;

  // `astar` is shared with the planner. Sizes out of range are clamped.
  StreamSmoother(const Grid& grid, Connectivity connectivity, GridAStar* astar,
                 const SmoothWindows& windows);

  // by_search: search windows again instead of string pulling (on grids of
  // one cost, shorter paths on maps of rooms and doors, ~2.5x the time;
  // PlanOptions::smooth_by_search).
  void Reset(Point start, bool fewer_turns, bool by_search);
  // Appends refined moves (legal, continuing from the last cell added).
  void AddRun(const Run& run);
  // Moves added but not yet committed.
  int64_t buffered() const {
    const int64_t unemitted = static_cast<int64_t>(cells_.size()) - 1 - head_;
    return pull_ ? puller_.pending() : unemitted;
  }
  // Summed step cost of everything added (the path before smoothing).
  double raw_cost() const { return raw_cost_; }
  // Moves the next window takes (string pulling: its lookahead): refine
  // until more than this is buffered.
  int64_t window() const {
    if (pull_) {
      return committed_ < 2 * pull_first_ ? pull_first_ : pull_lookahead_;
    }
    return committed_ == 0 ? first_ : window_;
  }

  // Smooths and appends to `out` (walked cost added) every buffered move no
  // later window can change; with `final`, all of them.
  absl::Status Commit(bool final, RunLengthPath* out, SearchStats* stats);
  size_t MemoryUsage() const;

 private:
  // Re-searches cells_[head_ .. head_ + *len] and splices in a better way
  // (*len becomes the window's new number of moves).
  absl::Status SmoothWindow(int64_t* len, SearchStats* stats);
  // Searches cells_[from] -> cells_[to] inside `box` and corridor_ into
  // scratch_ (with its cost). Where the band is searched by A*, only ways
  // cheaper than `below` are sought: *found is false if there is none.
  absl::Status SearchBand(int64_t from, int64_t to, const Rect& box,
                          double below, SearchStats* stats, bool* found);
  void Emit(int64_t moves, RunLengthPath* out);
  // String pulling: appends pulled_ to `out` and empties it.
  void EmitPulled(RunLengthPath* out);
  // Takes turns out of the next `moves` committed moves (same cost; on a
  // weighted grid no more, StraightenRunsNoCostlier).
  void Straighten(int64_t moves);
  int RunsIn(int64_t from, int64_t to) const;
  // Calls fn(i, direction, step cost) for each move cells_[i - 1] ->
  // cells_[i], i = from + 1 .. to. On a grid of one cost the step costs
  // are the two constants below, so no cell's cost is read: for the
  // windows' choices only; the costs reported (the path's, raw_cost) are
  // read from the cells, since a loaded world's cost counts behind
  // Grid::OneCost are not checked against them.
  template <typename Fn>
  void ForEachMove(int64_t from, int64_t to, Fn&& fn) const;
  // The same, every step's cost read from its cells (for the costs
  // reported, and ForEachMove's weighted case).
  template <typename Fn>
  void ForEachMoveFromCells(int64_t from, int64_t to, Fn&& fn) const;
  double OneCostStep(Direction d) const {
    return IsDiagonal(d) ? diagonal_cost_ : straight_cost_;
  }
  // A cell's cost, from the tiles where there are some.
  uint8_t CostAt(Point p) const {
    return tiles_ != nullptr ? tiles_->cost(p) : grid_.cost(p);
  }

  const Grid& grid_;
  Connectivity connectivity_;
  GridAStar* astar_;
  // String pulling, not windows, unless Reset asked for windows.
  bool pull_ = false;
  int64_t pull_first_, pull_lookahead_;
  StringPuller puller_;
  std::vector<Run> pulled_;  // the puller's output, until Emitted
  Point pulled_end_;         // where the moves committed so far end
  int64_t first_, first_advance_, window_, advance_;
  int32_t margin_;
  int64_t committed_ = 0;  // moves committed since Reset
  bool fewer_turns_ = true;
  // Window searches: the cells to commit; cells_[head_] is the last
  // committed cell. (String pulling keeps its cells in puller_.)
  std::vector<Point> cells_;
  int64_t head_ = 0;
  double raw_cost_ = 0;
  RunLengthPath scratch_;
  std::vector<Point> replacement_;
  RowSpans corridor_;
  std::vector<int32_t> widen_scratch_;
  // Every passable cell costs the same: windows run by jump points and
  // committed moves are straightened (run_straightener.h).
  bool one_cost_;
  // StepCost of a straight and a diagonal move between cells of the grid's
  // cheapest cost: every step's cost when one_cost_ (ForEachMove).
  double straight_cost_, diagonal_cost_;
  // The grid's open cell tiles (GridAStar::cell_tiles()) or null, from
  // Reset on: read instead of the grid's costs on a large grid.
  const OpenCellTiles* tiles_ = nullptr;
  // Otherwise windows run by an A* over the band's framed copy
  // (made on the first weighted window, sized for the largest box).
  std::unique_ptr<ZoneDijkstra> band_search_;
  std::vector<Run> straight_;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_SMOOTHER_H_
