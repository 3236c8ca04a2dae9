#include "level_distances.h"

#include <algorithm>
#include <utility>

#include "level_dijkstra.h"

namespace zonepath::runtime_internal {

std::shared_ptr<const LevelDistances> LevelDistances::Build(
    const LevelGraph& graph, int k, uint32_t max_nodes) {
  const SharedLevel& level = graph.level(k);
  const size_t nodes = level.node_beacon.size();
  if (nodes == 0 || nodes > std::min(max_nodes, kMaxNodes) ||
      static_cast<double>(nodes) * static_cast<double>(level.live_edges) >
          kMaxWork) {
    return nullptr;
  }
  auto table = std::make_shared<LevelDistances>();
  const uint32_t n = static_cast<uint32_t>(nodes);
  table->nodes_ = n;
  table->dist_.resize(nodes * nodes);
  std::vector<double> row(nodes);
  LevelDijkstraScratch scratch;
  scratch.Prepare(graph, k, n, /*reversed=*/true);  // rows: distances to
  for (uint32_t to = 0; to < n; ++to) {
    LevelDijkstra(to, /*stride=*/1, /*column=*/0, &row, &scratch);
    std::copy(row.begin(), row.end(), table->dist_.begin() + size_t{to} * n);
  }
  return table;
}

}  // namespace zonepath::runtime_internal
