// Random run-length paths for codec and path-store tests, reproducible from
// a seed. Paths stay inside 0..65535 and may turn by any angle (180 too), so
// they exercise every code; `winding` paths have mostly 1-3 step runs.
#ifndef ZONEPATH_TESTS_SUPPORT_RANDOM_PATHS_H_
#define ZONEPATH_TESTS_SUPPORT_RANDOM_PATHS_H_

#include <algorithm>
#include <cstdint>
#include <random>

#include "zonepath/grid/path.h"

namespace zonepath::testing {

inline RunLengthPath RandomPath(uint64_t seed, int max_runs, bool winding) {
  std::mt19937_64 rng(seed);
  RunLengthPath path;
  Point at{static_cast<int32_t>(rng() % 65536),
           static_cast<int32_t>(rng() % 65536)};
  path.Reset(at);
  const int runs = static_cast<int>(rng() % (max_runs + 1));
  for (int i = 0; i < runs; ++i) {
    const Direction d = static_cast<Direction>(rng() % 8);
    uint32_t want = winding          ? 1 + rng() % 3
                    : rng() % 4 == 0 ? 1 + rng() % 300
                                     : 1 + rng() % 12;
    // Shorten the run so it stays inside the coordinate range.
    auto room = [](int32_t v, int delta) -> uint32_t {
      return delta > 0 ? 65535 - v : delta < 0 ? v : 1u << 30;
    };
    want = std::min({want, room(at.x, Dx(d)), room(at.y, Dy(d))});
    if (want == 0) continue;
    path.Append(d, want);
    at = {at.x + Dx(d) * static_cast<int32_t>(want),
          at.y + Dy(d) * static_cast<int32_t>(want)};
  }
  return path;
}

// The cell after `step` moves of `path`.
inline Point CellAfter(const RunLengthPath& path, int64_t step) {
  return CellAfterMoves(path.start(), path.runs(), step);
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_RANDOM_PATHS_H_
