#include "zonepath/search/run_straightener.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "open_cells.h"

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

// The same without a corridor: a straight run from a cell inside the box
// stays inside iff its last cell does (and so do a diagonal step's side
// cells), so the box is checked once per run and the cells are read by
// index, without a bounds check each (the smoother straightens whole
// committed stretches this way: ~3x fewer instructions than CorridorCells).
struct BoxCells {
  const Grid& grid;
  Rect box;  // clipped to the grid
  bool Walk(Point* p, const Run& run) const {
    const int dx = Dx(run.direction), dy = Dy(run.direction);
    const int32_t n = static_cast<int32_t>(run.count);
    const Point end{p->x + dx * n, p->y + dy * n};
    if (!box.Contains(end)) return false;
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
    *p = end;
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

template <typename Cells>
void Straighten(const Cells& cells, Point start, std::vector<Run>* runs_ptr) {
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
        const Run* fits = Walkable(cells, at, before, 2)  ? before
                          : Walkable(cells, at, after, 2) ? after
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
  if (corridor == nullptr) {
    Straighten(BoxCells{grid, Intersect(bounds, grid.bounds())}, start, runs);
  } else {
    const OpenCells open(grid, bounds, corridor);
    Straighten(CorridorCells{open}, start, runs);
  }
  return true;
}

}  // namespace zonepath
