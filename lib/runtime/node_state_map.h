// NodeStateMap: best-first search state over abstract node ids, sized by the
// nodes a search touches rather than by the level's node count.
//
// A 32768^2 world has millions of level-1 nodes; a query touches a few
// thousand. Per-node arrays would cost each planner O(world) memory, so the
// state lives in records created on first touch and found through an
// open-addressed table of (node, stamp, record) slots. NewSearch() bumps the
// stamp (O(1), no clearing). The table and the record vector grow while a
// planner warms up and keep their capacity, so warm searches allocate
// nothing. At most `max_nodes` records exist per search: Touch() returns
// kNone past that and the search reports ResourceExhausted
// (Detour's dtNavMeshQuery::init(nav, maxNodes) in spirit).
//
//   NodeStateMap state(/*max_nodes=*/1 << 16);
//   state.NewSearch();
//   uint32_t r = state.Touch(node);          // kNone when full
//   if (r != NodeStateMap::kNone) state[r].g = 0;
#ifndef ZONEPATH_RUNTIME_NODE_STATE_MAP_H_
#define ZONEPATH_RUNTIME_NODE_STATE_MAP_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/base/attributes.h"

namespace zonepath::runtime_internal {

class NodeStateMap {
 public:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

  struct Record {
    double g;
    uint32_t node;
    uint32_t parent;  // record index, kNone for a search's source
    uint8_t closed;
    uint8_t target;  // caller's mark (e.g. "stop once all are settled")
    // g came over an intra-zone edge (best_first.h: such a node need not
    // relax its own intra-zone edges).
    uint8_t via_intra;
  };

  // max_nodes: records per search, 16..2^30.
  explicit NodeStateMap(uint32_t max_nodes)
      : max_nodes_(max_nodes < 16 ? 16 : max_nodes) {}

  void NewSearch() {
    records_.clear();
    if (++stamp_ == 0) {
      for (Slot& s : slots_) s.stamp = 0;
      stamp_ = 1;
    }
  }

  // Record index of `node` in this search (g = +inf when new); kNone if the
  // search already holds max_nodes records. Runs for every edge a search
  // relaxes: kept inline (GCC left it out of line), it saves ~5 % of an
  // unsmoothed query's instructions; Grow, the cold part, stays out.
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint32_t Touch(uint32_t node) {
    if (2 * (records_.size() + 1) > slots_.size()) {
      if (records_.size() >= max_nodes_) return Find(node);
      Grow();
    }
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(node) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.stamp != stamp_) {
        if (records_.size() >= max_nodes_) return kNone;
        s = {node, stamp_, static_cast<uint32_t>(records_.size())};
        records_.push_back(
            {std::numeric_limits<double>::infinity(), node, kNone, 0, 0, 0});
        return s.index;
      }
      if (s.node == node) return s.index;
    }
  }

  // Record index of `node`, or kNone if this search has not touched it.
  uint32_t Find(uint32_t node) const {
    if (slots_.empty()) return kNone;
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(node) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.stamp != stamp_) return kNone;
      if (s.node == node) return s.index;
    }
  }

  // g of `node` in this search (+inf if untouched).
  double G(uint32_t node) const {
    const uint32_t r = Find(node);
    return r == kNone ? std::numeric_limits<double>::infinity() : records_[r].g;
  }

  Record& operator[](uint32_t index) { return records_[index]; }
  const Record& operator[](uint32_t index) const { return records_[index]; }
  size_t size() const { return records_.size(); }
  uint32_t max_nodes() const { return max_nodes_; }
  size_t MemoryUsage() const {
    return slots_.capacity() * sizeof(Slot) +
           records_.capacity() * sizeof(Record);
  }

 private:
  struct Slot {
    uint32_t node;
    uint32_t stamp;
    uint32_t index;
  };
  static size_t Hash(uint32_t node) {
    return static_cast<size_t>((node * 0x9E3779B1u) ^ (node >> 15));
  }
  // Doubles the table (at least 64 slots) and re-inserts this search's
  // records; runs only while warming up.
  ABSL_ATTRIBUTE_NOINLINE void Grow() {
    const size_t size = slots_.empty() ? 64 : 2 * slots_.size();
    slots_.assign(size, Slot{0, 0, 0});
    if (stamp_ == 0) stamp_ = 1;
    const size_t mask = size - 1;
    for (uint32_t r = 0; r < records_.size(); ++r) {
      size_t i = Hash(records_[r].node) & mask;
      while (slots_[i].stamp == stamp_) i = (i + 1) & mask;
      slots_[i] = {records_[r].node, stamp_, r};
    }
  }

  uint32_t max_nodes_;
  std::vector<Slot> slots_;
  std::vector<Record> records_;
  uint32_t stamp_ = 1;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_NODE_STATE_MAP_H_
