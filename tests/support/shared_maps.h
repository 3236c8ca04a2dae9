// Locating ../shared/maps (the MovingAI benchmark maps) for the "maps" tests.
#ifndef ZONEPATH_TESTS_SUPPORT_SHARED_MAPS_H_
#define ZONEPATH_TESTS_SUPPORT_SHARED_MAPS_H_

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/movingai/scenario.h"

namespace zonepath::testing {

// $ZONEPATH_SHARED_MAPS, else ../shared/maps beside the source tree.
inline std::filesystem::path SharedMapsDir() {
  if (const char* env = std::getenv("ZONEPATH_SHARED_MAPS")) return env;
  return std::filesystem::path(ZONEPATH_SOURCE_DIR) / ".." / "shared" / "maps";
}

// Every *.map with a matching *.map.scen, sorted.
inline std::vector<std::filesystem::path> SharedMapFiles() {
  std::vector<std::filesystem::path> maps;
  for (const std::string& map : FindMapsWithScenarios(SharedMapsDir())) {
    maps.push_back(map);
  }
  return maps;
}

// A shared map with its scenario, checked to fit each other.
struct SharedMap {
  Grid grid;
  Scenario scenario;
};
inline absl::StatusOr<SharedMap> LoadSharedMap(
    const std::filesystem::path& map) {
  absl::StatusOr<Grid> grid =
      ReadMapFile(map.string(), TerrainLegend::MovingAi());
  if (!grid.ok()) return grid.status();
  absl::StatusOr<Scenario> scen = ReadScenarioFile(map.string() + ".scen");
  if (!scen.ok()) return scen.status();
  if (absl::Status fit = CheckScenarioFitsGrid(*scen, *grid); !fit.ok()) {
    return fit;
  }
  if (scen->problems.empty()) {
    return absl::DataLossError(map.string() + ".scen has no problems");
  }
  return SharedMap{*std::move(grid), *std::move(scen)};
}

// Test parameters: every shared map, or one empty path (its test skips) so
// the suite still reports something where ../shared/maps is absent.
inline std::vector<std::filesystem::path> SharedMapsOrPlaceholder() {
  std::vector<std::filesystem::path> maps = SharedMapFiles();
  if (maps.empty()) maps.push_back("");
  return maps;
}

// gtest parameter name of a map path: its stem with non-alphanumerics as _.
inline std::string SharedMapTestName(const std::filesystem::path& map) {
  std::string name = map.stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name.empty() ? std::string("no_shared_maps") : name;
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_SHARED_MAPS_H_
