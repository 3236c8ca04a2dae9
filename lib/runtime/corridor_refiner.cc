#include "corridor_refiner.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "zonepath/grid/moves.h"
#include "zonepath/search/one_turn_path.h"

namespace zonepath::runtime_internal {
namespace {

Rect Union(const Rect& a, const Rect& b) {
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1),
          std::max(a.y1, b.y1)};
}

// A world with connection tables may also have planned through a table
// entry that its graph does not bear out (a crafted or damaged file whose
// values passed the loader's checks): the message names both suspects.
absl::Status NoWay(const LevelGraph& graph, int j, Point from, Point to) {
  return absl::DataLossError(absl::StrCat(
      "refining level ", j, ": no way from ", PointString(from), " to ",
      PointString(to), " inside their zones (the world's abstraction",
      graph.connection_tables() != nullptr
          ? " or its connection tables do not match its grid)"
          : " does not match its grid)"));
}

}  // namespace

CorridorRefiner::CorridorRefiner(const LevelGraph& graph, GridAStar* astar,
                                 uint32_t max_nodes)
    : graph_(graph),
      astar_(astar),
      one_cost_(graph.grid().OneCost()),
      // Where jump points run (8-connected, one cost) as many zones as fit
      // GridAStar's local table in a row; A* windows (weighted or
      // 4-connected grids) stay at two zones: wider ones cost more than they
      // give (docs/measurements_history.md, "Wide free crossings").
      cell_window_zones_(one_cost_ &&
                                 graph.connectivity() == Connectivity::kEight
                             ? std::clamp(GridAStar::kLocalSide /
                                              std::max(1, graph.ZoneSide(1)),
                                          2, kMaxCellWindowZones)
                             : 2),
      state_(max_nodes),
      ways_(graph.grid(), graph.connectivity()) {
  blocks_.file = graph.connection_tables();
  // A zone's members are at most group^2 zones of the level below, so its
  // row needs at most that many id ranges (changed worlds split them):
  // no allocation after the planner is made.
  const int group = graph.abstraction().params.group;
  target_row_.ReserveRanges(static_cast<size_t>(group) * group);
  levels_.resize(kMaxLevels + 1);
}

void CorridorRefiner::Start(int k, Point start, Point goal,
                            EndpointConnector* starts, EndpointConnector* goals,
                            absl::Span<const uint32_t> top_nodes,
                            bool fewer_turns, bool free_crossings,
                            const LandmarkTables& landmarks,
                            TableWalk* top_walk) {
  free_crossings_ = free_crossings;
  landmarks_ = landmarks;
  top_ = k;
  start_ = start;
  goal_ = goal;
  starts_ = starts;
  goals_ = goals;
  fewer_turns_ = fewer_turns;
  for (int j = 1; j <= k; ++j) {
    LevelPath& l = levels_[j];
    l.items.clear();
    l.items.push_back(kStart);
    l.head = 0;
    l.complete = false;
    l.at = kStart;
    l.rest.clear();
    l.rest_target = 0;
  }
  LevelPath& top = levels_[k];
  top.items.insert(top.items.end(), top_nodes.begin(), top_nodes.end());
  top_walk_ =
      k >= 2 && top_walk != nullptr && !top_walk->done() ? top_walk : nullptr;
  if (top_walk_ == nullptr) {
    top.items.push_back(kGoal);
    top.complete = true;
  }
  cell_at_ = start;
  cell_rest_.Reset(start);
  done_ = false;
}

Point CorridorRefiner::ItemCell(int j, uint32_t item) const {
  if (item == kStart) return start_;
  if (item == kGoal) return goal_;
  return graph_.NodeCell(j, item);
}

