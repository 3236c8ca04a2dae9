// Locating ../shared/maps (the MovingAI benchmark maps) for the "maps" tests.
#ifndef ZONEPATH_TESTS_SUPPORT_SHARED_MAPS_H_
#define ZONEPATH_TESTS_SUPPORT_SHARED_MAPS_H_

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace zonepath::testing {

// $ZONEPATH_SHARED_MAPS, else ../shared/maps beside the source tree.
inline std::filesystem::path SharedMapsDir() {
  if (const char* env = std::getenv("ZONEPATH_SHARED_MAPS")) return env;
  return std::filesystem::path(ZONEPATH_SOURCE_DIR) / ".." / "shared" / "maps";
}

// Every *.map with a matching *.map.scen, sorted.
inline std::vector<std::filesystem::path> SharedMapFiles() {
  std::vector<std::filesystem::path> maps;
  const auto dir = SharedMapsDir();
  if (!std::filesystem::is_directory(dir)) return maps;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const auto& p = entry.path();
    if (p.extension() == ".map" &&
        std::filesystem::exists(p.string() + ".scen")) {
      maps.push_back(p);
    }
  }
  std::sort(maps.begin(), maps.end());
  return maps;
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_SHARED_MAPS_H_
