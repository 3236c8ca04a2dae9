// Writes a small valid world file as a seed for the loader fuzzer.
#include <cstdio>

#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/world/world_file.h"

// With a second path, also a world with connection tables (three levels of
// group-2 zones of 16) there.
int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) return 2;
  zonepath::MapGenOptions g;
  g.kind = zonepath::MapKind::kRooms;
  g.width = 40;
  g.height = 30;
  g.feature = 7;
  zonepath::BuildOptions o;
  o.params.zone_size = 8;
  o.params.group = 2;
  o.params.cache_paths = true;
  o.threads = 1;
  auto world = zonepath::BuildWorld(*zonepath::GenerateMap(g), o);
  if (!world.ok() || !zonepath::SaveWorldFile(*world, argv[1]).ok()) return 1;
  if (argc == 2) return 0;
  g.width = 128;
  g.height = 112;
  o.params.zone_size = 16;
  o.params.levels = 3;
  o.params.cache_paths = false;
  auto tabled = zonepath::BuildWorld(*zonepath::GenerateMap(g), o);
  if (!tabled.ok() || tabled->connection_tables() == nullptr) return 1;
  return zonepath::SaveWorldFile(*tabled, argv[2]).ok() ? 0 : 1;
}
