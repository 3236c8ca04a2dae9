// OpenList: GridAStar's priority queue, a binary heap of node ids keyed by
// (f, g) with each node's place in the heap kept in its SearchNode, so an
// improved node moves up in place (decrease-key) instead of being pushed
// again: the heap holds each open node once and stays small.
//
// Order: lowest f first, ties to the larger g (OpenFirst).
//
//   OpenList open;
//   open.Clear();
//   open.Push({f, g, id}, nodes);          // sets nodes.Node(id).heap_index
//   if (n.heap_index < SearchNode::kUnqueued) open.Decrease(n.heap_index, {f,
//   g, id}, nodes); OpenList::Entry top = open.Pop(nodes);  // its heap_index
//   is now stale
#ifndef ZONEPATH_SEARCH_OPEN_LIST_H_
#define ZONEPATH_SEARCH_OPEN_LIST_H_

#include <cstdint>
#include <vector>

#include "zonepath/search/node_table.h"
#include "zonepath/search/search_common.h"

namespace zonepath {

class OpenList {
 public:
  struct Entry {
    double f;
    double g;
    NodeId id;
  };

  void Clear() { heap_.clear(); }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }

  void Push(const Entry& e, NodeTable& nodes) {
    heap_.push_back(e);
    SiftUp(static_cast<uint32_t>(heap_.size() - 1), e, nodes);
  }
  // Entry at `index` gets the smaller key `e` (same id).
  void Decrease(uint32_t index, const Entry& e, NodeTable& nodes) {
    SiftUp(index, e, nodes);
  }
  // Removes and returns the first entry; the caller sets its node's
  // heap_index.
  Entry Pop(NodeTable& nodes) {
    const Entry top = heap_[0];
    const Entry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) SiftDown(0, last, nodes);
    return top;
  }

  size_t MemoryUsage() const { return heap_.capacity() * sizeof(Entry); }

 private:
  static bool Before(const Entry& a, const Entry& b) { return OpenFirst(a, b); }
  // Places `e` at `hole` or above, moving parents down.
  void SiftUp(uint32_t hole, const Entry& e, NodeTable& nodes) {
    while (hole > 0) {
      const uint32_t parent = (hole - 1) >> 1;
      if (!Before(e, heap_[parent])) break;
      heap_[hole] = heap_[parent];
      nodes.Node(heap_[hole].id).heap_index = hole;
      hole = parent;
    }
    heap_[hole] = e;
    nodes.Node(e.id).heap_index = hole;
  }
  // Places `e` at `hole` or below, moving children up.
  void SiftDown(uint32_t hole, const Entry& e, NodeTable& nodes) {
    const size_t n = heap_.size();
    while (true) {
      size_t child = 2 * size_t{hole} + 1;
      if (child >= n) break;
      if (child + 1 < n && Before(heap_[child + 1], heap_[child])) ++child;
      if (!Before(heap_[child], e)) break;
      heap_[hole] = heap_[child];
      nodes.Node(heap_[hole].id).heap_index = hole;
      hole = static_cast<uint32_t>(child);
    }
    heap_[hole] = e;
    nodes.Node(e.id).heap_index = hole;
  }

  std::vector<Entry> heap_;
};

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_OPEN_LIST_H_
