#include "zonepath/agents/class_astar.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace zonepath {
namespace {

// Parent codes of oriented states (unoriented states store the direction
// of the step that reached them).
constexpr int kByForward = 0;
constexpr int kByBackward = 1;
constexpr int kByTurnRight = 2;  // clockwise turn into this heading
constexpr int kByTurnLeft = 3;

uint64_t Bits(double g) { return std::bit_cast<uint64_t>(g); }
double Value(uint64_t bits) { return std::bit_cast<double>(bits); }

bool Inside(const Rect& outer, const Rect& inner) {
  return inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 &&
         inner.y1 <= outer.y1;
}

// What one query needs to know about the class, computed once per query.
struct QueryRules {
  const Grid* grid;
  const AgentClass* agent;
  Rect bounds;
  bool unit_footprint;  // 1 x 1: positions read one cell
  int headings;         // 1, 4 or 8
  int heading_shift;    // log2(headings)
  int eighths;          // per turn increment (oriented)
  double step_floor;    // cheapest multiplier of a step's unit length
  Point goal;
  std::optional<Direction> goal_heading;

  // Class cost of the position, 0 if illegal or outside the bounds.
  uint8_t Position(Point p, Direction heading) const {
    if (unit_footprint) {
      return bounds.Contains(p) ? agent->cost_of_type[grid->cost(p)] : 0;
    }
    const Rect r = agent->Covers(p, heading);
    return Inside(bounds, r) ? RectCost(*grid, *agent, r) : 0;
  }
  bool TurnLegal(Point p) const {
    const Rect r = agent->TurnSweep(p);
    return Inside(bounds, r) && RectCost(*grid, *agent, r) != 0;
  }
  bool IsGoal(Point p, Direction heading) const {
    return p == goal && (!agent->oriented || !goal_heading.has_value() ||
                         *goal_heading == heading);
  }
  // Lower bound on the turn increments still needed from (p, heading).
  int TurnsNeeded(Point p, Direction heading) const {
    const int64_t dx = goal.x - p.x;
    const int64_t dy = goal.y - p.y;
    const bool on_line = Dx(heading) * dy - Dy(heading) * dx == 0;
    if (!goal_heading.has_value()) return on_line ? 0 : 1;
    const int e =
        (static_cast<int>(*goal_heading) - static_cast<int>(heading)) & 7;
    const int k = std::min(e, 8 - e) / eighths;
    return k == 0 && !on_line ? 2 : k;
  }
  double Heuristic(Point p, Direction heading) const {
    double h = HeuristicCost(p, goal, agent->connectivity, step_floor);
    if (agent->oriented && agent->turn_cost > 0) {
      h += agent->turn_cost * TurnsNeeded(p, heading);
    }
    return h;
  }
  // State (p, heading) is node (p.x * headings + heading index, p.y).
  NodeId Id(const NodeTable& nodes, Point p, Direction heading) const {
    return nodes.Id({(p.x << heading_shift) |
                         (static_cast<int32_t>(heading) >> (3 - heading_shift)),
                     p.y});
  }
  void Decode(const NodeTable& nodes, NodeId id, Point* p,
              Direction* heading) const {
    const Point q = nodes.PointOf(id);
    *p = {q.x >> heading_shift, q.y};
    *heading =
        static_cast<Direction>((q.x & (headings - 1)) << (3 - heading_shift));
  }
};

// Writes the path that reached `goal_id`: parent codes walked back to the
// start into `reversed`, then replayed forward.
void ExtractPath(const QueryRules& rules, Point start, Direction start_heading,
                 NodeId goal_id, NodeTable& nodes,
                 std::vector<uint8_t>& reversed, AgentPath* path) {
  const NodeId start_id = rules.Id(nodes, start, start_heading);
  const bool oriented = rules.agent->oriented;
  reversed.clear();
  for (NodeId id = goal_id; id != start_id;) {
    const int code = nodes.Node(id).parent();
    reversed.push_back(static_cast<uint8_t>(code));
    Point p;
    Direction heading;
    rules.Decode(nodes, id, &p, &heading);
    if (!oriented) {
      p = Step(p, Opposite(static_cast<Direction>(code)));
    } else if (code == kByForward) {
      p = Step(p, Opposite(heading));
    } else if (code == kByBackward) {
      p = Step(p, heading);
    } else {
      heading = Rotate(heading,
                       code == kByTurnRight ? -rules.eighths : rules.eighths);
    }
    id = rules.Id(nodes, p, heading);
  }
  Direction heading = start_heading;
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
    const int code = *it;
    if (!oriented) {
      path->AppendStep(AgentAction::kForward, static_cast<Direction>(code));
    } else if (code == kByForward || code == kByBackward) {
      path->AppendStep(
          code == kByForward ? AgentAction::kForward : AgentAction::kBackward,
          heading);
    } else {
      const int sense = code == kByTurnRight ? 1 : -1;
      path->AppendTurn(sense);
      heading = Rotate(heading, sense * rules.eighths);
    }
  }
}

