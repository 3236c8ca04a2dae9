#include "zonepath/search/run_straightener.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "open_cells.h"
#include "zonepath/grid/moves.h"

namespace zonepath {
namespace {

using search_internal::OpenCells;

// Whether a unit at open cell *p can make `run` through open cells (a
// diagonal step needs both orthogonal cells open too, as in moves.h);
// *p moves to the run's end when it can. Cells as a bounded search sees
// them (OpenCells: bounds, corridor, passable), one check per cell read.
struct CorridorCells {
  const OpenCells& open;
  bool Walk(Point* p, const Run& run) const {
    const int dx = Dx(run.direction), dy = Dy(run.direction);
    Point q = *p;
    for (uint32_t i = 0; i < run.count; ++i) {
      if (!open(q.x + dx, q.y + dy) ||
          (dx != 0 && dy != 0 &&
           !(open(q.x + dx, q.y) && open(q.x, q.y + dy)))) {
        return false;
      }
      q.x += dx;
      q.y += dy;
    }
    *p = q;
    return true;
  }
};

// Where `run` from p ends, if inside `box`: a straight run from a cell
// inside a box stays inside iff its last cell does (and so do a diagonal
// step's side cells), so the box is checked once per run.
std::optional<Point> EndInside(const Rect& box, Point p, const Run& run) {
  const int32_t n = static_cast<int32_t>(run.count);
  const Point end{p.x + Dx(run.direction) * n, p.y + Dy(run.direction) * n};
  if (!box.Contains(end)) return std::nullopt;
  return end;
}

// CorridorCells' answers without a corridor: the box checked once per run
// (EndInside), the cells read by index, without a bounds check each (the
// smoother straightens whole committed stretches this way: ~3x fewer
// instructions than CorridorCells).
struct BoxCells {
  const Grid& grid;
  Rect box;  // clipped to the grid
  bool Walk(Point* p, const Run& run) const {
    const std::optional<Point> end = EndInside(box, *p, run);
    if (!end.has_value()) return false;
    const int dx = Dx(run.direction), dy = Dy(run.direction);
    const int32_t n = static_cast<int32_t>(run.count);
    const int64_t width = grid.width();
    const int64_t step = dx + dy * width;
    int64_t i = int64_t{p->y} * width + p->x;
    const auto open = [&](int64_t at) {
      return grid.cost(CellIndex(static_cast<uint32_t>(at))) != kBlocked;
    };
    if (dx == 0 || dy == 0) {
      for (int32_t k = 0; k < n; ++k) {
        i += step;
        if (!open(i)) return false;
      }
    } else {
      for (int32_t k = 0; k < n; ++k) {
        if (!open(i + dx) || !open(i + dy * width) || !open(i + step)) {
          return false;
        }
        i += step;
      }
    }
    *p = *end;
    return true;
  }
};

// The same on the grid's open cell tiles: the box checked once per run, the
// cells read from their tiles' words.
struct TileBoxCells {
  const OpenCellTiles& tiles;
  Rect box;  // clipped to the grid
  bool Walk(Point* p, const Run& run) const {
    const std::optional<Point> end = EndInside(box, *p, run);
    if (!end.has_value()) return false;
    const int dx = Dx(run.direction), dy = Dy(run.direction);
    Point q = *p;
    for (uint32_t k = 0; k < run.count; ++k) {
      if (dx != 0 && dy != 0 &&
          !(tiles.passable({q.x + dx, q.y}) &&
            tiles.passable({q.x, q.y + dy}))) {
        return false;
      }
      q.x += dx;
      q.y += dy;
      if (!tiles.passable(q)) return false;
    }
    *p = *end;
    return true;
  }
};

// True if a unit at p can walk `runs` (count of them) under those rules.
template <typename Cells>
bool Walkable(const Cells& cells, Point p, const Run* runs, int count) {
  for (int r = 0; r < count; ++r) {
    if (!cells.Walk(&p, runs[r])) return false;
  }
  return true;
}

Point After(Point p, const Run& run) {
  return {p.x + Dx(run.direction) * static_cast<int32_t>(run.count),
          p.y + Dy(run.direction) * static_cast<int32_t>(run.count)};
}

// On a weighted grid: the cost of walking `runs` (count of them) from p
// under moves.h's rules inside the grid, each step's cost read from its two
// cells and summed in walking order; nullopt if a step is not legal.
std::optional<double> WalkedCost(const Grid& grid, Point p, const Run* runs,
                                 int count) {
  double cost = 0;
  for (int r = 0; r < count; ++r) {
    const int dx = Dx(runs[r].direction), dy = Dy(runs[r].direction);
    const bool diagonal = dx != 0 && dy != 0;
    for (uint32_t i = 0; i < runs[r].count; ++i) {
      const Point q{p.x + dx, p.y + dy};
      if (!grid.PassableOrFalse(q) ||
          (diagonal && !(grid.PassableOrFalse({q.x, p.y}) &&
                         grid.PassableOrFalse({p.x, q.y})))) {
        return std::nullopt;
      }
      cost += StepCost(runs[r].direction, grid.cost(p), grid.cost(q));
      p = q;
    }
  }
  return cost;
}

// Reorders runs[i], the merged X run, as `accept(at, old, candidate)`
// allows: `old` the three runs X a, Y b, X c from `at`, `candidate` the
// two that would replace them.
template <typename Accept>
void Straighten(Point start, std::vector<Run>* runs_ptr, Accept accept) {
  std::vector<Run>& runs = *runs_ptr;
  bool changed = true;
  while (changed) {
    changed = false;
    Point at = start;  // where runs[i - 1] begins
    for (size_t i = 1; i + 1 < runs.size(); ++i) {
      if (runs[i - 1].direction == runs[i + 1].direction) {
        const Run merged{runs[i - 1].direction,
                         runs[i - 1].count + runs[i + 1].count};
        const Run before[2] = {runs[i], merged};
        const Run after[2] = {merged, runs[i]};
        const Run* old_runs = &runs[i - 1];
        const Run* fits = accept(at, old_runs, before)  ? before
                          : accept(at, old_runs, after) ? after
                                                        : nullptr;
        if (fits != nullptr) {
          runs[i - 1] = fits[0];
          runs[i] = fits[1];
          runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(i) + 1);
          changed = true;
        }
      }
      at = After(at, runs[i - 1]);
    }
    // Neighbours that now share a direction become one run.
    size_t out = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (out > 0 && runs[out - 1].direction == runs[i].direction) {
        runs[out - 1].count += runs[i].count;
      } else {
        runs[out++] = runs[i];
      }
    }
    runs.resize(out);
  }
}

}  // namespace

