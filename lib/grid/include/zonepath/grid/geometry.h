// Points, rectangles and cell indices on a grid.
//
//   Point p{3, 4};                      // column 3, row 4
//   Rect zone{0, 0, 64, 64};            // x in [0, 64), y in [0, 64)
//   bool inside = zone.Contains(p);
//   Point q = Step(p, Direction::kE);   // {4, 4}
#ifndef ZONEPATH_GRID_GEOMETRY_H_
#define ZONEPATH_GRID_GEOMETRY_H_

#include <cstdint>
#include <string>

#include "absl/strings/str_format.h"
#include "zonepath/base/strong_id.h"
#include "zonepath/grid/direction.h"

namespace zonepath {

// Row-major cell index y * width + x. 32 bits: a grid holds at most
// Grid::kMaxCells cells.
struct CellTag {};
using CellIndex = StrongId<CellTag, uint32_t>;

struct Point {
  int32_t x = 0;
  int32_t y = 0;
  friend bool operator==(Point, Point) = default;
  template <typename H>
  friend H AbslHashValue(H h, Point p) {
    return H::combine(std::move(h), p.x, p.y);
  }
  template <typename Sink>
  friend void AbslStringify(Sink& sink, Point p) {
    absl::Format(&sink, "(%d,%d)", p.x, p.y);
  }
};

inline std::string PointString(Point p) {
  return absl::StrFormat("(%d,%d)", p.x, p.y);
}

constexpr Point Step(Point p, Direction d) {
  return {p.x + Dx(d), p.y + Dy(d)};
}

// Half-open rectangle [x0, x1) x [y0, y1).
struct Rect {
  int32_t x0 = 0;
  int32_t y0 = 0;
  int32_t x1 = 0;
  int32_t y1 = 0;
  constexpr bool Contains(Point p) const {
    return p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1;
  }
  constexpr int32_t width() const { return x1 - x0; }
  constexpr int32_t height() const { return y1 - y0; }
  constexpr bool empty() const { return x1 <= x0 || y1 <= y0; }
  friend bool operator==(Rect, Rect) = default;
};

// The cells in both rectangles (empty, with x1 <= x0 or y1 <= y0, if none):
// e.g. a search's bounds clipped to the grid, Intersect(bounds,
// grid.bounds()).
constexpr Rect Intersect(const Rect& a, const Rect& b) {
  return {a.x0 > b.x0 ? a.x0 : b.x0, a.y0 > b.y0 ? a.y0 : b.y0,
          a.x1 < b.x1 ? a.x1 : b.x1, a.y1 < b.y1 ? a.y1 : b.y1};
}

}  // namespace zonepath

#endif  // ZONEPATH_GRID_GEOMETRY_H_
