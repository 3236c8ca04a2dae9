// GridAStar: exact (or bounded-suboptimal) A* on a grid, with a reusable
// search context. The baseline every other planner is measured against, and
// the zone-restricted search the hierarchical planner refines with.
//
// One GridAStar per thread; the Grid is shared read-only. Scratch memory
// (node tiles, open list, path buffer) is kept between queries, so after
// warm-up FindPath allocates nothing, and it never clears O(map) state.
//
//   GridAStar astar(grid);
//   RunLengthPath path;
//   AStarOptions options;                 // octile, weight 1: optimal
//   ASSIGN_OR_RETURN(SearchOutcome outcome,
//                    astar.FindPath({1, 1}, {500, 400}, options, &path));
//   if (outcome == SearchOutcome::kFound) use(path.runs(), path.cost());
//   int64_t n = astar.stats().expanded;
#ifndef ZONEPATH_SEARCH_GRID_ASTAR_H_
#define ZONEPATH_SEARCH_GRID_ASTAR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/node_table.h"
#include "zonepath/search/open_list.h"
#include "zonepath/search/row_spans.h"
#include "zonepath/search/search_stats.h"

namespace zonepath {
namespace search_internal {
class OpenBits;
}  // namespace search_internal

enum class SearchOutcome { kFound, kUnreachable, kLimitReached };
absl::string_view SearchOutcomeName(SearchOutcome outcome);

struct AStarOptions {
  Connectivity connectivity = Connectivity::kEight;
  // f = g + weight * h. 1 is optimal; w > 1 returns a path at most w times
  // the optimal cost, usually after far fewer expansions.
  double weight = 1.0;
  // Stop with kLimitReached after this many expansions; 0 means no limit.
  int64_t max_expansions = 0;
  // Search only inside this rectangle (start and goal must lie in it).
  std::optional<Rect> bounds;
  // Search only inside this corridor as well (null: no corridor); start and
  // goal must lie in it. The smoother's windows use it to search a band
  // around the path instead of the window's whole bounding box.
  const RowSpans* corridor = nullptr;
  // Among the equally short paths the search found, prefer straight runs:
  // walking back from the goal, enter each cell in the direction the path
  // leaves it whenever that way in is exactly as short (fewer turns, same
  // cost).
  bool prefer_straight = false;
  // Search by jump points (Harabor & Grastien's JPS, with their rules for
  // moves that may not cut corners) where that is exact: 8-connected,
  // weight 1, and every passable cell of the grid costing the same. The
  // same optimal cost as A*, after far fewer expansions in open areas (an
  // expansion is then a jump point; the cells a jump scans are not
  // counted). With prefer_straight, the path's runs are then reordered
  // where that is legal (same steps, same cost, fewer turns); the path may
  // be another of the equally short ones than A*'s.
  // Elsewhere (weighted grids, 4-connected, weight > 1) plain A* runs.
  bool jump_points = false;
};

class GridAStar {
 public:
  // `grid` must outlive this object.
  explicit GridAStar(const Grid& grid);
  GridAStar(GridAStar&&) noexcept;
  GridAStar& operator=(GridAStar&&) noexcept;
  ~GridAStar();

  // Plans from `start` to `goal` into `path` (reset first; its capacity is
  // reused). Returns InvalidArgument if an endpoint is outside the grid or
  // the bounds, or blocked, or the options are invalid. kUnreachable for
  // endpoints in different components is answered without searching.
  absl::StatusOr<SearchOutcome> FindPath(Point start, Point goal,
                                         const AStarOptions& options,
                                         RunLengthPath* path);

  // The least costs from `source` to each of `targets` inside `bounds`
  // (out[i], +infinity where there is no way; a target listed twice gets
  // its cost twice), for connecting an endpoint to its zone's beacons in
  // one search: jump point search in order of cost, every target a stop of
  // every ray, until every target is settled. Only where
  // JumpDistancesApply holds (a grid of one cost, 8-connected moves,
  // bounds of at most 256 cells a side); InvalidArgument otherwise, or if
  // source is outside the bounds or blocked, or out.size() differs from
  // targets.size(). Allocates nothing.
  absl::Status JumpDistances(Point source, absl::Span<const Point> targets,
                             const Rect& bounds, absl::Span<double> out);
  static bool JumpDistancesApply(const Grid& grid, Connectivity connectivity,
                                 const Rect& bounds);
  // The octile distance from a to b where every passable cell costs
  // `cost`, summed as JumpDistances sums its costs (bit for bit the value
  // it gives a target whose shortest way has no detour), so a caller that
  // proves such a way by a walk can use it in the search's place.
  static double OctileDistance(Point a, Point b, uint8_t cost);

  // Bounded searches whose bounds fit in kLocalSide^2 cells run on a small
  // node table reset by a touched list, and by jump points read the open
  // cells 64 at a time; the others use the map-sized table.
  static constexpr int32_t kLocalSide = 256;

  // The open cells of a whole grid as bits (rows and columns, 2 bits a
  // cell, and the open 2 x 2 blocks along the diagonals, ~2 more: e.g.
  // ~0.5 MB for 1024 x 1024), for a grid where jump points run
  // (every passable cell costing the same) of at most kMaxGridBitsCells
  // cells; null otherwise. Immutable: one copy may serve every GridAStar
  // on that grid, in any thread (a planner's world keeps one,
  // World::DerivedOnce). O(cells) to make. Capped at 2^22 cells (2048 x
  // 2048, ~2 MB of bits): on rooms 4096^2 (4 MB of rows and columns)
  // free crossing queries ran 6 % slower on them than filling each
  // window's few KB, for 6 % fewer instructions (README).
  static constexpr int64_t kMaxGridBitsCells = int64_t{1} << 22;
  static std::shared_ptr<const search_internal::OpenBits> MakeGridOpenBits(
      const Grid& grid);
  static size_t GridOpenBitsMemory(const search_internal::OpenBits& bits);
  // Jump point searches without a corridor then read `bits` (from
  // MakeGridOpenBits on this object's grid, or null: none) instead of
  // filling their window's bits first (or, over more than kLocalSide^2
  // cells, reading cells one by one). Same paths either way. Bits of
  // another size than this object's grid are not used (as null).
  void UseGridOpenBits(std::shared_ptr<const search_internal::OpenBits> bits);
  // The grid's open bits this search reads (UseGridOpenBits), or null.
  const search_internal::OpenBits* grid_bits() const {
    return grid_bits_.get();
  }

