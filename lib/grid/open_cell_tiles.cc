#include "zonepath/grid/open_cell_tiles.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "zonepath/grid/open_cost_bits.h"

namespace zonepath {
namespace {

// Whether each of the n costs at `data` is kBlocked or `cost`.
bool OnlyCost(const uint8_t* data, size_t n, uint8_t cost) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i one = _mm_set1_epi8(static_cast<char>(cost));
  for (; i + 16 <= n; i += 16) {
    const __m128i v =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    const __m128i ok =
        _mm_or_si128(_mm_cmpeq_epi8(v, zero), _mm_cmpeq_epi8(v, one));
    if (_mm_movemask_epi8(ok) != 0xFFFF) return false;
  }
#endif
  for (; i < n; ++i) {
    if (data[i] != kBlocked && data[i] != cost) return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<const OpenCellTiles> OpenCellTiles::Of(const Grid& grid) {
  std::unique_ptr<OpenCellTiles> tiles(new OpenCellTiles());
  tiles->width_ = grid.width();
  tiles->height_ = grid.height();
  tiles->cost_ = grid.min_cost();
  tiles->tiles_x_ = static_cast<uint32_t>((grid.width() + kSide - 1) / kSide);
  const size_t tiles_y =
      static_cast<size_t>((grid.height() + kSide - 1) / kSide);
  tiles->words_.assign(tiles_y * tiles->tiles_x_ * kSide, 0);
  // One row's bits at a time, then its words put in their tiles.
  std::vector<uint64_t> row(tiles->tiles_x_, 0);
  bool one_cost = true;
  for (int32_t y = 0; y < grid.height() && one_cost; ++y) {
    std::fill(row.begin(), row.end(), 0);
    uint32_t x = 0;
    grid.ForEachCostSpanInRow(y, 0, grid.width(),
                              [&](const uint8_t* data, size_t n) {
                                one_cost &= OnlyCost(data, n, tiles->cost_);
                                OrOpenCostBits(data, n, x, row.data());
                                x += static_cast<uint32_t>(n);
                              });
    const uint32_t uy = static_cast<uint32_t>(y);
    for (uint32_t tx = 0; tx < tiles->tiles_x_; ++tx) {
      tiles->words_[((size_t{uy >> kShift} * tiles->tiles_x_ + tx) << kShift) |
                    (uy & (kSide - 1))] = row[tx];
    }
  }
  if (!one_cost) return nullptr;
  return tiles;
}

}  // namespace zonepath
