// Row intervals widened across rows (internal to the runtime library): the
// smoother's band of cells within a margin of a window's path is each row's
// path cells widened by the margin across rows, then along the row.
#ifndef ZONEPATH_RUNTIME_ROW_BAND_H_
#define ZONEPATH_RUNTIME_ROW_BAND_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace zonepath::runtime_internal {

// Replaces each row's interval [lo[r], hi[r]] by the union of the intervals
// of rows r - radius .. r + radius (those that exist): lo by their minimum,
// hi by their maximum; empty rows have lo > hi. O(rows log radius): after a
// pass at distance d over intervals that already cover radius e (d <= 2e +
// 1), row r covers radius e + d; near the ends the nearest row stands in for
// the missing one (it covers the rest up to the end). `scratch` keeps its
// capacity.
inline void WidenAcrossRows(int32_t radius, std::vector<int32_t>* lo,
                            std::vector<int32_t>* hi,
                            std::vector<int32_t>* scratch) {
  const int32_t rows = static_cast<int32_t>(lo->size());
  if (rows == 0) return;
  int32_t covered = 0;
  while (covered < radius) {
    const int32_t d = std::min(radius - covered, 2 * covered + 1);
    for (std::vector<int32_t>* v : {lo, hi}) {
      const bool low = v == lo;
      scratch->assign(v->begin(), v->end());
      const std::vector<int32_t>& in = *scratch;
      for (int32_t r = 0; r < rows; ++r) {
        const int32_t a = in[std::max(0, r - d)];
        const int32_t b = in[std::min(rows - 1, r + d)];
        (*v)[r] = low ? std::min({a, in[r], b}) : std::max({a, in[r], b});
      }
    }
    covered += d;
  }
}

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_ROW_BAND_H_
