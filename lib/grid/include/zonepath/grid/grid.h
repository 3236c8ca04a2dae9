// Grid: an immutable width x height terrain map with its connected components.
//
// Each cell holds one byte: 0 = blocked, 1..255 = the terrain cost multiplier
// (1 for plain ground). Components are computed once, when the grid is made,
// so "can A reach B?" is an O(1) comparison of two labels. Labels cost
// (almost) nothing per cell: the grid is cut into 64 x 64-cell label tiles;
// a tile gives its cells one label per *global* component among them, so a
// cell stores 0 bits when its tile's open cells all reach each other (even
// if only through other tiles: every tile of a maze, or of a rooms world
// with one connected floor), else 1, 2, 4, 8 or 16 bits, and a small table
// maps each tile label to its global component (see component()).
//
//   std::vector<uint8_t> costs(w * h, 1);
//   costs[5] = kBlocked;
//   ASSIGN_OR_RETURN(Grid grid, Grid::Create(w, h, std::move(costs)));
//   if (!grid.SameComponent(a, b)) { /* unreachable, no search needed */ }
#ifndef ZONEPATH_GRID_GRID_H_
#define ZONEPATH_GRID_GRID_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "zonepath/base/cow_array.h"
#include "zonepath/grid/geometry.h"

namespace zonepath {

inline constexpr uint8_t kBlocked = 0;

class Grid {
 public:
  // Limits: each side in [1, kMaxSide], and at most kMaxCells cells in all
  // (so a CellIndex fits in 32 bits with one value left for "invalid").
  static constexpr int64_t kMaxSide = 1 << 16;
  static constexpr int64_t kMaxCells = (int64_t{1} << 32) - 2;
  // Label of a blocked cell in component_labels().
  static constexpr uint32_t kNoComponent = 0xFFFFFFFFu;

  // Validates the size and that costs.size() == width * height, then computes
  // the connected components.
  static absl::StatusOr<Grid> Create(int64_t width, int64_t height,
                                     std::vector<uint8_t> costs);
  // The same on costs already in pages (e.g. views of a mapped world file,
  // CowArray::FromExternal): the grid reads them in place.
  static absl::StatusOr<Grid> CreateFromPages(int64_t width, int64_t height,
                                              CowArray<uint8_t> costs);
  // Checks a width and height against the limits (used by readers before
  // they allocate anything).
  static absl::Status CheckSize(int64_t width, int64_t height);

  // A copy with some cells' costs replaced (cells must be in bounds; a later
  // entry for the same cell wins). Both grids share every page of costs and
  // labels (CowArray) that the changes do not touch. Cost changes keep every
  // label. A label tile where a cell turns blocked or open is cut into its
  // pieces again (O(tile)); if its border cells stay open and grouped into
  // pieces as before, nothing else changes (its inner pieces get fresh
  // global labels). Otherwise the global components are joined again from
  // the tile labels (O(tile borders + tile labels)), after cutting into
  // pieces again every tile that holds a component that lost a cell (it may
  // have split; O(tile) each, so up to O(cells of that component)).
  struct CellCost {
    CellIndex cell;
    uint8_t cost;
  };
  Grid WithCosts(const std::vector<CellCost>& changes) const;

  Grid() = default;
  Grid(Grid&&) = default;
  Grid& operator=(Grid&&) = default;
  Grid(const Grid&) = default;
  Grid& operator=(const Grid&) = default;

  int32_t width() const { return width_; }
  int32_t height() const { return height_; }
  int64_t cell_count() const { return int64_t{width_} * height_; }
  Rect bounds() const { return {0, 0, width_, height_}; }

  bool InBounds(Point p) const {
    return p.x >= 0 && p.y >= 0 && p.x < width_ && p.y < height_;
  }
  CellIndex Index(Point p) const {
    return CellIndex(static_cast<uint32_t>(p.y) *
                         static_cast<uint32_t>(width_) +
                     static_cast<uint32_t>(p.x));
  }
  Point ToPoint(CellIndex c) const {
    return {static_cast<int32_t>(c.value() % static_cast<uint32_t>(width_)),
            static_cast<int32_t>(c.value() / static_cast<uint32_t>(width_))};
  }

