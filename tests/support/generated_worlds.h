// Worlds built from generated maps, for tests that need realistic layouts
// (rooms, terrain) rather than random noise.
#ifndef ZONEPATH_TESTS_SUPPORT_GENERATED_WORLDS_H_
#define ZONEPATH_TESTS_SUPPORT_GENERATED_WORLDS_H_

#include <cstdint>

#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"

namespace zonepath::testing {

struct GeneratedWorldSpec {
  MapKind kind = MapKind::kRooms;
  int size = 64;  // square, cells per side
  uint64_t seed = 1;
  int zone_size = 16;
  int levels = 2;
  bool cache_paths = false;
  int group = 4;          // level-k zone = group x group level-(k-1) zones
  double density = 0.25;  // MapKind::kRandom: blocked fraction
};

// Built on one thread; the spec's values must be valid (the test aborts on
// a build error).
inline World GeneratedWorld(const GeneratedWorldSpec& spec) {
  MapGenOptions gen;
  gen.kind = spec.kind;
  gen.width = gen.height = spec.size;
  gen.seed = spec.seed;
  gen.density = spec.density;
  BuildOptions options;
  options.params.zone_size = spec.zone_size;
  options.params.levels = spec.levels;
  options.params.cache_paths = spec.cache_paths;
  options.params.group = spec.group;
  options.threads = 1;
  return *BuildWorld(*GenerateMap(gen), options);
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_GENERATED_WORLDS_H_
