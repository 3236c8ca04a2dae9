#include "zonepath/search/grid_astar.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "open_bits.h"
#include "open_cells.h"
#include "path_costs.h"
#include "search_steps.h"
#include "zonepath/search/search_common.h"

namespace zonepath {
namespace {

using search_internal::DoubleCost;
using search_internal::PairCost;

// Terrain costs of p's eight neighbours in Direction order (0 for blocked
// cells and cells outside `bounds`) and the mask of directions a unit on p
// may step in (OpenDirections). Cells strictly inside `bounds` skip the
// bounds checks and read the three rows by cell index.
uint8_t ReadNeighbours(const Grid& grid, Point p, const Rect& bounds,
                       const RowSpans* corridor, Connectivity connectivity,
                       uint8_t cost[8]) {
  if (p.x > bounds.x0 && p.y > bounds.y0 && p.x + 1 < bounds.x1 &&
      p.y + 1 < bounds.y1) {
    const uint32_t w = static_cast<uint32_t>(grid.width());
    const uint32_t i = grid.Index(p).value();
    cost[0] = grid.cost(CellIndex(i - w));
    cost[1] = grid.cost(CellIndex(i - w + 1));
    cost[2] = grid.cost(CellIndex(i + 1));
    cost[3] = grid.cost(CellIndex(i + w + 1));
    cost[4] = grid.cost(CellIndex(i + w));
    cost[5] = grid.cost(CellIndex(i + w - 1));
    cost[6] = grid.cost(CellIndex(i - 1));
    cost[7] = grid.cost(CellIndex(i - w - 1));
  } else {
    for (int d = 0; d < kDirectionCount; ++d) {
      const Point q = Step(p, static_cast<Direction>(d));
      cost[d] = bounds.Contains(q) ? grid.cost(q) : kBlocked;
    }
  }
  if (corridor != nullptr) {
    for (int d = 0; d < kDirectionCount; ++d) {
      if (!corridor->Contains(Step(p, static_cast<Direction>(d)))) {
        cost[d] = kBlocked;
      }
    }
  }
  const uint32_t n = cost[0] != 0, e = cost[2] != 0, s = cost[4] != 0,
                 w = cost[6] != 0;
  uint32_t open = n | e << 2 | s << 4 | w << 6;
  if (connectivity == Connectivity::kEight) {
    open |= (n & e & (cost[1] != 0)) << 1 | (e & s & (cost[3] != 0)) << 3 |
            (s & w & (cost[5] != 0)) << 5 | (w & n & (cost[7] != 0)) << 7;
  }
  return static_cast<uint8_t>(open);
}

// Offset of the neighbour in direction d within a node tile.
constexpr int32_t kTileOffset[kDirectionCount] = {-NodeTable::kTileSide,
                                                  -NodeTable::kTileSide + 1,
                                                  1,
                                                  NodeTable::kTileSide + 1,
                                                  NodeTable::kTileSide,
                                                  NodeTable::kTileSide - 1,
                                                  -1,
                                                  -NodeTable::kTileSide - 1};

}  // namespace

absl::string_view SearchOutcomeName(SearchOutcome outcome) {
  switch (outcome) {
    case SearchOutcome::kFound:
      return "found";
    case SearchOutcome::kUnreachable:
      return "unreachable";
    case SearchOutcome::kLimitReached:
      return "limit";
  }
  return "?";
}

GridAStar::GridAStar(const Grid& grid)
    : grid_(&grid),
      nodes_(grid.width(), grid.height()),
      local_nodes_(std::min<int32_t>(grid.width(), kLocalSide),
                   std::min<int32_t>(grid.height(), kLocalSide)),
      open_bits_(std::make_unique<search_internal::OpenBits>()) {}

GridAStar::GridAStar(GridAStar&&) noexcept = default;
GridAStar& GridAStar::operator=(GridAStar&&) noexcept = default;
GridAStar::~GridAStar() = default;

absl::StatusOr<SearchOutcome> GridAStar::FindPath(Point start, Point goal,
                                                  const AStarOptions& options,
                                                  RunLengthPath* path) {
  stats_ = SearchStats();
  if (!(options.weight >= 1.0) || !std::isfinite(options.weight)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "A* weight must be a finite number >= 1, got ", options.weight));
  }
  if (options.max_expansions < 0) {
    return absl::InvalidArgumentError("A* max_expansions must be >= 0");
  }
  // Bounds reaching past the grid search the part on it (the local node
  // table below is addressed from their corner, which must be a cell).
  const Rect bounds =
      Intersect(options.bounds.value_or(grid_->bounds()), grid_->bounds());
  if (absl::Status s = CheckEndpoint(*grid_, bounds, start, "start"); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckEndpoint(*grid_, bounds, goal, "goal"); !s.ok()) {
    return s;
  }
  if (options.corridor != nullptr && !(options.corridor->Contains(start) &&
                                       options.corridor->Contains(goal))) {
    return absl::InvalidArgumentError(
        "A* corridor must contain the start and the goal");
  }
  path->Reset(start);
  if (start == goal) return SearchOutcome::kFound;
  if (!grid_->SameComponent(start, goal)) return SearchOutcome::kUnreachable;

  // Small bounded searches (refinement, smoothing windows, close queries)
  // use a table of kLocalSide^2 nodes addressed from the bounds' corner: it
  // stays in cache from one search to the next wherever on the map they
  // run, and the planner's scratch does not grow with the area its queries
  // have visited.
  if (bounds.width() <= kLocalSide && bounds.height() <= kLocalSide &&
      options.bounds.has_value()) {
    use_local_ = true;
    origin_ = {bounds.x0, bounds.y0};
  } else {
    use_local_ = false;
    origin_ = {0, 0};
  }
  const absl::Time begin = absl::Now();
  const bool pair_cost =
      static_cast<int64_t>(bounds.width()) * bounds.height() <=
      PairCost::kMaxPairCells;
  // Jump points are exact only where every passable cell costs the same.
  const bool jumps = options.jump_points && options.weight == 1.0 &&
                     options.connectivity == Connectivity::kEight &&
                     grid_->OneCost();
  SearchOutcome outcome;
  if (jumps && grid_bits_ != nullptr && options.corridor == nullptr) {
    // The grid's own bits, walled at the bounds: no fill.
    const search_internal::OpenBitsWindow open(
        *grid_bits_, Intersect(bounds, grid_->bounds()));
    outcome = pair_cost
                  ? SearchJumps<PairCost>(start, goal, options, open, path)
                  : SearchJumps<DoubleCost>(start, goal, options, open, path);
  } else if (jumps && use_local_) {
    // A small window: its open cells as bits, 64 read at a time.
    static_assert(kLocalSide <= search_internal::OpenBits::kMaxSide);
    FillOpenBits(bounds, options.corridor);
    const search_internal::OpenBits& open = *open_bits_;
    outcome = pair_cost
                  ? SearchJumps<PairCost>(start, goal, options, open, path)
                  : SearchJumps<DoubleCost>(start, goal, options, open, path);
  } else if (jumps) {
    const search_internal::OpenCells open(*grid_, bounds, options.corridor);
    outcome = pair_cost
                  ? SearchJumps<PairCost>(start, goal, options, open, path)
                  : SearchJumps<DoubleCost>(start, goal, options, open, path);
  } else {
    outcome = pair_cost
                  ? SearchWith<PairCost>(start, goal, options, bounds, path)
                  : SearchWith<DoubleCost>(start, goal, options, bounds, path);
  }
  stats_.time = absl::Now() - begin;
  return outcome;
}

