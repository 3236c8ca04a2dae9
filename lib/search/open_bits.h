// The open cells of one small bounded search as bits (internal to the search
// library): jump point search reads them 64 cells at a time.
//
// A jump point search scans long straight rays, and every step of a
// diagonal ray scans two straight ones, so reading cells one by one (bounds,
// corridor and the grid's pages for each) is most of its time. OpenBits
// holds the same set as OpenCells (inside the clipped bounds, inside the
// corridor, passable) twice: row by row, and column by column, so that a
// straight ray in any of the four directions finds its stop — a closed cell,
// or a side cell open where the one behind it was not — with a few word
// operations per 64 cells. Filled once over a whole grid of one cost
// (GridAStar::MakeGridOpenBits), the same bits serve any window of it
// through OpenBitsWindow, whose rays stop at the window's edges; a whole
// grid's bits also keep, line by line along the diagonals, which 2 x 2
// blocks are open, so that a diagonal run (string pulling's ways of one
// turn, RunOpen and DiagonalReach) is read 64 moves at a time too.
//
//   OpenBits bits;                      // scratch, kept between searches
//   bits.Fill(grid, bounds, corridor);  // O(cells of the bounds)
//   if (bits(x, y)) ...;                // same answer as OpenCells
//   uint32_t steps;
//   if (bits.JumpStraight(p, 1, 0, goal, &steps)) ...;  // as OpenCells'
#ifndef ZONEPATH_SEARCH_OPEN_BITS_H_
#define ZONEPATH_SEARCH_OPEN_BITS_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath::search_internal {

class OpenBits {
 public:
  // Largest bounds side Fill takes (GridAStar's local node table's side):
  // at most (258 / 64 rounded up) x 258 words per copy, 10 KB each.
  static constexpr int32_t kMaxSide = 256;

  // Reserves room for bounds of kMaxSide a side (about 40 KB with the
  // targets' copies), so that no Fill allocates.
  OpenBits() {
    const size_t words = size_t{kMaxSide + 2} * ((kMaxSide + 2 + 63) / 64);
    rows_.reserve(words);
    cols_.reserve(words);
    target_rows_.reserve(words);
    target_cols_.reserve(words);
  }

  // The open cells of `grid` inside `bounds` clipped to the grid, inside
  // `corridor` if not null. Allocates nothing for bounds of at most
  // kMaxSide cells a side (a search's window); larger bounds (a whole
  // grid's bits, GridAStar::MakeGridOpenBits) grow the arrays.
  void Fill(const Grid& grid, const Rect& bounds, const RowSpans* corridor);
  // What Fill(grid, bounds, nullptr) gives, copied from `whole`, the bits
  // of the whole grid (OfWholeGrid; bounds are clipped to it): a few word
  // operations a row and a column, instead of reading every cell's cost
  // and transposing (zones of 32 x 32 cells, the connections on Cauldron:
  // ~4 k instructions less than Fill's ~8 k). Allocates nothing for bounds
  // of at most kMaxSide cells a side.
  void FillFrom(const OpenBits& whole, const Rect& bounds);
  // What Fill(grid, bounds, corridor) gives, read from `tiles`, the same
  // grid's open cells in 64 x 64 tiles: a zone's bits from a few hundred
  // contiguous bytes instead of a cold read per row of a large grid
  // (zonepath/grid/open_cell_tiles.h). Allocates nothing for bounds of at most
  // kMaxSide cells a side.
  void FillFromTiles(const OpenCellTiles& tiles, const Rect& bounds,
                     const RowSpans* corridor);
  // The bits of the whole of `grid` (no room for targets kept): what
  // GridAStar::MakeGridOpenBits shares.
  static OpenBits OfWholeGrid(const Grid& grid);
  // Whether these are the bits of a whole grid of `grid`'s size.
  bool CoversWholeGrid(const Grid& grid) const {
    return x0_ == 0 && y0_ == 0 &&
           width_ == static_cast<uint32_t>(grid.width()) + 2 &&
           height_ == static_cast<uint32_t>(grid.height()) + 2;
  }

