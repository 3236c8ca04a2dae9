#include "refiner.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "zonepath/grid/moves.h"

namespace zonepath::runtime_internal {
namespace {

absl::Status Corrupt(int j, uint32_t u, uint32_t v, Point a, Point b,
                     absl::string_view why) {
  return absl::DataLossError(
      absl::StrCat("level-", j, " edge ", u, " ", PointString(a), " -> ", v,
                   " ", PointString(b), ": ", why,
                   " (the world's abstraction does not match "
                   "its grid)"));
}

}  // namespace

Refiner::Refiner(const LevelGraph& graph, GridAStar* astar, uint32_t max_nodes)
    : graph_(graph), astar_(astar), state_(max_nodes) {}

bool Refiner::IsCrossing(int j, uint32_t u, uint32_t v) const {
  const SharedLevel& level = graph_.level(j);
  bool crossing = false;
  level.edges.ForEachIn(level.edge_begin[u], level.edge_end[u],
                        [&](const AbstractEdge& e) {
                          if (e.target == v && e.inter_zone) crossing = true;
                        });
  return crossing;
}

absl::Status Refiner::AppendMoves(int j, uint32_t u, uint32_t v,
                                  bool fewer_turns, RunLengthPath* moves,
                                  SearchStats* stats) {
  const Point a = graph_.NodeCell(j, u), b = graph_.NodeCell(j, v);
  if (IsCrossing(j, u, v)) {
    const std::optional<Direction> d = DirectionFromDelta(b.x - a.x, b.y - a.y);
    if (!d.has_value() ||
        !CanStep(graph_.grid(), a, *d, graph_.connectivity())) {
      return Corrupt(j, u, v, a, b, "a crossing that is not one legal step");
    }
    moves->Append(*d);
    return absl::OkStatus();
  }
  if (j != 1) {
    return absl::InternalError(
        absl::StrCat("AppendMoves on a level-", j, " edge inside a zone"));
  }
  if (graph_.cache_paths()) return AppendCachedMoves(u, v, moves);
  AStarOptions options;
  options.connectivity = graph_.connectivity();
  options.prefer_straight = fewer_turns;
  options.bounds = graph_.ZoneRect(1, a);
  absl::StatusOr<SearchOutcome> found =
      astar_->FindPath(a, b, options, &scratch_);
  *stats += astar_->stats();
  if (!found.ok()) {
    return Corrupt(j, u, v, a, b,
                   absl::StrCat("no search: ", found.status().message()));
  }
  if (*found != SearchOutcome::kFound) {
    return Corrupt(j, u, v, a, b, "no path inside the zone");
  }
  for (const Run& run : scratch_.runs())
    moves->Append(run.direction, run.count);
  return absl::OkStatus();
}

absl::Status Refiner::AppendCachedMoves(uint32_t u, uint32_t v,
                                        RunLengthPath* moves) {
  const SharedLevel& one = graph_.level(1);
  const Point a = graph_.NodeCell(1, u), b = graph_.NodeCell(1, v);
  // The cheapest edge u -> v and its index (cached paths are per edge).
  uint32_t e = one.edge_begin[u], best = NodeStateMap::kNone;
  float best_cost = 0;
  one.edges.ForEachIn(e, one.edge_end[u], [&](const AbstractEdge& edge) {
    if (edge.target == v &&
        (best == NodeStateMap::kNone || edge.cost < best_cost)) {
      best = e;
      best_cost = edge.cost;
    }
    ++e;
  });
  const SharedCachedPaths& cached = graph_.cached_paths();
  if (best == NodeStateMap::kNone || best + 1 >= cached.path_begin.size()) {
    return Corrupt(1, u, v, a, b, "no edge with a cached path");
  }
  // Walk it: every step legal, inside the zone, ending at v.
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
    return Corrupt(1, u, v, a, b, "its cached path does not lead there");
  }
  return absl::OkStatus();
}

absl::Status Refiner::AppendChildren(int j, uint32_t u, uint32_t v,
                                     std::vector<Segment>* children,
                                     SearchStats* stats) {
  const Point a = graph_.NodeCell(j, u), b = graph_.NodeCell(j, v);
  if (graph_.ZoneOf(j, a) != graph_.ZoneOf(j, b)) {
    return Corrupt(j, u, v, a, b, "an edge between two zones not adjacent");
  }
  const uint32_t from = graph_.LowerId(j, u), to = graph_.LowerId(j, v);
  if (from == NodeStateMap::kNone || to == NodeStateMap::kNone) {
    return Corrupt(j, u, v, a, b, "an endpoint missing on the level below");
  }
  const int below = j - 1;
  const Rect rect = graph_.ZoneRect(j, a);
  const Connectivity connectivity = graph_.connectivity();
  const double min_cost = graph_.grid().min_cost();
  auto h = [&](Point p) { return HeuristicCost(p, b, connectivity, min_cost); };
  state_.NewSearch();
  open_.clear();
  if (!Seed(state_, open_, from, 0.0, h(a), stats)) {
    return absl::ResourceExhaustedError("refinement: max_nodes too small");
  }
  uint32_t goal_record = 0;
  const BestFirstResult result = BestFirst(
      state_, open_,
      [&](uint32_t w, auto&& relax) {
        graph_.ForEachEdge(below, w, [&](uint32_t x, float cost) {
          const Point c = graph_.NodeCell(below, x);
          if (rect.Contains(c)) relax(x, cost, h(c));
        });
      },
      [&](const NodeStateMap::Record& r) { return r.node == to; }, kInf, stats,
      &goal_record,
      [&](uint32_t w) {
        if (on_node_) on_node_(graph_.NodeCell(below, w));
      });
  if (result == BestFirstResult::kFull) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "refining a level-", j,
        " edge: more than max_nodes=", state_.max_nodes(), " nodes"));
  }
  if (result != BestFirstResult::kGoal) {
    return Corrupt(j, u, v, a, b, "no path on the level below");
  }
  chain_.clear();
  for (uint32_t r = goal_record; r != NodeStateMap::kNone;
       r = state_[r].parent) {
    chain_.push_back(state_[r].node);
  }
  for (size_t i = chain_.size() - 1; i > 0; --i) {
    children->push_back({Segment::Kind::kEdge, static_cast<uint8_t>(below),
                         chain_[i], chain_[i - 1]});
  }
  return absl::OkStatus();
}

size_t Refiner::MemoryUsage() const {
  return sizeof(*this) + state_.MemoryUsage() +
         open_.capacity() * sizeof(OpenEntry) +
         chain_.capacity() * sizeof(uint32_t) + scratch_.MemoryUsage();
}

}  // namespace zonepath::runtime_internal