  // Requires InBounds(p).
  uint8_t cost(Point p) const { return costs_[Index(p).value()]; }
  uint8_t cost(CellIndex c) const { return costs_[c.value()]; }
  bool passable(Point p) const { return cost(p) != kBlocked; }
  // Out-of-bounds cells count as blocked.
  bool PassableOrFalse(Point p) const { return InBounds(p) && passable(p); }

  // Smallest cost of a passable cell (1 if there is none); heuristics scale
  // by it so that they stay admissible on weighted worlds.
  uint8_t min_cost() const { return min_cost_; }
  int64_t passable_count() const { return passable_count_; }

  // Component label of a cell, or kNoComponent if blocked. Two passable cells
  // reach each other (8- or 4-connected alike, since diagonal moves may not
  // cut corners) exactly when their labels are equal. O(1): the cell's
  // tile record, its packed tile-local label, one table entry.
  uint32_t component(Point p) const {
    if (!passable(p)) return kNoComponent;
    const uint32_t tile = TileOf(p);
    const TileLabels& t = tiles_[tile];
    return local_global_[t.first_local + LocalLabel(t, p)];
  }
  bool SameComponent(Point a, Point b) const {
    uint32_t ca = component(a);
    return ca != kNoComponent && ca == component(b);
  }
  // Labels are < component_count(). Exact count for a grid made by Create;
  // after WithCosts some labels may have fallen out of use.
  uint32_t component_count() const { return component_count_; }

  // All costs, row by row (a copy: O(cells)).
  std::vector<uint8_t> CostVector() const { return costs_.ToVector(); }
  // Calls fn(const uint8_t* data, size_t n) for consecutive stretches of
  // the costs, row by row, without copying them (writers stream them).
  template <typename Fn>
  void ForEachCostSpan(Fn&& fn) const {
    costs_.ForEachPage(fn);
  }
  // Calls fn(const uint8_t* data, size_t n) for the stretches of cells
  // x0 .. x1 - 1 of row y that lie in one page each, in order (hot loops
  // over short stretches). Requires 0 <= x0 <= x1 <= width() and
  // 0 <= y < height().
  template <typename Fn>
  void ForEachCostSpanInRow(int32_t y, int32_t x0, int32_t x1, Fn&& fn) const {
    const size_t row = static_cast<size_t>(y) * static_cast<size_t>(width_);
    costs_.ForEachSpanIn(row + static_cast<size_t>(x0),
                         row + static_cast<size_t>(x1), fn);
  }

  // Side of the label tiles, in cells.
  static constexpr int kLabelTileShift = 6;
  static constexpr int32_t kLabelTileSide = 1 << kLabelTileShift;
  // Bytes of the component labels alone (packed cell labels, tile records,
  // tile-to-global table).
  size_t ComponentBytes() const;

  // One label tile: its cells' labels are `bits` wide (0: all open cells
  // have label 0; labels name distinct global components), packed row by row
  // (tile width) from byte `byte_offset` of the cell labels, in a slot sized
  // for `slot_bits`; local label l is global component local_global[first_local
  // + l]. The layout is also the world file's (16 bytes, little-endian).
  struct TileLabels {
    uint64_t byte_offset = 0;
    uint32_t first_local = 0;
    uint16_t local_count = 0;  // tile labels (at most 2048)
    uint8_t bits = 0;
    uint8_t slot_bits = 0;
    bool operator==(const TileLabels&) const = default;
  };
  static_assert(sizeof(TileLabels) == 16);
  // Most tile-local components a tile can hold (a checkerboard of 64 x 64).
  static constexpr uint32_t kMaxTileComponents =
      kLabelTileSide * kLabelTileSide / 2;