  // Makes every open cell of `targets` a stop of every ray, like a goal
  // (until the next Fill); closed or outside targets are ignored. For
  // searches that settle several targets at once (GridAStar::JumpDistances).
  void SetTargets(absl::Span<const Point> targets);
  // The distinct open targets SetTargets set.
  uint32_t TargetCount() const { return target_count_; }
  // Whether (x, y) is a target set by SetTargets since the last Fill.
  bool IsTarget(int32_t x, int32_t y) const {
    if (!has_targets_) return false;
    const uint32_t lx = static_cast<uint32_t>(x - x0_ + 1);
    const uint32_t ly = static_cast<uint32_t>(y - y0_ + 1);
    if (lx >= width_ || ly >= height_) return false;
    return (target_rows_[ly * row_words_ + (lx >> 6)] >> (lx & 63)) & 1;
  }

  // Whether cell (x, y) is open; any coordinates (outside: false).
  bool operator()(int32_t x, int32_t y) const {
    const uint32_t lx = static_cast<uint32_t>(x - x0_ + 1);
    const uint32_t ly = static_cast<uint32_t>(y - y0_ + 1);
    if (lx >= width_ || ly >= height_) return false;
    return (rows_[ly * row_words_ + (lx >> 6)] >> (lx & 63)) & 1;
  }

  // The straight ray from open cell p (exclusive) in direction (dx, dy),
  // one of them 0: true with *steps when it stops at a jump point (the goal,
  // a target, or a cell beside which a side cell is open where the one
  // behind it was not), false when it runs into a closed cell. The same
  // answer as stepping cell by cell.
  bool JumpStraight(Point p, int dx, int dy, Point goal,
                    uint32_t* steps) const {
    return Jump</*kWalled=*/false>(p, dx, dy, goal, Rect{}, steps);
  }
  // The same as if only the cells inside `bounds` (grid coordinates,
  // inside the bits' own bounds) were open: what a Fill of `bounds` would
  // answer, without the fill (OpenBitsWindow).
  bool JumpStraightWithin(const Rect& bounds, Point p, int dx, int dy,
                          Point goal, uint32_t* steps) const {
    return Jump</*kWalled=*/true>(p, dx, dy, goal, bounds, steps);
  }

  // Whether the `steps` moves from p in direction (dx, dy) (each in -1..1,
  // not both 0) are legal: every cell they reach open, and a diagonal move
  // also needs both orthogonal cells it passes (no corner cutting). p
  // itself is not read (the caller stands on it, so it is open); cells
  // outside the bits read closed. A straight run reads its line's words,
  // 64 cells at a time.
  bool RunOpen(Point p, int dx, int dy, uint32_t steps) const {
    if (dx == 0 && dy == 0) return steps == 0;
    const uint32_t lx = static_cast<uint32_t>(p.x - x0_ + 1);
    const uint32_t ly = static_cast<uint32_t>(p.y - y0_ + 1);
    if (lx >= width_ || ly >= height_) return false;
    if (dy == 0) {
      return LineOpen(&rows_[size_t{ly} * row_words_], lx, dx, steps, width_);
    }
    if (dx == 0) {
      return LineOpen(&cols_[size_t{lx} * col_words_], ly, dy, steps, height_);
    }
    return DiagonalReach(p, dx, dy, steps) == steps;
  }
  // How many of up to `steps` diagonal moves (dx, dy both +-1) from p (not
  // read: the caller stands on it) are legal in a row: each needs the cell
  // it reaches and the two it passes (no corner cutting) open.
  // On a whole grid's bits (OfWholeGrid) with p open, the moves' 2 x 2
  // blocks are read from their diagonal line, 64 at a time (a move is
  // legal when its block's four cells are open); otherwise step by step.
  uint32_t DiagonalReach(Point p, int dx, int dy, uint32_t steps) const {
    uint32_t lx = static_cast<uint32_t>(p.x - x0_ + 1);
    uint32_t ly = static_cast<uint32_t>(p.y - y0_ + 1);
    if (lx >= width_ || ly >= height_) return 0;
    if (!blocks_.empty() &&
        ((rows_[size_t{ly} * row_words_ + (lx >> 6)] >> (lx & 63)) & 1)) {
      return BlockReach(lx, ly, dx, dy, steps);
    }
    const int64_t row_step =
        dy > 0 ? int64_t{row_words_} : -int64_t{row_words_};
    const uint64_t* row = &rows_[size_t{ly} * row_words_];
    for (uint32_t k = 0; k < steps; ++k) {
      const uint32_t nx = lx + static_cast<uint32_t>(dx);
      const uint32_t ny = ly + static_cast<uint32_t>(dy);
      // The frame's rows and columns are closed: a move onto them fails
      // before anything past them is read.
      if (nx >= width_ || ny >= height_) return k;
      const uint64_t* next = row + row_step;
      // Row ly: the cell beside, nx. Row ny: lx and nx, adjacent bits.
      const uint32_t lo = dx > 0 ? lx : nx;
      const uint64_t pair = (next[lo >> 6] >> (lo & 63)) |
                            ((lo & 63) == 63 ? next[(lo >> 6) + 1] << 1 : 0);
      if (((row[nx >> 6] >> (nx & 63)) & 1) == 0 || (pair & 3) != 3) return k;
      lx = nx;
      ly = ny;
      row = next;
    }
    return steps;
  }

