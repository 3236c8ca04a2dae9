// RowSpans: a corridor of cells as one x interval per row, which bounded
// searches (GridAStar's AStarOptions::corridor, ZoneDijkstra::LoadRect)
// keep to: the planner's smoothing band around a window's path.
//
//   RowSpans band;
//   band.y0 = 10;
//   band.lo = {4, 5};   // row 10: x 4..6, row 11: x 5..7
//   band.hi = {6, 7};
//   bool in = band.Contains({5, 11});   // true
#ifndef ZONEPATH_SEARCH_ROW_SPANS_H_
#define ZONEPATH_SEARCH_ROW_SPANS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "zonepath/grid/geometry.h"

namespace zonepath {

// A corridor: the cells a search may use, as one x interval per row
// (lo[i] <= x <= hi[i] on row y0 + i; lo > hi leaves the row empty). Rows
// outside [y0, y0 + lo.size()) are closed. A caller-owned value: keep it
// alive during the search; its vectors keep their capacity between uses.
struct RowSpans {
  int32_t y0 = 0;
  std::vector<int32_t> lo;
  std::vector<int32_t> hi;
  bool Contains(Point p) const {
    const int64_t i = int64_t{p.y} - y0;
    return i >= 0 && i < static_cast<int64_t>(lo.size()) &&
           p.x >= lo[static_cast<size_t>(i)] &&
           p.x <= hi[static_cast<size_t>(i)];
  }
};

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_ROW_SPANS_H_
