// StreamSmoother: smooths a path while it is being refined, so a cursor's
// first moves wait only for the first window, not for the whole path.
//
// Refined moves go in (AddRun); smoothed moves come out (Commit) once no
// later window can change them. Each window of `window` moves is searched
// again exactly (A* in a band around the window's path; jump points on a
// grid of one cost, whose committed moves are then straightened) and replaced
// when the search finds it shorter (or, with fewer_turns, equally short
// with fewer runs); windows overlap by half, so every junction between two
// windows lies inside a third. A window is skipped without a search when
// its cost already equals the heuristic lower bound (a straight or
// octile-optimal stretch on cheapest ground) and it has at most two runs:
// on game maps most windows are.
//
//   StreamSmoother smoother(grid, connectivity, &astar, /*window=*/64,
//                           /*margin=*/8);
//   smoother.Reset(start, /*fewer_turns=*/true);
//   smoother.AddRun(run); ...
//   RETURN_IF_ERROR(smoother.Commit(/*final=*/false, &out, &stats));
#ifndef ZONEPATH_RUNTIME_SMOOTHER_H_
#define ZONEPATH_RUNTIME_SMOOTHER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/search_stats.h"

namespace zonepath::runtime_internal {

class StreamSmoother {
 public:
  // window: moves per window, >= 4. `astar` is shared with the planner.
  StreamSmoother(const Grid& grid, Connectivity connectivity, GridAStar* astar,
                 int32_t window, int32_t margin);

  void Reset(Point start, bool fewer_turns);
  // Appends refined moves (legal, continuing from the last cell added).
  void AddRun(const Run& run);
  // Moves added but not yet committed.
  int64_t buffered() const {
    return static_cast<int64_t>(cells_.size()) - 1 - head_;
  }
  // Summed step cost of everything added (the path before smoothing).
  double raw_cost() const { return raw_cost_; }
  int64_t window() const { return window_; }

  // Smooths and appends to `out` (walked cost added) every buffered move no
  // later window can change; with `final`, all of them.
  absl::Status Commit(bool final, RunLengthPath* out, SearchStats* stats);
  size_t MemoryUsage() const;

 private:
  // Re-searches cells_[head_ .. head_ + *len] and splices in a better way
  // (*len becomes the window's new number of moves).
  absl::Status SmoothWindow(int64_t* len, SearchStats* stats);
  void Emit(int64_t moves, RunLengthPath* out);
  // Takes turns out of the next `moves` committed moves (same cost).
  void Straighten(int64_t moves);
  int RunsIn(int64_t from, int64_t to) const;

  const Grid& grid_;
  Connectivity connectivity_;
  GridAStar* astar_;
  int64_t window_;
  int32_t margin_;
  bool fewer_turns_ = true;
  std::vector<Point> cells_;  // cells_[head_] is the last committed cell
  int64_t head_ = 0;
  double raw_cost_ = 0;
  RunLengthPath scratch_;
  std::vector<Point> replacement_;
  RowSpans corridor_;
  // Every passable cell costs the same: windows run by jump points and
  // committed moves are straightened (run_straightener.h).
  bool one_cost_;
  std::vector<Run> straight_;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_SMOOTHER_H_
