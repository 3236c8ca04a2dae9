// Benchmark inputs: the shared MovingAI maps (if ../shared/maps exists) and
// generated worlds, with long queries for each.
#ifndef ZONEPATH_BENCH_BENCH_MAPS_H_
#define ZONEPATH_BENCH_BENCH_MAPS_H_

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "zonepath/grid/grid.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/movingai/scenario.h"

namespace zonepath::bench {

struct Query {
  Point start;
  Point goal;
  double optimal;
};

inline std::filesystem::path SharedMapsDir() {
  if (const char* env = std::getenv("ZONEPATH_SHARED_MAPS")) return env;
  return std::filesystem::path(ZONEPATH_SOURCE_DIR) / ".." / "shared" / "maps";
}

// The longest quarter of a scenario file's problems (by optimal length).
inline std::vector<Query> LongestQuarter(const Scenario& scen) {
  std::vector<Query> all;
  for (const ScenarioProblem& p : scen.problems) {
    all.push_back({p.start, p.goal, p.optimal});
  }
  std::sort(all.begin(), all.end(), [](const Query& a, const Query& b) {
    return a.optimal > b.optimal;
  });
  all.resize(std::max<size_t>(1, all.size() / 4));
  return all;
}

}  // namespace zonepath::bench

#endif  // ZONEPATH_BENCH_BENCH_MAPS_H_
