#include "zonepath/search/run_straightener.h"

#include <cstddef>

#include "open_cells.h"

namespace zonepath {
namespace {

using search_internal::OpenCells;

// True if a unit at p can walk `runs` through open cells (a diagonal step
// needs both orthogonal cells open too, as in moves.h).
bool Walkable(const OpenCells& open, Point p, const Run* runs, int count) {
  for (int r = 0; r < count; ++r) {
    const int dx = Dx(runs[r].direction), dy = Dy(runs[r].direction);
    for (uint32_t i = 0; i < runs[r].count; ++i) {
      if (!open(p.x + dx, p.y + dy) ||
          (dx != 0 && dy != 0 &&
           !(open(p.x + dx, p.y) && open(p.x, p.y + dy)))) {
        return false;
      }
      p.x += dx;
      p.y += dy;
    }
  }
  return true;
}

Point After(Point p, const Run& run) {
  return {p.x + Dx(run.direction) * static_cast<int32_t>(run.count),
          p.y + Dy(run.direction) * static_cast<int32_t>(run.count)};
}

void Straighten(const OpenCells& open, Point start,
                std::vector<Run>* runs_ptr) {
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
        const Run* fits = Walkable(open, at, before, 2)  ? before
                          : Walkable(open, at, after, 2) ? after
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
  Straighten(OpenCells(grid, bounds, corridor), start, runs);
  return true;
}

}  // namespace zonepath