template <typename Cost>
SearchOutcome GridAStar::SearchWith(Point start, Point goal,
                                    const AStarOptions& options,
                                    const Rect& bounds, RunLengthPath* path) {
  const Grid& grid = *grid_;
  const double h_scale = options.weight;
  const double min_cost = grid.min_cost();
  const bool eight = options.connectivity == Connectivity::kEight;
  const bool reopen = h_scale != 1.0;
  // f of a node with cost g at q. With weight 1 and PairCost, g + h is
  // summed as a pair so that equal f are equal bit for bit.
  auto f_of = [&](uint64_t g, Point q) {
    if constexpr (std::is_same_v<Cost, PairCost>) {
      if (h_scale == 1.0) {
        const uint64_t dx = static_cast<uint64_t>(std::abs(q.x - goal.x));
        const uint64_t dy = static_cast<uint64_t>(std::abs(q.y - goal.y));
        const uint64_t lo = eight ? std::min(dx, dy) : 0;
        const uint64_t twice_min = 2 * grid.min_cost();
        return PairCost::Value(
            (g & 0xFFFFFFFFu) + twice_min * (dx + dy - 2 * lo),
            (g >> 32) + twice_min * lo);
      }
    }
    return Cost::Value(g) +
           h_scale * HeuristicCost(q, goal, options.connectivity, min_cost);
  };

  NodeTable& nodes = BeginSearch<Cost>(start, f_of);
  const NodeId goal_id = IdOf(goal);
  while (!open_.empty()) {
    NodeId id;
    SearchNode& node = CloseBest(nodes, &id);
    const Point p = PointOfId(id);
    if (id == goal_id) {
      ExtractPath<Cost>(start, goal, options, bounds, path);
      return SearchOutcome::kFound;
    }
    if (options.max_expansions > 0 &&
        stats_.expanded >= options.max_expansions) {
      return SearchOutcome::kLimitReached;
    }
    const uint64_t p_g = node.g;
    const uint32_t p_cost = grid.cost(p);
    uint8_t cost[kDirectionCount];
    const uint32_t open = ReadNeighbours(grid, p, bounds, options.corridor,
                                         options.connectivity, cost);
    // Neighbours inside p's tile are addressed from p's node directly.
    const NodeId local_x = id & (NodeTable::kTileSide - 1);
    const NodeId local_y =
        (id >> NodeTable::kTileShift) & (NodeTable::kTileSide - 1);
    const bool inside_tile = local_x - 1 < NodeId{NodeTable::kTileSide - 2} &&
                             local_y - 1 < NodeId{NodeTable::kTileSide - 2};
    for (int d = 0; d < kDirectionCount; ++d) {
      if (!(open >> d & 1)) continue;
      const Point q = Step(p, static_cast<Direction>(d));
      const uint64_t g = Cost::Add(p_g, d, p_cost + cost[d]);
      NodeId q_id;
      SearchNode* next_ptr;
      if (inside_tile) {
        q_id = id + static_cast<NodeId>(kTileOffset[d]);
        next_ptr = &node + kTileOffset[d];
        if (!nodes.Fresh(*next_ptr)) nodes.Init(*next_ptr);
      } else {
        q_id = IdOf(q);
        next_ptr = &nodes.Touch(q_id);
      }
      SearchNode& next = *next_ptr;
      // With a consistent heuristic (weight 1) an expanded node's g is
      // final; weighted A* may reopen it.
      if (next.closed() && !reopen) continue;
      Improve<Cost>(nodes, next, q_id, q, g, d, f_of);
    }
  }
  return SearchOutcome::kUnreachable;
}