SearchOutcome RunSearch(const QueryRules& rules, Point start,
                        Direction start_heading, int64_t max_expansions,
                        NodeTable& nodes, OpenList& open,
                        std::vector<uint8_t>& reversed, SearchStats& stats,
                        AgentPath* path) {
  const AgentClass& agent = *rules.agent;
  const bool eight = agent.connectivity == Connectivity::kEight;
  nodes.NewSearch(Bits(std::numeric_limits<double>::infinity()));
  open.Clear();
  const NodeId start_id = rules.Id(nodes, start, start_heading);
  nodes.Touch(start_id).g = Bits(0.0);
  open.Push({rules.Heuristic(start, start_heading), 0.0, start_id}, nodes);
  ++stats.heap_pushes;

  // Lowers the cost of (q, heading) to g via parent code `code`.
  auto relax = [&](Point q, Direction heading, double g, int code) {
    const NodeId id = rules.Id(nodes, q, heading);
    SearchNode& m = nodes.Touch(id);
    if (m.closed() || !(g < Value(m.g))) return;
    m.g = Bits(g);
    m.set_parent(code);
    ++stats.generated;
    const OpenList::Entry e{g + rules.Heuristic(q, heading), g, id};
    if (m.heap_index < SearchNode::kUnqueued) {
      open.Decrease(m.heap_index, e, nodes);
      ++stats.heap_decreases;
    } else {
      open.Push(e, nodes);
      ++stats.heap_pushes;
    }
  };

  while (!open.empty()) {
    const OpenList::Entry top = open.Pop(nodes);
    ++stats.heap_pops;
    nodes.Node(top.id).heap_index = SearchNode::kClosed;
    Point p;
    Direction heading;
    rules.Decode(nodes, top.id, &p, &heading);
    if (rules.IsGoal(p, heading)) {
      ExtractPath(rules, start, start_heading, top.id, nodes, reversed, path);
      path->set_cost(top.g);
      return SearchOutcome::kFound;
    }
    if (max_expansions > 0 && stats.expanded >= max_expansions) {
      return SearchOutcome::kLimitReached;
    }
    ++stats.expanded;
    const double g = top.g;
    const uint8_t here = rules.Position(p, heading);
    if (!agent.oriented) {
      uint8_t cost[8] = {};
      for (int d = 0; d < 8; d += 2) {
        cost[d] = rules.Position(Step(p, static_cast<Direction>(d)), heading);
      }
      if (eight) {
        for (int d = 1; d < 8; d += 2) {
          if (cost[d - 1] != 0 && cost[(d + 1) & 7] != 0) {
            cost[d] =
                rules.Position(Step(p, static_cast<Direction>(d)), heading);
          }
        }
      }
      for (int d = 0; d < 8; ++d) {
        if (cost[d] == 0) continue;
        const Direction dir = static_cast<Direction>(d);
        relax(Step(p, dir), heading, g + StepCost(dir, here, cost[d]), d);
      }
      continue;
    }
    for (const int code : {kByForward, kByBackward}) {
      const Direction d = code == kByForward ? heading : Opposite(heading);
      const Point q = Step(p, d);
      const uint8_t there = rules.Position(q, heading);
      if (there == 0) continue;
      if (IsDiagonal(d) && (rules.Position({q.x, p.y}, heading) == 0 ||
                            rules.Position({p.x, q.y}, heading) == 0)) {
        continue;
      }
      const double factor = code == kByForward ? 1.0 : agent.backward_factor;
      relax(q, heading, g + StepCost(d, here, there) * factor, code);
    }
    if (rules.TurnLegal(p)) {
      relax(p, Rotate(heading, rules.eighths), g + agent.turn_cost,
            kByTurnRight);
      relax(p, Rotate(heading, -rules.eighths), g + agent.turn_cost,
            kByTurnLeft);
    }
  }
  return SearchOutcome::kUnreachable;
}

}  // namespace

ClassAStar::ClassAStar(const Grid& terrain) : terrain_(&terrain) {}

size_t ClassAStar::MemoryUsage() const {
  return sizeof(*this) + (nodes_ ? nodes_->MemoryUsage() : 0) +
         open_.MemoryUsage() + reversed_.capacity();
}