  // Whether diagonal runs are read by blocks (a whole grid's bits, unless
  // the blocks would take too much room; for tests).
  bool HasDiagonalBlocks() const { return !blocks_.empty(); }

  size_t MemoryUsage() const {
    return (rows_.capacity() + cols_.capacity() + target_rows_.capacity() +
            target_cols_.capacity() + blocks_.capacity() +
            block_line_start_.capacity()) *
           sizeof(uint64_t);
  }

 private:
  // Sets the bounds (r, already clipped) and clears the rows: the first
  // step of every fill.
  void BeginFill(const Rect& r);
  // Calls fn(y, x_begin, x_end) for each row y of r with the cells
  // x_begin .. x_end - 1 of it that lie inside `corridor` (all of the row
  // without one), skipping rows with none.
  template <typename Fn>
  static void ForEachRowSpan(const Rect& r, const RowSpans* corridor, Fn&& fn) {
    for (int32_t y = r.y0; y < r.y1; ++y) {
      int32_t x_begin = r.x0, x_end = r.x1;
      if (corridor != nullptr) {
        const int64_t i = int64_t{y} - corridor->y0;
        if (i < 0 || i >= static_cast<int64_t>(corridor->lo.size())) continue;
        x_begin = std::max(x_begin, corridor->lo[static_cast<size_t>(i)]);
        x_end = static_cast<int32_t>(std::min<int64_t>(
            x_end, int64_t{corridor->hi[static_cast<size_t>(i)]} + 1));
      }
      if (x_begin < x_end) fn(y, x_begin, x_end);
    }
  }
  // The columns from the rows: each 64 x 64 block transposed (the last
  // step of Fill and FillFromTiles).
  void FillColumns();
  // DiagonalReach by the block lines: p = (lx, ly) open, local coordinates.
  uint32_t BlockReach(uint32_t lx, uint32_t ly, int dx, int dy,
                      uint32_t steps) const;
  // Fills blocks_ and block_line_start_ from rows_ (OfWholeGrid).
  void FillBlocks();
  // JumpStraight, and with kWalled the bits outside `bounds` closed: the
  // side lines beyond them read as the frame's zero line (row or column 0)
  // and the scan stops at the first bit past them.
  template <bool kWalled>
  bool Jump(Point p, int dx, int dy, Point goal, const Rect& bounds,
            uint32_t* steps) const {
    const uint32_t lx = static_cast<uint32_t>(p.x - x0_ + 1);
    const uint32_t ly = static_cast<uint32_t>(p.y - y0_ + 1);
    if (dy == 0) {  // along row ly, sides rows ly - 1 and ly + 1
      const size_t at = size_t{ly} * row_words_;
      const uint64_t* line = &rows_[at];
      const uint64_t* a = line - row_words_;
      const uint64_t* b = line + row_words_;
      uint32_t wall = 0;
      if constexpr (kWalled) {
        if (p.y - 1 < bounds.y0) a = rows_.data();
        if (p.y + 1 >= bounds.y1) b = rows_.data();
        wall = static_cast<uint32_t>((dx > 0 ? bounds.x1 : bounds.x0 - 1) -
                                     x0_ + 1);
      }
      const uint64_t* stops = has_targets_ ? &target_rows_[at] : nullptr;
      const bool on_line = goal.y == p.y;
      const uint32_t g = static_cast<uint32_t>(goal.x - x0_ + 1);
      return dx > 0
                 ? ScanUp<kWalled>(line, a, b, stops, lx,
                                   on_line && goal.x > p.x, g, wall, steps)
                 : ScanDown<kWalled>(line, a, b, stops, row_words_, lx,
                                     on_line && goal.x < p.x, g, wall, steps);
    }
    const size_t at = size_t{lx} * col_words_;
    const uint64_t* line = &cols_[at];
    const uint64_t* a = line - col_words_;
    const uint64_t* b = line + col_words_;
    uint32_t wall = 0;
    if constexpr (kWalled) {
      if (p.x - 1 < bounds.x0) a = cols_.data();
      if (p.x + 1 >= bounds.x1) b = cols_.data();
      wall =
          static_cast<uint32_t>((dy > 0 ? bounds.y1 : bounds.y0 - 1) - y0_ + 1);
    }
    const uint64_t* stops = has_targets_ ? &target_cols_[at] : nullptr;
    const bool on_line = goal.x == p.x;
    const uint32_t g = static_cast<uint32_t>(goal.y - y0_ + 1);
    return dy > 0 ? ScanUp<kWalled>(line, a, b, stops, ly,
                                    on_line && goal.y > p.y, g, wall, steps)
                  : ScanDown<kWalled>(line, a, b, stops, col_words_, ly,
                                      on_line && goal.y < p.y, g, wall, steps);
  }