CorridorRefiner::Window CorridorRefiner::WindowOf(int j) const {
  const LevelPath& l = levels_[j];
  Window w;
  const size_t n = l.items.size();
  if (l.head >= n) return w;
  auto zone = [&](size_t i) {
    return graph_.ZoneOf(j, ItemCell(j, l.items[i]));
  };
  const ZoneId here = zone(l.head);
  const Rect here_rect = graph_.ZoneRect(j, ItemCell(j, l.items[l.head]));
  size_t next = l.head + 1;
  while (next < n && zone(next) == here) ++next;
  if (next == n) {  // the rest of the path stays in this zone
    if (!l.complete) return w;
    w.ready = w.final = true;
    w.next_run = w.target = n - 1;
    w.next_zone = here;
    w.rect = here_rect;
    return w;
  }
  w.next_zone = zone(next);
  size_t after = next + 1;
  while (after < n && zone(after) == w.next_zone) ++after;
  if (after == n && !l.complete) return w;
  w.rect = Union(here_rect, graph_.ZoneRect(j, ItemCell(j, l.items[next])));
  // Free crossings: up to cell_window_zones_ runs on cells and
  // kUpperWindowZones above, each in a zone of its own; the window keeps
  // its moves up to the last run's zone.
  w.next_run = next;
  if (free_crossings_) {
    ZoneId zones[kMaxCellWindowZones] = {here, w.next_zone};
    const int max_runs = j == 1 ? cell_window_zones_ : kUpperWindowZones;
    int runs = 2;
    for (; runs < max_runs && after < n; ++runs) {
      const ZoneId z = zone(after);
      if (std::find(zones, zones + runs, z) != zones + runs) break;
      size_t end = after + 1;
      while (end < n && zone(end) == z) ++end;
      if (end == n && !l.complete) return w;  // the level above refines on
      zones[runs] = z;
      w.rect = Union(w.rect, graph_.ZoneRect(j, ItemCell(j, l.items[after])));
      w.next_zone = z;
      w.next_run = after;
      after = end;
    }
  }
  w.ready = true;
  w.target = after - 1;
  w.final = l.items[w.target] == kGoal;
  return w;
}

