// Row intervals widened across rows (internal to the runtime library): the
// smoother's band of cells within a margin of a window's path is each row's
// path cells widened by the margin across rows, then along the row.
#ifndef ZONEPATH_RUNTIME_ROW_BAND_H_
#define ZONEPATH_RUNTIME_ROW_BAND_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace zonepath::runtime_internal {

// One pass of WidenAcrossRows at distance d: out[r] = the minimum (low) or
// maximum of in[r - d], in[r], in[r + d], the nearest row standing in for a
// missing one. The rows far enough from both ends need no clamping, so
// their loop is three loads and two comparisons (the smoother widens every
// window's band).
template <bool low>
void WidenPass(const int32_t* in, int32_t* out, int32_t rows, int32_t d) {
  const auto pick = [](int32_t a, int32_t b) {
    return low ? std::min(a, b) : std::max(a, b);
  };
  const auto clamped = [&](int32_t r) {
    out[r] = pick(pick(in[std::max(0, r - d)], in[r]),
                  in[std::min(rows - 1, r + d)]);
  };
  const int32_t inner_begin = std::min(d, rows);
  const int32_t inner_end = std::max(inner_begin, rows - d);
  for (int32_t r = 0; r < inner_begin; ++r) clamped(r);
  for (int32_t r = inner_begin; r < inner_end; ++r) {
    out[r] = pick(pick(in[r - d], in[r]), in[r + d]);
  }
  for (int32_t r = inner_end; r < rows; ++r) clamped(r);
}

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
    scratch->assign(lo->begin(), lo->end());
    WidenPass<true>(scratch->data(), lo->data(), rows, d);
    scratch->assign(hi->begin(), hi->end());
    WidenPass<false>(scratch->data(), hi->data(), rows, d);
    covered += d;
  }
}

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_ROW_BAND_H_