  // Scans `line` upward from bit `from` (exclusive) for the first bit i
  // that is closed, or where side a or b is open with bit i - 1 closed,
  // or set in `stops` (the targets' bits of the line, or null); the goal
  // at bit g counts when has_goal and it comes first. Bit 0 and
  // the bits past the last cell are closed, so a scan always ends; with
  // kWalled, bit `wall` (above `from`) and those past it count as closed.
  template <bool kWalled>
  static bool ScanUp(const uint64_t* line, const uint64_t* a, const uint64_t* b,
                     const uint64_t* stops, uint32_t from, bool has_goal,
                     uint32_t g, uint32_t wall, uint32_t* steps) {
    uint32_t k = (from + 1) >> 6;
    uint64_t mask = ~uint64_t{0} << ((from + 1) & 63);
    while (true) {
      const uint64_t a_behind = (a[k] << 1) | (k > 0 ? a[k - 1] >> 63 : 0);
      const uint64_t b_behind = (b[k] << 1) | (k > 0 ? b[k - 1] >> 63 : 0);
      uint64_t stop = (~line[k] | (a[k] & ~a_behind) | (b[k] & ~b_behind) |
                       (stops ? stops[k] : 0)) &
                      mask;
      if constexpr (kWalled) {
        if (k == wall >> 6) stop |= uint64_t{1} << (wall & 63);
      }
      if (stop != 0) {
        const uint32_t i =
            k * 64 + static_cast<uint32_t>(std::countr_zero(stop));
        if (has_goal && g <= i) {
          *steps = g - from;
          return true;
        }
        *steps = i - from;
        if constexpr (kWalled) {
          // At or past the wall: closed. (The wall bit only ends the scan
          // there; this test is what keeps the answer right.)
          if (i >= wall) return false;
        }
        return (line[k] >> (i & 63)) & 1;
      }
      mask = ~uint64_t{0};
      ++k;
    }
  }
  // The same downward: the last bit i below `from` that is closed, or
  // where a side is open with bit i + 1 closed (kWalled: or i <= wall).
  template <bool kWalled>
  static bool ScanDown(const uint64_t* line, const uint64_t* a,
                       const uint64_t* b, const uint64_t* stops, uint32_t words,
                       uint32_t from, bool has_goal, uint32_t g, uint32_t wall,
                       uint32_t* steps) {
    // from >= 1 (bit 0 is closed and from is open).
    int32_t k = static_cast<int32_t>((from - 1) >> 6);
    uint64_t mask = ~uint64_t{0} >> (63 - ((from - 1) & 63));
    // The words after k's (past the line's last word: 0).
    const bool last = static_cast<uint32_t>(k) + 1 == words;
    uint64_t a_next = last ? 0 : a[k + 1], b_next = last ? 0 : b[k + 1];
    while (true) {
      const uint64_t a_ahead = (a[k] >> 1) | (a_next << 63);
      const uint64_t b_ahead = (b[k] >> 1) | (b_next << 63);
      uint64_t stop = (~line[k] | (a[k] & ~a_ahead) | (b[k] & ~b_ahead) |
                       (stops ? stops[k] : 0)) &
                      mask;
      if constexpr (kWalled) {
        if (static_cast<uint32_t>(k) == wall >> 6) {
          stop |= uint64_t{1} << (wall & 63);
        }
      }
      if (stop != 0) {
        const uint32_t i = static_cast<uint32_t>(k) * 64 + 63 -
                           static_cast<uint32_t>(std::countl_zero(stop));
        if (has_goal && g >= i) {
          *steps = from - g;
          return true;
        }
        *steps = from - i;
        if constexpr (kWalled) {
          if (i <= wall) return false;
        }
        return (line[k] >> (i & 63)) & 1;
      }
      mask = ~uint64_t{0};
      a_next = a[k];
      b_next = b[k];
      --k;
    }
  }

