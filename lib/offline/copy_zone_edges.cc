// Incremental builds: a zone that did not change keeps its intra-zone edges
// (and cached paths), renumbered into the new level's node ids.
#include "build_internal.h"

namespace zonepath::offline_internal {

void CopyZoneEdges(const LevelReuse& reuse, uint32_t z, uint32_t begin,
                   std::vector<PendingEdge>* out,
                   std::vector<std::vector<uint32_t>>* paths) {
  const AbstractLevel& old = *reuse.old;
  const uint32_t old_begin = old.zone_node_begin[z];
  const uint32_t old_end = old.zone_node_begin[z + 1];
  for (uint32_t u = old_begin; u < old_end; ++u) {
    for (uint32_t e = old.edge_begin[u]; e < old.edge_begin[u + 1]; ++e) {
      const AbstractEdge& edge = old.edges[e];
      if (edge.inter_zone) continue;
      PendingEdge copy{begin + (u - old_begin),
                       {begin + (edge.target - old_begin), 0, edge.cost}};
      if (reuse.old_paths != nullptr) {
        const CachedPaths& cached = *reuse.old_paths;
        copy.path = static_cast<uint32_t>(paths->size());
        paths->emplace_back(
            cached.path_runs.begin() + cached.path_begin[e],
            cached.path_runs.begin() + cached.path_begin[e + 1]);
      }
      out->push_back(copy);
    }
  }
}

}  // namespace zonepath::offline_internal
