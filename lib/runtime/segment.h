// Segment: one piece of a planned path that has not been turned into cell
// moves yet. The planner keeps the whole path as segments and refines them
// only as the cursor reaches them.
#ifndef ZONEPATH_RUNTIME_SEGMENT_H_
#define ZONEPATH_RUNTIME_SEGMENT_H_

#include <cstdint>

namespace zonepath::runtime_internal {

struct Segment {
  enum class Kind : uint8_t {
    kEdge,        // level-`level` nodes from -> to (an edge of that level)
    kStartCells,  // start -> first level-1 node (the start connection)
    kGoalCells,   // last level-1 node -> goal (goal connection, reversed)
    kDirect,      // the direct search's whole path
  };
  Kind kind = Kind::kEdge;
  uint8_t level = 0;
  uint32_t from = 0;
  uint32_t to = 0;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_SEGMENT_H_
