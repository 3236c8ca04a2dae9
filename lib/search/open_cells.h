// Which cells a bounded search may enter (internal to the search library).
#ifndef ZONEPATH_SEARCH_OPEN_CELLS_H_
#define ZONEPATH_SEARCH_OPEN_CELLS_H_

#include <algorithm>
#include <cstdint>

#include "zonepath/grid/grid.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath::search_internal {

// The open cells of one search: inside the bounds (clipped to the grid),
// inside the corridor if there is one, and passable.
class OpenCells {
 public:
  OpenCells(const Grid& grid, const Rect& bounds, const RowSpans* corridor)
      : grid_(grid),
        bounds_{std::max(0, bounds.x0), std::max(0, bounds.y0),
                std::min(grid.width(), bounds.x1),
                std::min(grid.height(), bounds.y1)},
        corridor_(corridor) {}

  bool operator()(int32_t x, int32_t y) const {
    const Point p{x, y};
    return bounds_.Contains(p) &&
           (corridor_ == nullptr || corridor_->Contains(p)) &&
           grid_.cost(p) != kBlocked;
  }

 private:
  const Grid& grid_;
  const Rect bounds_;
  const RowSpans* corridor_;
};

}  // namespace zonepath::search_internal

#endif  // ZONEPATH_SEARCH_OPEN_CELLS_H_
