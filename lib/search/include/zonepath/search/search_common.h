// Pieces every best-first search in zonepath shares: the open-list order and
// the endpoint check.
//
//   std::push_heap(open.begin(), open.end(), OpenListOrder());
//   RETURN_IF_ERROR(CheckEndpoint(grid, grid.bounds(), start, "start"));
#ifndef ZONEPATH_SEARCH_SEARCH_COMMON_H_
#define ZONEPATH_SEARCH_SEARCH_COMMON_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

// Heap order for std::push_heap/pop_heap on entries with `f` and `g`: lowest
// f first, ties to the larger g (deeper nodes), which cuts expansions on open
// ground.
struct OpenListOrder {
  template <typename Entry>
  bool operator()(const Entry& a, const Entry& b) const {
    if (a.f != b.f) return a.f > b.f;
    return a.g < b.g;
  }
};

// InvalidArgument naming `what` ("start", "goal") if p is outside the grid,
// outside `bounds`, or blocked.
absl::Status CheckEndpoint(const Grid& grid, const Rect& bounds, Point p,
                           absl::string_view what);

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_SEARCH_COMMON_H_