template <typename Cost>
void GridAStar::ExtractPath(Point start, Point goal,
                            const AStarOptions& options, const Rect& bounds,
                            RunLengthPath* path) {
  const Grid& grid = *grid_;
  reversed_steps_.clear();
  Point q = goal;
  int out = -1;  // direction of the step leaving q (none at the goal)
  while (!(q == start)) {
    const SearchNode& n = Active().Node(IdOf(q));
    int d = n.parent();
    // prefer_straight: enter q in the direction we leave it if the cell
    // behind q was reached at exactly g(q) minus that step's cost. Its own
    // chain back to the start is then just as short, so the path keeps its
    // cost and loses a turn. g falls with every step, so the walk ends.
    if (options.prefer_straight && out >= 0 && out != d) {
      uint8_t cost[kDirectionCount];
      const int back = static_cast<int>(Opposite(static_cast<Direction>(out)));
      if (ReadNeighbours(grid, q, bounds, options.corridor,
                         options.connectivity, cost) >>
              back &
          1) {
        const SearchNode* r = FindNode(Step(q, static_cast<Direction>(back)));
        if (r != nullptr && Active().Fresh(*r) && r->g != Cost::kUnreached &&
            Cost::Equal(Cost::Add(r->g, out, grid.cost(q) + cost[back]), n.g)) {
          d = out;
        }
      }
    }
    reversed_steps_.push_back(static_cast<Direction>(d));
    out = d;
    q = Step(q, Opposite(static_cast<Direction>(d)));
  }
  // The cost is summed in walking order, so it equals WalkPath's exactly.
  double cost = 0;
  Point p = start;
  for (auto it = reversed_steps_.rbegin(); it != reversed_steps_.rend(); ++it) {
    path->Append(*it);
    cost += StepCost(grid, p, *it);
    p = Step(p, *it);
  }
  path->set_cost(cost);
}

