#include "connector.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "zonepath/search/one_turn_path.h"

namespace zonepath::runtime_internal {

EndpointConnector::EndpointConnector(const LevelGraph& graph, GridAStar* astar,
                                     uint32_t max_nodes)
    : graph_(graph),
      blocks_{graph.connection_tables(), nullptr},
      astar_(astar),
      cells_(graph.ZoneSide(1)),
      ways_(graph.grid(), graph.connectivity()),
      search_(max_nodes) {
  zone_cells_.reserve(64);
  zone_costs_.reserve(64);
  pending_.reserve(64);
  pending_cells_.reserve(64);
  pending_costs_.reserve(64);
}

absl::Status EndpointConnector::Connect(Point p, int top, SearchStats* stats) {
  const absl::Time begin = absl::Now();
  // The walks below trust p (a blocked p would walk at a wrong cost); the
  // planner checks endpoints first, so this never fires there.
  if (!graph_.grid().PassableOrFalse(p)) {
    return absl::InvalidArgumentError(
        absl::StrCat("connect: ", PointString(p), " is not a passable cell"));
  }
  at_ = p;
  connected_ = 0;
  by_ways_ = searched_ = false;
  for (auto& l : links_) l.clear();
  // Level 1: the grid inside p's level-1 zone.
  const SharedLevel& one = graph_.level(1);
  const ZoneId z1 = one.ZoneOf(p);
  zone_cells_.clear();
  for (uint32_t v = one.zone_node_begin[z1.value()];
       v < one.zone_node_end[z1.value()]; ++v) {
    zone_cells_.push_back(graph_.NodeCell(1, v));
  }
  const Rect zone_rect = graph_.ZoneRect(1, p);
  by_jumps_ = GridAStar::JumpDistancesApply(graph_.grid(),
                                            graph_.connectivity(), zone_rect);
  SearchStats cells;
  if (by_jumps_) {
    // On a grid of one cost every way of one turn costs the octile
    // distance, which no way undercuts, and stays in the rectangle of its
    // ends (so in the zone): a node whose way of one turn is legal needs
    // no search. Its link gets the octile distance summed as the search
    // sums it, so the links, and the ties between them, are the search's.
    // The ways are read from the grid's open bits where it has them (a
    // few words a way, the endpoint's diagonal rays walked once): then
    // every node is tried. Without the bits (grids of over 2^22 cells)
    // walking stops at the first blocked way: the search must run then,
    // and on zones of 128 cells a side walking every node cell by cell
    // cost more than the targets it spared the search (README). The
    // search takes the nodes left (less those beyond a wall,
    // DropOtherComponents) and stops once they are settled.
    const uint8_t cost = graph_.grid().min_cost();
    zone_costs_.resize(zone_cells_.size());
    pending_.clear();
    const bool walk_all = astar_->grid_bits() != nullptr;
    ways_.Reset(p, astar_->grid_bits(), astar_->cell_tiles());
    uint32_t walked = NodeStateMap::kNone;  // a node a way reached
    for (uint32_t i = 0; i < zone_cells_.size(); ++i) {
      const double octile = GridAStar::OctileDistance(p, zone_cells_[i], cost);
      const bool walk = (walk_all || pending_.empty()) &&
                        ways_.To(zone_cells_[i], std::nullopt).has_value();
      if (walk) {
        zone_costs_[i] = octile;
        walked = i;
      } else {
        pending_.push_back(i);
      }
    }
    DropOtherComponents(z1, walked);
    if (!pending_.empty()) {
      pending_costs_.resize(pending_.size());
      if (absl::Status s = astar_->JumpDistances(
              p, pending_cells_, zone_rect, absl::MakeSpan(pending_costs_));
          !s.ok()) {
        return s;
      }
      for (size_t k = 0; k < pending_.size(); ++k) {
        zone_costs_[pending_[k]] = pending_costs_[k];
      }
      cells = astar_->stats();
    }
  } else {
    // Where jump points do not apply (weighted grids, 4-connected moves,
    // zones over 256 cells a side): in a zone whose open cells all cost the
    // same (57 % of terrain 1024²'s zones), every way costs at least
    // that cost times the octile distance, which a legal way of one turn
    // costs: such nodes need no search, and the Dijkstra runs only for the
    // nodes left, stopping once they are settled (README, "Weighted
    // windows by A*").
    by_ways_ = ZoneHasOneCost(zone_rect);
    pending_.clear();
    if (by_ways_) {
      zone_costs_.resize(zone_cells_.size());
      uint32_t walked = NodeStateMap::kNone;
      for (uint32_t i = 0; i < zone_cells_.size(); ++i) {
        const std::optional<OneTurnWay> way = FindOneTurnWay(
            graph_.grid(), graph_.connectivity(), p, zone_cells_[i], kInf);
        if (way.has_value()) {
          zone_costs_[i] = way->cost;
          walked = i;
        } else {
          pending_.push_back(i);
        }
      }
      DropOtherComponents(z1, walked);
    }
    searched_ = !by_ways_ || !pending_.empty();
    if (searched_) {
      cells_.Run(graph_.grid(), p, zone_rect, graph_.connectivity(),
                 by_ways_ ? pending_cells_ : zone_cells_);
      cells = cells_.stats();
      for (uint32_t i : pending_) {
        zone_costs_[i] = cells_.Distance(zone_cells_[i]);
      }
    }
  }
  // Its counts; its time is part of this call's, added below.
  cells.time = absl::ZeroDuration();
  *stats += cells;
  for (uint32_t i = 0; i < zone_cells_.size(); ++i) {
    const double d = by_jumps_ || by_ways_ ? zone_costs_[i]
                                           : cells_.Distance(zone_cells_[i]);
    if (d < kInf) links_[1].push_back({one.zone_node_begin[z1.value()] + i, d});
  }
  if (links_[1].empty()) {
    stats->time += absl::Now() - begin;
    return absl::OkStatus();
  }
  connected_ = 1;
  // Level j: level j-1 inside p's level-j zone, from the level-(j-1) links
  // (by the zone's connection table when it has one, else by a search).
  for (int j = 2; j <= top; ++j) {
    const ZoneId zone = graph_.ZoneOf(j, p);
    const absl::Span<const float> block = blocks_.Block(j, zone.value());
    if (absl::Status s = !block.empty()
                             ? ConnectFromTable(j, zone, block, stats)
                             : ConnectBySearch(j, p, zone, stats);
        !s.ok()) {
      return s;
    }
    if (links_[j].empty()) break;
    connected_ = j;
  }
  stats->time += absl::Now() - begin;
  return absl::OkStatus();
}

void EndpointConnector::DropOtherComponents(ZoneId z1, uint32_t walked) {
  // p reaches the walked node inside the zone, so it reaches exactly the
  // nodes of that node's zone-local component (labelled from the
  // intra-zone edges, checked against them on load): the others get no
  // link, and the search does not look for them. It would otherwise
  // settle all of p's side of the zone before giving up on them (on
  // Cauldron 145 of 239 searches had such a node).
  const SharedLevel& one = graph_.level(1);
  const uint32_t first = one.zone_node_begin[z1.value()];
  const bool any = walked != NodeStateMap::kNone;
  const uint32_t component = any ? one.node_component[first + walked] : 0;
  pending_cells_.clear();
  size_t kept = 0;
  for (uint32_t i : pending_) {
    if (!any || one.node_component[first + i] == component) {
      pending_[kept++] = i;
      pending_cells_.push_back(zone_cells_[i]);
    } else {
      zone_costs_[i] = kInf;
    }
  }
  pending_.resize(kept);
}

absl::Status EndpointConnector::ZoneLowers(int j, ZoneId zone) {
  const SharedLevel& level = graph_.level(j);
  lowers_.clear();
  for (uint32_t v = level.zone_node_begin[zone.value()];
       v < level.zone_node_end[zone.value()]; ++v) {
    const uint32_t lower = graph_.LowerId(j, v);
    if (lower == NodeStateMap::kNone) return LevelsDisagree(j, v);
    lowers_.push_back(lower);
  }
  return absl::OkStatus();
}

absl::Status EndpointConnector::LevelsDisagree(int j, uint32_t v) {
  return absl::DataLossError(
      absl::StrCat("level-", j, " node ", v, " has no node on level ", j - 1,
                   " in its zone: the world's levels disagree"));
}

absl::Status EndpointConnector::ConnectBySearch(int j, Point p, ZoneId zone,
                                                SearchStats* stats) {
  if (absl::Status s = ZoneLowers(j, zone); !s.ok()) return s;
  if (absl::Status s = search_.Begin(graph_, j, p); !s.ok()) return s;
  for (const Link& l : links_[j - 1]) search_.Seed(l.node, l.cost);
  // Each level-j node of the zone, by its level-(j-1) id: the targets.
  const uint32_t first = graph_.level(j).zone_node_begin[zone.value()];
  for (uint32_t i = 0; i < lowers_.size(); ++i) {
    if (!search_.MarkTarget(lowers_[i])) return LevelsDisagree(j, first + i);
  }
  if (lowers_.empty()) return absl::OkStatus();
  search_.Run(graph_, stats,
              on_node_ ? std::function<void(uint32_t)>([&](uint32_t u) {
                on_node_(graph_.NodeCell(j - 1, u));
              })
                       : nullptr);
  for (uint32_t i = 0; i < lowers_.size(); ++i) {
    const double g = search_.G(lowers_[i]);
    if (g < kInf) links_[j].push_back({first + i, g});
  }
  return absl::OkStatus();
}

absl::Status EndpointConnector::ConnectFromTable(int j, ZoneId zone,
                                                 absl::Span<const float> block,
                                                 SearchStats* stats) {
  const SharedLevel& level = graph_.level(j);
  const uint32_t first = level.zone_node_begin[zone.value()];
  const uint32_t rows = level.zone_node_end[zone.value()] - first;
  if (rows == 0) return absl::OkStatus();
  const uint64_t cols = block.size() / rows;
  // Each level-(j-1) link's column: its zone's place among the zone's
  // members (ConnectionTables' column order), in one pass over them.
  const std::vector<Link>& below = links_[j - 1];
  columns_.assign(below.size(), {~uint64_t{0}, 0.0});
  uint64_t base = 0;
  ForEachZoneMemberRange(
      graph_.abstraction(), j, zone.value(), graph_.grid().width(),
      graph_.grid().height(), [&](uint32_t begin, uint32_t end) {
        for (size_t i = 0; i < below.size(); ++i) {
          if (below[i].node >= begin && below[i].node < end) {
            columns_[i] = {base + (below[i].node - begin), below[i].cost};
          }
        }
        base += end - begin;
      });
  for (size_t i = 0; i < below.size(); ++i) {
    if (columns_[i].first >= cols) {
      return absl::DataLossError(absl::StrCat(
          "level-", j - 1, " node ", below[i].node, " is not in its level-", j,
          " zone ", zone.value(), ": the world's levels disagree"));
    }
  }
  for (uint32_t r = 0; r < rows; ++r) {
    const float* row = block.data() + uint64_t{r} * cols;
    double g = kInf;
    for (const auto& [column, cost] : columns_) {
      g = std::min(g, cost + static_cast<double>(row[column]));
    }
    if (g < kInf) links_[j].push_back({first + r, g});
  }
  stats->generated += static_cast<int64_t>(rows);
  return absl::OkStatus();
}

bool EndpointConnector::ZoneHasOneCost(const Rect& zone) const {
  // The least and the dearest open cost, blocked (0) wrapping to 255 in
  // the first and staying 0 in the second: no branch, so it vectorises.
  uint8_t least_less_one = 255, most = 0;
  for (int32_t y = zone.y0; y < zone.y1; ++y) {
    graph_.grid().ForEachCostSpanInRow(
        y, zone.x0, zone.x1, [&](const uint8_t* data, size_t n) {
          for (size_t k = 0; k < n; ++k) {
            least_less_one = std::min<uint8_t>(
                least_less_one, static_cast<uint8_t>(data[k] - 1));
            most = std::max(most, data[k]);
          }
        });
  }
  return most != 0 && least_less_one + 1 == most;
}

double EndpointConnector::LinkCost(int j, uint32_t v) const {
  for (const Link& l : links_[j]) {
    if (l.node == v) return l.cost;
  }
  return kInf;
}

absl::Status EndpointConnector::AppendCells(uint32_t v, RunLengthPath* path,
                                            SearchStats* stats) {
  const Point node = graph_.NodeCell(1, v);
  if (!by_jumps_ && !by_ways_) {
    cells_.AppendPath(node, path);
    return absl::OkStatus();
  }
  // A way of one turn no costlier than the link is a least-cost one (the
  // link's cost is the least inside the zone; the way stays in the
  // rectangle of the two cells, so in the zone).
  const double link = LinkCost(1, v);
  if (link < kInf) {
    if (const std::optional<double> cost = AppendOneTurnPath(
            graph_.grid(), graph_.connectivity(), at_, node, link, path)) {
      path->AddCost(*cost);
      return absl::OkStatus();
    }
    // A weighted zone's node without such a way: the Dijkstra settled it.
    if (by_ways_ && searched_ && cells_.Distance(node) <= link) {
      cells_.AppendPath(node, path);
      return absl::OkStatus();
    }
  }
  AStarOptions options;
  options.bounds = graph_.ZoneRect(1, at_);
  options.jump_points = true;
  absl::StatusOr<SearchOutcome> found =
      astar_->FindPath(at_, node, options, &way_);
  if (stats != nullptr) *stats += astar_->stats();
  if (!found.ok() || *found != SearchOutcome::kFound) {
    return absl::DataLossError(absl::StrCat(
        "no way from ", PointString(at_), " to its zone's node at ",
        PointString(node), " inside the zone although one was connected",
        found.ok() ? "" : ": ", found.ok() ? "" : found.status().message()));
  }
  for (const Run& run : way_.runs()) path->Append(run.direction, run.count);
  path->AddCost(way_.cost());
  return absl::OkStatus();
}

void EndpointConnector::set_trace(std::vector<Point>* cells,
                                  std::function<void(Point)> on_node) {
  cells_.set_trace(cells);
  on_node_ = std::move(on_node);
}

size_t EndpointConnector::MemoryUsage() const {
  size_t bytes = sizeof(*this) + cells_.MemoryUsage() +
                 zone_cells_.capacity() * sizeof(Point) +
                 lowers_.capacity() * sizeof(uint32_t) +
                 columns_.capacity() * sizeof(columns_[0]) +
                 zone_costs_.capacity() * sizeof(double) + way_.MemoryUsage() +
                 pending_.capacity() * sizeof(uint32_t) +
                 pending_cells_.capacity() * sizeof(Point) +
                 pending_costs_.capacity() * sizeof(double);
  bytes += search_.MemoryUsage();
  for (const auto& l : links_) bytes += l.capacity() * sizeof(Link);
  return bytes;
}

}  // namespace zonepath::runtime_internal