absl::Status ClassAStar::PrepareTable(int headings) {
  if (headings_ == headings) return absl::OkStatus();
  const int64_t width = int64_t{terrain_->width()} * headings;
  const uint64_t tiles_x =
      (static_cast<uint64_t>(width) + NodeTable::kTileSide - 1) >>
      NodeTable::kTileShift;
  const uint64_t tiles_y =
      (static_cast<uint64_t>(terrain_->height()) + NodeTable::kTileSide - 1) >>
      NodeTable::kTileShift;
  const int bits = NodeTable::kCellBits +
                   (tiles_x <= 1 ? 0 : std::bit_width(tiles_x - 1)) +
                   (tiles_y <= 1 ? 0 : std::bit_width(tiles_y - 1));
  if (bits > 32) {
    return absl::InvalidArgumentError(absl::StrCat(
        "grid ", terrain_->width(), " x ", terrain_->height(),
        " is too large for an exact search with ", headings, " headings"));
  }
  nodes_.emplace(static_cast<int32_t>(width), terrain_->height());
  headings_ = headings;
  return absl::OkStatus();
}

absl::StatusOr<SearchOutcome> ClassAStar::FindPath(
    const AgentClass& agent, Point start, Direction start_heading, Point goal,
    const ClassAStarOptions& options, AgentPath* path) {
  stats_ = SearchStats();
  if (options.max_expansions < 0) {
    return absl::InvalidArgumentError("max_expansions must be >= 0");
  }
  if (absl::Status s = CheckFootprint(agent); !s.ok()) return s;
  if (agent.oriented && !(agent.backward_factor > 0 && agent.turn_cost >= 0 &&
                          std::isfinite(agent.backward_factor) &&
                          std::isfinite(agent.turn_cost))) {
    return absl::InvalidArgumentError(
        absl::StrCat("class '", agent.name,
                     "': backward_factor must be > 0 and turn_cost >= 0"));
  }
  if (!ValidHeading(agent, start_heading)) {
    return absl::InvalidArgumentError(
        absl::StrCat("start heading ", DirectionName(start_heading),
                     " is not a heading of class '", agent.name, "'"));
  }
  const std::optional<Direction> goal_heading =
      agent.oriented ? options.goal_heading : std::nullopt;
  if (goal_heading.has_value() && !ValidHeading(agent, *goal_heading)) {
    return absl::InvalidArgumentError(
        absl::StrCat("goal heading ", DirectionName(*goal_heading),
                     " is not a heading of class '", agent.name, "'"));
  }
  const int headings = agent.HeadingCount();
  if (absl::Status s = PrepareTable(headings); !s.ok()) return s;

  QueryRules rules;
  rules.grid = terrain_;
  rules.agent = &agent;
  rules.bounds = options.bounds.value_or(terrain_->bounds());
  rules.unit_footprint = agent.width == 1 && agent.length == 1;
  rules.headings = headings;
  rules.heading_shift = std::countr_zero(static_cast<unsigned>(headings));
  rules.eighths = agent.oriented ? TurnEighths(agent) : 0;
  int cheapest = 256;
  for (int t = 1; t < 256; ++t) {
    if (agent.cost_of_type[t] != 0) {
      cheapest = std::min<int>(cheapest, agent.cost_of_type[t]);
    }
  }
  rules.step_floor =
      (cheapest == 256 ? 1.0 : cheapest) *
      (agent.oriented ? std::min(1.0, agent.backward_factor) : 1.0);
  rules.goal = goal;
  rules.goal_heading = goal_heading;

  if (rules.Position(start, start_heading) == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("start anchor ", PointString(start), " heading ",
                     DirectionName(start_heading),
                     " is not a legal position for class '", agent.name, "'"));
  }
  bool goal_legal = false;
  for (int i = 0; i < headings && !goal_legal; ++i) {
    const Direction h = static_cast<Direction>(i << (3 - rules.heading_shift));
    if (goal_heading.has_value() && h != *goal_heading) continue;
    goal_legal = rules.Position(goal, h) != 0;
  }
  if (!goal_legal) {
    return absl::InvalidArgumentError(absl::StrCat(
        "goal anchor ", PointString(goal),
        goal_heading.has_value()
            ? absl::StrCat(" heading ", DirectionName(*goal_heading))
            : std::string(" with any heading"),
        " is not a legal position for class '", agent.name, "'"));
  }
  path->Reset(start, start_heading);
  if (!terrain_->SameComponent(start, goal)) return SearchOutcome::kUnreachable;
  const absl::Time begin = absl::Now();
  const SearchOutcome outcome =
      RunSearch(rules, start, start_heading, options.max_expansions, *nodes_,
                open_, reversed_, stats_, path);
  stats_.time = absl::Now() - begin;
  return outcome;
}

}  // namespace zonepath