const SearchNode* GridAStar::FindNode(Point p) const {
  const Point local{p.x - origin_.x, p.y - origin_.y};
  if (use_local_ && (local.x < 0 || local.y < 0 || local.x >= kLocalSide ||
                     local.y >= kLocalSide)) {
    return nullptr;
  }
  return Active().Find(local);
}

bool GridAStar::Expanded(Point p) const {
  if (!grid_->InBounds(p)) return false;
  const SearchNode* n = FindNode(p);
  return n != nullptr && Active().Fresh(*n) && n->closed();
}

void GridAStar::UseGridOpenBits(
    std::shared_ptr<const search_internal::OpenBits> bits) {
  grid_bits_ = bits != nullptr && bits->CoversWholeGrid(*grid_)
                   ? std::move(bits)
                   : nullptr;
}

std::shared_ptr<const search_internal::OpenBits> GridAStar::MakeGridOpenBits(
    const Grid& grid) {
  if (!grid.OneCost() ||
      static_cast<int64_t>(grid.width()) * grid.height() > kMaxGridBitsCells) {
    return nullptr;
  }
  return std::make_shared<const search_internal::OpenBits>(
      search_internal::OpenBits::OfWholeGrid(grid));
}

size_t GridAStar::GridOpenBitsMemory(const search_internal::OpenBits& bits) {
  return bits.MemoryUsage();
}

std::shared_ptr<const OpenCellTiles> GridAStar::MakeCellTiles(
    const Grid& grid) {
  if (!grid.OneCost() ||
      static_cast<int64_t>(grid.width()) * grid.height() <= kMaxGridBitsCells) {
    return nullptr;
  }
  return OpenCellTiles::Of(grid);
}

void GridAStar::UseCellTiles(std::shared_ptr<const OpenCellTiles> tiles) {
  cell_tiles_ = tiles != nullptr && tiles->width() == grid_->width() &&
                        tiles->height() == grid_->height()
                    ? std::move(tiles)
                    : nullptr;
}

void GridAStar::FillOpenBits(const Rect& bounds, const RowSpans* corridor) {
  if (cell_tiles_ != nullptr) {
    open_bits_->FillFromTiles(*cell_tiles_, bounds, corridor);
  } else {
    open_bits_->Fill(*grid_, bounds, corridor);
  }
}

size_t GridAStar::MemoryUsage() const {
  return sizeof(*this) + nodes_.MemoryUsage() + local_nodes_.MemoryUsage() +
         open_.MemoryUsage() + reversed_steps_.capacity() * sizeof(Direction) +
         jump_runs_.capacity() * sizeof(Run) +
         (open_bits_ != nullptr ? open_bits_->MemoryUsage() : 0);
}

}  // namespace zonepath
