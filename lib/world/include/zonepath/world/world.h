// World: a grid plus its abstraction, the unit the runtime plans on.
//
// A World is immutable once made; share one `const World` between any number
// of threads. It comes from a world file (zonepath build), from building in
// memory (zonepath::offline::BuildWorld), or from applying cell changes to
// another world (zonepath::offline::ApplyChanges, which numbers versions).
//
//   ASSIGN_OR_RETURN(World world, LoadWorldFile("den520d.zpw"));
//   const Grid& grid = world.grid();
//   const AbstractLevel& level1 = world.abstraction().levels[0];
#ifndef ZONEPATH_WORLD_WORLD_H_
#define ZONEPATH_WORLD_WORLD_H_

#include <cstdint>
#include <string>
#include <utility>

#include "zonepath/grid/grid.h"
#include "zonepath/world/abstraction.h"

namespace zonepath {

class World {
 public:
  World(Grid grid, Abstraction abstraction, uint64_t version = 0)
      : grid_(std::move(grid)),
        abstraction_(std::move(abstraction)),
        version_(version) {}

  const Grid& grid() const { return grid_; }
  const Abstraction& abstraction() const { return abstraction_; }
  const BuildParams& params() const { return abstraction_.params; }
  // 0 when built or loaded; each ApplyChanges adds 1. Not saved in files.
  uint64_t version() const { return version_; }

  size_t MemoryUsage() const {
    return grid_.MemoryUsage() + abstraction_.MemoryUsage();
  }

 private:
  Grid grid_;
  Abstraction abstraction_;
  uint64_t version_ = 0;
};

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_WORLD_H_
