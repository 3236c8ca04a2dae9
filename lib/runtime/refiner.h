// Refiner: turns one abstract edge into the next level down, one edge at a
// time, so a cursor refines only the chain it is about to walk.
//
// - A crossing (an edge between adjacent cells of different level-1 zones)
//   is one step.
// - A level-1 edge inside a zone becomes cell moves: its cached path when
//   the world has them, else A* on the grid inside the zone.
// - A level-j edge (j >= 2) inside a level-j zone becomes level-(j-1) edges:
//   A* on level j-1 inside that zone.
// Anything the world's levels cannot back (cells not adjacent, no path
// inside the zone, a cached path that leads elsewhere) is a DataLoss status:
// a path is never returned with a jump in it.
//
//   Refiner refiner(graph, &astar, max_nodes);
//   if (refiner.IsCrossing(j, u, v) || j == 1)
//     RETURN_IF_ERROR(refiner.AppendMoves(j, u, v, opts, &moves, &stats));
//   else
//     RETURN_IF_ERROR(refiner.AppendChildren(j, u, v, &children, &stats));
#ifndef ZONEPATH_RUNTIME_REFINER_H_
#define ZONEPATH_RUNTIME_REFINER_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "best_first.h"
#include "level_graph.h"
#include "node_state_map.h"
#include "segment.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/search_stats.h"

namespace zonepath::runtime_internal {

class Refiner {
 public:
  // `astar` is shared with the planner's other grid searches.
  Refiner(const LevelGraph& graph, GridAStar* astar, uint32_t max_nodes);

  // True if level j has a border-crossing edge u -> v (a single step).
  bool IsCrossing(int j, uint32_t u, uint32_t v) const;

  // Appends the cell moves of a crossing or a level-1 edge u -> v to
  // `moves` (its start must be u's cell; costs are not added).
  absl::Status AppendMoves(int j, uint32_t u, uint32_t v, bool fewer_turns,
                           RunLengthPath* moves, SearchStats* stats);

  // Appends the level-(j-1) edges of level-j edge u -> v (j >= 2, same
  // level-j zone) to `children`, in walking order.
  absl::Status AppendChildren(int j, uint32_t u, uint32_t v,
                              std::vector<Segment>* children,
                              SearchStats* stats);

  void set_on_node(std::function<void(Point)> on_node) {
    on_node_ = std::move(on_node);
  }
  size_t MemoryUsage() const;

 private:
  absl::Status AppendCachedMoves(uint32_t u, uint32_t v, RunLengthPath* moves);

  const LevelGraph& graph_;
  GridAStar* astar_;
  NodeStateMap state_;
  std::vector<OpenEntry> open_;
  std::vector<uint32_t> chain_;
  RunLengthPath scratch_;
  std::function<void(Point)> on_node_;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_REFINER_H_