  // The open cells of a grid of one cost too large for MakeGridOpenBits
  // (over kMaxGridBitsCells cells) in tiles (OpenCellTiles: 1 bit a cell,
  // e.g. 128 MB for 32768 x 32768); null for other grids, and for a grid
  // whose cells do not bear out its one cost. O(cells) to make.
  static std::shared_ptr<const OpenCellTiles> MakeCellTiles(const Grid& grid);
  // Searches then read open cells from `tiles` (MakeCellTiles on this
  // object's grid, or null: none) where they would read the grid's costs: a
  // jump point search fills its window's bits from them, and straightens
  // and costs its path on them (README, "Open cell tiles"). Same paths and
  // costs either way. Tiles of another size than the grid are not used.
  void UseCellTiles(std::shared_ptr<const OpenCellTiles> tiles);
  // The tiles this search reads (UseCellTiles), or null.
  const OpenCellTiles* cell_tiles() const { return cell_tiles_.get(); }

  // Statistics of the last FindPath or JumpDistances call.
  const SearchStats& stats() const { return stats_; }
  // True if the last search expanded cell p (for pictures and tests).
  bool Expanded(Point p) const;
  // Appends every expanded cell to `expanded` (null: off). For pictures and
  // debugging: it allocates.
  void set_trace(std::vector<Point>* expanded) { trace_ = expanded; }
  // Bytes of scratch memory held.
  size_t MemoryUsage() const;

 private:
  // The search with path costs held as Cost (see grid_astar.cc); writes
  // the path when found.
  template <typename Cost>
  SearchOutcome SearchWith(Point start, Point goal, const AStarOptions& options,
                           const Rect& bounds, RunLengthPath* path);
  // The steps the A* and jump point loops share (search_steps.h): start a
  // search at `start`, close the open list's best node, and record a
  // shorter cost g at `next` (reached by a step in direction d) and queue
  // it with key f_of(g, q).
  template <typename Cost, typename FOf>
  NodeTable& BeginSearch(Point start, const FOf& f_of);
  SearchNode& CloseBest(NodeTable& nodes, NodeId* id);
  template <typename Cost, typename FOf>
  void Improve(NodeTable& nodes, SearchNode& next, NodeId id, Point q,
               uint64_t g, int d, const FOf& f_of);
  // Jump point search (jump_points.cc), for grids of one cost, reading
  // the open cells through `open` (OpenCells, or OpenBits for searches on
  // the local node table).
  template <typename Cost, typename Open>
  SearchOutcome SearchJumps(Point start, Point goal,
                            const AStarOptions& options, const Open& open,
                            RunLengthPath* path);
  // Runs the rays the pruning rules keep from jump point p (node; the
  // start when is_start) and records every jump point they reach.
  template <typename Cost, typename Open, typename FOf>
  void ExpandJumpPoint(NodeTable& nodes, const Open& open,
                       const SearchNode& node, Point p, bool is_start,
                       Point goal, const FOf& f_of);
  // Walks the jump points' straight segments back from the goal (then
  // straightens them with prefer_straight).
  template <typename Cost>
  void ExtractJumpPath(Point start, Point goal, const AStarOptions& options,
                       const Rect& bounds, RunLengthPath* path);
  template <typename Cost>
  void ExtractPath(Point start, Point goal, const AStarOptions& options,
                   const Rect& bounds, RunLengthPath* path);

  NodeTable& Active() { return use_local_ ? local_nodes_ : nodes_; }
  const NodeTable& Active() const { return use_local_ ? local_nodes_ : nodes_; }
  NodeId IdOf(Point p) const {
    return Active().Id({p.x - origin_.x, p.y - origin_.y});
  }
  Point PointOfId(NodeId id) const {
    const Point local = Active().PointOf(id);
    return {local.x + origin_.x, local.y + origin_.y};
  }
  // The last search's node of grid cell p, null if its tile is untouched
  // or p lies outside the table.
  const SearchNode* FindNode(Point p) const;
  // Fills open_bits_ with the open cells of `bounds` (and `corridor`):
  // from the tiles where this search has them, else from the grid's costs.
  void FillOpenBits(const Rect& bounds, const RowSpans* corridor);

  const Grid* grid_;
  NodeTable nodes_;
  NodeTable local_nodes_;
  bool use_local_ = false;  // the last search used local_nodes_
  Point origin_{0, 0};      // grid cell of its table's node (0, 0)
  OpenList open_;
  std::vector<Direction> reversed_steps_;
  std::vector<Run> jump_runs_;  // a jump point path being straightened
  // The open cells of jump point searches on local_nodes_, as bits.
  std::unique_ptr<search_internal::OpenBits> open_bits_;
  // The whole grid's, shared (UseGridOpenBits), or null.
  std::shared_ptr<const search_internal::OpenBits> grid_bits_;
  // The whole grid's in tiles, shared (UseCellTiles), or null.
  std::shared_ptr<const OpenCellTiles> cell_tiles_;
  SearchStats stats_;
  std::vector<Point>* trace_ = nullptr;
};

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_GRID_ASTAR_H_