  // Whether bits from + d, from + 2d, .. from + steps d (d = +-1) of
  // `line` (`size` bits) are all set.
  static bool LineOpen(const uint64_t* line, uint32_t from, int d,
                       uint32_t steps, uint32_t size) {
    if (steps == 0) return true;
    const int64_t end = int64_t{from} + int64_t{d} * steps;
    if (end < 0 || end >= int64_t{size}) return false;
    const uint32_t lo = d > 0 ? from + 1 : static_cast<uint32_t>(end);
    const uint32_t hi = d > 0 ? static_cast<uint32_t>(end) : from - 1;
    // Bits lo .. hi, word by word.
    for (uint32_t k = lo >> 6; k <= hi >> 6; ++k) {
      uint64_t mask = ~uint64_t{0};
      if (k == lo >> 6) mask &= ~uint64_t{0} << (lo & 63);
      if (k == hi >> 6) mask &= ~uint64_t{0} >> (63 - (hi & 63));
      if ((line[k] & mask) != mask) return false;
    }
    return true;
  }

  // Local coordinates: cell (x, y) is bit (x - x0_ + 1) of row
  // (y - y0_ + 1), and bit (y - y0_ + 1) of column (x - x0_ + 1); the
  // rows and columns around the bounds (and every bit past the last
  // cell) stay 0.
  int32_t x0_ = 0, y0_ = 0;
  uint32_t width_ = 0, height_ = 0;  // bounds + 2
  uint32_t row_words_ = 0, col_words_ = 0;
  std::vector<uint64_t> rows_;  // height_ rows of row_words_ words
  std::vector<uint64_t> cols_;  // width_ columns of col_words_ words
  // SetTargets' cells in the same two layouts (valid while has_targets_).
  bool has_targets_ = false;
  uint32_t target_count_ = 0;
  std::vector<uint64_t> target_rows_;
  std::vector<uint64_t> target_cols_;
  // Only on a whole grid's bits (OfWholeGrid; empty after Fill and
  // FillFrom): whether each 2 x 2 block of local cells, named by its
  // top-left cell (bx, by), bx < width_ - 1, by < height_ - 1, is open in
  // all four cells, which is whether the diagonal move across it is legal
  // either way. A diagonal run's moves cross blocks along one diagonal, so
  // the blocks are kept line by line along the diagonals: first the
  // width_ + height_ - 3 lines of constant bx - by, then as many of constant
  // bx + by, each line's bits in order of bx from its first block, starting
  // at word block_line_start_[line] (~2 bits a cell in all).
  std::vector<uint64_t> blocks_;
  std::vector<uint64_t> block_line_start_;
};

// A window of a whole grid's OpenBits (GridAStar::UseGridOpenBits): the
// cells inside `bounds` as a Fill of those bounds would hold them, read
// from the grid's bits without the fill. Holds a reference: must not
// outlive `bits`.
class OpenBitsWindow {
 public:
  // `bounds` must lie inside the grid `bits` was filled with.
  OpenBitsWindow(const OpenBits& bits, const Rect& bounds)
      : bits_(bits), bounds_(bounds) {}

  bool operator()(int32_t x, int32_t y) const {
    return bounds_.Contains({x, y}) && bits_(x, y);
  }
  // OpenBits::JumpStraight inside the window (p open inside it).
  bool JumpStraight(Point p, int dx, int dy, Point goal,
                    uint32_t* steps) const {
    return bits_.JumpStraightWithin(bounds_, p, dx, dy, goal, steps);
  }

 private:
  const OpenBits& bits_;
  Rect bounds_;
};

}  // namespace zonepath::search_internal

#endif  // ZONEPATH_SEARCH_OPEN_BITS_H_
