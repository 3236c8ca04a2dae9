#include "zonepath/agents/class_astar.h"

#include <algorithm>
#include <array>
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

// What one query needs to know about the class, computed once per query.
struct QueryRules {
  const Grid* grid;
  const AgentClass* agent;
  Rect bounds;
  bool unit_footprint;     // 1 x 1: positions read one cell
  int headings;            // 1, 4 or 8
  int heading_shift;       // log2(headings)
  int eighths;             // per turn increment (oriented)
  double step_floor;       // cheapest multiplier of a step's unit length
  bool four_headed_bound;  // FourHeadedExtra applies
  double backward_extra;   // (backward_factor - 1) x cheapest multiplier
  Point goal;
  std::optional<Direction> goal_heading;

  // Footprint extents per heading (agent->Covers), and the turn sweep's
  // side: looked up, not recomputed, for every position a search tests.
  std::array<int32_t, 8> cover_w, cover_h;
  int32_t sweep;

  // Class cost of the w x h cells at (x0, y0): their largest multiplier, 0
  // if one is impassable or outside the bounds (which lie in the grid).
  uint8_t BoxCost(int32_t x0, int32_t y0, int32_t w, int32_t h) const {
    // 64-bit ends: an anchor near INT32_MAX (a caller's endpoint) must not
    // wrap around into the bounds.
    if (x0 < bounds.x0 || y0 < bounds.y0 || int64_t{x0} + w > bounds.x1 ||
        int64_t{y0} + h > bounds.y1) {
      return 0;
    }
    return RectCostInGrid(*grid, *agent, Rect{x0, y0, x0 + w, y0 + h});
  }
  // Class cost of the position, 0 if illegal or outside the bounds.
  uint8_t Position(Point p, Direction heading) const {
    if (unit_footprint) {
      return bounds.Contains(p) ? agent->cost_of_type[grid->cost(p)] : 0;
    }
    const int d = static_cast<int>(heading);
    return BoxCost(p.x, p.y, cover_w[d], cover_h[d]);
  }
  bool TurnLegal(Point p) const { return BoxCost(p.x, p.y, sweep, sweep) != 0; }
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
  // A 4-headed unit that does not back up cheaply (backward_factor >= 1)
  // moves only along its heading's axis: a goal off that axis needs a
  // turn, and a goal behind needs two turns or a backward step's extra
  // cost, (backward_factor - 1) x the cheapest multiplier, for each cell
  // back. A lower bound on the cost beyond the Manhattan distance, and
  // consistent: a turn changes it by at most turn_cost, a step by at most
  // that step's extra cost.
  double FourHeadedExtra(Point p, Direction heading) const {
    const int64_t dx = goal.x - p.x;
    const int64_t dy = goal.y - p.y;
    const int64_t along = Dx(heading) * dx + Dy(heading) * dy;  // > 0 ahead
    const int64_t across = Dx(heading) * dy - Dy(heading) * dx;
    const double tc = agent->turn_cost;
    const double back =
        along < 0 ? backward_extra * static_cast<double>(-along) : 0.0;
    if (across != 0) return tc + std::min(tc, back);
    return std::min(2 * tc, back);
  }
  double Heuristic(Point p, Direction heading) const {
    double h = HeuristicCost(p, goal, agent->connectivity, step_floor);
    if (!agent->oriented || !(agent->turn_cost > 0)) return h;
    double turns = agent->turn_cost * TurnsNeeded(p, heading);
    if (four_headed_bound) turns = std::max(turns, FourHeadedExtra(p, heading));
    return h + turns;
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

  // Lowers the cost of node `id`, state (q, heading), to g via parent code
  // `code`.
  auto lower = [&](SearchNode& m, NodeId id, Point q, Direction heading,
                   double g, int code) {
    if (!(g < Value(m.g))) return;
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
  auto relax = [&](Point q, Direction heading, double g, int code) {
    const NodeId id = rules.Id(nodes, q, heading);
    SearchNode& m = nodes.Touch(id);
    if (!m.closed()) lower(m, id, q, heading, g, code);
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
    // Oriented: a successor already closed (most often the state just
    // left) is skipped before its footprint is read.
    for (const int code : {kByForward, kByBackward}) {
      const Direction d = code == kByForward ? heading : Opposite(heading);
      const Point q = Step(p, d);
      if (!rules.bounds.Contains(q)) continue;
      const NodeId id = rules.Id(nodes, q, heading);
      SearchNode& m = nodes.Touch(id);
      if (m.closed()) continue;
      const uint8_t there = rules.Position(q, heading);
      if (there == 0) continue;
      if (IsDiagonal(d) && (rules.Position({q.x, p.y}, heading) == 0 ||
                            rules.Position({p.x, q.y}, heading) == 0)) {
        continue;
      }
      const double factor = code == kByForward ? 1.0 : agent.backward_factor;
      lower(m, id, q, heading, g + StepCost(d, here, there) * factor, code);
    }
    // Turns: the sweep is read only if a turned state would improve.
    const double turned = g + agent.turn_cost;
    const Direction right = Rotate(heading, rules.eighths);
    const Direction left = Rotate(heading, -rules.eighths);
    const NodeId right_id = rules.Id(nodes, p, right);
    const NodeId left_id = rules.Id(nodes, p, left);
    SearchNode& right_node = nodes.Touch(right_id);
    const bool try_right = !right_node.closed() && turned < Value(right_node.g);
    SearchNode& left_node = nodes.Touch(left_id);
    const bool try_left = !left_node.closed() && turned < Value(left_node.g);
    if ((try_right || try_left) && rules.TurnLegal(p)) {
      // (Nodes live in tiles that never move: the references hold.)
      if (try_right)
        lower(right_node, right_id, p, right, turned, kByTurnRight);
      if (try_left) lower(left_node, left_id, p, left, turned, kByTurnLeft);
    }
  }
  return SearchOutcome::kUnreachable;
}

}  // namespace

ClassAStar::ClassAStar(const Grid& terrain) : terrain_(&terrain) {}

size_t ClassAStar::MemoryUsage() const {
  size_t tables = 0;
  for (const std::optional<NodeTable>& t : tables_) {
    if (t.has_value()) tables += t->MemoryUsage();
  }
  return sizeof(*this) + tables + open_.MemoryUsage() + reversed_.capacity();
}

absl::Status ClassAStar::PrepareTable(int headings) {
  std::optional<NodeTable>& table =
      tables_[headings == 1 ? 0 : (headings == 4 ? 1 : 2)];
  if (table.has_value()) {
    nodes_ = &*table;
    return absl::OkStatus();
  }
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
  table.emplace(static_cast<int32_t>(width), terrain_->height());
  nodes_ = &*table;
  return absl::OkStatus();
}

bool LegalInBounds(const Grid& terrain, const AgentClass& agent, Point anchor,
                   std::optional<Direction> heading, const Rect& bounds) {
  // The anchor is the footprint's top-left cell: outside the bounds, no
  // heading fits (and a caller's anchor near INT32_MAX must not reach
  // Covers, whose ends would overflow).
  if (!bounds.Contains(anchor)) return false;
  const int step = 8 / agent.HeadingCount();  // N, E, S, W or all eight
  for (int i = 0; i < 8; i += step) {
    const Direction h = static_cast<Direction>(i);
    if (heading.has_value() && h != *heading) continue;
    const Rect r = agent.Covers(anchor, h);
    if (r.x0 < bounds.x0 || r.y0 < bounds.y0 || r.x1 > bounds.x1 ||
        r.y1 > bounds.y1) {
      continue;
    }
    if (PositionCost(terrain, agent, anchor, h) != 0) return true;
  }
  return false;
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
  // The bounds, clipped to the grid (so BoxCost checks only them).
  const Rect asked = options.bounds.value_or(terrain_->bounds());
  rules.bounds = {std::max(asked.x0, 0), std::max(asked.y0, 0),
                  std::min(asked.x1, terrain_->width()),
                  std::min(asked.y1, terrain_->height())};
  for (int d = 0; d < 8; ++d) {
    const Rect r = agent.Covers({0, 0}, static_cast<Direction>(d));
    rules.cover_w[d] = r.x1;
    rules.cover_h[d] = r.y1;
  }
  rules.sweep = agent.TurnSweep({0, 0}).x1;
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
  const double cheapest_multiplier = cheapest == 256 ? 1.0 : cheapest;
  rules.step_floor =
      cheapest_multiplier *
      (agent.oriented ? std::min(1.0, agent.backward_factor) : 1.0);
  rules.four_headed_bound = agent.oriented &&
                            agent.connectivity == Connectivity::kFour &&
                            agent.backward_factor >= 1;
  rules.backward_extra = (agent.backward_factor - 1) * cheapest_multiplier;
  rules.goal = goal;
  rules.goal_heading = goal_heading;

  if (rules.Position(start, start_heading) == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("start anchor ", PointString(start), " heading ",
                     DirectionName(start_heading),
                     " is not a legal position for class '", agent.name, "'"));
  }
  if (!LegalInBounds(*terrain_, agent, goal, goal_heading, rules.bounds)) {
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
