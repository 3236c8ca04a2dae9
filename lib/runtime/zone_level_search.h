// ZoneLevelSearch: Dijkstra on level j-1 inside one level-j zone, on dense
// zone-local state: how an endpoint is connected upward (connector.h).
//
// A level-j zone covers group x group level-(j-1) zones, and the level-(j-1)
// nodes of each of those zones have consecutive ids. So a node's local index
// (and whether it lies in the zone at all) is found among those few id
// ranges, with no hash table and no look-up of the node's cell per edge;
// state is a flat array over the zone's nodes (a few hundred), reset in
// O(zone nodes) per search, never O(world), and kept between searches so a
// warm planner allocates nothing.
//
//   ZoneLevelSearch search(max_nodes);
//   RETURN_IF_ERROR(search.Begin(graph, /*j=*/2, p));
//   search.Seed(lower_id, cost);           // level-1 links of p
//   search.MarkTarget(lower_of_level2);    // each level-2 node of the zone
//   search.Run(graph, &stats, on_expand);
//   double g = search.G(lower_of_level2);  // +inf if not reached
#ifndef ZONEPATH_RUNTIME_ZONE_LEVEL_SEARCH_H_
#define ZONEPATH_RUNTIME_ZONE_LEVEL_SEARCH_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "best_first.h"
#include "level_graph.h"
#include "zonepath/search/search_stats.h"

namespace zonepath::runtime_internal {

class ZoneLevelSearch {
 public:
  // max_nodes: the most level-(j-1) nodes a zone may hold (Begin fails with
  // ResourceExhausted beyond), as PlannerOptions::max_nodes.
  explicit ZoneLevelSearch(uint32_t max_nodes) : max_nodes_(max_nodes) {}

  // A new search over the level-(j-1) nodes of p's level-j zone (j >= 2).
  absl::Status Begin(const LevelGraph& graph, int j, Point p);
  // Level-(j-1) node `lower` as a source at cost g (the cheaper of two
  // seeds); ignored outside the zone.
  void Seed(uint32_t lower, double g);
  // The search stops once every marked node is settled; false if `lower` is
  // outside the zone.
  bool MarkTarget(uint32_t lower);
  // Settles nodes in cost order until all targets are settled or nothing is
  // left; on_expand(level-(j-1) id) for each (may be empty).
  void Run(const LevelGraph& graph, SearchStats* stats,
           const std::function<void(uint32_t)>& on_expand);
  // Cost from the seeds to `lower` inside the zone (+inf: not reached or
  // outside).
  double G(uint32_t lower) const;

  size_t MemoryUsage() const;

 private:
  // Local index of level-(j-1) node id `v`, or kOutside.
  static constexpr uint32_t kOutside = 0xffffffffu;
  uint32_t Local(uint32_t v) const;

  struct Range {
    uint32_t begin, end;  // node ids [begin, end)
    uint32_t local;       // local index of `begin`
  };
  struct Entry {
    double g;
    uint32_t local;
  };
  uint32_t max_nodes_;
  int below_ = 1;              // j - 1
  std::vector<Range> ranges_;  // sorted by begin
  std::vector<double> g_;
  std::vector<uint32_t> id_;  // local -> level-(j-1) id
  static constexpr uint8_t kSettled = 1, kTarget = 2, kViaIntra = 4;
  std::vector<uint8_t> state_;  // kSettled | kTarget | kViaIntra
  std::vector<Entry> open_;
  int targets_ = 0;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_ZONE_LEVEL_SEARCH_H_