  // The component labels in the canonical form a world file stores: each
  // tile labelled by the global components among its cells (numbered by
  // first cell, row by row), tiles in order, each tile's packed labels right
  // after the previous tile's (slot_bits == bits; byte_offset 0 when bits is
  // 0), table entries in tile order, components numbered in order of first
  // appearance, plus the count of cells of each cost. A grid made by Create is
  // already in this form (the arrays are shared, not copied); one changed by
  // WithCosts is copied into it (O(tiles + label bytes)). Equal grids give
  // equal parts, whatever changes they went through.
  struct StoredComponents {
    CowArray<TileLabels> tiles;
    CowArray<uint8_t> cell_labels;
    CowArray<uint32_t> local_global;
    uint32_t component_count = 0;
    std::vector<int64_t> cost_counts;  // 256 entries
  };
  StoredComponents Components() const;
  // A grid from its costs and stored components (e.g. views of a mapped
  // world file), without labelling the cells again: O(tiles + components +
  // label bytes), plus the cells of tiles the labels say are all blocked.
  // Checks everything component() and WithCosts rely on to stay in bounds
  // (InvalidArgument naming the tile or entry otherwise): the canonical
  // layout, label values below their tile's count, global labels below
  // component_count, cost counts that sum to the cells. It cannot tell
  // labels that merely disagree with the costs (that takes O(cells):
  // SameComponentsAs on a grid made by Create); those give wrong
  // reachability answers, never an out-of-bounds read.
  // `threads`: for the label scan (<= 0: one per hardware thread).
  static absl::StatusOr<Grid> CreateWithComponents(int64_t width,
                                                   int64_t height,
                                                   CowArray<uint8_t> costs,
                                                   StoredComponents stored,
                                                   int threads = 1);
  // Whether both grids store the same components (canonical forms equal).
  bool SameComponentsAs(const Grid& other) const;

  // Whether this grid reads the same cost and label pages as `other` (a
  // copy of it): their bytes exist once, whatever each MemoryUsage says.
  bool SharesStorageWith(const Grid& other) const {
    return costs_.SharesPagesWith(other.costs_) &&
           cell_labels_.SharesPagesWith(other.cell_labels_) &&
           tiles_.SharesPagesWith(other.tiles_) &&
           local_global_.SharesPagesWith(other.local_global_);
  }
  // Cells holding cost value `cost` (blocked ones for kBlocked); O(1).
  int64_t CellsOfCost(uint8_t cost) const { return cost_counts_[cost]; }
  // Every passable cell costs the same (true with none): where jump point
  // search is exact and reordering moves keeps a path's cost.
  bool OneCost() const { return CellsOfCost(min_cost_) == passable_count_; }

  // Bytes held by this grid (cost and component arrays, shared pages
  // included) and the part of them this grid wrote itself rather than
  // sharing with the grid it was made from.
  size_t MemoryUsage() const;
  size_t OwnedBytes() const;
  // The part of MemoryUsage that views external memory (a mapped file's
  // cost bytes and component labels): file-backed, shared between
  // processes that map the file.
  size_t MappedBytes() const {
    return costs_.MappedBytes() + cell_labels_.MappedBytes() +
           tiles_.MappedBytes() + local_global_.MappedBytes();
  }

 private:
  // A tile's open cells labelled by tile-local component (row-major order of
  // first cells), and how many components.
  struct LocalLabels {
    std::vector<uint16_t> labels;  // per tile cell, row by row
    uint32_t count = 0;
    // LabelTile's scratch (kept to reuse its capacity): the tile's runs of
    // open cells, row by row, and a union-find parent per run.
    struct Run {
      int32_t y, x0, x1;  // tile-relative, cells [x0, x1) of row y
    };
    std::vector<Run> runs;
    std::vector<uint32_t> parent;
  };