bool StraightenRuns(const Grid& grid, const Rect& bounds,
                    const RowSpans* corridor, Point start,
                    std::vector<Run>* runs) {
  if (!grid.OneCost()) return false;
  // The same steps in another order: on a grid of one cost a legal order
  // costs the same.
  if (corridor == nullptr) {
    const BoxCells cells{grid, Intersect(bounds, grid.bounds())};
    Straighten(start, runs, [&](Point at, const Run*, const Run* candidate) {
      return Walkable(cells, at, candidate, 2);
    });
  } else {
    const OpenCells open(grid, bounds, corridor);
    const CorridorCells cells{open};
    Straighten(start, runs, [&](Point at, const Run*, const Run* candidate) {
      return Walkable(cells, at, candidate, 2);
    });
  }
  return true;
}

void StraightenRuns(const OpenCellTiles& tiles, const Rect& bounds, Point start,
                    std::vector<Run>* runs) {
  const TileBoxCells cells{
      tiles, Intersect(bounds, Rect{0, 0, tiles.width(), tiles.height()})};
  Straighten(start, runs, [&](Point at, const Run*, const Run* candidate) {
    return Walkable(cells, at, candidate, 2);
  });
}

void StraightenRunsNoCostlier(const Grid& grid, Point start,
                              std::vector<Run>* runs) {
  Straighten(
      start, runs, [&](Point at, const Run* old_runs, const Run* candidate) {
        const std::optional<double> now = WalkedCost(grid, at, candidate, 2);
        if (!now.has_value()) return false;
        // (Runs that were not walkable to begin with are left as they are.)
        const std::optional<double> before = WalkedCost(grid, at, old_runs, 3);
        return before.has_value() && *now <= *before + 1e-12 * (1.0 + *before);
      });
}

}  // namespace zonepath
