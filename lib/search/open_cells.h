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
        bounds_(Intersect(bounds, grid.bounds())),
        corridor_(corridor) {}

  bool operator()(int32_t x, int32_t y) const {
    const Point p{x, y};
    return bounds_.Contains(p) &&
           (corridor_ == nullptr || corridor_->Contains(p)) &&
           grid_.cost(p) != kBlocked;
  }

  // The straight ray from open cell p (exclusive) in direction (dx, dy),
  // one of them 0, stepped cell by cell: true with *steps when it stops at
  // a jump point (the goal, or a cell beside which a wall ends: a side cell
  // open where the one behind it was not), false when it runs into a
  // closed cell. Each side cell read is the next step's cell behind.
  bool JumpStraight(Point p, int dx, int dy, Point goal,
                    uint32_t* steps) const {
    // The two sides: (dy, dx) and (-dy, -dx) turn the ray a quarter.
    const int ax = dy, ay = dx;
    const OpenCells& open = *this;
    int32_t x = p.x, y = p.y;
    bool side_a = open(x + ax, y + ay), side_b = open(x - ax, y - ay);
    uint32_t n = 0;
    while (true) {
      x += dx;
      y += dy;
      if (!open(x, y)) return false;
      ++n;
      const bool a = open(x + ax, y + ay), b = open(x - ax, y - ay);
      if ((x == goal.x && y == goal.y) || (a && !side_a) || (b && !side_b)) {
        *steps = n;
        return true;
      }
      side_a = a;
      side_b = b;
    }
  }

 private:
  const Grid& grid_;
  const Rect bounds_;
  const RowSpans* corridor_;
};

}  // namespace zonepath::search_internal

#endif  // ZONEPATH_SEARCH_OPEN_CELLS_H_