  uint32_t tiles_x() const {
    return static_cast<uint32_t>((width_ + kLabelTileSide - 1) >>
                                 kLabelTileShift);
  }
  uint32_t tile_count() const {
    return tiles_x() * static_cast<uint32_t>((height_ + kLabelTileSide - 1) >>
                                             kLabelTileShift);
  }
  uint32_t TileOf(Point p) const {
    return static_cast<uint32_t>(p.y >> kLabelTileShift) * tiles_x() +
           static_cast<uint32_t>(p.x >> kLabelTileShift);
  }
  // The size checks of every Create, and a grid of `costs` with no
  // component labels or counts yet.
  static absl::StatusOr<Grid> WithoutLabels(int64_t width, int64_t height,
                                            CowArray<uint8_t> costs);
  Rect TileRect(uint32_t tile) const;
  // A stored tile's labels index its range (CreateWithComponents).
  absl::Status CheckTileLabels(uint32_t tile) const;
  // Bytes of a tile's labels packed `bits` wide.
  uint64_t PackedTileBytes(uint32_t tile, uint8_t bits) const;
  uint32_t LocalLabel(const TileLabels& t, Point p) const {
    if (t.bits == 0) return 0;
    const int32_t tile_w =
        std::min(kLabelTileSide, width_ - (p.x & ~(kLabelTileSide - 1)));
    const uint64_t i =
        static_cast<uint64_t>(p.y & (kLabelTileSide - 1)) * tile_w +
        static_cast<uint64_t>(p.x & (kLabelTileSide - 1));
    if (t.bits == 16) {
      const uint64_t at = t.byte_offset + 2 * i;
      return cell_labels_[at] | (uint32_t{cell_labels_[at + 1]} << 8);
    }
    const uint64_t bit = i * t.bits;
    return (cell_labels_[t.byte_offset + (bit >> 3)] >> (bit & 7)) &
           ((1u << t.bits) - 1);
  }

  void CountCosts();      // cost_counts_ from scratch, then SummariseCosts
  void SummariseCosts();  // passable_count_ and min_cost_ from cost_counts_
  // Labels every tile, then the global components.
  void ComputeComponents();
  // One tile's open cells cut into pieces (4-connected, inside the tile),
  // numbered by first cell: runs of open cells joined with the runs they
  // touch in the row above (union-find), O(tile cells).
  void LabelTile(uint32_t tile, LocalLabels* out) const;
  // Stores a tile's local labels: in its slot when they fit, else in a new
  // slot at the end of cell_labels_. Does not touch first_local.
  void StoreLocalLabels(uint32_t tile, const LocalLabels& local);
  // Global components from the tile-local ones: union across tile borders,
  // numbered by first local label. Rewrites local_global_ and first_local.
  void ComputeGlobalComponents();
  // ComputeGlobalComponents, then MergeTileLabels on every tile.
  void JoinComponents();
  // Gives a tile one label per global component among its cells (labels
  // that name the same component become one, in order of first cell):
  // O(tile-local labels), plus O(tile) when some labels merge.
  void MergeTileLabels(uint32_t tile);
  // Lays the labels out canonically when their slots hold more than twice
  // the live label bytes (an update left wide slots behind).
  void CompactLabelsIfSparse();
  // Replaces the label arrays by their canonical layout (Components()).
  void AdoptCanonical();
  // After tiles `tiles` (sorted) were relabelled locally into `locals`:
  // keeps the global labels of everything else when every such tile's
  // border cells are open and grouped exactly as before (so nothing outside
  // can tell); false if only ComputeGlobalComponents can tell.
  bool RelabelTilesLocally(const Grid& before,
                           const std::vector<uint32_t>& tiles,
                           const std::vector<LocalLabels>& locals);

  int32_t width_ = 0;
  int32_t height_ = 0;
  CowArray<uint8_t> costs_;
  // Component labels: packed tile-local labels, one record per tile, and the
  // global component of every tile-local one.
  CowArray<uint8_t> cell_labels_;
  CowArray<TileLabels> tiles_;
  CowArray<uint32_t> local_global_;
  uint32_t component_count_ = 0;
  uint64_t live_locals_ =
      0;  // sum of local_count (the rest of the table is dead)
  // Cells per cost value: keeps passable_count_ and min_cost_ exact under
  // WithCosts without a scan of the grid.
  std::vector<int64_t> cost_counts_;
  int64_t passable_count_ = 0;
  uint8_t min_cost_ = 1;
};

}  // namespace zonepath

#endif  // ZONEPATH_GRID_GRID_H_
