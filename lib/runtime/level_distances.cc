#include "level_distances.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
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

void TableWalk::Begin(const LevelGraph& graph, int k,
                      const LevelDistances& table, uint32_t from,
                      uint32_t target, SearchStats* stats, int64_t* path_nodes,
                      const std::function<void(Point)>* trace) {
  graph_ = &graph;
  k_ = k;
  row_ = table.Row(target);
  table_nodes_ = table.nodes();
  from_ = at_ = from;
  target_ = target;
  steps_ = 0;
  stats_ = stats;
  path_nodes_ = path_nodes;
  trace_ = trace;
  Visit(from);
}

void TableWalk::Visit(uint32_t node) {
  // The path's nodes count as expanded, as the search's would.
  ++stats_->expanded;
  ++*path_nodes_;
  if (trace_ != nullptr && *trace_) (*trace_)(graph_->NodeCell(k_, node));
}

absl::Status TableWalk::Step(std::vector<uint32_t>* nodes) {
  const auto astray = [&](const char* why) {
    return absl::DataLossError(
        absl::StrCat("the walk over level ", k_, "'s distance table from node ",
                     from_, " to node ", target_, " ", why,
                     ": the level's edge costs are out of the table's range"));
  };
  if (++steps_ > table_nodes_) return astray("did not end");
  uint32_t next = at_;
  double next_left = std::numeric_limits<double>::infinity();
  int64_t generated = 0;
  graph_->ForEachEdge(k_, at_, [&](uint32_t v, float c, bool /*intra*/) {
    ++generated;
    if (v >= table_nodes_) return;
    const double left = c + double{row_[v]};
    if (left < next_left) {
      next_left = left;
      next = v;
    }
  });
  stats_->generated += generated;
  if (next == at_) return astray("found no edge on");
  at_ = next;
  nodes->push_back(next);
  Visit(next);
  return absl::OkStatus();
}

}  // namespace zonepath::runtime_internal
