// The steps GridAStar's two search loops share (internal to the search
// library: grid_astar.cc and jump_points.cc): the start, closing the best
// open node, and recording a shorter way to a node.
#ifndef ZONEPATH_SEARCH_SEARCH_STEPS_H_
#define ZONEPATH_SEARCH_SEARCH_STEPS_H_

#include "zonepath/search/grid_astar.h"

namespace zonepath {

template <typename Cost, typename FOf>
NodeTable& GridAStar::BeginSearch(Point start, const FOf& f_of) {
  NodeTable& nodes = Active();
  nodes.NewSearch(Cost::kUnreached);
  open_.Clear();
  const NodeId start_id = IdOf(start);
  SearchNode& s = nodes.Touch(start_id);
  s.g = 0;  // a zero cost in both representations
  open_.Push({f_of(s.g, start), 0.0, start_id}, nodes);
  ++stats_.heap_pushes;
  return nodes;
}

inline SearchNode& GridAStar::CloseBest(NodeTable& nodes, NodeId* id) {
  const OpenList::Entry top = open_.Pop(nodes);
  ++stats_.heap_pops;
  SearchNode& node = nodes.Node(top.id);
  node.heap_index = SearchNode::kClosed;
  ++stats_.expanded;
  if (trace_ != nullptr) trace_->push_back(PointOfId(top.id));
  *id = top.id;
  return node;
}

template <typename Cost, typename FOf>
inline void GridAStar::Improve(NodeTable& nodes, SearchNode& next, NodeId id,
                               Point q, uint64_t g, int d, const FOf& f_of) {
  const double g_value = Cost::Value(g);
  if (g_value >= Cost::Value(next.g)) return;
  next.g = g;
  next.set_parent(d);
  ++stats_.generated;
  const OpenList::Entry entry{f_of(g, q), g_value, id};
  if (next.heap_index < SearchNode::kUnqueued) {
    open_.Decrease(next.heap_index, entry, nodes);
    ++stats_.heap_decreases;
  } else {  // new, or closed and reopened (weighted A*)
    open_.Push(entry, nodes);
    ++stats_.heap_pushes;
  }
}

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_SEARCH_STEPS_H_
