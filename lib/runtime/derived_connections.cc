#include "derived_connections.h"

#include <limits>
#include <utility>

#include "zone_level_search.h"
#include "zonepath/world/shared_abstraction.h"

namespace zonepath::runtime_internal {
namespace {

// Fills level j's blocks (laid out by zone_begin) with one Dijkstra per
// row, from the row's node, over the zone's members (all of them targets:
// it settles the whole zone). False if a node has no node below or a zone
// does not nest on the level below (a world whose levels disagree).
bool FillLevel(const LevelGraph& graph, int j,
               const std::vector<uint64_t>& zone_begin,
               std::vector<float>* values) {
  const SharedLevel& level = graph.level(j);
  const int32_t width = graph.grid().width();
  const int32_t height = graph.grid().height();
  ZoneLevelSearch search(std::numeric_limits<uint32_t>::max());
  SearchStats unused;
  std::vector<uint32_t> members;
  for (uint32_t z = 0; z < level.zone_count(); ++z) {
    const uint32_t first = level.zone_node_begin[z];
    const uint32_t rows = level.zone_node_end[z] - first;
    if (rows == 0) continue;
    members.clear();
    ForEachZoneMemberRange(graph.abstraction(), j, z, width, height,
                           [&](uint32_t begin, uint32_t end) {
                             for (uint32_t v = begin; v < end; ++v) {
                               members.push_back(v);
                             }
                           });
    const Rect rect = level.ZoneRect(ZoneId(z), width, height);
    float* block = values->data() + zone_begin[z];
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t source = graph.LowerId(j, first + r);
      if (source == NodeStateMap::kNone ||
          !search.Begin(graph, j, Point{rect.x0, rect.y0}).ok()) {
        return false;
      }
      for (uint32_t v : members) search.MarkTarget(v);
      search.Seed(source, 0.0);
      search.Run(graph, &unused, nullptr);
      float* row = block + uint64_t{r} * members.size();
      for (size_t c = 0; c < members.size(); ++c) {
        row[c] = static_cast<float>(search.G(members[c]));
      }
    }
  }
  return true;
}

}  // namespace

std::shared_ptr<const DerivedConnections> DerivedConnections::Build(
    const LevelGraph& graph, uint64_t max_bytes) {
  const ConnectionTables* file_tables = graph.connection_tables();
  const int32_t width = graph.grid().width();
  const int32_t height = graph.grid().height();
  auto derived = std::make_shared<DerivedConnections>();
  uint64_t bytes = 0;
  double work = 0;  // rows x (member edges + members), all levels
  bool any = false;
  for (int j = 2; j <= std::min(graph.levels(), ConnectionTables::kMaxLevel);
       ++j) {
    if (file_tables != nullptr && file_tables->has_level(j)) continue;
    const SharedLevel& level = graph.level(j);
    const SharedLevel& below = graph.level(j - 1);
    // Sizes first: nothing is allocated for a level that does not fit.
    const uint32_t zones = level.zone_count();
    std::vector<uint64_t> zone_begin(uint64_t{zones} + 1, 0);
    const uint64_t max_values = (max_bytes - bytes) / sizeof(float);
    bool fits = true;
    for (uint32_t z = 0; z < zones && fits; ++z) {
      const uint64_t rows = level.zone_node_end[z] - level.zone_node_begin[z];
      uint64_t edges = 0;
      const uint64_t cols = ForEachZoneMemberRange(
          graph.abstraction(), j, z, width, height,
          [&](uint32_t begin, uint32_t end) {
            for (uint32_t v = begin; v < end; ++v) {
              edges += below.edge_end[v] - below.edge_begin[v];
            }
          });
      // (rows, cols < 2^32: no product wraps, and no sum past max_values.)
      fits = rows * cols <= max_values - zone_begin[z];
      zone_begin[z + 1] = fits ? zone_begin[z] + rows * cols : max_values;
      work += static_cast<double>(rows) * static_cast<double>(edges + cols);
    }
    if (!fits || work > kMaxWork) break;
    bytes += zone_begin.back() * sizeof(float);
    Level& out = derived->levels_[j];
    out.values.assign(zone_begin.back(),
                      std::numeric_limits<float>::infinity());
    if (!FillLevel(graph, j, zone_begin, &out.values)) {
      // Levels that disagree: this level's endpoints connect by search,
      // which reports it.
      out.values = {};
      break;
    }
    out.zone_begin = std::move(zone_begin);
    any = true;
  }
  return any ? derived : nullptr;
}

bool ZoneRow::Set(const LevelGraph& graph, int j, uint32_t z, uint32_t t,
                  absl::Span<const float> block) {
  row_ = {};
  ranges_.clear();
  if (block.empty()) return true;
  const SharedLevel& level = graph.level(j);
  const uint32_t first = level.zone_node_begin[z];
  const uint64_t rows = level.zone_node_end[z] - first;
  uint64_t columns = 0;
  ForEachZoneMemberRange(
      graph.abstraction(), j, z, graph.grid().width(), graph.grid().height(),
      [&](uint32_t begin, uint32_t end) {
        if (!ranges_.empty() && ranges_.back().end == begin) {
          ranges_.back().end = end;
        } else {
          ranges_.push_back({begin, end, static_cast<uint32_t>(columns)});
        }
        columns += end - begin;
      });
  if (t < first || t - first >= rows || rows * columns != block.size()) {
    ranges_.clear();
    return false;
  }
  row_ = block.subspan((t - first) * columns, columns);
  return true;
}

size_t DerivedConnections::MemoryUsage() const {
  size_t bytes = sizeof(*this);
  for (const Level& l : levels_) {
    bytes += l.zone_begin.capacity() * sizeof(uint64_t) +
             l.values.capacity() * sizeof(float);
  }
  return bytes;
}

}  // namespace zonepath::runtime_internal
