#include "open_bits.h"

#include <algorithm>
#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/grid/open_cost_bits.h"

namespace zonepath::search_internal {
namespace {

// The first bx of diagonal line c (of either kind) when blocks have by in
// [0, bh): max(0, c - (bh - 1)) (FillBlocks).
inline uint32_t FirstOnLine(uint32_t c, uint32_t bh) {
  return c >= bh - 1 ? c - (bh - 1) : 0;
}

// The `count` bits (count <= 64) of `line` from bit `from` on, as the low
// bits of a word; reads the word after `from`'s only when they reach it.
inline uint64_t BitsAt(const uint64_t* line, uint32_t from, uint32_t count) {
  const uint32_t shift = from & 63;
  uint64_t bits = line[from >> 6] >> shift;
  if (shift + count > 64) bits |= line[(from >> 6) + 1] << (64 - shift);
  return count == 64 ? bits : bits & ((uint64_t{1} << count) - 1);
}

// Transposes a 64 x 64 bit matrix in place: bit j of word i becomes bit i
// of word j (the recursive block swap of Hacker's Delight, 7-3).
// With SSE2, two words a step: at distance j >= 2 the words k and k + 1
// pair with k | j and (k | j) + 1; at distance 1, words k and k + 2 (k
// even) are swapped with k + 1 and k + 3 after an unpack.
void Transpose64(uint64_t a[64]) {
#if defined(__SSE2__)
  __m128i* v = reinterpret_cast<__m128i*>(a);
  uint64_t m = 0x00000000FFFFFFFFull;
  for (int j = 32; j != 1; j >>= 1, m ^= m << j) {
    const __m128i mask = _mm_set1_epi64x(static_cast<long long>(m));
    const __m128i shift = _mm_cvtsi32_si128(j);
    for (int k = 0; k < 64; k = ((k | j) + 2) & ~j) {
      const __m128i x = _mm_loadu_si128(v + k / 2);
      const __m128i y = _mm_loadu_si128(v + (k | j) / 2);
      const __m128i t =
          _mm_and_si128(_mm_xor_si128(_mm_srl_epi64(x, shift), y), mask);
      _mm_storeu_si128(v + k / 2, _mm_xor_si128(x, _mm_sll_epi64(t, shift)));
      _mm_storeu_si128(v + (k | j) / 2, _mm_xor_si128(y, t));
    }
  }
  const __m128i mask = _mm_set1_epi64x(0x5555555555555555ll);
  for (int k = 0; k < 64; k += 4) {
    const __m128i x = _mm_loadu_si128(v + k / 2);      // a[k], a[k + 1]
    const __m128i y = _mm_loadu_si128(v + k / 2 + 1);  // a[k + 2], a[k + 3]
    __m128i lo = _mm_unpacklo_epi64(x, y);             // a[k], a[k + 2]
    __m128i hi = _mm_unpackhi_epi64(x, y);             // a[k + 1], a[k + 3]
    const __m128i t =
        _mm_and_si128(_mm_xor_si128(_mm_srli_epi64(lo, 1), hi), mask);
    lo = _mm_xor_si128(lo, _mm_slli_epi64(t, 1));
    hi = _mm_xor_si128(hi, t);
    _mm_storeu_si128(v + k / 2, _mm_unpacklo_epi64(lo, hi));
    _mm_storeu_si128(v + k / 2 + 1, _mm_unpackhi_epi64(lo, hi));
  }
#else
  uint64_t m = 0x00000000FFFFFFFFull;
  for (int j = 32; j != 0; j >>= 1, m ^= m << j) {
    for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
  }
#endif
}

}  // namespace

void OpenBits::BeginFill(const Rect& r) {
  blocks_.clear();
  x0_ = r.x0;
  y0_ = r.y0;
  has_targets_ = false;
  const int32_t w = std::max(0, r.width()), h = std::max(0, r.height());
  width_ = static_cast<uint32_t>(w) + 2;
  height_ = static_cast<uint32_t>(h) + 2;
  row_words_ = (width_ + 63) / 64;
  col_words_ = (height_ + 63) / 64;
  rows_.assign(size_t{height_} * row_words_, 0);
  // Every column word is written by FillColumns.
  cols_.resize(size_t{width_} * col_words_);
}

void OpenBits::Fill(const Grid& grid, const Rect& bounds,
                    const RowSpans* corridor) {
  const Rect r = Intersect(bounds, grid.bounds());
  BeginFill(r);
  // Rows: 64, 16, 8 cells a step where the row allows (OrOpenCostBits).
  ForEachRowSpan(r, corridor, [&](int32_t y, int32_t x_begin, int32_t x_end) {
    uint64_t* row =
        &rows_[size_t{static_cast<uint32_t>(y - y0_ + 1)} * row_words_];
    uint32_t lx = static_cast<uint32_t>(x_begin - x0_ + 1);
    // The row's words cover width_ bits, and lx + n < width_.
    grid.ForEachCostSpanInRow(y, x_begin, x_end,
                              [&](const uint8_t* data, size_t n) {
                                OrOpenCostBits(data, n, lx, row);
                                lx += static_cast<uint32_t>(n);
                              });
  });
  FillColumns();
}

void OpenBits::FillFromTiles(const OpenCellTiles& tiles, const Rect& bounds,
                             const RowSpans* corridor) {
  const Rect r = Intersect(bounds, Rect{0, 0, tiles.width(), tiles.height()});
  BeginFill(r);
  // Each row's cells from its tiles' words, up to 64 a step.
  ForEachRowSpan(r, corridor, [&](int32_t y, int32_t x_begin, int32_t x_end) {
    uint64_t* row =
        &rows_[size_t{static_cast<uint32_t>(y - y0_ + 1)} * row_words_];
    for (int32_t x = x_begin; x < x_end;) {
      const uint32_t tx = static_cast<uint32_t>(x) >> OpenCellTiles::kShift;
      const uint32_t from = static_cast<uint32_t>(x) & 63;
      const uint32_t count = static_cast<uint32_t>(
          std::min<int32_t>(x_end - x, OpenCellTiles::kSide - from));
      uint64_t bits = tiles.Word(tx, y) >> from;
      if (count < 64) bits &= (uint64_t{1} << count) - 1;
      OrBitsAt(row, static_cast<uint32_t>(x - x0_ + 1), bits, count);
      x += static_cast<int32_t>(count);
    }
  });
  FillColumns();
}

void OpenBits::FillColumns() {
  // Each 64 x 64 block of the rows, transposed.
  uint64_t block[64];
  for (uint32_t ky = 0; ky < col_words_; ++ky) {
    const uint32_t rows_here = std::min<uint32_t>(64, height_ - ky * 64);
    for (uint32_t kx = 0; kx < row_words_; ++kx) {
      uint64_t any = 0;
      for (uint32_t i = 0; i < 64; ++i) {
        block[i] =
            i < rows_here ? rows_[size_t{ky * 64 + i} * row_words_ + kx] : 0;
        any |= block[i];
      }
      // A closed block (common beside a corridor) is its own transpose.
      if (any != 0) Transpose64(block);
      const uint32_t cols_here = std::min<uint32_t>(64, width_ - kx * 64);
      for (uint32_t j = 0; j < cols_here; ++j) {
        cols_[size_t{kx * 64 + j} * col_words_ + ky] = block[j];
      }
    }
  }
}

void OpenBits::FillFrom(const OpenBits& whole, const Rect& bounds) {
  const Rect r = Intersect(
      bounds, Rect{whole.x0_, whole.y0_,
                   whole.x0_ + static_cast<int32_t>(whole.width_) - 2,
                   whole.y0_ + static_cast<int32_t>(whole.height_) - 2});
  blocks_.clear();
  x0_ = r.x0;
  y0_ = r.y0;
  has_targets_ = false;
  const uint32_t w = static_cast<uint32_t>(std::max(0, r.width()));
  const uint32_t h = static_cast<uint32_t>(std::max(0, r.height()));
  width_ = w + 2;
  height_ = h + 2;
  row_words_ = (width_ + 63) / 64;
  col_words_ = (height_ + 63) / 64;
  rows_.assign(size_t{height_} * row_words_, 0);
  cols_.assign(size_t{width_} * col_words_, 0);
  if (w == 0 || h == 0) return;
  // Bit 1 on (bit 0 and the last line are the closed frame) of each line
  // inside r, 64 cells a step, from the same line of `whole`.
  auto copy = [](const uint64_t* from_line, uint32_t from, uint32_t n,
                 uint64_t* to_line) {
    for (uint32_t i = 0; i < n; i += 64) {
      const uint32_t count = std::min<uint32_t>(64, n - i);
      OrBitsAt(to_line, 1 + i, BitsAt(from_line, from + i, count), count);
    }
  };
  const uint32_t from_x = static_cast<uint32_t>(r.x0 - whole.x0_ + 1);
  const uint32_t from_y = static_cast<uint32_t>(r.y0 - whole.y0_ + 1);
  for (uint32_t y = 0; y < h; ++y) {
    copy(&whole.rows_[size_t{from_y + y} * whole.row_words_], from_x, w,
         &rows_[size_t{y + 1} * row_words_]);
  }
  for (uint32_t x = 0; x < w; ++x) {
    copy(&whole.cols_[size_t{from_x + x} * whole.col_words_], from_y, h,
         &cols_[size_t{x + 1} * col_words_]);
  }
}

OpenBits OpenBits::OfWholeGrid(const Grid& grid) {
  OpenBits bits;
  bits.Fill(grid, grid.bounds(), nullptr);
  // Exactly the grid's words, and no room for targets (never set on them).
  bits.rows_.shrink_to_fit();
  bits.cols_.shrink_to_fit();
  std::vector<uint64_t>().swap(bits.target_rows_);
  std::vector<uint64_t>().swap(bits.target_cols_);
  bits.FillBlocks();
  return bits;
}

// Blocks have bx in [0, bw), by in [0, bh). Line c < bw + bh - 1 of the
// first kind holds bx - by = c - (bh - 1), from bx = max(0, c - (bh - 1))
// to min(bw - 1, c); line s of the second holds bx + by = s, over the same
// range of bx with s for c.
void OpenBits::FillBlocks() {
  blocks_.clear();
  block_line_start_.clear();
  const uint32_t bw = width_ - 1, bh = height_ - 1;
  const uint32_t lines = bw + bh - 1;
  block_line_start_.resize(2 * size_t{lines} + 1);
  uint64_t words = 0;
  for (uint32_t kind = 0; kind < 2; ++kind) {
    for (uint32_t c = 0; c < lines; ++c) {
      block_line_start_[kind * lines + c] = words;
      const uint32_t first = FirstOnLine(c, bh);
      const uint32_t last = std::min(bw - 1, c);
      words += (last - first + 1 + 63) / 64;
    }
  }
  block_line_start_[2 * size_t{lines}] = words;
  // Each line takes at least a word and a start, so narrow grids pay
  // more than ~2 bits a block (a 97 x 4100 grid ~4): past 64 KB and 4 bits
  // a block in all, no lines (DiagonalReach steps, as on a window's bits).
  const uint64_t bytes = (words + 2 * uint64_t{lines}) * sizeof(uint64_t);
  if (bytes > 64 * 1024 && bytes * 8 > 4 * uint64_t{bw} * bh) {
    std::vector<uint64_t>().swap(block_line_start_);
    return;
  }
  blocks_.assign(words, 0);
  // Row by's open blocks, a word at a time: bit bx of rows by and by + 1
  // and bit bx + 1 of both. Only the open blocks are then placed.
  for (uint32_t by = 0; by < bh; ++by) {
    const uint64_t* top = &rows_[size_t{by} * row_words_];
    const uint64_t* bottom = top + row_words_;
    for (uint32_t k = 0; k < row_words_; ++k) {
      const uint64_t next_top = k + 1 < row_words_ ? top[k + 1] : 0;
      const uint64_t next_bottom = k + 1 < row_words_ ? bottom[k + 1] : 0;
      uint64_t open = top[k] & bottom[k] & ((top[k] >> 1) | (next_top << 63)) &
                      ((bottom[k] >> 1) | (next_bottom << 63));
      while (open != 0) {
        const uint32_t bx =
            k * 64 + static_cast<uint32_t>(std::countr_zero(open));
        open &= open - 1;
        const uint32_t c = bx + (bh - 1) - by;
        const uint32_t main_i = bx - FirstOnLine(c, bh);
        blocks_[block_line_start_[c] + (main_i >> 6)] |= uint64_t{1}
                                                         << (main_i & 63);
        const uint32_t s = bx + by;
        const uint32_t anti_i = bx - FirstOnLine(s, bh);
        blocks_[block_line_start_[lines + s] + (anti_i >> 6)] |=
            uint64_t{1} << (anti_i & 63);
      }
    }
  }
}

uint32_t OpenBits::BlockReach(uint32_t lx, uint32_t ly, int dx, int dy,
                              uint32_t steps) const {
  const uint32_t bh = height_ - 1;
  const uint32_t lines = width_ - 1 + bh - 1;
  // The first move's block (bx, by) and the line it lies on; the run goes
  // up the line (bx growing) when dx > 0, down it otherwise.
  const uint32_t bx = dx > 0 ? lx : lx - 1;
  const uint32_t by = dy > 0 ? ly : ly - 1;
  // (lx, ly) is open, so inside the frame: bx, by >= 0 and inside the
  // blocks.
  const bool main = dx == dy;
  const uint32_t c = main ? bx + (bh - 1) - by : bx + by;
  const uint32_t first = FirstOnLine(c, bh);
  const uint32_t last = std::min(width_ - 2, c);
  const uint64_t* line = &blocks_[block_line_start_[main ? c : lines + c]];
  const uint32_t i = bx - first;
  // Blocks past the line's ends are off the frame: closed.
  const uint32_t room = dx > 0 ? last - bx + 1 : i + 1;
  const uint32_t wanted = std::min(steps, room);
  uint32_t reached = 0;
  if (dx > 0) {
    uint32_t at = i;
    while (reached < wanted) {
      const uint64_t word = line[at >> 6] >> (at & 63);
      const uint32_t ones = static_cast<uint32_t>(std::countr_one(word));
      const uint32_t in_word = 64 - (at & 63);
      const uint32_t run = std::min(ones, in_word);
      reached += run;
      at += run;
      if (run < in_word) break;
    }
  } else {
    int64_t at = i;
    while (reached < wanted) {
      const uint32_t bit = static_cast<uint32_t>(at & 63);
      const uint64_t word = line[at >> 6] << (63 - bit);
      const uint32_t ones = static_cast<uint32_t>(std::countl_one(word));
      const uint32_t in_word = bit + 1;
      const uint32_t run = std::min(ones, in_word);
      reached += run;
      at -= run;
      if (run < in_word) break;
    }
  }
  return std::min(reached, wanted);
}

void OpenBits::SetTargets(absl::Span<const Point> targets) {
  target_rows_.assign(rows_.size(), 0);
  target_cols_.assign(cols_.size(), 0);
  target_count_ = 0;
  for (const Point t : targets) {
    if (!(*this)(t.x, t.y)) continue;
    const uint32_t lx = static_cast<uint32_t>(t.x - x0_ + 1);
    const uint32_t ly = static_cast<uint32_t>(t.y - y0_ + 1);
    uint64_t& word = target_rows_[size_t{ly} * row_words_ + (lx >> 6)];
    if ((word >> (lx & 63)) & 1) continue;  // listed twice
    word |= uint64_t{1} << (lx & 63);
    ++target_count_;
    target_cols_[size_t{lx} * col_words_ + (ly >> 6)] |= uint64_t{1}
                                                         << (ly & 63);
  }
  has_targets_ = true;
}

}  // namespace zonepath::search_internal