absl::Status CorridorRefiner::Ensure(int j, SearchStats* stats) {
  while (!WindowOf(j).ready) {
    LevelPath& l = levels_[j];
    if (j == top_ && !l.complete && top_walk_ != nullptr) {
      // The top path is walked on into the zone after next (a window
      // spans two zones and waits for the node that ends its last run),
      // then the window is looked at again.
      ZoneId zone = graph_.ZoneOf(j, ItemCell(j, l.items.back()));
      for (int entered = 0; entered < 2 && !top_walk_->done();) {
        if (absl::Status s = top_walk_->Step(&l.items); !s.ok()) return s;
        const ZoneId z = graph_.ZoneOf(j, graph_.NodeCell(j, l.items.back()));
        if (z != zone) {
          zone = z;
          ++entered;
        }
      }
      if (top_walk_->done()) {
        l.items.push_back(kGoal);
        l.complete = true;
      }
      continue;
    }
    if (j >= top_ || l.head >= l.items.size()) {
      return absl::InternalError(
          absl::StrCat("refinement ran past the path on level ", j));
    }
    if (absl::Status s = RefineWindow(j + 1, stats); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status CorridorRefiner::SearchBelow(int j, const Window& w,
                                          SearchStats* stats, bool* found) {
  // The window's last zone by its connection table when it has one; a
  // table the graph does not bear out (a damaged file) falls back to the
  // plain search, which finds the way or reports it.
  bool by_table = false;
  if (!w.final) {
    const uint32_t z = w.next_zone.value();
    by_table = target_row_.Set(graph_, j, z, levels_[j].items[w.target],
                               blocks_.Block(j, z)) &&
               !target_row_.empty();
  }
  if (by_table) {
    if (absl::Status s = SearchWindow(j, w, true, stats, found); !s.ok()) {
      return s;
    }
    // Not found (a table entry +inf where the zone has a way) or not walked
    // (entries the edges do not bear out): the plain search decides.
    if (*found && WalkTable(j - 1, w)) return absl::OkStatus();
  }
  return SearchWindow(j, w, false, stats, found);
}

bool CorridorRefiner::WalkTable(int below, const Window& w) {
  // The route ends ... u, target, where u lies in the last zone and the
  // last hop is u's table entry (a node reached over an edge of its own
  // has a parent outside the zone: nothing to walk).
  if (route_.size() < 2) return true;
  const uint32_t target = route_.back();
  uint32_t x = route_[route_.size() - 2];
  const Rect zone = graph_.level(below + 1).ZoneRect(
      w.next_zone, graph_.grid().width(), graph_.grid().height());
  if (!zone.Contains(graph_.NodeCell(below, x))) return true;
  route_.pop_back();
  // Each step takes the edge that leaves the least to go (the table's cost
  // from the target, costs taken as symmetric); the cost left falls at
  // every step, so the walk ends, at the target or where the table is
  // not borne out (false).
  for (size_t steps = 0; x != target; ++steps) {
    const uint32_t cx = target_row_.Column(x);
    if (cx == ZoneRow::kNoColumn || steps > target_row_.columns()) return false;
    uint32_t best = ZoneRow::kNoColumn;
    double best_cost = kInf;
    graph_.ForEachEdge(below, x, [&](uint32_t v, float cost, bool) {
      const uint32_t c = target_row_.Column(v);
      if (c == ZoneRow::kNoColumn) return;
      const double left = static_cast<double>(cost) + target_row_.At(c);
      if (left < best_cost) {
        best_cost = left;
        best = v;
      }
    });
    if (best == ZoneRow::kNoColumn ||
        !(target_row_.At(target_row_.Column(best)) < target_row_.At(cx))) {
      return false;
    }
    route_.push_back(best);
    x = best;
  }
  return true;
}

absl::Status CorridorRefiner::SearchWindow(int j, const Window& w,
                                           bool by_table, SearchStats* stats,
                                           bool* found) {
  const int below = j - 1;
  LevelPath& l = levels_[j];
  const uint32_t target_item = l.items[w.target];
  const Point target_cell = ItemCell(j, target_item);
  uint32_t target = kGoal;
  if (!w.final) {
    target = graph_.LowerId(j, target_item);
    if (target == NodeStateMap::kNone) {
      return absl::DataLossError(absl::StrCat(
          "level-", j, " node ", target_item, " has no node on level ", below));
    }
  }
  // By table, the last zone's nodes are not expanded: each leads to the
  // target by its table entry (the cheapest way inside that zone), walked
  // afterwards (WalkTable). The window then finds the cheapest way that
  // stays in the last zone once it enters it, no longer one that leaves it
  // and comes back.
  const Rect last_zone = graph_.level(j).ZoneRect(
      w.next_zone, graph_.grid().width(), graph_.grid().height());
  const Connectivity connectivity = graph_.connectivity();
  const double min_cost = graph_.grid().min_cost();
  // With level `below`'s landmarks, their bound towards the target (the
  // goal's links in the last window) as well: in rooms the octile bound
  // leaves a window's search to expand most of its two zones, the
  // landmarks see the walls (docs/measurements_history.md, "Landmarks in
  // refinement windows").
  const LevelLandmarks* table = landmarks_[below];
  if (table != nullptr) {
    if (w.final) {
      landmark_bound_.SetGoal(*table, goals_->links(below), kWindowLandmarks);
    } else {
      const Link target_link{target, 0.0};
      landmark_bound_.SetGoal(*table, absl::MakeConstSpan(&target_link, 1),
                              kWindowLandmarks);
    }
  }
  auto h = [&](uint32_t v, Point p) {
    const double octile = HeuristicCost(p, target_cell, connectivity, min_cost);
    return table != nullptr ? std::max(octile, landmark_bound_.Bound(v))
                            : octile;
  };
  state_.NewSearch();
  open_.clear();
  bool seeded = true;
  if (l.at == kStart) {
    for (const Link& link : starts_->links(below)) {
      const Point c = graph_.NodeCell(below, link.node);
      if (w.rect.Contains(c)) {
        seeded &=
            Seed(state_, open_, link.node, link.cost, h(link.node, c), stats);
      }
    }
  } else {
    seeded = Seed(state_, open_, l.at, 0.0,
                  h(l.at, graph_.NodeCell(below, l.at)), stats);
  }
  if (!seeded) {
    return absl::ResourceExhaustedError(
        absl::StrCat("refining level ", j,
                     ": more than max_nodes=", state_.max_nodes(), " nodes"));
  }
  const ZoneId goal_zone = graph_.ZoneOf(below, goal_);
  uint32_t goal_record = 0;
  const BestFirstResult result = BestFirst(
      state_, open_,
      [&](uint32_t u, auto&& relax, bool skips_intra) {
        if (u == kGoal) return;
        if (by_table && last_zone.Contains(graph_.NodeCell(below, u))) {
          const uint32_t c = target_row_.Column(u);
          if (c != ZoneRow::kNoColumn && target_row_.At(c) < kInf) {
            relax(target, target_row_.At(c), 0.0, false);
          }
          return;
        }
        const auto edge = [&](uint32_t v, float cost, bool intra) {
          const Point c = graph_.NodeCell(below, v);
          if (!w.rect.Contains(c)) return;
          // h only for a successor that improves (BestFirst's relax).
          relax(
              v, cost, [&] { return h(v, c); }, intra);
        };
        graph_.ForEachEdge(below, u, skips_intra, edge);
        if (w.final &&
            graph_.ZoneOf(below, graph_.NodeCell(below, u)) == goal_zone) {
          const double d = goals_->LinkCost(below, u);
          if (d < kInf) relax(kGoal, d, 0.0, false);
        }
      },
      [&](const NodeStateMap::Record& r) { return r.node == target; }, kInf,
      stats, &goal_record,
      [&](uint32_t u) {
        if (on_node_ && u != kGoal) on_node_(graph_.NodeCell(below, u));
      });
  if (result == BestFirstResult::kFull) {
    return absl::ResourceExhaustedError(
        absl::StrCat("refining level ", j,
                     ": more than max_nodes=", state_.max_nodes(), " nodes"));
  }
  *found = result == BestFirstResult::kGoal;
  if (!*found) return absl::OkStatus();
  route_.clear();
  for (uint32_t r = goal_record; r != NodeStateMap::kNone;
       r = state_[r].parent) {
    route_.push_back(state_[r].node);
  }
  std::reverse(route_.begin(), route_.end());
  return absl::OkStatus();
}

absl::Status CorridorRefiner::RefineWindow(int j, SearchStats* stats) {
  if (absl::Status s = Ensure(j, stats); !s.ok()) return s;
  LevelPath& l = levels_[j];
  LevelPath& below = levels_[j - 1];
  Window w = WindowOf(j);
  bool found = false;
  RefineLevelStats& work = (*levels_work_)[j];
  const int64_t expanded_before = stats->expanded;
  ++work.windows;
  absl::Status searched = SearchBelow(j, w, stats, &found);
  if (searched.ok() && !found && l.at != kStart && l.rest.size() >= 2) {
    // Follow the last window's route to its target, then search from there.
    ++work.fallbacks;
    below.items.insert(below.items.end(), l.rest.begin() + 1, l.rest.end());
    l.at = l.rest.back();
    l.head = l.rest_target;
    l.rest.clear();
    w = WindowOf(j);
    ++work.windows;
    searched = SearchBelow(j, w, stats, &found);
  }
  work.expanded += stats->expanded - expanded_before;
  if (!searched.ok()) return searched;
  if (!found) {
    return NoWay(graph_, j,
                 l.at == kStart ? start_ : graph_.NodeCell(j - 1, l.at),
                 ItemCell(j, l.items[w.target]));
  }
  const size_t begin = l.at == kStart ? 0 : 1;
  if (w.final) {
    below.items.insert(below.items.end(), route_.begin() + begin, route_.end());
    below.complete = true;
    l.head = l.items.size();
    l.rest.clear();
    return absl::OkStatus();
  }
  size_t p = begin;
  while (p + 1 < route_.size() &&
         graph_.ZoneOf(j, graph_.NodeCell(j - 1, route_[p])) != w.next_zone) {
    ++p;
  }
  below.items.insert(below.items.end(), route_.begin() + begin,
                     route_.begin() + p + 1);
  l.rest.assign(route_.begin() + p, route_.end());
  l.rest_target = w.target;
  l.at = route_[p];
  l.head = w.next_run;
  return absl::OkStatus();
}

absl::Status CorridorRefiner::SearchCells(const Window& w, SearchStats* stats,
                                          bool* found) {
  const Point target = ItemCell(1, levels_[1].items[w.target]);
  AStarOptions options;
  options.connectivity = graph_.connectivity();
  // Jump points on a grid of one cost, and no straightening there: only the
  // moves up to the border are kept, and a straightened way crosses it
  // elsewhere, which the next window pays for.
  options.prefer_straight = fewer_turns_ && !one_cost_;
  options.bounds = w.rect;
  options.jump_points = true;
  absl::StatusOr<SearchOutcome> outcome =
      astar_->FindPath(cell_at_, target, options, &found_);
  *stats += astar_->stats();
  if (!outcome.ok()) {
    return absl::DataLossError(
        absl::StrCat("refining level 1: ", outcome.status().message(),
                     " (the world's abstraction does not match its grid)"));
  }
  *found = *outcome == SearchOutcome::kFound;
  return absl::OkStatus();
}

absl::Status CorridorRefiner::NextMoves(RunLengthPath* moves,
                                        SearchStats* stats,
                                        RefineLevels* levels) {
  if (done_) return absl::OkStatus();
  levels_work_ = levels;
  // The levels above count their own windows (RefineWindow); level 1 gets
  // the rest of this stretch's expansions.
  const auto not_above = [&] {
    int64_t n = stats->expanded;
    for (int j = 2; j <= top_; ++j) n -= (*levels)[j].expanded;
    return n;
  };
  const int64_t before = not_above();
  ++(*levels)[1].windows;
  const absl::Status s = free_crossings_ ? NextCellWindow(moves, stats)
                                         : NextEdgeMoves(moves, stats);
  (*levels)[1].expanded += not_above() - before;
  levels_work_ = nullptr;
  return s;
}

absl::Status CorridorRefiner::NextCellWindow(RunLengthPath* moves,
                                             SearchStats* stats) {
  if (absl::Status s = Ensure(1, stats); !s.ok()) return s;
  LevelPath& l = levels_[1];
  const Window w = WindowOf(1);
  bool found = false;
  if (absl::Status s = SearchCells(w, stats, &found); !s.ok()) return s;
  if (!found && !cell_rest_.empty()) {
    // Follow the last window's route to its target; search on from there.
    ++(*levels_work_)[1].fallbacks;
    for (const Run& run : cell_rest_.runs()) {
      moves->Append(run.direction, run.count);
    }
    cell_at_ = cell_rest_end_;
    cell_rest_.Reset(cell_at_);
    l.head = l.rest_target;
    return absl::OkStatus();
  }
  if (!found) return NoWay(graph_, 1, cell_at_, ItemCell(1, l.items[w.target]));
  if (w.final) {
    for (const Run& run : found_.runs())
      moves->Append(run.direction, run.count);
    cell_at_ = goal_;
    done_ = true;
    return absl::OkStatus();
  }
  // Keep the moves up to the first cell in the last run's zone.
  const Point target = ItemCell(1, l.items[w.target]);
  Point p = cell_at_;
  bool crossed = false;
  cell_rest_.Reset(target);
  for (const Run& run : found_.runs()) {
    for (uint32_t i = 0; i < run.count; ++i) {
      if (crossed) {
        cell_rest_.Append(run.direction);
        continue;
      }
      p = Step(p, run.direction);
      moves->Append(run.direction);
      if (graph_.ZoneOf(1, p) == w.next_zone) {
        crossed = true;
        cell_rest_.Reset(p);
      }
    }
  }
  cell_at_ = p;
  cell_rest_end_ = target;
  l.rest_target = w.target;
  l.head = w.next_run;
  return absl::OkStatus();
}

absl::Status CorridorRefiner::NextEdgeMoves(RunLengthPath* moves,
                                            SearchStats* stats) {
  LevelPath& l = levels_[1];
  while (l.head + 1 >= l.items.size()) {
    if (l.complete || top_ < 2) {
      return absl::InternalError("refinement ran past the level-1 path");
    }
    if (absl::Status s = RefineWindow(2, stats); !s.ok()) return s;
  }
  const uint32_t a = l.items[l.head], b = l.items[l.head + 1];
  ++l.head;
  if (a == kStart && b == kGoal) {
    return absl::InternalError("a level-1 path with no node");
  }
  if (a == kStart) {
    connection_.Reset(start_);
    if (absl::Status s = starts_->AppendCells(b, &connection_, stats);
        !s.ok()) {
      return s;
    }
    for (const Run& run : connection_.runs()) {
      moves->Append(run.direction, run.count);
    }
    return absl::OkStatus();
  }
  if (b == kGoal) {
    connection_.Reset(goal_);
    if (absl::Status s = goals_->AppendCells(a, &connection_, stats); !s.ok()) {
      return s;
    }
    const std::vector<Run>& runs = connection_.runs();
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
      moves->Append(Opposite(it->direction), it->count);
    }
    done_ = true;
    return absl::OkStatus();
  }
  return AppendEdgeMoves(a, b, moves, stats);
}

absl::Status CorridorRefiner::AppendEdgeMoves(uint32_t u, uint32_t v,
                                              RunLengthPath* moves,
                                              SearchStats* stats) {
  const SharedLevel& one = graph_.level(1);
  const Point a = graph_.NodeCell(1, u), b = graph_.NodeCell(1, v);
  // One scan of u's edges: a crossing to v, or the cheapest intra-zone
  // edge to v (its cost bounds the walk below; cached paths are per edge).
  bool crossing = false;
  uint32_t best = NodeStateMap::kNone;
  double least = std::numeric_limits<double>::infinity();
  uint32_t e = one.edge_begin[u];
  one.edges.ForEachIn(e, one.edge_end[u], [&](const AbstractEdge& edge) {
    if (edge.target == v) {
      if (edge.inter_zone) {
        crossing = true;
      } else if (edge.cost < least) {
        least = edge.cost;
        best = e;
      }
    }
    ++e;
  });
  if (crossing) {
    const std::optional<Direction> d = DirectionFromDelta(b.x - a.x, b.y - a.y);
    if (!d.has_value() ||
        !CanStep(graph_.grid(), a, *d, graph_.connectivity())) {
      return absl::DataLossError(absl::StrCat(
          "level-1 crossing ", PointString(a), " -> ", PointString(b),
          " is not one legal step (the world's abstraction does not match "
          "its grid)"));
    }
    moves->Append(*d);
    return absl::OkStatus();
  }
  if (graph_.cache_paths()) return AppendCachedMoves(u, v, best, moves);
  // A way of one turn that costs no more than the edge is a shortest one
  // (the edge's cost is the least inside the zone, and such a way stays in
  // the rectangle of a and b, so in the zone): no search needed.
  // Read from the grid's open bits where it has them (a grid of one cost:
  // the way's cost is then the octile distance), else walked cell by cell.
  if (least < std::numeric_limits<double>::infinity()) {
    if (astar_->grid_bits() != nullptr) {
      ways_.Reset(a, astar_->grid_bits());
      if (const std::optional<OneTurnWay> way =
              ways_.To(b, std::nullopt, least)) {
        AppendOneTurnWay(*way, moves);
        return absl::OkStatus();
      }
    } else if (const OpenCellTiles* tiles = astar_->cell_tiles();
               tiles != nullptr) {
      // A large grid: its tiles, not its cold rows of costs.
      if (const std::optional<OneTurnWay> way =
              FindOneTurnWay(*tiles, graph_.connectivity(), a, b, least)) {
        AppendOneTurnWay(*way, moves);
        return absl::OkStatus();
      }
    } else if (AppendOneTurnPath(graph_.grid(), graph_.connectivity(), a, b,
                                 least, moves)
                   .has_value()) {
      return absl::OkStatus();
    }
  }
  const Rect zone = graph_.ZoneRect(1, a);
  // Where jump points do not apply (weighted or 4-connected grids), an A*
  // over a framed copy of the zone (ZoneDijkstra::RunLoadedTo, made on
  // first use): ~2.5x fewer instructions a cell than GridAStar's heap and
  // page reads (README, "Weighted windows by A*").
  if (!(one_cost_ && graph_.connectivity() == Connectivity::kEight) &&
      zone.width() <= kMaxEdgeSearchSide &&
      zone.height() <= kMaxEdgeSearchSide) {
    if (edge_search_ == nullptr) {
      edge_search_ = std::make_unique<ZoneDijkstra>(
          std::min(kMaxEdgeSearchSide, graph_.ZoneSide(1)));
    }
    if (zone.width() <= edge_search_->max_side() &&
        zone.height() <= edge_search_->max_side()) {
      edge_search_->LoadRect(graph_.grid(), zone);
      edge_search_->RunLoadedTo(a, b, graph_.connectivity());
      *stats += edge_search_->stats();
      if (!(edge_search_->Distance(b) <
            std::numeric_limits<double>::infinity())) {
        return NoWay(graph_, 1, a, b);
      }
      found_.Reset(a);
      edge_search_->AppendPath(b, &found_, fewer_turns_);
      for (const Run& run : found_.runs()) {
        moves->Append(run.direction, run.count);
      }
      return absl::OkStatus();
    }
  }
  AStarOptions options;
  options.connectivity = graph_.connectivity();
  options.prefer_straight = fewer_turns_;
  options.bounds = zone;
  options.jump_points = true;
  absl::StatusOr<SearchOutcome> outcome =
      astar_->FindPath(a, b, options, &found_);
  *stats += astar_->stats();
  if (!outcome.ok() || *outcome != SearchOutcome::kFound) {
    return NoWay(graph_, 1, a, b);
  }
  for (const Run& run : found_.runs()) moves->Append(run.direction, run.count);
  return absl::OkStatus();
}

absl::Status CorridorRefiner::AppendCachedMoves(uint32_t u, uint32_t v,
                                                uint32_t best,
                                                RunLengthPath* moves) {
  const Point a = graph_.NodeCell(1, u), b = graph_.NodeCell(1, v);
  const SharedCachedPaths& cached = graph_.cached_paths();
  if (best == NodeStateMap::kNone || best + 1 >= cached.path_begin.size()) {
    return NoWay(graph_, 1, a, b);
  }
  // Walk it: every step legal and inside the zone, ending at v.
  const Rect zone = graph_.ZoneRect(1, a);
  Point at = a;
  bool legal = true;
  cached.path_runs.ForEachIn(
      cached.path_begin[best], cached.path_begin[best + 1],
      [&](uint32_t packed) {
        const Run run = CachedPaths::UnpackRun(packed);
        for (uint32_t i = 0; legal && i < run.count; ++i) {
          legal = CanStep(graph_.grid(), at, run.direction,
                          graph_.connectivity()) &&
                  zone.Contains(Step(at, run.direction));
          if (legal) at = Step(at, run.direction);
        }
        if (legal) moves->Append(run.direction, run.count);
      });
  if (!legal || !(at == b)) {
    return absl::DataLossError(absl::StrCat(
        "the cached path of level-1 edge ", PointString(a), " -> ",
        PointString(b), " does not lead there (the world file is corrupt)"));
  }
  return absl::OkStatus();
}

size_t CorridorRefiner::MemoryUsage() const {
  size_t bytes = sizeof(*this) + state_.MemoryUsage() +
                 open_.capacity() * sizeof(OpenEntry) +
                 route_.capacity() * sizeof(uint32_t) + found_.MemoryUsage() +
                 landmark_bound_.MemoryUsage() + cell_rest_.MemoryUsage() +
                 connection_.MemoryUsage() + target_row_.MemoryUsage() +
                 (edge_search_ != nullptr ? edge_search_->MemoryUsage() : 0);
  for (const LevelPath& l : levels_) {
    bytes += (l.items.capacity() + l.rest.capacity()) * sizeof(uint32_t);
  }
  return bytes;
}

}  // namespace zonepath::runtime_internal
