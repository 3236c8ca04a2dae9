// RunLengthPath: a grid path as runs of (direction, count), plus its cost.
//
// This is what every planner in zonepath returns. The caller owns it and may
// reuse one object across queries: Clear() keeps the capacity, so planning
// into a warmed-up path allocates nothing.
//
//   RunLengthPath path;
//   path.Reset({0, 0});
//   path.Append(Direction::kE, 5);      // runs: E5
//   path.Append(Direction::kE);         // runs: E6
//   path.Append(Direction::kNE, 3);     // runs: E6,NE3
//   std::string s = RunsToString(path.runs());   // "E6,NE3"
//
//   ASSIGN_OR_RETURN(PathWalk walk, WalkPath(grid, path,
//   Connectivity::kEight));
//   // walk.end is the last cell, walk.cost the summed step costs.
#ifndef ZONEPATH_GRID_PATH_H_
#define ZONEPATH_GRID_PATH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/open_cell_tiles.h"

namespace zonepath {

struct Run {
  Direction direction = Direction::kN;
  uint32_t count = 0;  // >= 1 in a well-formed path
  friend bool operator==(Run, Run) = default;
};

class RunLengthPath {
 public:
  // Empties the path and sets its start; keeps the capacity.
  void Reset(Point start) {
    start_ = start;
    runs_.clear();
    steps_ = 0;
    cost_ = 0;
  }
  // Appends `count` >= 1 steps in direction `d`, merging with the last run.
  // Extends the last run when it has direction d and room for `count` more
  // (a run holds at most 2^32 - 1 moves; past that a new run starts).
  void Append(Direction d, uint32_t count = 1) {
    if (!runs_.empty() && runs_.back().direction == d &&
        runs_.back().count <= UINT32_MAX - count) {
      runs_.back().count += count;
    } else {
      runs_.push_back({d, count});
    }
    steps_ += count;
  }
  void set_cost(double cost) { cost_ = cost; }
  void AddCost(double cost) { cost_ += cost; }
  void reserve(size_t runs) { runs_.reserve(runs); }

  Point start() const { return start_; }
  const std::vector<Run>& runs() const { return runs_; }
  // Number of moves.
  int64_t steps() const { return steps_; }
  // Total movement cost as computed by the planner.
  double cost() const { return cost_; }
  bool empty() const { return steps_ == 0; }
  size_t MemoryUsage() const {
    return sizeof(*this) + runs_.capacity() * sizeof(Run);
  }

 private:
  Point start_;
  std::vector<Run> runs_;
  int64_t steps_ = 0;
  double cost_ = 0;
};

// "E5,NE3,N12"; empty for no runs.
std::string RunsToString(const std::vector<Run>& runs);
// Parses RunsToString's format (counts >= 1, merged or not).
absl::StatusOr<std::vector<Run>> ParseRuns(absl::string_view text);

// The cell reached from `start` by the first `moves` moves of `runs` (all
// of them if there are fewer). Geometry only: no legality checks.
Point CellAfterMoves(Point start, const std::vector<Run>& runs, int64_t moves);

struct PathWalk {
  Point end;
  double cost = 0;
  int64_t steps = 0;
};

// Walks `runs` from `start`, checking every step is legal under the movement
// rules (in bounds, passable, no corner cutting, no diagonal when
// 4-connected). Returns the end cell and the summed step cost, or an error
// naming the first illegal step.
absl::StatusOr<PathWalk> WalkRuns(const Grid& grid, Point start,
                                  const std::vector<Run>& runs,
                                  Connectivity connectivity);
// The summed step cost of `runs` walked from `start`, in walking order (so
// equal to WalkRuns' bit for bit), reading each cell's cost once. The runs
// must be legal (searches' own paths); nothing is checked.
double RunsCost(const Grid& grid, Point start, absl::Span<const Run> runs);
// The same, read from the grid's open cell tiles.
double RunsCost(const OpenCellTiles& tiles, Point start,
                absl::Span<const Run> runs);

inline absl::StatusOr<PathWalk> WalkPath(const Grid& grid,
                                         const RunLengthPath& path,
                                         Connectivity connectivity) {
  return WalkRuns(grid, path.start(), path.runs(), connectivity);
}

}  // namespace zonepath

#endif  // ZONEPATH_GRID_PATH_H_
