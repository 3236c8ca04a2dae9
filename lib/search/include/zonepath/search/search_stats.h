// SearchStats: what one search did, as plain data.
//
//   const SearchStats& s = astar.stats();
//   printf("%lld expanded in %f us\n", s.expanded,
//          absl::ToDoubleMicroseconds(s.time));
#ifndef ZONEPATH_SEARCH_SEARCH_STATS_H_
#define ZONEPATH_SEARCH_SEARCH_STATS_H_

#include <cstdint>

#include "absl/time/time.h"

namespace zonepath {

struct SearchStats {
  int64_t expanded = 0;        // nodes taken from the open list and closed
  int64_t generated = 0;       // successors whose cost was improved (pushed)
  int64_t heap_pushes = 0;     // entries inserted into the open list
  int64_t heap_decreases = 0;  // open entries whose key was lowered in place
  int64_t heap_pops = 0;
  absl::Duration time;  // wall time of the search

  SearchStats& operator+=(const SearchStats& other) {
    expanded += other.expanded;
    generated += other.generated;
    heap_pushes += other.heap_pushes;
    heap_decreases += other.heap_decreases;
    heap_pops += other.heap_pops;
    time += other.time;
    return *this;
  }
};

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_SEARCH_STATS_H_
