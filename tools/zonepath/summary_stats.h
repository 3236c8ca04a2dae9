// Small helpers to summarise per-query measurements (mean, percentiles).
#ifndef ZONEPATH_TOOLS_ZONEPATH_SUMMARY_STATS_H_
#define ZONEPATH_TOOLS_ZONEPATH_SUMMARY_STATS_H_

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace zonepath::cli {

inline double Mean(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

// Nearest-rank percentile, q in [0, 100]; 0 for no values.
inline double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double rank = std::ceil(q / 100.0 * v.size());
  const size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return v[std::min(index, v.size() - 1)];
}

// The middle value, or the mean of the two middle ones (0 for no values):
// unlike Percentile(v, 50), which takes the lower of the two, it does not
// lean to the faster half of an even number of timings.
inline double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + mid);
  return (lower + upper) / 2;
}

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_SUMMARY_STATS_H_
